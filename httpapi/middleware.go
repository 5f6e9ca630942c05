package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"runtime/debug"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	businessKey
)

// maxBody is the largest request body accepted.
const maxBody = 1 << 20

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// businessID returns the business of the request's API key.
func businessID(ctx context.Context) string {
	id, _ := ctx.Value(businessKey).(string)
	return id
}

// withRequestID gives every request an id, returned in X-Request-Id and
// written in every log line about the request.
func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [8]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// logRequests logs one line per request: method, route, status, time.
// It logs the route's pattern, not the path, so ids (a hosted form's id
// is its credential) never reach the log, and never query strings or
// bodies, which can carry client data.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.logger.Info("request", "request_id", requestID(r.Context()), "method", r.Method,
			"route", routeOf(r), "status", rec.status, "duration_ms", time.Since(start).Milliseconds())
	})
}

// recoverPanics turns a panic in a handler into a 500 with the request
// id, logging the stack.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logger.Error("panic", "request_id", requestID(r.Context()), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				s.writeError(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// serveRoute dispatches to the route's handler, answering unknown routes
// (404) and wrong methods (405, with Allow) with JSON bodies.
func (s *Server) serveRoute(w http.ResponseWriter, r *http.Request) {
	// The mux would redirect a path that is not clean (//, /./, /../, a
	// trailing slash) to its clean form, and a client that follows the
	// redirect could replay a write; such a path names no endpoint.
	if p := r.URL.Path; p == "" || path.Clean(p) != p {
		writeJSON(w, http.StatusNotFound, messageBody{Message: "No such endpoint."})
		return
	}
	h, pattern := s.mux.Handler(r)
	if pattern != "" {
		s.mux.ServeHTTP(w, r)
		return
	}
	// Ask the mux what it would answer, then answer the same in JSON.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	switch rec.Code {
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", rec.Header().Get("Allow"))
		writeJSON(w, http.StatusMethodNotAllowed, messageBody{Message: "The method " + r.Method + " is not allowed here; allowed: " + rec.Header().Get("Allow") + "."})
	default:
		writeJSON(w, http.StatusNotFound, messageBody{Message: "No such endpoint."})
	}
}

// auth requires a valid API key and puts its business in the context.
func (s *Server) auth(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return s.authorize(h, false)
}

// write is auth for handlers that change data: read-only keys get 403,
// and the body must be JSON of at most maxBody bytes.
func (s *Server) write(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return s.authorize(h, true)
}

func (s *Server) authorize(h func(http.ResponseWriter, *http.Request) error, writes bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, err := s.apiKey(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if writes && key.ReadOnly {
			s.writeError(w, r, practiced.Errorf(practiced.EFORBIDDEN, "This API key is read-only."))
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), businessKey, key.BusinessID))
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

func (s *Server) apiKey(r *http.Request) (practiced.APIKey, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return practiced.APIKey{}, practiced.Errorf(practiced.EUNAUTHORIZED, "Authentication required: send the header Authorization: Bearer <API key>.")
	}
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return practiced.APIKey{}, practiced.Errorf(practiced.EUNAUTHORIZED, "The Authorization header must be Bearer <API key>.")
	}
	return s.store.APIKeyByHash(r.Context(), practiced.HashToken(strings.TrimSpace(token)))
}

// readBody reads a JSON request body: 415 unless it is sent as
// application/json, 413 over maxBody, 400 unless it is a JSON object.
func readBody(w http.ResponseWriter, r *http.Request, errs *practiced.FieldErrors) (*object, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errTooLarge
		}
		return nil, practiced.Errorf(practiced.EBADREQUEST, "The request body could not be read.")
	}
	if len(strings.TrimSpace(string(body))) > 0 || r.Header.Get("Content-Type") != "" {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return nil, errUnsupportedMedia
		}
	}
	return decodeObject(body, errs)
}

var (
	errTooLarge         = &practiced.Error{Code: codeTooLarge, Message: "The request body is larger than 1 MiB."}
	errUnsupportedMedia = &practiced.Error{Code: codeUnsupportedMedia, Message: "Send the request body as JSON with the header Content-Type: application/json."}
)

// Codes only the HTTP layer produces.
const (
	codeTooLarge         = "too_large"
	codeUnsupportedMedia = "unsupported_media"
)

func init() {
	codeStatus[codeTooLarge] = http.StatusRequestEntityTooLarge
	codeStatus[codeUnsupportedMedia] = http.StatusUnsupportedMediaType
}

// routeOf names the route a request matched, such as "GET /v1/clients/{id}",
// or "unmatched". The mux records the pattern on the request as it routes
// it, so nothing is routed twice.
func routeOf(r *http.Request) string {
	if r.Pattern != "" {
		return r.Pattern
	}
	return "unmatched"
}
