package web

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/ratelimit"
)

func TestClientAddr(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, c := range []struct {
		remote, xff string
		trusted     []netip.Prefix
		want        string
	}{
		{"203.0.113.7:5000", "", nil, "203.0.113.7"},
		{"203.0.113.7:5000", "198.51.100.1", nil, "203.0.113.7"},     // no proxy trusted: the header is the client's word
		{"203.0.113.7:5000", "198.51.100.1", proxies, "203.0.113.7"}, // not from a trusted proxy
		{"10.1.2.3:5000", "198.51.100.1", proxies, "198.51.100.1"},   // from the proxy
		{"10.1.2.3:5000", "1.1.1.1, 198.51.100.1", proxies, "198.51.100.1"},
		{"10.1.2.3:5000", "198.51.100.1, 10.9.9.9", proxies, "198.51.100.1"}, // through two proxies
		{"10.1.2.3:5000", "", proxies, "10.1.2.3"},
		{"10.1.2.3:5000", "nonsense", proxies, "10.1.2.3"},
		{"[::1]:5000", "2001:db8::5", proxies, "2001:db8::5"},
		{"[::ffff:203.0.113.9]:5000", "", nil, "203.0.113.9"},
	} {
		r := httptest.NewRequest("GET", "/book/x", nil)
		r.RemoteAddr = c.remote
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := ClientAddr(r, c.trusted).String(); got != c.want {
			t.Errorf("%s with X-Forwarded-For %q: %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
}

// TestPageFloodGetsA429Page opens a page more often than the limit
// allows from one address while another address is served.
func TestPageFloodGetsA429Page(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	served := 0
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served++ })
	pages := PageLimit{Limiter: ratelimit.NewMemory(func() time.Time { return now }), PerMinute: 3}.
		Wrap(map[string]http.Handler{"GET /book/{location_id}": page})
	h := pages["GET /book/{location_id}"]
	open := func(remote string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/book/loc_1", nil)
		r.RemoteAddr = remote
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	for range 3 {
		if rec := open("203.0.113.7:1000"); rec.Code != 200 {
			t.Fatalf("within the limit: %d", rec.Code)
		}
	}
	rec := open("203.0.113.7:1001")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "20" ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(rec.Body.String(), "Please wait 20 seconds, then try again.") {
		t.Fatalf("over the limit: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	if served != 3 {
		t.Errorf("the page ran %d times, want 3", served)
	}
	if rec := open("198.51.100.1:2000"); rec.Code != 200 || served != 4 {
		t.Errorf("another address: %d, served %d", rec.Code, served)
	}
	now = now.Add(20 * time.Second)
	if rec := open("203.0.113.7:1002"); rec.Code != 200 {
		t.Errorf("20 s later: %d", rec.Code)
	}
}

// TestPageFloodWaitOfOneSecond: at 60 a minute, the address that used
// its minute's pages waits one second, said in the singular.
func TestPageFloodWaitOfOneSecond(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	h := PageLimit{Limiter: ratelimit.NewMemory(func() time.Time { return now }), PerMinute: 60}.
		Wrap(map[string]http.Handler{"GET /book/{location_id}": page})["GET /book/{location_id}"]
	var rec *httptest.ResponseRecorder
	for range 61 {
		r := httptest.NewRequest("GET", "/book/loc_1", nil)
		r.RemoteAddr = "203.0.113.7:1000"
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, r)
	}
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" ||
		!strings.Contains(rec.Body.String(), "Please wait 1 second, then try again.") {
		t.Fatalf("the 61st page: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
}
