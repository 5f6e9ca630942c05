package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// env is a running API with two businesses.
type env struct {
	t     *testing.T
	st    *sqlstore.Store
	srv   *httptest.Server
	a, b  *testfix.Clinic
	clock time.Time
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st := testfix.Store(t)
	e := &env{t: t, st: st, clock: testfix.Now}
	e.a = testfix.NewClinic(t, st, "Clinic A")
	e.b = testfix.NewClinic(t, st, "Clinic B")
	e.srv = httptest.NewServer(httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return e.clock }}))
	t.Cleanup(e.srv.Close)
	return e
}

// response is a decoded API response.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic value.
func (r response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return v
}

// do sends a request with the token (none when empty) and a body: a
// string is sent as it is, anything else as JSON.
func (e *env) do(method, path, token string, body any) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = e.srv.URL + path
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// wantStatus fails the test unless r has the status.
func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
}
