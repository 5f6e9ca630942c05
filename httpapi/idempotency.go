package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/hangup"
)

// The headers of idempotent requests (docs/api.md, "Idempotent
// requests").
const (
	idempotencyKeyHeader     = "Idempotency-Key"
	idempotentReplayedHeader = "Idempotent-Replayed"
)

// maxIdempotencyKey is the longest Idempotency-Key accepted, in bytes
// (the key is ASCII).
const maxIdempotencyKey = 255

// idempotencyPurge is how many expired keys a request that stored an
// answer deletes: a little more than it added, so the table stays near a
// day's keys without a sweep of its own.
const idempotencyPurge = 10

// keptHeaders are the headers of an answer kept for its replay: those
// that describe its body. The replay gets its own X-Request-Id.
var keptHeaders = []string{"Content-Type", "Location"}

// hasIdempotencyKey reports whether r is a POST that sent the
// Idempotency-Key header, even an empty one. Other methods ignore it.
func hasIdempotencyKey(r *http.Request) bool {
	return r.Method == http.MethodPost && len(r.Header.Values(idempotencyKeyHeader)) > 0
}

// serveIdempotent runs h for a POST with an Idempotency-Key at most once
// per API key and key: it claims the key before h runs, and stores h's
// answer for a repeat of the request to replay. Only the caller that
// claimed the key runs h; a repeat while h runs is a 409, and the key
// with another request a 422 once h has answered.
func (s *Server) serveIdempotent(w http.ResponseWriter, r *http.Request, apiKey practiced.APIKey, h handler) {
	key, err := idempotencyKey(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		s.writeError(w, r, practiced.Errorf(practiced.EBADREQUEST, "The request body could not be read."))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) > maxBody {
		// The handler refuses it (413) before anything is done.
		s.run(w, r, h)
		return
	}

	now := s.now()
	claim := practiced.IdempotencyKey{APIKeyID: apiKey.ID, Key: key, RequestHash: requestHash(r, body),
		ClaimID: rand.Text(), CreatedAt: now, LeaseUntil: now.Add(practiced.IdempotencyLease)}
	held, err := s.store.ClaimIdempotencyKey(r.Context(), claim)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if held.ClaimID != claim.ClaimID {
		s.answerHeld(w, r, held, claim.RequestHash)
		return
	}

	// The key is ours: whatever happens to the request, the key ends up
	// answered or released, unless the process dies, when its lease
	// frees it. A caller that hangs up does not stop that.
	ctx := context.WithoutCancel(r.Context())
	rec := &answerRecorder{ResponseWriter: w}
	saved := false
	defer func() {
		if !saved {
			if err := s.store.ReleaseIdempotencyKey(ctx, apiKey.ID, key, claim.ClaimID); err != nil {
				s.logger.Error("idempotency key: release", "request_id", requestID(ctx), "error", err.Error())
			}
		}
	}()
	s.run(rec, r, h)
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK) // as net/http answers a handler that wrote nothing
	}
	if !replayable(rec.status) {
		return
	}
	saved = true
	answer := practiced.IdempotentAnswer{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}
	if err := s.store.SaveIdempotentAnswer(ctx, apiKey.ID, key, claim.ClaimID, answer); err != nil {
		// The answer went out; leaving the claim to its lease keeps a
		// repeat from running the request again at once.
		s.logger.Error("idempotency key: save", "request_id", requestID(ctx), "error", err.Error())
		return
	}
	if _, err := s.store.PurgeIdempotencyKeys(ctx, now.Add(-practiced.IdempotencyTTL), idempotencyPurge); err != nil {
		s.logger.Error("idempotency key: purge", "request_id", requestID(ctx), "error", err.Error())
	}
}

// run runs h, writing the error it returns.
func (s *Server) run(w http.ResponseWriter, r *http.Request, h handler) {
	if err := h(w, r); err != nil {
		s.writeError(w, r, err)
	}
}

// answerHeld answers a request whose key another request holds: a 409
// while that request runs, a 422 if it was a different request, and
// otherwise its answer. The 409 comes first, as Stripe's does: whether
// the retry is the same request is told once there is an answer.
func (s *Server) answerHeld(w http.ResponseWriter, r *http.Request, held practiced.IdempotencyKey, hash string) {
	switch {
	case held.Answer == nil:
		w.Header().Set("Retry-After", "1")
		s.writeError(w, r, practiced.Errorf(practiced.ECONFLICT,
			"A request with this Idempotency-Key is still running; retry later."))
	case held.RequestHash != hash:
		s.writeError(w, r, practiced.Invalid(idempotencyKeyHeader,
			"was already used with a different request; send a new key for a new request"))
	default:
		for name, v := range held.Answer.Header {
			w.Header().Set(name, v)
		}
		w.Header().Set(idempotentReplayedHeader, "true")
		w.WriteHeader(held.Answer.Status)
		w.Write(held.Answer.Body)
	}
}

// idempotencyKey returns the request's Idempotency-Key: one value of 1 to
// 255 printable ASCII characters, or a 422 on the header.
func idempotencyKey(r *http.Request) (string, error) {
	values := r.Header.Values(idempotencyKeyHeader)
	if len(values) != 1 {
		return "", practiced.Invalid(idempotencyKeyHeader, "must be sent once")
	}
	key := values[0]
	if key == "" || len(key) > maxIdempotencyKey {
		return "", practiced.Invalid(idempotencyKeyHeader, "must be 1 to 255 printable ASCII characters")
	}
	for i := range len(key) {
		if key[i] < 0x20 || key[i] > 0x7e {
			return "", practiced.Invalid(idempotencyKeyHeader, "must be 1 to 255 printable ASCII characters")
		}
	}
	return key, nil
}

// requestHash identifies a request by its method, path, query and body.
// Each part but the body is prefixed by its length, so no two requests
// share the text hashed.
func requestHash(r *http.Request, body []byte) string {
	h := sha256.New()
	for _, part := range []string{r.Method, r.URL.Path, r.URL.RawQuery} {
		io.WriteString(h, strconv.Itoa(len(part))+":"+part)
	}
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// replayable reports whether an answer with the status is kept for
// replay: a success, or a refusal of the request itself. A 409 or 429
// says to try again later, and a 5xx, or a request its client left
// (hangup.StatusClientClosed), may not have done what was asked, so those
// release the key for the retry to run.
func replayable(status int) bool {
	switch {
	case status == http.StatusConflict || status == http.StatusTooManyRequests || status == hangup.StatusClientClosed:
		return false
	case status >= 200 && status < 500:
		return true
	}
	return false
}

// answerRecorder passes an answer on to the caller and keeps a copy: its
// status, the headers kept for a replay, and its body.
type answerRecorder struct {
	http.ResponseWriter
	status int
	header map[string]string
	body   bytes.Buffer
}

func (a *answerRecorder) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
		a.header = map[string]string{}
		for _, name := range keptHeaders {
			if v := a.Header().Get(name); v != "" {
				a.header[name] = v
			}
		}
	}
	a.ResponseWriter.WriteHeader(code)
}

func (a *answerRecorder) Write(b []byte) (int, error) {
	if a.status == 0 {
		a.WriteHeader(http.StatusOK)
	}
	a.body.Write(b)
	return a.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (a *answerRecorder) Unwrap() http.ResponseWriter { return a.ResponseWriter }
