package web_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
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
