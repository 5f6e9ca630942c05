package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/practiced/practiced/openapi"
)

// Every response any test in this package receives through env.do or
// env.send is validated against the OpenAPI document, when the document
// describes the operation and the answer is JSON. So every operation the
// tests exercise is held to the document, not only those the contract
// test drives.

var (
	everyOnce   sync.Once
	everyRouter routers.Router
	everyErr    error
)

func documentRouter() (routers.Router, error) {
	everyOnce.Do(func() {
		loader := openapi3.NewLoader()
		var doc *openapi3.T
		doc, everyErr = loader.LoadFromData(openapi.Document)
		if everyErr != nil {
			return
		}
		everyRouter, everyErr = gorillamux.NewRouter(doc)
	})
	return everyRouter, everyErr
}

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
