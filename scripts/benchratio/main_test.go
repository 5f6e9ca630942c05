package main

import (
	"strings"
	"testing"
)

// A run of wrk 4.2 as Debian ships it, every answer 200.
const wrkOK = `Running 1s test @ http://127.0.0.1:18095/
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.53ms  530.20us   4.95ms   71.36%
    Req/Sec     1.26k    81.85     1.34k    60.00%
  1253 requests in 1.00s, 2.78MB read
Requests/sec:   1252.01
Transfer/sec:      2.78MB
`

func TestParseWrk(t *testing.T) {
	res, err := parseWrk([]byte(wrkOK))
	if err != nil {
		t.Fatal(err)
	}
	if res.rate != 1252.01 || res.requests != 1253 {
		t.Errorf("parseWrk = %+v, want rate 1252.01, 1253 requests", res)
	}
}

func TestParseWrkRefusesAnswersNot2xx(t *testing.T) {
	out := strings.Replace(wrkOK, "Requests/sec", "  Non-2xx or 3xx responses: 17\nRequests/sec", 1)
	_, err := parseWrk([]byte(out))
	if err == nil || !strings.HasPrefix(err.Error(), "wrk: 17 answers were not 2xx:") {
		t.Errorf("parseWrk = %v, want the 17 answers that were not 2xx", err)
	}
}

func TestParseWrkRefusesARunWithoutItsCount(t *testing.T) {
	for _, drop := range []string{"  1253 requests in 1.00s, 2.78MB read\n", "Requests/sec:   1252.01\n"} {
		_, err := parseWrk([]byte(strings.Replace(wrkOK, drop, "", 1)))
		if err == nil || !strings.HasPrefix(err.Error(), "wrk printed no rate:") {
			t.Errorf("without %q: parseWrk = %v, want no rate", drop, err)
		}
	}
	_, err := parseWrk([]byte(strings.Replace(wrkOK, "1253 requests", "0 requests", 1)))
	if err == nil || !strings.HasPrefix(err.Error(), "wrk made no request:") {
		t.Errorf("no request: parseWrk = %v, want an error", err)
	}
}
