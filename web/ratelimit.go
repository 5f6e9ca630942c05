package web

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/practiced/practiced/internal/hangup"
	"github.com/practiced/practiced/ratelimit"
)

// PageLimit limits how often one client address may open or post the
// pages: a page flood gets a 429 page with Retry-After instead of the
// page, and costs the database nothing.
type PageLimit struct {
	Limiter   ratelimit.Limiter
	PerMinute int
	// Trusted are the proxies whose X-Forwarded-For is believed: the
	// client's address is then the right-most address in the header
	// that is not itself a trusted proxy. Without them, the address is
	// the connection's.
	Trusted []netip.Prefix
	Logger  *slog.Logger
}

// Wrap returns the pages, each behind the limit.
func (l PageLimit) Wrap(pages map[string]http.Handler) map[string]http.Handler {
	out := make(map[string]http.Handler, len(pages))
	for pattern, h := range pages {
		out[pattern] = l.handler(h)
	}
	return out
}

func (l PageLimit) handler(next http.Handler) http.Handler {
	logger := l.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := ClientAddr(r, l.Trusted)
		d, ok, err := ratelimit.Check(r.Context(), l.Limiter, "page:"+addr.String(), l.PerMinute, func(err error) {
			logger.Warn("page rate limiter failed; serving without a limit", "request_id", w.Header().Get("X-Request-Id"), "error", err.Error())
		})
		if hangup.Answered(w, r, err) {
			return
		}
		if !ok || d.Allowed {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Retry-After", strconv.Itoa(ratelimit.Seconds(d.RetryAfter)))
		renderPage(w, r, logger, "rate limit", http.StatusTooManyRequests, "problem", problemView{
			Title:     "Too many requests",
			Message:   fmt.Sprintf("This address has opened these pages too often. Please wait %s, then try again.", ratelimit.Wait(d.RetryAfter)),
			Reference: w.Header().Get("X-Request-Id"),
		})
	})
}

// ClientAddr is the address of the client a request comes from: the
// connection's, or, when the connection is from a trusted proxy, the
// right-most address of X-Forwarded-For that is not a trusted proxy
// (the left-most entries are whatever the client chose to send).
func ClientAddr(r *http.Request, trusted []netip.Prefix) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	addr = addr.Unmap()
	if !isTrusted(addr, trusted) {
		return addr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr // a malformed hop: trust nothing left of it
		}
		hop = hop.Unmap()
		if !isTrusted(hop, trusted) {
			return hop
		}
		addr = hop
	}
	return addr
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
