// Package webhook delivers the change feed's events to the webhook
// endpoints of each business, from the durable outbox the store keeps:
// signed as the Standard Webhooks specification says, at least once,
// first attempts in feed order, an event never before an earlier event
// of the same record, retried with backoff for three days.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/poll"
)

// Tuning of deliveries; docs/webhooks.md states them.
const (
	// Timeout is how long a receiver has to answer.
	Timeout = 10 * time.Second
	// GiveUpAfter is how long a delivery is retried.
	GiveUpAfter = 72 * time.Hour
	// FirstRetry is the wait after a first failed attempt; each next
	// wait doubles, up to MaxRetryWait, with a tenth of random jitter.
	FirstRetry   = 5 * time.Second
	MaxRetryWait = time.Hour
	// lease is how long a claimed delivery is left to its process before
	// another may try it: longer than an attempt can take.
	lease = 2 * Timeout
	// SecretOverlap is how long a rotated secret still signs.
	SecretOverlap = 24 * time.Hour
	// MaxURL is the longest endpoint URL.
	MaxURL = 2000
	// Retention is how long deliveries that are no longer pending are
	// kept for GET …/deliveries.
	Retention = 30 * 24 * time.Hour
)

// NewSecret returns a new signing secret: "whsec_" and the base64 of 32
// random bytes.
func NewSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b[:]), nil
}

// Sign returns the webhook-signature header of a delivery: "v1," and the
// base64 HMAC-SHA256 of "id.timestamp.body" under each secret's key,
// separated by spaces.
func Sign(secrets []string, id string, timestamp time.Time, body []byte) (string, error) {
	var sigs []string
	for _, secret := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		if err != nil {
			return "", fmt.Errorf("webhook secret: %w", err)
		}
		mac := hmac.New(sha256.New, key)
		fmt.Fprintf(mac, "%s.%d.", id, timestamp.Unix())
		mac.Write(body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return strings.Join(sigs, " "), nil
}

// CheckURL returns why an endpoint URL is refused, or "": not an
// absolute https URL (http too when private targets are allowed), longer
// than MaxURL, or naming a host on a loopback, private or link-local
// network (unless allowPrivate). A host name is resolved with lookup;
// a name that does not resolve now is accepted, as every attempt checks
// the address it connects to again.
func CheckURL(raw string, allowPrivate bool, lookup func(host string) ([]netip.Addr, error)) string {
	if len(raw) > MaxURL {
		return fmt.Sprintf("must be at most %d characters", MaxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" {
		return "must be an absolute URL such as https://example.org/hooks/practiced, without credentials or a fragment"
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowPrivate:
	default:
		return "must be an https:// URL"
	}
	host := u.Hostname()
	if allowPrivate {
		return ""
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if !public(a) {
			return "must not name a loopback, private or link-local address"
		}
		return ""
	}
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return "must not name a loopback, private or link-local address"
	}
	addrs, err := lookup(host)
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if !public(a) {
			return fmt.Sprintf("must not resolve to a loopback, private or link-local address (%s resolves to %s)", host, a)
		}
	}
	return ""
}

// public reports whether a is an address a webhook may be sent to.
func public(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() &&
		!netip.MustParsePrefix("100.64.0.0/10").Contains(a) && !netip.MustParsePrefix("fc00::/7").Contains(a)
}

// LookupHost resolves a host name to its addresses.
func LookupHost(host string) ([]netip.Addr, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// NewClient returns the HTTP client deliveries go through: it never
// follows a redirect (a 3xx is a failed attempt), gives up after
// Timeout, and, unless allowPrivate, refuses to connect to an address
// that is not public, whatever the name resolved to when the endpoint
// was made.
func NewClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: Timeout}
	if !allowPrivate {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			a, err := netip.ParseAddr(host)
			if err != nil || !public(a) {
				return fmt.Errorf("refusing to connect to %s: not a public address", host)
			}
			return nil
		}
	}
	transport := &http.Transport{
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   Timeout,
		ResponseHeaderTimeout: Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Worker moves the outbox: it makes the deliveries of new events, and
// attempts the due ones, each endpoint's in feed order, endpoints side by
// side.
type Worker struct {
	Store  practiced.WebhookStore
	Client *http.Client
	Logger *slog.Logger
	Now    func() time.Time // nil means time.Now
	// Interval is the pause between rounds when there was nothing to do;
	// 0 means 500 ms.
	Interval time.Duration

	pruned time.Time // when deliveries past Retention were last deleted
}

// Run moves the outbox until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	interval := w.Interval
	if interval == 0 {
		interval = 500 * time.Millisecond
	}
	poll.Run(ctx, "webhooks", interval, w.logger(), w.RunOnce)
}

// RunOnce makes the deliveries of new events and attempts the due ones
// once; it returns how many deliveries it made and attempted.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	if now := w.now(); now.Sub(w.pruned) >= time.Minute {
		// Once a minute, a batch of deliveries past Retention goes.
		if _, err := w.Store.PruneWebhookDeliveries(ctx, practiced.NewTime(now.Add(-Retention)), 1000); err != nil {
			return 0, err
		}
		w.pruned = now
	}
	made, err := w.Store.FanOutWebhooks(ctx, practiced.NewTime(w.now()), 500)
	if err != nil {
		return 0, err
	}
	jobs, err := w.Store.ClaimWebhookJobs(ctx, practiced.NewTime(w.now()), lease, 200)
	if err != nil {
		return made, err
	}
	// One goroutine an endpoint: its deliveries go one after another, in
	// feed order; a slow endpoint holds up only its own. The store claims
	// no delivery while an earlier one of its record is pending, so an
	// event never overtakes an earlier event of its record.
	byEndpoint := map[string][]practiced.WebhookJob{}
	var order []string
	for _, j := range jobs {
		if _, ok := byEndpoint[j.Delivery.EndpointID]; !ok {
			order = append(order, j.Delivery.EndpointID)
		}
		byEndpoint[j.Delivery.EndpointID] = append(byEndpoint[j.Delivery.EndpointID], j)
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(jobs))
	for _, id := range order {
		wg.Go(func() {
			for _, j := range byEndpoint[id] {
				r := w.attempt(ctx, j)
				errs <- w.Store.FinishWebhookJob(ctx, j, r, practiced.NewTime(w.now()), GiveUpAfter)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return made + len(jobs), err
		}
	}
	return made + len(jobs), nil
}

// attempt sends one delivery and says what came of it.
func (w *Worker) attempt(ctx context.Context, j practiced.WebhookJob) practiced.WebhookResult {
	now := w.now()
	body, err := practiced.MarshalDoc(j.Event)
	if err != nil {
		return w.failed(j, now, 0, err.Error(), 0)
	}
	// The body is the event exactly as GET /v1/events/{id} answers it.
	body = append(body, '\n')
	sig, err := Sign(j.Secrets, j.Event.ID, now, body)
	if err != nil {
		return w.failed(j, now, 0, err.Error(), 0)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.URL, bytes.NewReader(body))
	if err != nil {
		return w.failed(j, now, 0, err.Error(), 0)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "practiced-webhooks")
	req.Header.Set("webhook-id", j.Event.ID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	start := time.Now()
	res, err := w.Client.Do(req)
	latency := time.Since(start)
	if err != nil {
		msg := err.Error()
		var uerr *url.Error
		if errors.As(err, &uerr) {
			msg = uerr.Err.Error()
		}
		return w.failed(j, now, 0, msg, latency)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return practiced.WebhookResult{Delivered: true, Status: res.StatusCode, Latency: latency}
	}
	return w.failed(j, now, res.StatusCode, "", latency)
}

// failed is a failed attempt's result, with the next attempt's time, or
// none after GiveUpAfter.
func (w *Worker) failed(j practiced.WebhookJob, now time.Time, status int, msg string, latency time.Duration) practiced.WebhookResult {
	r := practiced.WebhookResult{Status: status, Error: msg, Latency: latency}
	next := now.Add(Backoff(j.Delivery.Attempts))
	if next.Sub(j.FirstTry) <= GiveUpAfter {
		r.Next = ptr(practiced.NewTime(next))
	}
	return r
}

// Backoff is the wait after the attempt-th failed attempt: FirstRetry,
// doubling each time up to MaxRetryWait, plus up to a tenth of it at
// random, so that many deliveries failing together do not all come back
// at once.
func Backoff(attempt int) time.Duration {
	return poll.Backoff(attempt, FirstRetry, MaxRetryWait)
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

func (w *Worker) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func ptr[T any](v T) *T { return &v }
