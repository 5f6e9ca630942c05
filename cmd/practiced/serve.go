package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/mail"
	"github.com/practiced/practiced/metrics"
	"github.com/practiced/practiced/ratelimit"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/web"
	"github.com/practiced/practiced/webhook"
)

// runServe serves the API until ctx ends, then drains open requests.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(getenv), "database URL: sqlite:PATH or postgres://…")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	publicURL := fs.String("public-url", "", "scheme and host clients use, for links (default: the request's host)")
	tlsCert := fs.String("tls-cert", "", "TLS certificate file")
	tlsKey := fs.String("tls-key", "", "TLS key file")
	demoData := fs.Bool("demo", false, "load the demo clinic if the database has none, and print an API key for it")
	pool := fs.Int("db-pool", sqlstore.PoolSize, "PostgreSQL connections this process keeps open")
	pprofAddr := fs.String("pprof", "", "serve net/http/pprof on this separate address, e.g. 127.0.0.1:6060 (off when empty)")
	metricsAddr := fs.String("metrics", "", "serve Prometheus metrics at /metrics on this separate address, e.g. 127.0.0.1:9090 (off when empty)")
	logFormat := fs.String("log-format", "text", "log lines as text (key=value) or json")
	rate := fs.Int("rate-limit", httpapi.DefaultRatePerMinute, "requests a minute an API key is served, unless the key has its own rate")
	pageRate := fs.Int("page-rate", 60, "requests a minute one client address is served the public pages (forms, booking)")
	redisURL := fs.String("redis", "", "share the rate limits of every server process through this Redis server, e.g. redis://127.0.0.1:6379/0 (default: in this process)")
	allowPrivateWebhooks := fs.Bool("webhooks-allow-private", false, "let webhook endpoints name loopback and private addresses, and http:// URLs (tests, closed networks)")
	smtpURL := fs.String("smtp", "", "send e-mail to clients through this mail server: smtp://user:pass@host:587 (STARTTLS) or smtps://…:465 (off when empty)")
	mailFrom := fs.String("mail-from", "", `the sender of e-mail to clients, e.g. "Harbour Physio <bookings@example.org>" (needed with --smtp)`)
	mailTemplates := fs.String("mail-templates", "", "a directory of message templates replacing the built-in ones, for every business and, in subdirectories named by business id, for one (docs/messages.md)")
	mailLease := fs.Duration("mail-lease", mail.DefaultLease, "how long a message being sent is left to one server process before another may try it (after a crash)")
	trustedProxies := fs.String("trusted-proxy", "", "comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if *rate < 1 || *pageRate < 1 {
		return fmt.Errorf("serve: --rate-limit and --page-rate are requests a minute, at least 1")
	}
	trusted, err := parsePrefixes(*trustedProxies)
	if err != nil {
		return fmt.Errorf("serve: --trusted-proxy: %w", err)
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		return fmt.Errorf("serve: give both --tls-cert and --tls-key, or neither")
	}
	var logger *slog.Logger
	switch *logFormat {
	case "text":
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	case "json":
		logger = slog.New(slog.NewJSONHandler(stderr, nil))
	default:
		return fmt.Errorf("serve: --log-format %q: use text or json", *logFormat)
	}

	var limiter ratelimit.Limiter = ratelimit.NewMemory(nil)
	if *redisURL != "" {
		r, err := ratelimit.NewRedis(ctx, *redisURL, "practiced:ratelimit:")
		if err != nil {
			return fmt.Errorf("serve: --redis: %w", err)
		}
		defer r.Close()
		limiter = r
	}
	lim := limits{limiter: limiter, rate: *rate, pageRate: *pageRate, trusted: trusted, allowPrivateWebhooks: *allowPrivateWebhooks}

	// The address is taken first, so that a busy one fails at once,
	// before the database is migrated or the demo loaded.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	var m *metrics.Metrics
	if *metricsAddr != "" {
		m = metrics.New()
		stopMetrics, err := serveMetrics(*metricsAddr, m, logger)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}

	scheme := "http"
	if *tlsCert != "" {
		scheme = "https"
	}
	base := *publicURL
	if base == "" {
		base = scheme + "://" + ln.Addr().String()
	}
	// The server answers at once: while the database opens and migrates,
	// /readyz says 503 and every other request but /healthz waits outside.
	gate := &readiness{}
	srv := &http.Server{
		Handler:           gate,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() {
		if *tlsCert != "" {
			errc <- srv.ServeTLS(ln, *tlsCert, *tlsKey)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	defer srv.Close()
	if *pprofAddr != "" {
		stopProfiling, err := serveProfiles(*pprofAddr, logger, stdout)
		if err != nil {
			return err
		}
		defer stopProfiling()
	}

	if *mailLease <= 0 {
		return fmt.Errorf("serve: --mail-lease %v: give a positive duration, such as 2m", *mailLease)
	}
	var sender mail.Sender
	switch {
	case *smtpURL != "":
		if *mailFrom == "" {
			return errors.New("serve: --smtp needs --mail-from, the address e-mail to clients comes from")
		}
		if sender, err = mail.NewSMTP(*smtpURL, *mailFrom); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	case *demoData:
		sender = mail.Log{Logger: logger}
	}

	var templates *mail.Templates
	if *mailTemplates != "" {
		if templates, err = mail.LoadTemplates(*mailTemplates); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}

	st, err := sqlstore.OpenWith(ctx, *db, sqlstore.Options{PoolSize: *pool})
	if err != nil {
		return err
	}
	defer st.Close()
	if sender != nil {
		st.EnableMessages(base, nil)
	}
	if templates != nil {
		st.SetMessageTemplates(templates)
	}
	if m != nil {
		st.ObserveTransactions(m.ObserveTransaction)
		m.DBPools(st.PoolStats)
		if err := m.QueueDepth("webhook_deliveries", st.PendingWebhookDeliveries); err != nil {
			return err
		}
		if err := m.QueueDepth("messages", st.QueuedMessages); err != nil {
			return err
		}
	}
	// The webhook worker delivers the change feed's events; it stops
	// before the store closes.
	workerCtx, stopWorker := context.WithCancel(context.WithoutCancel(ctx))
	workerDone := make(chan struct{})
	go func() {
		defer close(workerDone)
		w := &webhook.Worker{Store: st, Client: webhook.NewClient(*allowPrivateWebhooks), Logger: logger}
		w.Run(workerCtx)
	}()
	if sender != nil {
		// The message worker sends e-mail to clients as it comes due.
		mailDone := make(chan struct{})
		go func() {
			defer close(mailDone)
			w := &mail.Worker{Store: st, Sender: sender, Logger: logger, Lease: *mailLease}
			w.Run(workerCtx)
		}()
		defer func() {
			stopWorker()
			<-mailDone
		}()
	}
	defer func() {
		stopWorker()
		<-workerDone
	}()
	var token string
	if *demoData {
		if token, err = ensureDemo(ctx, st, stderr); err != nil {
			return err
		}
	}
	live, err := st.HasLiveAPIKey(ctx)
	if err != nil {
		return err
	}
	gate.open(newHandler(st, *publicURL, logger, m, lim))
	logger.Info("serving", "url", base+"/v1", "db", redactDB(*db))
	fmt.Fprintf(stdout, "practiced is serving %s/v1\n", base)
	if !live {
		fmt.Fprintf(stdout, "no API key yet; create one with:\n  practiced apikey create --business NAME --db '%s'\n", redactDB(*db))
	}
	if token != "" {
		fmt.Fprintf(stdout, "API key: %s\n", token)
		fmt.Fprintf(stdout, "try:     curl -H 'Authorization: Bearer %s' '%s/v1/clients?limit=2'\n", token, base)
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newHandler serves the API under /v1 and, beside it, the pages a
// clinic's clients open in a browser (package web).
// With m set, every request is counted in its metrics.
func newHandler(st *sqlstore.Store, publicURL string, logger *slog.Logger, m *metrics.Metrics, lim limits) http.Handler {
	pages := web.Routes(st, web.Options{PublicURL: publicURL, Logger: logger})
	if lim.limiter != nil {
		pages = web.PageLimit{Limiter: lim.limiter, PerMinute: lim.pageRate, Trusted: lim.trusted, Logger: logger}.Wrap(pages)
	}
	opt := httpapi.Options{PublicURL: publicURL, Logger: logger, Pages: pages, Limiter: lim.limiter, RatePerMinute: lim.rate,
		AllowPrivateWebhooks: lim.allowPrivateWebhooks, Messages: st.MessagesEnabled()}
	if m != nil {
		opt.Observe = m.ObserveRequest
	}
	return httpapi.NewServer(st, opt)
}

// limits are the rate limits serve applies: per API key, and per client
// address on the public pages.
type limits struct {
	limiter  ratelimit.Limiter
	rate     int
	pageRate int
	trusted  []netip.Prefix
	// allowPrivateWebhooks lets webhook endpoints name private addresses.
	allowPrivateWebhooks bool
}

// parsePrefixes reads comma-separated addresses and CIDR ranges.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR range", item)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// readiness is the server's handler: until open is called it answers
// /healthz (the process is alive) and /readyz with 503 (not ready yet),
// and everything else with 503 and Retry-After; then it hands every
// request to the real handler, and /readyz answers 200.
type readiness struct {
	next atomic.Pointer[http.Handler]
}

func (g *readiness) open(h http.Handler) { g.next.Store(&h) }

func (g *readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	next := g.next.Load()
	if r.URL.Path == "/readyz" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if next == nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"status":"starting"}`+"\n")
			return
		}
		io.WriteString(w, `{"status":"ready"}`+"\n")
		return
	}
	if next != nil {
		(*next).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if r.URL.Path == "/healthz" {
		io.WriteString(w, `{"status":"ok"}`+"\n")
		return
	}
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, `{"message":"The server is starting: its database is being opened and migrated. Try again in a few seconds."}`+"\n")
}

// serveMetrics serves m at /metrics on a listener of its own and returns
// the function that stops it. Metrics need no key: bind them to a
// loopback or otherwise private address.
func serveMetrics(addr string, m *metrics.Metrics, logger *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: --metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go srv.Serve(ln)
	logger.Info("serving metrics", "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}

// serveProfiles serves the runtime's profiles (net/http/pprof) on a
// listener of their own, so that they are never reachable through the
// API's address, and returns the function that stops it. The profiles
// need no key: bind them to a loopback or otherwise private address.
func serveProfiles(addr string, logger *slog.Logger, stdout io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: --pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go srv.Serve(ln)
	url := "http://" + ln.Addr().String() + "/debug/pprof/"
	logger.Info("profiles", "url", url)
	fmt.Fprintf(stdout, "profiles at %s\n", url)
	return func() { srv.Close() }, nil
}

// redactDB hides a database URL's password from logs.
func redactDB(url string) string {
	if u, err := parseURL(url); err == nil && u.User != nil {
		return u.Redacted()
	}
	return url
}

var _ practiced.Store = (*sqlstore.Store)(nil)
