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
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/practiced/practiced/scripts/internal/bytesserver"
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

// sampled is a page asked for again and again, each time beside the
// same bytes from the bytes server, where it is served at /name.
type sampled struct {
	name     string
	url      string
	body     []byte // the page as the walk read it
	api, mem []time.Duration
}

func run(api, token string, deep, samples int, pin []string) error {
	c := &client{base: api, token: token}
	url := "/v1/clients?limit=100"
	first, last := &sampled{name: "first"}, &sampled{name: "deep"}
	var changed, contentType string
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
			first.url, first.body, changed, contentType = url, b, p.Data[0].ID, ct
		}
		if n == deep {
			last.url, last.body = url, b
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
	dir, err := os.MkdirTemp("", "benchwalk")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, s := range []*sampled{first, last} {
		if err := os.WriteFile(filepath.Join(dir, s.name), s.body, 0o600); err != nil {
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
	mem := &client{base: bytesURL}
	for i := range samples {
		for _, s := range []*sampled{first, last} {
			if err := change(i); err != nil {
				return err
			}
			_, _, took, err := c.do("GET", s.url, "")
			if err != nil {
				return err
			}
			s.api = append(s.api, took)
			if _, _, took, err = mem.do("GET", "/"+s.name, ""); err != nil {
				return err
			}
			s.mem = append(s.mem, took)
		}
	}
	fmt.Printf("walk of %d pages, each read once:  median %v, p90 %v\n", deep, pct(walk, 50), pct(walk, 90))
	fmt.Printf("first page, %d reads, none kept:    median %v, p90 %v\n", samples, pct(first.api, 50), pct(first.api, 90))
	fmt.Printf("  its bytes from memory:            median %v, p90 %v\n", pct(first.mem, 50), pct(first.mem, 90))
	fmt.Printf("page %d, %d reads, none kept:     median %v, p90 %v\n", deep, samples, pct(last.api, 50), pct(last.api, 90))
	fmt.Printf("  its bytes from memory:            median %v, p90 %v\n", pct(last.mem, 50), pct(last.mem, 90))
	fmt.Printf("deep / first (medians):             %.2f\n", ratio(last.api, first.api))
	fmt.Printf("first page / its bytes (medians):   %.2f\n", ratio(first.api, first.mem))
	fmt.Printf("deep page / its bytes (medians):    %.2f\n", ratio(last.api, last.mem))
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

// serveBytes serves the pages kept in dir (first and deep, and their
// content type) at /first and /deep, prints its base URL and serves
// until stdin closes.
func serveBytes(dir string) error {
	ct, err := os.ReadFile(filepath.Join(dir, "content-type"))
	if err != nil {
		return err
	}
	answers := map[string]bytesserver.Answer{}
	for _, name := range []string{"first", "deep"} {
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		answers["/"+name] = bytesserver.Answer{Status: http.StatusOK, ContentType: string(ct), Body: body}
	}
	base, err := bytesserver.Start(answers)
	if err != nil {
		return err
	}
	fmt.Println(base)
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
