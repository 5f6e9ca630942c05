package web_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
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
// of the server or of the pages' rate limiter (one that fails once the
// client has gone), and is answered no page.
func TestAPageWhoseClientLeftIsNotAServerError(t *testing.T) {
	for name, limiter := range map[string]ratelimit.Limiter{"no limiter": nil, "a limiter that fails": testfix.CutOffLimiter{}} {
		t.Run(name, func(t *testing.T) {
			st := testfix.Store(t)
			c := testfix.NewClinic(t, st, "Gone")
			var log bytes.Buffer
			var seen []int
			logger := slog.New(slog.NewTextHandler(&log, nil))
			now := func() time.Time { return testfix.Now }
			pages := web.Routes(st, web.Options{Logger: logger, Now: now})
			if limiter != nil {
				pages = web.PageLimit{Limiter: limiter, PerMinute: 60, Logger: logger}.Wrap(pages)
			}
			srv := httpapi.NewServer(st, httpapi.Options{Now: now, Logger: logger, Pages: pages,
				Observe: func(_ string, status int, _ time.Duration) { seen = append(seen, status) }})
			path := "/book/" + c.Adelaide.ID
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
			if rec.Code != http.StatusOK {
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
			if l := log.String(); strings.Contains(l, "level=ERROR") || strings.Contains(l, "level=WARN") || !strings.Contains(l, "status=499") {
				t.Errorf("the log is\n%s", l)
			}
		})
	}
}

// TestAPageLimiterThatIsDownServesThePage checks that a booking page is
// served when the pages' rate limiter cannot answer, and that the
// failure is logged as a warning.
func TestAPageLimiterThatIsDownServesThePage(t *testing.T) {
	st := testfix.Store(t)
	c := testfix.NewClinic(t, st, "Down")
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	now := func() time.Time { return testfix.Now }
	pages := web.PageLimit{Limiter: testfix.DownLimiter{}, PerMinute: 60, Logger: logger}.Wrap(web.Routes(st, web.Options{Logger: logger, Now: now}))
	srv := httpapi.NewServer(st, httpapi.Options{Now: now, Logger: logger, Pages: pages})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/book/"+c.Adelaide.ID, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), c.Adelaide.Name) || rec.Header().Get("Retry-After") != "" {
		t.Fatalf("%d, Retry-After %q: want 200 and the page\n%s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if l := log.String(); !strings.Contains(l, `level=WARN msg="page rate limiter failed; serving without a limit"`) ||
		!strings.Contains(l, "connection refused") || !strings.Contains(l, "status=200") {
		t.Errorf("the log is\n%s", l)
	}
}
