// Command benchratio measures how close the API comes to the machine's
// limit: for each workload it fetches one answer from a running server,
// serves those very bytes from memory on a listener of its own, and runs
// wrk against the two in turn, several rounds, printing each throughput
// and the ratio of the medians. Given the server's process id (-pid), it
// also prints the processor time the server spent on each request, read
// from Linux's /proc: a figure that moves less than a rate when other
// work shares the machine. Run it through scripts/bench-ratio.sh, which
// loads the clinic, starts the server pinned to one core and this program
// beside it, and points wrk at the other core.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/practiced/practiced/scripts/internal/bytesserver"
	"github.com/prometheus/procfs"
)

func main() {
	api := flag.String("api", "http://127.0.0.1:18081", "base URL of the running server")
	token := flag.String("token", "", "API key")
	wrk := flag.String("wrk", "wrk", "the wrk command, e.g. \"taskset -c 1 wrk\"")
	rounds := flag.Int("rounds", 3, "rounds of each workload against each server")
	duration := flag.Duration("duration", 5*time.Second, "length of one wrk run")
	conns := flag.Int("connections", 16, "wrk connections")
	only := flag.String("only", "", "run only the workloads whose name contains this")
	pid := flag.Int("pid", 0, "the server's process id, to print its CPU time a request (Linux)")
	flag.Parse()
	if err := run(*api, *token, strings.Fields(*wrk), *rounds, *duration, *conns, *only, *pid); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
}

// workload is one request measured against the server and against the
// bytes of its answer.
type workload struct {
	name   string
	method string
	path   string
	body   string // JSON, for POST
}

func run(api, token string, wrk []string, rounds int, duration time.Duration, conns int, only string, pid int) error {
	c := client{base: api, token: token}
	loads, err := workloads(c)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "benchratio")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Printf("%-34s %12s %12s %8s\n", "workload", "server req/s", "bytes req/s", "ratio")
	for _, w := range loads {
		if only != "" && !strings.Contains(w.name, only) {
			continue
		}
		status, header, body, err := c.do(w.method, w.path, w.body)
		if err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
		target, err := url.Parse(w.path)
		if err != nil {
			return err
		}
		static, err := bytesserver.Start(map[string]bytesserver.Answer{
			target.Path: {Status: status, ContentType: header.Get("Content-Type"), Body: body},
		})
		if err != nil {
			return err
		}
		script := filepath.Join(dir, "request.lua")
		if err := os.WriteFile(script, []byte(luaScript(w, token)), 0o600); err != nil {
			return err
		}
		var apiRates, bytesRates, cpus []float64
		for i := 0; i < rounds; i++ {
			var before time.Duration
			if pid != 0 {
				if before, err = processCPU(pid); err != nil {
					return err
				}
			}
			res, err := runWrk(wrk, script, api+w.path, duration, conns)
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			apiRates = append(apiRates, res.rate)
			if pid != 0 {
				after, err := processCPU(pid)
				if err != nil {
					return err
				}
				cpus = append(cpus, float64((after-before).Microseconds())/float64(res.requests))
			}
			res, err = runWrk(wrk, script, static+w.path, duration, conns)
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			bytesRates = append(bytesRates, res.rate)
		}
		a, b := median(apiRates), median(bytesRates)
		fmt.Printf("%-34s %12.0f %12.0f %8.3f   (%d bytes; rounds %s / %s)\n", w.name, a, b, a/b, len(body), rates(apiRates), rates(bytesRates))
		if pid != 0 {
			fmt.Printf("%-34s %12.0f µs of the server's CPU a request (rounds %s)\n", "", median(cpus), rates(cpus))
		}
	}
	return nil
}

// workloads finds the ids the requests need through the API itself.
func workloads(c client) ([]workload, error) {
	var locs struct {
		Data []struct {
			ID              string   `json:"id"`
			PractitionerIDs []string `json:"practitioner_ids"`
			ServiceIDs      []string `json:"service_ids"`
		} `json:"data"`
	}
	if err := c.getJSON("/v1/locations?limit=1", &locs); err != nil {
		return nil, err
	}
	if len(locs.Data) == 0 || len(locs.Data[0].PractitionerIDs) == 0 {
		return nil, fmt.Errorf("the clinic has no location with practitioners")
	}
	loc := locs.Data[0]
	pra := loc.PractitionerIDs[0]
	var pr struct {
		ServiceIDs []string `json:"service_ids"`
	}
	if err := c.getJSON("/v1/practitioners/"+pra, &pr); err != nil {
		return nil, err
	}
	if len(pr.ServiceIDs) == 0 {
		return nil, fmt.Errorf("practitioner %s offers no service", pra)
	}
	from := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	to := time.Now().AddDate(0, 0, 30).Format("2006-01-02")
	slots := url.Values{"location_id": {loc.ID}, "service_id": {pr.ServiceIDs[0]}, "from": {from}, "to": {to}}
	one := url.Values{"practitioner_id": {pra}}
	for k, v := range slots {
		one[k] = v
	}
	start := time.Now().AddDate(1, 0, 0).UTC().Truncate(time.Hour)
	busy, _ := json.Marshal(map[string]string{
		"location_id": loc.ID, "practitioner_id": pra, "name": "Benchmark",
		"starts_at": start.Format(time.RFC3339), "ends_at": start.Add(30 * time.Minute).Format(time.RFC3339),
	})
	return []workload{
		{name: "GET /v1/clients?limit=100", method: "GET", path: "/v1/clients?limit=100"},
		{name: "GET availability, 1 practitioner", method: "GET", path: "/v1/availability_slots?" + one.Encode()},
		{name: "GET availability, whole location", method: "GET", path: "/v1/availability_slots?" + slots.Encode()},
		{name: "POST /v1/busy_times", method: "POST", path: "/v1/busy_times", body: string(busy)},
	}, nil
}

type client struct{ base, token string }

func (c client) do(method, path, body string) (int, http.Header, []byte, error) {
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	if res.StatusCode >= 300 {
		return 0, nil, nil, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode, res.Header, b, nil
}

func (c client) getJSON(path string, v any) error {
	_, _, b, err := c.do("GET", path, "")
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// luaScript sets the request's method, key and body for wrk.
func luaScript(w workload, token string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "wrk.method = %q\n", w.method)
	fmt.Fprintf(&b, "wrk.headers[\"Authorization\"] = %q\n", "Bearer "+token)
	if w.body != "" {
		fmt.Fprintf(&b, "wrk.headers[\"Content-Type\"] = \"application/json\"\n")
		fmt.Fprintf(&b, "wrk.body = %q\n", w.body)
	}
	return b.String()
}

// wrkResult is what one run of wrk measured.
type wrkResult struct {
	rate     float64 // requests a second
	requests int64   // answered in the run
}

func runWrk(wrk []string, script, target string, duration time.Duration, conns int) (wrkResult, error) {
	args := append(slices.Clone(wrk[1:]), "-t1", "-c"+strconv.Itoa(conns), "-d"+duration.String(), "-s", script, target)
	out, err := exec.Command(wrk[0], args...).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	return parseWrk(out)
}

var (
	requestsPerSec = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	requestsIn     = regexp.MustCompile(`(\d+) requests in `)
	non2xx         = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
)

// parseWrk reads the rate and the number of requests from wrk's output,
// which must report every answer as 2xx.
func parseWrk(out []byte) (wrkResult, error) {
	if m := non2xx.FindSubmatch(out); m != nil {
		return wrkResult{}, fmt.Errorf("wrk: %s answers were not 2xx:\n%s", m[1], out)
	}
	rate, n := requestsPerSec.FindSubmatch(out), requestsIn.FindSubmatch(out)
	if rate == nil || n == nil {
		return wrkResult{}, fmt.Errorf("wrk printed no rate:\n%s", out)
	}
	var res wrkResult
	var err error
	if res.rate, err = strconv.ParseFloat(string(rate[1]), 64); err != nil {
		return wrkResult{}, err
	}
	if res.requests, err = strconv.ParseInt(string(n[1]), 10, 64); err != nil {
		return wrkResult{}, err
	}
	if res.requests == 0 {
		return wrkResult{}, fmt.Errorf("wrk made no request:\n%s", out)
	}
	return res, nil
}

// processCPU returns the processor time, user and system, that process
// pid has spent so far, from Linux's /proc/PID/stat.
func processCPU(pid int) (time.Duration, error) {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return 0, err
	}
	st, err := p.Stat()
	if err != nil {
		return 0, err
	}
	return time.Duration(st.CPUTime() * float64(time.Second)), nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func rates(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strings.Join(parts, ",")
}
