package web_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/ratelimit"
	"github.com/practiced/practiced/web"
)

// TestAPageWhoseClientLeftIsNotAServerError checks that a booking page
// whose client has gone is logged and counted as 499, not as a failure
// of the server, and is answered no page.
func TestAPageWhoseClientLeftIsNotAServerError(t *testing.T) {
	st := testfix.Store(t)
	c := testfix.NewClinic(t, st, "Gone")
	var log bytes.Buffer
	var seen []int
	srv := newServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }, Logger: slog.New(slog.NewTextHandler(&log, nil)),
		Observe: func(_ string, status int, _ time.Duration) { seen = append(seen, status) }})
	path := "/book/" + c.Adelaide.ID
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != 200 {
		t.Fatalf("with the client there: %d %s", rec.Code, rec.Body)
	}
	log.Reset()
	seen = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil).WithContext(ctx))
	if rec.Code != 499 || rec.Body.Len() != 0 {
		t.Errorf("%d %q, want 499 and no page", rec.Code, rec.Body)
	}
	if len(seen) != 1 || seen[0] != 499 {
		t.Errorf("metrics saw %v, want [499]", seen)
	}
	if l := log.String(); strings.Contains(l, "level=ERROR") || !strings.Contains(l, "status=499") {
		t.Errorf("the log is\n%s", l)
	}
}

// cancelledLimiter fails once the request's context is done, with an
// error of its own that does not say why, as a limiter whose connection
// was cut off may, and otherwise allows everything.
type cancelledLimiter struct{}

func (cancelledLimiter) Take(ctx context.Context, _ string, perMinute int) (ratelimit.Decision, error) {
	if ctx.Err() != nil {
		return ratelimit.Decision{}, errors.New("the limiter's store: connection closed")
	}
	return ratelimit.Decision{Allowed: true, Limit: perMinute, Remaining: perMinute - 1}, nil
}

// TestAPageLimiterFailingForAClientThatLeftIsNotWarnedOf checks that a
// page limiter that fails because the client went away is not logged as
// the limiter's failure, and that the request is a 499.
func TestAPageLimiterFailingForAClientThatLeftIsNotWarnedOf(t *testing.T) {
	st := testfix.Store(t)
	c := testfix.NewClinic(t, st, "Gone")
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	now := func() time.Time { return testfix.Now }
	pages := web.PageLimit{Limiter: cancelledLimiter{}, PerMinute: 60, Logger: logger}.Wrap(web.Routes(st, web.Options{Logger: logger, Now: now}))
	srv := httpapi.NewServer(st, httpapi.Options{Now: now, Logger: logger, Pages: pages})
	path := "/book/" + c.Adelaide.ID
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != 200 {
		t.Fatalf("with the client there: %d %s", rec.Code, rec.Body)
	}
	log.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil).WithContext(ctx))
	if rec.Code != 499 || rec.Body.Len() != 0 {
		t.Errorf("%d %q, want 499 and no page", rec.Code, rec.Body)
	}
	if l := log.String(); strings.Contains(l, "rate limiter failed") || strings.Contains(l, "level=ERROR") || !strings.Contains(l, "status=499") {
		t.Errorf("the log is\n%s", l)
	}
}
