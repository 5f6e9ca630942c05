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
	"github.com/practiced/practiced/web"
)

// env is a running API with two businesses.
type env struct {
	t     *testing.T
	st    *sqlstore.Store
	srv   *httptest.Server
	a, b  *testfix.Clinic
	clock time.Time
}

func newEnv(t *testing.T) *env { return newEnvWith(t, false) }

// newEnvWith is newEnv, on a server that e-mails clients when messages
// is set (its store planning them by the test's clock).
func newEnvWith(t *testing.T, messages bool) *env {
	t.Helper()
	st := testfix.Store(t)
	e := &env{t: t, st: st, clock: testfix.Now}
	e.a = testfix.NewClinic(t, st, "Clinic A")
	e.b = testfix.NewClinic(t, st, "Clinic B")
	opt := httpapi.Options{Now: func() time.Time { return e.clock }}
	if messages {
		opt.Messages, opt.PublicURL = true, "https://clinic.example.org"
		st.EnableMessages(opt.PublicURL, opt.Now)
	}
	e.srv = httptest.NewServer(newServer(st, opt))
	t.Cleanup(e.srv.Close)
	return e
}

// newServer is the API with the pages beside it, as the practiced binary
// serves them.
func newServer(st *sqlstore.Store, opt httpapi.Options) http.Handler {
	opt.Pages = web.Routes(st, web.Options{Logger: opt.Logger, Now: opt.Now, PublicURL: opt.PublicURL})
	return httpapi.NewServer(st, opt)
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
	out := response{Status: res.StatusCode, Header: res.Header, Body: b}
	checkAgainstDocument(e.t, req, out)
	return out
}

// wantStatus fails the test unless r has the status.
func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
}

// send is do with full control of the request: the headers are sent as
// given (no Authorization or Content-Type is added) and body may be nil.
func (e *env) send(method, path string, header http.Header, body io.Reader) response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Header: res.Header, Body: b}
	checkAgainstDocument(e.t, req, out)
	return out
}

// canonicalJSON re-encodes a JSON text with sorted object keys, so that
// two texts with the same value compare equal as strings.
func canonicalJSON(t *testing.T, text []byte) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// wantBody fails unless r has the status and a JSON body equal to want
// (compared as values, not as text).
func wantBody(t *testing.T, r response, status int, want string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
	if got, w := canonicalJSON(t, r.Body), canonicalJSON(t, []byte(want)); got != w {
		t.Fatalf("body:\n%s\nwant:\n%s", got, w)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
}

// listPage is the body of a paginated list.
type listPage struct {
	Data  []map[string]any `json:"data"`
	Links struct {
		Prev *string `json:"prev"`
		Next *string `json:"next"`
	} `json:"links"`
}

// page decodes a 200 list response.
func (r response) page(t *testing.T) listPage {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	var p listPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("not a list page: %v\n%s", err, r.Body)
	}
	if p.Data == nil {
		t.Fatalf("data is not an array: %s", r.Body)
	}
	return p
}

// pageIDs returns the ids of a page's records, in order.
func pageIDs(p listPage) []string {
	ids := make([]string, len(p.Data))
	for i, d := range p.Data {
		ids[i], _ = d["id"].(string)
	}
	return ids
}

// listAll walks links.next from path (which must not set limit) with
// the largest pages the list allows and returns every record.
func (e *env) listAll(t *testing.T, path, token string) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	limit := "100"
	if strings.HasPrefix(path, "/v1/forms") {
		limit = "10"
	}
	var all []map[string]any
	next := e.srv.URL + path + sep + "limit=" + limit
	for i := 0; next != ""; i++ {
		if i > 100 {
			t.Fatalf("%s: more than 100 pages", path)
		}
		p := e.do("GET", next, token, nil).page(t)
		all = append(all, p.Data...)
		next = ""
		if p.Links.Next != nil {
			next = *p.Links.Next
		}
	}
	return all
}
