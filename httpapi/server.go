// Package httpapi serves the practiced JSON API under /v1.
package httpapi

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/ratelimit"
	"github.com/practiced/practiced/webhook"
)

// Server serves the API. Make one with NewServer.
type Server struct {
	store    practiced.Store
	messages bool // the server e-mails clients (Options.Messages)
	// searches holds a token for each availability search running; its
	// capacity is how many may run at once.
	searches  chan struct{}
	logger    *slog.Logger
	publicURL string
	now       func() time.Time
	mux       *http.ServeMux
	observe   func(route string, status int, elapsed time.Duration)
	limiter   ratelimit.Limiter
	rate      int
	// pages keeps answered lists of clients when the store numbers them,
	// read through versions (the store itself); both nil otherwise.
	pages    *pageCache
	versions clientsVersioner
	// keyAndClientsVersion, when the store has it, reads a request's key
	// and its business's ClientsVersion in one query.
	keyAndClientsVersion func(ctx context.Context, hash string) (practiced.APIKey, int64, error)

	allowPrivateWebhooks bool
	lookupHost           func(host string) ([]netip.Addr, error)
}

// DefaultRatePerMinute is the requests a minute an API key is served
// when neither the key nor the server sets another rate.
const DefaultRatePerMinute = 600

// Options configure a Server.
type Options struct {
	// PublicURL is the scheme and host clients reach the server at, used
	// for absolute links. Empty means the request's own host.
	PublicURL string
	Logger    *slog.Logger
	// Now tells the time; nil means time.Now. Tests set it.
	Now func() time.Time
	// Pages are served beside the API, outside /v1 and without a key:
	// the pages a clinic's clients open in a browser (package web), by
	// route pattern such as "GET /f/{form_id}". They get the API's
	// request ids, request logs, and answers to unknown paths.
	Pages map[string]http.Handler
	// Limiter limits each API key to its rate (the key's own, else
	// RatePerMinute); nil means no limit.
	Limiter ratelimit.Limiter
	// RatePerMinute is the rate of a key without its own; 0 means
	// DefaultRatePerMinute.
	RatePerMinute int
	// AllowPrivateWebhooks lets webhook endpoints name loopback and
	// private addresses, and http:// URLs (serve --webhooks-allow-private,
	// for tests and closed networks).
	AllowPrivateWebhooks bool
	// LookupHost resolves the host of a webhook endpoint's URL; nil means
	// the system's resolver.
	LookupHost func(host string) ([]netip.Addr, error)
	// PageCacheBytes bounds the answered pages of clients kept to answer
	// the same request again while the business's clients are unchanged
	// (pageCache); 0 means DefaultPageCacheBytes, and a negative number
	// keeps none.
	PageCacheBytes int
	// Observe, when set, is told every answered request's route pattern
	// (or "unmatched"), status and time, for metrics.
	Observe func(route string, status int, elapsed time.Duration)
	// Messages says the server e-mails clients (serve --smtp, or the
	// demo's log): POST /v1/forms/{id}/send then queues the link's
	// e-mail, and notify: true on an appointment change sends notices.
	Messages bool
}

// NewServer returns the API's handler.
func NewServer(store practiced.Store, opt Options) http.Handler {
	s := &Server{
		store:                store,
		logger:               opt.Logger,
		publicURL:            strings.TrimSuffix(opt.PublicURL, "/"),
		now:                  opt.Now,
		observe:              opt.Observe,
		limiter:              opt.Limiter,
		allowPrivateWebhooks: opt.AllowPrivateWebhooks,
		lookupHost:           opt.LookupHost,
		rate:                 cmp.Or(opt.RatePerMinute, DefaultRatePerMinute),
		messages:             opt.Messages,
		searches:             make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
		mux:                  http.NewServeMux(),
	}
	if s.lookupHost == nil {
		s.lookupHost = webhook.LookupHost
	}
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.now == nil {
		s.now = time.Now
	}
	if v, ok := store.(clientsVersioner); ok && opt.PageCacheBytes >= 0 {
		s.pages = newPageCache(cmp.Or(opt.PageCacheBytes, DefaultPageCacheBytes))
		s.versions = v
		if kv, ok := store.(keyAndClientsVersioner); ok {
			s.keyAndClientsVersion = kv.APIKeyAndClientsVersion
		}
	}
	s.handle(s.routes(), opt.Pages)
	return s.withRequestID(s.logRequests(s.recoverPanics(http.HandlerFunc(s.serveRoute))))
}

// base returns the public scheme and host for links in a response.
func (s *Server) base(r *http.Request) string {
	if s.publicURL != "" {
		return s.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
