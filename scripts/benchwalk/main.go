// Command benchwalk measures a deep page of a long list against the
// first, and each against the machine's own limit: it walks
// GET /v1/clients?limit=100 from the first page through links.next to
// page -deep, timing each page (each read once, so none is answered
// from the server's page cache), then asks for the first page and the
// deep page in turn, -samples times each, changing a client before every
// request so that neither is answered from the cache. After each of
// those requests it asks for the very bytes of its answer from a server
// that keeps them in memory: a process of its own, started under -pin
// with GOMAXPROCS=1 as the API server is, so that a request's round trip
// through the machine is measured beside it. It prints the median and
// 90th percentile of each, the ratio of the deep page to the first, and
// of each page to its bytes. scripts/bench-walk.sh loads a demo clinic
// and runs it; to run it against a server of your own:
//
//	practiced demo --db sqlite:/tmp/big.db --clients 1000000
//	GOMAXPROCS=1 taskset -c 0 practiced serve --db sqlite:/tmp/big.db --addr 127.0.0.1:18083 --rate-limit 1000000000 --page-rate 1000000000 &
//	taskset -c 1 go run ./scripts/benchwalk -api http://127.0.0.1:18083 -token "$token"
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	api := flag.String("api", "http://127.0.0.1:18083", "base URL of the running server")
	token := flag.String("token", "", "API key (one that can write: the samples change a client)")
	deep := flag.Int("deep", 5000, "the page the walk goes to")
	samples := flag.Int("samples", 200, "requests for the first page and for the deep page")
	pin := flag.String("pin", "taskset -c 0", "the command the bytes server runs under, as the API server does (\"\" for none)")
	serve := flag.String("serve-bytes", "", "serve the answers kept in this directory, print the address and run until stdin closes (how benchwalk starts its bytes server)")
	flag.Parse()
	if *serve != "" {
		if err := serveBytes(*serve); err != nil {
			fmt.Fprintln(os.Stderr, "benchwalk:", err)
			os.Exit(1)
		}
		return
	}
	if *deep < 2 || *samples < 1 {
		fmt.Fprintln(os.Stderr, "benchwalk: -deep must be at least 2 and -samples at least 1")
		os.Exit(2)
	}
	if err := run(*api, *token, *deep, *samples, strings.Fields(*pin)); err != nil {
		fmt.Fprintln(os.Stderr, "benchwalk:", err)
		os.Exit(1)
	}
}

type page struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	Links struct {
		Next *string `json:"next"`
	} `json:"links"`
}

type client struct {
	base, token string
	http        http.Client
}

// do sends a request and returns the answer's body, its content type
// and how long the answer took.
func (c *client) do(method, url, body string) ([]byte, string, time.Duration, error) {
	if !strings.HasPrefix(url, "http") {
		url = c.base + url
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, "", 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, "", 0, err
	}
	b, err := io.ReadAll(resp.Body)
	took := time.Since(start)
	resp.Body.Close()
	if err != nil {
		return nil, "", 0, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, "", 0, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, bytes.TrimSpace(b))
	}
	return b, resp.Header.Get("Content-Type"), took, nil
}

func run(api, token string, deep, samples int, pin []string) error {
	c := &client{base: api, token: token}
	url := "/v1/clients?limit=100"
	var first, deepURL, changed, contentType string
	var walk []time.Duration
	for n := 1; n <= deep; n++ {
		b, ct, took, err := c.do("GET", url, "")
		if err != nil {
			return err
		}
		walk = append(walk, took)
		var p page
		if err := json.Unmarshal(b, &p); err != nil {
			return err
		}
		if len(p.Data) != 100 {
			return fmt.Errorf("page %d has %d clients: the list is shorter than %d pages", n, len(p.Data), deep)
		}
		if n == 1 {
			first, changed, contentType = url, p.Data[0].ID, ct
		}
		if n == deep {
			deepURL = url
			break
		}
		if p.Links.Next == nil {
			return fmt.Errorf("the list ends at page %d", n)
		}
		url = *p.Links.Next
	}
	// A change to a client makes the next read of any page miss the
	// server's page cache.
	change := func(i int) error {
		_, _, _, err := c.do("POST", "/v1/clients/"+changed, fmt.Sprintf(`{"notes":"benchwalk %d"}`, i))
		return err
	}
	// The bytes server answers /first and /deep with those pages as the
	// API answers them now.
	kept := map[string]string{first: "/first", deepURL: "/deep"}
	dir, err := os.MkdirTemp("", "benchwalk")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for u, name := range kept {
		b, _, _, err := c.do("GET", u, "")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name[1:]), b, 0o600); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "content-type"), []byte(contentType), 0o600); err != nil {
		return err
	}
	bytesURL, stop, err := startBytesServer(dir, pin)
	if err != nil {
		return err
	}
	defer stop()
	keptAt := &client{base: bytesURL}
	times := map[string][]time.Duration{}
	for i := range samples {
		for _, u := range []string{first, deepURL} {
			if err := change(i); err != nil {
				return err
			}
			_, _, took, err := c.do("GET", u, "")
			if err != nil {
				return err
			}
			times[u] = append(times[u], took)
			_, _, took, err = keptAt.do("GET", kept[u], "")
			if err != nil {
				return err
			}
			times[kept[u]] = append(times[kept[u]], took)
		}
	}
	fmt.Printf("walk of %d pages, each read once:  median %v, p90 %v\n", deep, pct(walk, 50), pct(walk, 90))
	fmt.Printf("first page, %d reads, none kept:    median %v, p90 %v\n", samples, pct(times[first], 50), pct(times[first], 90))
	fmt.Printf("  its bytes from memory:            median %v, p90 %v\n", pct(times["/first"], 50), pct(times["/first"], 90))
	fmt.Printf("page %d, %d reads, none kept:     median %v, p90 %v\n", deep, samples, pct(times[deepURL], 50), pct(times[deepURL], 90))
	fmt.Printf("  its bytes from memory:            median %v, p90 %v\n", pct(times["/deep"], 50), pct(times["/deep"], 90))
	fmt.Printf("deep / first (medians):             %.2f\n", ratio(times[deepURL], times[first]))
	fmt.Printf("first page / its bytes (medians):   %.2f\n", ratio(times[first], times["/first"]))
	fmt.Printf("deep page / its bytes (medians):    %.2f\n", ratio(times[deepURL], times["/deep"]))
	return nil
}

// startBytesServer starts this program as the bytes server of dir,
// under the command pin with GOMAXPROCS=1, and returns its base URL and
// a function that stops it.
func startBytesServer(dir string, pin []string) (string, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	args := append(slices.Clone(pin), self, "-serve-bytes", dir)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		stdin.Close()
		cmd.Wait()
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("the bytes server did not start: %w", err)
	}
	return strings.TrimSpace(line), stop, nil
}

// serveBytes answers GET /first and GET /deep with the files of those
// names in dir, as a server that has its answer ready would, prints its
// base URL and serves until stdin closes.
func serveBytes(dir string) error {
	ct, err := os.ReadFile(filepath.Join(dir, "content-type"))
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	for _, name := range []string{"first", "deep"} {
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		length := strconv.Itoa(len(body))
		mux.HandleFunc("GET /"+name, func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Type", string(ct))
			h.Set("Content-Length", length)
			w.Write(body)
		})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(ln, mux)
	fmt.Printf("http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// ratio is the ratio of the medians of a and b.
func ratio(a, b []time.Duration) float64 {
	return float64(pct(a, 50)) / float64(pct(b, 50))
}

// pct returns the p-th percentile of ds.
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100].Round(time.Microsecond)
}
