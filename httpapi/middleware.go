package httpapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/ratelimit"
)

type ctxKey int

// stateKey holds the request's *requestState.
const stateKey ctxKey = 0

// requestState is what the middleware learns of a request, kept in its
// context once, where a value each would copy the request for every one:
// its id (withRequestID), then the business of its API key, whether the
// key is read-only, and the business's clients number (guard).
type requestState struct {
	id         string
	businessID string
	readOnly   bool
	// clientsVersion is the ClientsVersion of the key's business, read
	// with the key when the store reads the two together, and -1 when it
	// was not.
	clientsVersion int64
}

// stateOf returns the request's state, or nil for a context that went
// through neither withRequestID nor guard.
func stateOf(ctx context.Context) *requestState {
	st, _ := ctx.Value(stateKey).(*requestState)
	return st
}

// maxBody is the largest request body accepted.
const maxBody = 1 << 20

func requestID(ctx context.Context) string {
	if st := stateOf(ctx); st != nil {
		return st.id
	}
	return ""
}

// businessID returns the business of the request's API key.
func businessID(ctx context.Context) string {
	if st := stateOf(ctx); st != nil {
		return st.businessID
	}
	return ""
}

// readOnly reports whether the request's API key is read-only.
func readOnly(ctx context.Context) bool {
	st := stateOf(ctx)
	return st != nil && st.readOnly
}

// knownClientsVersion returns the clients number read with the
// request's key, or -1 when none was.
func knownClientsVersion(ctx context.Context) int64 {
	if st := stateOf(ctx); st != nil {
		return st.clientsVersion
	}
	return -1
}

// withRequestID gives every request an id, returned in X-Request-Id and
// written in every log line about the request.
func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [8]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), stateKey, &requestState{id: id, clientsVersion: -1})))
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
		elapsed := time.Since(start)
		s.logger.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("request_id", requestID(r.Context())),
			slog.String("method", r.Method), slog.String("route", routeOf(r)), slog.Int("status", rec.status),
			slog.Int64("duration_ms", elapsed.Milliseconds()))
		if s.observe != nil {
			s.observe(routeOf(r), rec.status, elapsed)
		}
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
	if p := r.URL.Path; !strings.HasPrefix(p, "/") || path.Clean(p) != p {
		writeJSON(w, http.StatusNotFound, messageBody{Message: "No such endpoint."})
		return
	}
	s.mux.ServeHTTP(&unmatchedWriter{ResponseWriter: w, r: r}, r)
}

// unmatchedWriter answers in JSON for the mux when no route matches a
// request: the mux writes its own plain-text 404 or 405 (setting Allow
// first), and records no pattern on the request.
type unmatchedWriter struct {
	http.ResponseWriter
	r        *http.Request
	answered bool
}

func (w *unmatchedWriter) WriteHeader(code int) {
	if w.r.Pattern != "" || (code != http.StatusNotFound && code != http.StatusMethodNotAllowed) {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.answered = true
	h := w.Header()
	h.Del("Content-Type")
	h.Del("X-Content-Type-Options")
	if code == http.StatusMethodNotAllowed {
		allow := h.Get("Allow")
		writeJSON(w.ResponseWriter, code, messageBody{Message: "The method " + w.r.Method + " is not allowed here; allowed: " + allow + "."})
		return
	}
	writeJSON(w.ResponseWriter, code, messageBody{Message: "No such endpoint."})
}

// Write drops the mux's plain-text body once the JSON one is written.
func (w *unmatchedWriter) Write(b []byte) (int, error) {
	if w.answered {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// guard puts h behind what its access asks: a keyed route needs a valid
// API key and gets its business in the context; a route that writes
// refuses read-only keys (403), and a POST with an Idempotency-Key runs
// once per key (serveIdempotent). Every route answers JSON, so the
// answer's headers are set here, whatever writes its body.
func (s *Server) guard(a access, h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setJSONHeaders(w.Header())
		if a != public {
			key, clientsVersion, err := s.apiKey(w, r)
			if err != nil {
				s.writeError(w, r, err)
				return
			}
			if err := s.limit(w, r, key); err != nil {
				s.writeError(w, r, err)
				return
			}
			if a == writes && key.ReadOnly {
				s.writeError(w, r, practiced.Errorf(practiced.EFORBIDDEN, "This API key is read-only."))
				return
			}
			st := stateOf(r.Context())
			if st == nil {
				st = &requestState{}
				r = r.WithContext(context.WithValue(r.Context(), stateKey, st))
			}
			st.businessID, st.readOnly, st.clientsVersion = key.BusinessID, key.ReadOnly, clientsVersion
			if a == writes && hasIdempotencyKey(r) {
				s.serveIdempotent(w, r, key, h)
				return
			}
		}
		s.run(w, r, h)
	})
}

// limit takes the request's token from its API key's bucket, and says
// how many are left in the RateLimit-* headers of every answer. Over the
// limit it fails with 429 and Retry-After. When the limiter fails (Redis
// is unreachable) the request is served and a warning logged: an outage
// of the limiter's store must not become an outage of the API.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, key practiced.APIKey) error {
	if s.limiter == nil {
		return nil
	}
	rate := cmp.Or(key.RatePerMinute, s.rate)
	d, ok, err := ratelimit.Check(r.Context(), s.limiter, "key:"+key.ID, rate, func(err error) {
		s.logger.Warn("rate limiter failed; serving without a limit", "request_id", requestID(r.Context()), "error", err.Error())
	})
	if !ok {
		return err
	}
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(ratelimit.Seconds(d.Reset)))
	if d.Allowed {
		return nil
	}
	h.Set("Retry-After", strconv.Itoa(ratelimit.Seconds(d.RetryAfter)))
	return &practiced.Error{Code: codeTooManyRequests,
		Message: fmt.Sprintf("This API key is limited to %d requests a minute; try again in %s.", d.Limit, ratelimit.Wait(d.RetryAfter))}
}

// apiKey returns the API key the request is sent with. When there is
// none, it sets the challenge of a 401 (RFC 6750 section 3): Bearer, with
// error="invalid_token" when a token was sent but is not a valid key.
// When the store reads it with the ClientsVersion of the key's business
// (sqlstore.Store.APIKeyAndClientsVersion), it returns that too, else -1.
func (s *Server) apiKey(w http.ResponseWriter, r *http.Request) (practiced.APIKey, int64, error) {
	token, err := bearerToken(r)
	if err != nil {
		w.Header().Set("WWW-Authenticate", "Bearer")
		return practiced.APIKey{}, -1, err
	}
	var key practiced.APIKey
	version := int64(-1)
	if s.keyAndClientsVersion != nil {
		key, version, err = s.keyAndClientsVersion(r.Context(), practiced.HashToken(token))
	} else {
		key, err = s.store.APIKeyByHash(r.Context(), practiced.HashToken(token))
	}
	if practiced.ErrorCode(err) == practiced.EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	}
	return key, version, err
}

// bearerToken returns the token of the request's Authorization header.
func bearerToken(r *http.Request) (string, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return "", practiced.Errorf(practiced.EUNAUTHORIZED, "Authentication required: send the header Authorization: Bearer <API key>.")
	}
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", practiced.Errorf(practiced.EUNAUTHORIZED, "The Authorization header must be Bearer <API key>.")
	}
	return strings.TrimSpace(token), nil
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

// routeOf names the route a request matched, such as "GET /v1/clients/{id}",
// or "unmatched". The mux records the pattern on the request as it routes
// it, so nothing is routed twice.
func routeOf(r *http.Request) string {
	if r.Pattern != "" {
		return r.Pattern
	}
	return "unmatched"
}
