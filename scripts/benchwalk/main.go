// Command benchwalk measures a deep page of a long list against the
// first: it walks GET /v1/clients?limit=100 from the first page through
// links.next to page -deep, timing each page (each read once, so none is
// answered from the server's page cache), then asks for the first page
// and the deep page in turn, -samples times each, changing a client
// before every request so that neither is answered from the cache. It
// prints the median and 90th percentile of each and the ratio of the
// medians. Start the server first, e.g. on a million-client demo:
//
//	practiced demo --db sqlite:/tmp/big.db --clients 1000000
//	GOMAXPROCS=1 taskset -c 0 practiced serve --db sqlite:/tmp/big.db --addr 127.0.0.1:18083 --rate-limit 1000000000 --page-rate 1000000000 &
//	taskset -c 1 go run ./scripts/benchwalk -api http://127.0.0.1:18083 -token "$token"
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	api := flag.String("api", "http://127.0.0.1:18083", "base URL of the running server")
	token := flag.String("token", "", "API key (one that can write: the samples change a client)")
	deep := flag.Int("deep", 5000, "the page the walk goes to")
	samples := flag.Int("samples", 200, "requests for the first page and for the deep page")
	flag.Parse()
	if *deep < 2 || *samples < 1 {
		fmt.Fprintln(os.Stderr, "benchwalk: -deep must be at least 2 and -samples at least 1")
		os.Exit(2)
	}
	if err := run(*api, *token, *deep, *samples); err != nil {
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

// do sends a request and returns the answer's body and how long it took.
func (c *client) do(method, url, body string) ([]byte, time.Duration, error) {
	if !strings.HasPrefix(url, "http") {
		url = c.base + url
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, err
	}
	b, err := io.ReadAll(resp.Body)
	took := time.Since(start)
	resp.Body.Close()
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, 0, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, bytes.TrimSpace(b))
	}
	return b, took, nil
}

func run(api, token string, deep, samples int) error {
	c := &client{base: api, token: token}
	url := "/v1/clients?limit=100"
	var first, deepURL, changed string
	var walk []time.Duration
	for n := 1; n <= deep; n++ {
		b, took, err := c.do("GET", url, "")
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
			first, changed = url, p.Data[0].ID
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
		_, _, err := c.do("POST", "/v1/clients/"+changed, fmt.Sprintf(`{"notes":"benchwalk %d"}`, i))
		return err
	}
	var firsts, deeps []time.Duration
	for i := range samples {
		for _, u := range []string{first, deepURL} {
			if err := change(i); err != nil {
				return err
			}
			_, took, err := c.do("GET", u, "")
			if err != nil {
				return err
			}
			if u == first {
				firsts = append(firsts, took)
			} else {
				deeps = append(deeps, took)
			}
		}
	}
	fmt.Printf("walk of %d pages, each read once:  median %v, p90 %v\n", deep, pct(walk, 50), pct(walk, 90))
	fmt.Printf("first page, %d reads, none kept:    median %v, p90 %v\n", samples, pct(firsts, 50), pct(firsts, 90))
	fmt.Printf("page %d, %d reads, none kept:     median %v, p90 %v\n", deep, samples, pct(deeps, 50), pct(deeps, 90))
	fmt.Printf("deep / first (medians):             %.2f\n", float64(pct(deeps, 50))/float64(pct(firsts, 50)))
	return nil
}

// pct returns the p-th percentile of ds.
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100].Round(time.Microsecond)
}
