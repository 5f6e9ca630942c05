package httpapi_test

// The harness the contract tests share: it drives the live API, checks
// each request and response against the OpenAPI document, and records
// which documented responses were provoked. Below it, the check that
// holds every response of every test of the package to the document.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/openapi"
	"github.com/practiced/practiced/ratelimit"
)

// oaLoad loads the embedded document and validates it as OpenAPI 3.1.
func oaLoad(t *testing.T) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.Document)
	if err != nil {
		t.Fatalf("load openapi.json: %v", err)
	}
	if err := doc.Validate(loader.Context, openapi3.EnableMultiError()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
	return doc
}

// oaContract drives the live API and validates what it answers.
type oaContract struct {
	t      *testing.T
	e      *env
	doc    *openapi3.T
	router routers.Router
	*oaLog
}

// oaLog is what a contract test has validated so far; the steps of one
// test share it.
type oaLog struct {
	// seen records each "METHOD /path STATUS" (document path) validated,
	// and "component <name>" for responses validated outside operations.
	seen map[string]bool
	// samples keeps responses whose bodies the strictness check mutates.
	samples []oaSample
}

// oaSample is a validated response kept for the strictness check.
type oaSample struct {
	name   string
	input  *openapi3filter.RequestValidationInput
	status int
	header http.Header
	body   []byte
}

func newOAContract(t *testing.T, e *env) *oaContract {
	t.Helper()
	doc := oaLoad(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &oaContract{t: t, e: e, doc: doc, router: router, oaLog: &oaLog{seen: map[string]bool{}}}
}

// step runs f as the subtest name, with the harness reporting to it.
// Each step builds on the records the steps before it made, so once a
// step stops (t.Fatal), the steps after it do not run; a step that only
// reports errors lets the rest run, as one long test would.
func (c *oaContract) step(name string, f func(t *testing.T, c *oaContract)) {
	c.t.Helper()
	started, finished := false, false
	c.t.Run(name, func(t *testing.T) {
		started = true
		sub := *c
		sub.t = t
		f(t, &sub)
		finished = true
	})
	if started && !finished {
		c.t.FailNow()
	}
}

// breakStore closes the store, so that every operation that reads it
// answers 500.
func (c *oaContract) breakStore() {
	c.t.Helper()
	if err := c.e.st.Close(); err != nil {
		c.t.Fatal(err)
	}
}

// oaReq is a request to send. A body is sent as application/json unless
// contentType says otherwise ("none" sends no Content-Type header).
type oaReq struct {
	method, path, token string
	contentType         string
	body                string
	idempotencyKey      string
}

// What the document should say of a request.
type oaReqCheck int

const (
	reqValid   oaReqCheck = iota // the document accepts the request
	reqInvalid                   // the document rejects the request too
	reqAny                       // the document cannot tell (e.g. unknown parameters, references)
)

// send sends r and returns the response and a copy of the request for
// validation.
func (c *oaContract) send(r oaReq) (*http.Request, response) {
	c.t.Helper()
	u := r.path
	if !strings.HasPrefix(u, "http") {
		u = c.e.srv.URL + r.path
	}
	build := func() *http.Request {
		var body io.Reader
		if r.body != "" {
			body = strings.NewReader(r.body)
		}
		req, err := http.NewRequest(r.method, u, body)
		if err != nil {
			c.t.Fatal(err)
		}
		if r.token != "" {
			req.Header.Set("Authorization", "Bearer "+r.token)
		}
		if r.idempotencyKey != "" {
			req.Header.Set("Idempotency-Key", r.idempotencyKey)
		}
		switch {
		case r.contentType == "none":
		case r.contentType != "":
			req.Header.Set("Content-Type", r.contentType)
		case r.body != "":
			req.Header.Set("Content-Type", "application/json")
		}
		return req
	}
	res, err := http.DefaultClient.Do(build())
	if err != nil {
		c.t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return build(), response{Status: res.StatusCode, Header: res.Header, Body: b}
}

func oaAuthenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.SecurityScheme.Type != "http" || in.SecurityScheme.Scheme != "bearer" {
		return fmt.Errorf("unexpected security scheme %s", in.SecuritySchemeName)
	}
	scheme, token, ok := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") || strings.TrimSpace(token) == "" {
		return errors.New("no bearer token")
	}
	return nil
}

func oaOptions() *openapi3filter.Options {
	return &openapi3filter.Options{
		AuthenticationFunc:    oaAuthenticate,
		IncludeResponseStatus: true,
		MultiError:            true,
	}
}

// input finds the document's operation for req and returns what
// requests and responses to it are validated against.
func (c *oaContract) input(req *http.Request) *openapi3filter.RequestValidationInput {
	c.t.Helper()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		c.t.Fatalf("%s %s: the document has no such operation: %v", req.Method, req.URL.Path, err)
	}
	return &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: oaOptions()}
}

// provoked records that a response of status to the input's operation
// was validated.
func (c *oaContract) provoked(input *openapi3filter.RequestValidationInput, status int) {
	c.seen[fmt.Sprintf("%s %s %d", input.Route.Method, input.Route.Path, status)] = true
}

// validate validates a response body against the route's operation.
func (c *oaContract) validate(input *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: input,
		Status:                 status,
		Header:                 header,
		Options:                oaOptions(),
	}
	out.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), out)
}

// call sends r to a documented operation, checks the status and validates
// the request (as check says) and the response against the document. It
// returns the decoded body.
func (c *oaContract) call(r oaReq, status int, check oaReqCheck) any {
	c.t.Helper()
	req, res := c.send(r)
	if res.Status != status {
		c.t.Fatalf("%s %s: status %d, want %d; body %s", r.method, r.path, res.Status, status, res.Body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		c.t.Errorf("%s %s: Content-Type %q, want application/json", r.method, r.path, ct)
	}
	input := c.input(req)
	reqErr := openapi3filter.ValidateRequest(context.Background(), input)
	switch {
	case check == reqValid && reqErr != nil:
		c.t.Errorf("%s %s: the document rejects a request the API accepts as it should: %v", r.method, r.path, reqErr)
	case check == reqInvalid && reqErr == nil:
		c.t.Errorf("%s %s: the document accepts a request the API rightly rejects with %d", r.method, r.path, res.Status)
	}
	if err := c.validate(input, res.Status, res.Header, res.Body); err != nil {
		c.t.Errorf("%s %s: %d response does not match the document: %v\nbody: %s", r.method, r.path, res.Status, err, res.Body)
	}
	c.provoked(input, res.Status)
	var v any
	if err := json.Unmarshal(res.Body, &v); err != nil {
		c.t.Fatalf("%s %s: body is not JSON: %v", r.method, r.path, err)
	}
	return v
}

// keep records the last validated response of r for the strictness check.
func (c *oaContract) keep(name string, r oaReq) {
	c.t.Helper()
	req, res := c.send(r)
	input := c.input(req)
	if err := c.validate(input, res.Status, res.Header, res.Body); err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	c.samples = append(c.samples, oaSample{name: name, input: input, status: res.Status, header: res.Header, body: res.Body})
}

// undocumented sends a request the document has no operation for: an
// unknown path (404) or an undocumented method (405). The body must match
// the component response the document names for it.
func (c *oaContract) undocumented(method, path string, status int) {
	c.t.Helper()
	req, res := c.send(oaReq{method: method, path: path, token: c.e.a.Token})
	if res.Status != status {
		c.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, res.Status, status, res.Body)
	}
	_, _, err := c.router.FindRoute(req)
	component := "NotFound"
	switch status {
	case http.StatusNotFound:
		if !errors.Is(err, routers.ErrPathNotFound) {
			c.t.Errorf("%s %s: the API answers 404, the router says %v", method, path, err)
		}
	case http.StatusMethodNotAllowed:
		component = "MethodNotAllowed"
		if !errors.Is(err, routers.ErrMethodNotAllowed) {
			c.t.Errorf("%s %s: the API answers 405, the router says %v", method, path, err)
		}
		// Allow lists exactly the documented methods, and HEAD with GET.
		var want []string
		for key := range oaOperations(c.doc) {
			m, p, _ := strings.Cut(key, " ")
			if oaPathMatches(p, req.URL.Path) {
				want = append(want, m)
				if m == http.MethodGet {
					want = append(want, http.MethodHead)
				}
			}
		}
		slices.Sort(want)
		got := strings.Split(res.Header.Get("Allow"), ", ")
		slices.Sort(got)
		if !slices.Equal(got, want) {
			c.t.Errorf("%s %s: Allow %q, the document has %v", method, path, res.Header.Get("Allow"), want)
		}
	default:
		c.t.Fatalf("undocumented: status %d", status)
	}
	resp := c.doc.Components.Responses[component]
	if resp == nil {
		c.t.Fatalf("components.responses.%s is missing", component)
	}
	op := openapi3.NewOperation()
	op.Responses = openapi3.NewResponses(openapi3.WithStatus(status, resp))
	route := &routers.Route{Spec: c.doc, Path: req.URL.Path, Method: method, Operation: op}
	input := &openapi3filter.RequestValidationInput{Request: req, Route: route, Options: oaOptions()}
	if err := c.validate(input, res.Status, res.Header, res.Body); err != nil {
		c.t.Errorf("%s %s: %d response does not match components.responses.%s: %v\nbody: %s", method, path, status, component, err, res.Body)
	}
	c.seen["component "+component] = true
}

// oaPathMatches reports whether a document path template matches a path.
func oaPathMatches(template, path string) bool {
	re := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(template), `[^/]+`) + "$"
	return regexp.MustCompile(re).MatchString(path)
}

// assertCoverage fails for each documented response no request provoked.
func (c *oaContract) assertCoverage() {
	c.t.Helper()
	// This test drives the operations of the base document; the areas
	// added by fragments are driven by their own tests, and every response
	// of every test is validated (checkAgainstDocument).
	base := oaReadPaths(c.t, "../openapi/openapi.json")
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			if _, ok := base[path][strings.ToLower(method)]; !ok {
				continue
			}
			for status := range op.Responses.Map() {
				if !c.seen[method+" "+path+" "+status] {
					c.t.Errorf("no test provoked the documented %s response of %s %s", status, method, path)
				}
			}
		}
	}
	for _, name := range []string{"NotFound", "MethodNotAllowed"} {
		if !c.seen["component "+name] {
			c.t.Errorf("no test validated components.responses.%s outside operations", name)
		}
	}
}

// assertFragmentCovered fails for each response the fragment
// openapi/fragments/<name> documents that no request provoked.
func (c *oaContract) assertFragmentCovered(name string) {
	c.t.Helper()
	for path, item := range oaReadPaths(c.t, "../openapi/fragments/"+name) {
		for method, raw := range item {
			if method == "parameters" {
				continue
			}
			var op struct {
				Responses map[string]json.RawMessage `json:"responses"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				c.t.Fatal(err)
			}
			for status := range op.Responses {
				if key := strings.ToUpper(method) + " " + path + " " + status; !c.seen[key] {
					c.t.Errorf("no request provoked the documented %s", key)
				}
			}
		}
	}
}

// oaReadPaths reads the paths object of an OpenAPI file of the
// repository: each path's item, by lower-case method (and "parameters").
func oaReadPaths(t *testing.T, file string) map[string]map[string]json.RawMessage {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc.Paths
}

// assertStrict mutates each kept response and checks that the document
// rejects it: each object without one of its properties, and each object
// with one unknown property. Only the first item of each array is mutated.
func (c *oaContract) assertStrict() {
	c.t.Helper()
	optional := map[string]bool{"answer": true} // FormQuestion.answer: omitempty in Go
	for _, s := range c.samples {
		var root any
		if err := json.Unmarshal(s.body, &root); err != nil {
			c.t.Fatal(err)
		}
		// A 422's errors object maps free field names: its keys are
		// not properties, so only the unknown-property check applies.
		var objects []map[string]any
		freeKeys := map[int]bool{} // indexes into objects
		var walk func(key string, v any)
		walk = func(key string, v any) {
			switch v := v.(type) {
			case map[string]any:
				objects = append(objects, v)
				if key == "errors" {
					freeKeys[len(objects)-1] = true
				}
				for k, x := range v {
					walk(k, x)
				}
			case []any:
				if len(v) > 0 {
					walk("", v[0])
				}
			}
		}
		walk("", root)
		rejects := func(what string) {
			b, err := json.Marshal(root)
			if err != nil {
				c.t.Fatal(err)
			}
			if c.validate(s.input, s.status, s.header, b) == nil {
				c.t.Errorf("%s: the document accepts the response %s", s.name, what)
			}
		}
		for i, o := range objects {
			keys := make([]string, 0, len(o))
			for k := range o {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if optional[k] || freeKeys[i] {
					continue
				}
				v := o[k]
				delete(o, k)
				rejects("without " + k)
				o[k] = v
			}
			o["zz_unknown"] = 1
			rejects("with an unknown property beside " + strings.Join(keys, ","))
			delete(o, "zz_unknown")
		}
		if len(objects) == 0 {
			c.t.Errorf("%s: nothing to mutate", s.name)
		}
	}
}

// oaJSON marshals v for a request body.
func oaJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// oaIDs returns the ids of a list response's data, in order.
func oaIDs(t *testing.T, body any) []string {
	t.Helper()
	m, ok := body.(map[string]any)
	if !ok {
		t.Fatalf("not an object: %v", body)
	}
	data, ok := m["data"].([]any)
	if !ok {
		t.Fatalf("no data array: %v", body)
	}
	ids := []string{}
	for _, d := range data {
		ids = append(ids, d.(map[string]any)["id"].(string))
	}
	return ids
}

// oaErrors returns the errors object of a 422 body.
func oaErrors(t *testing.T, body any) map[string]any {
	t.Helper()
	m, _ := body.(map[string]any)
	errs, ok := m["errors"].(map[string]any)
	if !ok {
		t.Fatalf("no errors object: %v", body)
	}
	return errs
}

func oaWantIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: ids %v, want %v", what, got, want)
	}
}

func oaWantErrorFields(t *testing.T, what string, body any, fields ...string) {
	t.Helper()
	errs := oaErrors(t, body)
	got := make([]string, 0, len(errs))
	for k := range errs {
		got = append(got, k)
	}
	slices.Sort(got)
	slices.Sort(fields)
	if !slices.Equal(got, fields) {
		t.Errorf("%s: error fields %v, want %v (%v)", what, got, fields, errs)
	}
}

// callWithHeader is call with one extra request header.
func (c *oaContract) callWithHeader(r oaReq, name, value string, status int, check oaReqCheck) any {
	c.t.Helper()
	u := c.e.srv.URL + r.path
	req, err := http.NewRequest(r.method, u, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set(name, value)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != status {
		c.t.Fatalf("%s %s: status %d, want %d; body %s", r.method, r.path, res.StatusCode, status, b)
	}
	vreq, _ := http.NewRequest(r.method, u, nil)
	vreq.Header.Set(name, value)
	input := c.input(vreq)
	reqErr := openapi3filter.ValidateRequest(context.Background(), input)
	if check == reqInvalid && reqErr == nil {
		c.t.Errorf("%s %s with %s: the document accepts the request", r.method, r.path, name)
	}
	if err := c.validate(input, res.StatusCode, res.Header, b); err != nil {
		c.t.Errorf("%s %s: %v", r.method, r.path, err)
	}
	c.provoked(input, res.StatusCode)
	var v any
	json.Unmarshal(b, &v)
	return v
}

// writeErrors provokes the errors every writing operation shares, before
// validation of the body: 401, 403, 415, 413 and 400.
func (c *oaContract) writeErrors(path, body string) {
	c.t.Helper()
	a := c.e.a
	c.call(oaReq{method: "POST", path: path, body: body}, 401, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: "unknown", body: body}, 401, reqAny)
	c.call(oaReq{method: "POST", path: path, token: a.ReadOnlyToken, body: body}, 403, reqValid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: body, contentType: "text/plain"}, 415, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: body, contentType: "none"}, 415, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: `{"name":"` + strings.Repeat("a", 1<<20) + `"}`}, 413, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: `{"name":`}, 400, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: `[1]`}, 400, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: `"text"`}, 400, reqInvalid)
	c.idempotencyErrors(path, body)
	// A JSON body sent with parameters on its media type is still JSON.
	_, res := c.send(oaReq{method: "POST", path: path, token: a.Token, body: `{}`, contentType: "application/json; charset=utf-8"})
	if res.Status == http.StatusUnsupportedMediaType {
		c.t.Errorf("POST %s: application/json; charset=utf-8 is refused", path)
	}
}

// writeErrorsOnce provokes, once each, the errors every writing
// operation answers before it reads the body: 401, 403, 415, 413 and
// 400. (writeErrors tries more variants of each; the variants are the
// same code for every route, and validating each against the document
// is slow.)
func (c *oaContract) writeErrorsOnce(path, body string) {
	c.t.Helper()
	a := c.e.a
	c.call(oaReq{method: "POST", path: path, body: body}, 401, reqInvalid)
	c.call(oaReq{method: "POST", path: path, token: a.ReadOnlyToken, body: body}, 403, reqValid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: body, contentType: "text/plain"}, 415, reqInvalid)
	// The response alone is validated: decoding a body of a mebibyte to
	// validate the request is what makes contract tests slow.
	req, res := c.send(oaReq{method: "POST", path: path, token: a.Token, body: "{" + strings.Repeat(" ", 1<<20) + "}"})
	if res.Status != http.StatusRequestEntityTooLarge {
		c.t.Fatalf("POST %s with a body over 1 MiB: status %d, want 413", path, res.Status)
	}
	input := c.input(req)
	if err := c.validate(input, res.Status, res.Header, res.Body); err != nil {
		c.t.Errorf("POST %s: 413 response does not match the document: %v", path, err)
	}
	c.provoked(input, res.Status)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: `{"name":`}, 400, reqInvalid)
	c.idempotencyErrors(path, body)
}

// idempotencyErrors provokes the errors of the Idempotency-Key header
// that every POST shares: a 409 while a request with the key runs (one
// left by a server that stopped mid-request, as the store holds it) and
// a 422 on a malformed key.
func (c *oaContract) idempotencyErrors(path, body string) {
	c.t.Helper()
	a := c.e.a
	key, err := c.e.st.APIKeyByHash(c.t.Context(), practiced.HashToken(a.Token))
	if err != nil {
		c.t.Fatal(err)
	}
	running := practiced.IdempotencyKey{APIKeyID: key.ID, Key: "running " + path, RequestHash: "running", ClaimID: "running " + path,
		CreatedAt: c.e.clock, LeaseUntil: c.e.clock.Add(practiced.IdempotencyLease)}
	if _, err := c.e.st.ClaimIdempotencyKey(c.t.Context(), running); err != nil {
		c.t.Fatal(err)
	}
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: body, idempotencyKey: running.Key}, 409, reqValid)
	c.call(oaReq{method: "POST", path: path, token: a.Token, body: body, idempotencyKey: strings.Repeat("k", 256)}, 422, reqInvalid)
}

// Every response any test in this package receives through env.do or
// env.send is validated against the OpenAPI document, when the document
// describes the operation and the answer is JSON. So every operation the
// tests exercise is held to the document, not only those the contract
// test drives.

// documentRouter finds the operations of the embedded document; it is
// built once, for every test of the package.
var documentRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := openapi3.NewLoader().LoadFromData(openapi.Document)
	if err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// checkAgainstDocument validates one exchange; the request's body is not
// needed, only its method, URL and headers.
func checkAgainstDocument(t *testing.T, req *http.Request, res response) {
	t.Helper()
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || req.URL.Path == "/v1/openapi.json" {
		return
	}
	router, err := documentRouter()
	if err != nil {
		t.Fatalf("openapi: %v", err)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return // an undocumented request: 404 and 405 are checked elsewhere
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, MultiError: true}}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.Status, Header: res.Header, Options: in.Options}
	out.SetBodyBytes(res.Body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("%s %s answered %d, which the OpenAPI document does not allow:\n%v\nbody %s", req.Method, req.URL.Path, res.Status, err, res.Body)
	}
}

// provokeRateLimits provokes the 429 of every operation of the OpenAPI
// file (the base document or a fragment) that documents one: it serves
// the store again with an in-process limit of one request a minute,
// spends the key's one request, and sends each operation once more. The
// limit is taken before the route's handler runs, so the path's ids need
// name no record.
func (c *oaContract) provokeRateLimits(file string) {
	c.t.Helper()
	clock := func() time.Time { return c.e.clock }
	limited := httptest.NewServer(newServer(c.e.st, httpapi.Options{Now: clock, Limiter: ratelimit.NewMemory(clock), RatePerMinute: 1}))
	defer limited.Close()
	token := testfix.Key(c.t, c.e.st, c.e.a.Business.ID, false)
	if _, res := c.send(oaReq{method: "GET", path: limited.URL + "/v1/clients", token: token}); res.Status != http.StatusOK {
		c.t.Fatalf("the limited server's first request: %d %s", res.Status, res.Body)
	}
	param := regexp.MustCompile(`\{[^}]+\}`)
	for path, item := range oaReadPaths(c.t, file) {
		for method, raw := range item {
			if method == "parameters" || !strings.Contains(string(raw), `"429"`) {
				continue
			}
			r := oaReq{method: strings.ToUpper(method), path: limited.URL + "/v1" + param.ReplaceAllString(path, "x"), token: token}
			if r.method == "POST" {
				r.body = "{}"
			}
			req, res := c.send(r)
			if res.Status != http.StatusTooManyRequests {
				c.t.Errorf("%s %s over the limit: %d, want 429; body %s", r.method, path, res.Status, res.Body)
				continue
			}
			req.URL.Host = strings.TrimPrefix(c.e.srv.URL, "http://")
			input := c.input(req)
			if err := c.validate(input, res.Status, res.Header, res.Body); err != nil {
				c.t.Errorf("%s %s: the 429 does not match the document: %v\nbody: %s", r.method, path, err, res.Body)
			}
			c.provoked(input, res.Status)
		}
	}
}
