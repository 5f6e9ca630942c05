package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServeMetrics serves with --metrics, makes known requests and reads
// their counts back from the metrics listener, which the API's address
// does not serve.
func TestServeMetrics(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "metrics.db")
	var key syncBuffer
	if err := run(t.Context(), []string{"apikey", "create", "--business", "Metrics Clinic", "--db", db}, noEnv, &key, io.Discard); err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(key.String())

	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(t.Context(), []string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--log-format", "json"}, noEnv, &stdout, &stderr)
	}()
	base := waitFor(t, &stdout, regexp.MustCompile(`practiced is serving (http://\S+)/v1`))
	metricsAddr := waitFor(t, &stderr, regexp.MustCompile(`"msg":"serving metrics","addr":"([^"]+)"`))

	for _, c := range []struct {
		method, path string
		body         string
		want         int
	}{
		{"GET", "/v1/clients", "", 200},
		{"GET", "/v1/clients", "", 200},
		{"POST", "/v1/clients", `{"first_name":"Mia","last_name":"Moss"}`, 201},
		{"GET", "/nowhere/cli_123", "", 404},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Fatalf("%s %s: %d, want %d", c.method, c.path, res.StatusCode, c.want)
		}
	}
	res, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		lines[l] = true
	}
	for _, want := range []string{
		`practiced_http_requests_total{route="GET /v1/clients",status="200"} 2`,
		`practiced_http_requests_total{route="POST /v1/clients",status="201"} 1`,
		`practiced_http_requests_total{route="unmatched",status="404"} 1`,
		`practiced_http_request_duration_seconds_count{route="GET /v1/clients",status="200"} 2`,
		`practiced_db_transaction_duration_seconds_count{result="commit"} 1`,
		`practiced_db_connections_max{pool="write"} 1`,
	} {
		if !lines[want] {
			t.Errorf("no line %q in the metrics", want)
		}
	}
	if strings.Contains(string(b), "cli_123") || strings.Contains(string(b), "/nowhere") {
		t.Error("a request's path reached the metrics")
	}
	res, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the API's address: %d, want 404", res.StatusCode)
	}

	// Every log line is one JSON object.
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil || v["msg"] == nil {
			t.Errorf("log line %q is no JSON object with a msg: %v", l, err)
		}
	}
}

func TestServeRefusesAnUnknownLogFormat(t *testing.T) {
	err := run(t.Context(), []string{"serve", "--db", filepath.Join(t.TempDir(), "x.db"), "--addr", "127.0.0.1:0", "--log-format", "xml"}, noEnv, io.Discard, io.Discard)
	if err == nil || err.Error() != `serve: --log-format "xml": use text or json` {
		t.Errorf("err = %v", err)
	}
}

// TestReadinessWaitsForTheDatabase asks the server's handler before and
// after the database is open.
func TestReadinessWaitsForTheDatabase(t *testing.T) {
	gate := &readiness{}
	ask := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		gate.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	for _, c := range []struct {
		path, body, retry string
		status            int
	}{
		{"/readyz", `{"status":"starting"}`, "", 503},
		{"/healthz", `{"status":"ok"}`, "", 200},
		{"/v1/clients", `{"message":"The server is starting: its database is being opened and migrated. Try again in a few seconds."}`, "5", 503},
	} {
		rec := ask(c.path)
		if rec.Code != c.status || strings.TrimSpace(rec.Body.String()) != c.body || rec.Header().Get("Retry-After") != c.retry {
			t.Errorf("starting, %s: %d %q Retry-After %q; want %d %q %q", c.path, rec.Code, rec.Body.String(), rec.Header().Get("Retry-After"), c.status, c.body, c.retry)
		}
	}
	gate.open(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	if rec := ask("/readyz"); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"status":"ready"}` {
		t.Errorf("ready, /readyz: %d %q", rec.Code, rec.Body.String())
	}
	if rec := ask("/v1/clients"); rec.Code != http.StatusTeapot {
		t.Errorf("ready, /v1/clients: %d, want the handler's 418", rec.Code)
	}
}

// waitFor waits until re matches what buf holds and returns its first group.
func waitFor(t *testing.T, buf *syncBuffer, re *regexp.Regexp) string {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(buf.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("%s never appeared in %q", re, buf.String())
	return ""
}
