package httpapi_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/ratelimit"
	"github.com/practiced/practiced/sqlstore"
)

// goneRig serves a clinic and keeps what the server logs and the
// statuses it reports to its metrics.
type goneRig struct {
	clinic *testfix.Clinic
	srv    http.Handler
	log    bytes.Buffer
	seen   []int // the statuses, told from ServeHTTP on the test's goroutine
}

func newGoneRig(t *testing.T, limiter ratelimit.Limiter) *goneRig {
	st := testfix.Store(t)
	g := &goneRig{clinic: testfix.NewClinic(t, st, "Gone")}
	g.srv = httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now },
		Logger: slog.New(slog.NewTextHandler(&g.log, nil)), Limiter: limiter,
		Observe: func(_ string, status int, _ time.Duration) { g.seen = append(g.seen, status) }})
	return g
}

// ask serves a request with the clinic's key, its context cancelled
// first when gone, as net/http cancels it when the client hangs up.
func (g *goneRig) ask(method, path, body string, gone bool) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+g.clinic.Token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if gone {
		ctx, cancel := context.WithCancel(req.Context())
		cancel()
		req = req.WithContext(ctx)
	}
	rec := httptest.NewRecorder()
	g.srv.ServeHTTP(rec, req)
	return rec
}

func (g *goneRig) busyTimes(t *testing.T) int {
	t.Helper()
	rec := g.ask("GET", "/v1/busy_times?limit=100", "", false)
	return len(response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}.page(t).Data)
}

func (g *goneRig) busyTimeBody() string {
	return `{"location_id":"` + g.clinic.Sydney.ID + `","practitioner_id":"` + g.clinic.Alice.ID +
		`","starts_at":"2026-03-10T01:00:00Z","ends_at":"2026-03-10T02:00:00Z"}`
}

// TestARequestWhoseClientLeftIsNotAServerError checks that a read and a
// write whose client has gone are logged and counted as 499, not as an
// internal error, with no body, and that the write is not made.
func TestARequestWhoseClientLeftIsNotAServerError(t *testing.T) {
	g := newGoneRig(t, nil)
	before := g.busyTimes(t)
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/v1/clients?limit=2", ""},
		{"POST", "/v1/busy_times", g.busyTimeBody()},
	} {
		g.log.Reset()
		g.seen = nil
		rec := g.ask(tc.method, tc.path, tc.body, true)
		if rec.Code != 499 || rec.Body.Len() != 0 {
			t.Errorf("%s %s: %d %q, want 499 and no body", tc.method, tc.path, rec.Code, rec.Body)
		}
		if len(g.seen) != 1 || g.seen[0] != 499 {
			t.Errorf("%s %s: metrics saw %v, want [499]", tc.method, tc.path, g.seen)
		}
		log := g.log.String()
		if strings.Contains(log, "level=ERROR") || strings.Contains(log, "level=WARN") || !strings.Contains(log, "status=499") {
			t.Errorf("%s %s: the log is\n%s", tc.method, tc.path, log)
		}
	}
	if n := g.busyTimes(t); n != before {
		t.Errorf("%d busy times after the write whose client left, want %d", n, before)
	}
}

// leavingStore is a store whose client leaves as the busy times are
// written: the request's context is cancelled (leave) just before.
type leavingStore struct {
	*sqlstore.Store
	leave func()
}

func (s *leavingStore) CreateBusyTimes(ctx context.Context, businessID string, bts []practiced.BusyTime, skipConflicts bool) ([]practiced.BusyTime, error) {
	if s.leave != nil {
		s.leave()
	}
	return s.Store.CreateBusyTimes(ctx, businessID, bts, skipConflicts)
}

// TestIdempotencyKeyOfARequestWhoseClientLeftIsReleased checks that a
// write whose client left after its Idempotency-Key was claimed keeps no
// answer for the key: the retry runs and makes the record.
func TestIdempotencyKeyOfARequestWhoseClientLeftIsReleased(t *testing.T) {
	st := &leavingStore{Store: testfix.Store(t)}
	c := testfix.NewClinic(t, st.Store, "Gone")
	srv := httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }})
	g := &goneRig{clinic: c, srv: srv}
	before := g.busyTimes(t)
	ctx, cancel := context.WithCancel(context.Background())
	st.leave = cancel
	req := httptest.NewRequest("POST", "/v1/busy_times", strings.NewReader(g.busyTimeBody())).WithContext(ctx)
	req.Header = keyed(c.Token, "gone-1")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 499 {
		t.Fatalf("the first try: %d %s, want 499", rec.Code, rec.Body)
	}
	st.leave = nil
	req = httptest.NewRequest("POST", "/v1/busy_times", strings.NewReader(g.busyTimeBody()))
	req.Header = keyed(c.Token, "gone-1")
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || rec.Header().Get("Idempotent-Replayed") != "" {
		t.Fatalf("the retry: %d %v %s, want 201 run anew", rec.Code, rec.Header(), rec.Body)
	}
	if n := g.busyTimes(t); n != before+1 {
		t.Errorf("%d busy times, want %d", n, before+1)
	}
}

// TestALimiterFailingForAClientThatLeftIsNotWarnedOf checks that a
// limiter that fails because the client went away is not logged as the
// limiter's failure.
func TestALimiterFailingForAClientThatLeftIsNotWarnedOf(t *testing.T) {
	g := newGoneRig(t, testfix.CutOffLimiter{})
	if rec := g.ask("GET", "/v1/clients?limit=2", "", false); rec.Code != http.StatusOK {
		t.Fatalf("with the client there: %d %s", rec.Code, rec.Body)
	}
	g.log.Reset()
	rec := g.ask("GET", "/v1/clients?limit=2", "", true)
	if rec.Code != 499 {
		t.Errorf("%d %s, want 499", rec.Code, rec.Body)
	}
	if log := g.log.String(); strings.Contains(log, "rate limiter failed") || !strings.Contains(log, "status=499") {
		t.Errorf("the log is\n%s", log)
	}
}

// TestALimiterThatIsDownServesWithoutALimit checks that a request whose
// rate limiter cannot answer is served, with no RateLimit headers, and
// that the failure is logged as a warning.
func TestALimiterThatIsDownServesWithoutALimit(t *testing.T) {
	g := newGoneRig(t, testfix.DownLimiter{})
	rec := g.ask("GET", "/v1/clients?limit=1", "", false)
	if rec.Code != http.StatusOK || rec.Header().Get("RateLimit-Limit") != "" || rec.Header().Get("RateLimit-Remaining") != "" {
		t.Fatalf("%d, RateLimit-Limit %q: want 200 and no RateLimit headers", rec.Code, rec.Header().Get("RateLimit-Limit"))
	}
	if log := g.log.String(); !strings.Contains(log, `level=WARN msg="rate limiter failed; serving without a limit"`) ||
		!strings.Contains(log, "connection refused") || !strings.Contains(log, "status=200") {
		t.Errorf("the log is\n%s", log)
	}
}
