package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/webhook"
)

// eachStore runs f on SQLite and, when PRACTICED_TEST_POSTGRES is set,
// on PostgreSQL.
func eachStore(t *testing.T, f func(t *testing.T, st *sqlstore.Store)) {
	t.Run("sqlite", func(t *testing.T) { f(t, testfix.SQLiteStore(t)) })
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv(testfix.PostgresEnv) == "" {
			t.Skip(testfix.PostgresEnv + " is not set: skipping the PostgreSQL webhook tests")
		}
		f(t, testfix.PostgresStore(t))
	})
}

// delivery is one request a receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// receiver records deliveries and answers each with what answer says.
type receiver struct {
	mu     sync.Mutex
	got    []delivery
	answer func(body []byte) int
	srv    *httptest.Server
}

func newReceiver(t *testing.T, answer func(body []byte) int) *receiver {
	r := &receiver{answer: answer}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivery{req.Header.Clone(), body})
		status := http.StatusNoContent
		if r.answer != nil {
			status = r.answer(body)
		}
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// env is an API server on a store, a clinic, and a worker whose clock
// the test moves.
type env struct {
	t      *testing.T
	st     *sqlstore.Store
	api    *httptest.Server
	clinic *testfix.Clinic
	now    time.Time
	worker *webhook.Worker
}

func newEnv(t *testing.T, st *sqlstore.Store) *env {
	e := &env{t: t, st: st, now: time.Now().Truncate(time.Second)}
	e.clinic = testfix.NewClinic(t, st, "Hooked Clinic")
	e.api = httptest.NewServer(httpapi.NewServer(st, httpapi.Options{AllowPrivateWebhooks: true}))
	t.Cleanup(e.api.Close)
	e.worker = &webhook.Worker{Store: st, Client: webhook.NewClient(true), Now: func() time.Time { return e.now }}
	return e
}

func (e *env) call(method, path string, body any, want int) map[string]any {
	e.t.Helper()
	raw, _ := e.callRaw(method, path, body, want)
	var v map[string]any
	json.Unmarshal(raw, &v)
	return v
}

func (e *env) callRaw(method, path string, body any, want int) ([]byte, http.Header) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.api.URL+path, rd)
	req.Header.Set("Authorization", "Bearer "+e.clinic.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		e.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, raw)
	}
	return raw, res.Header
}

// endpoint creates an endpoint and returns its id and secret.
func (e *env) endpoint(url string, types ...string) (string, string) {
	e.t.Helper()
	ep := e.call("POST", "/v1/webhook_endpoints", map[string]any{"url": url, "event_types": types}, http.StatusCreated)
	return ep["id"].(string), ep["secret"].(string)
}

func (e *env) run() {
	e.t.Helper()
	if _, err := e.worker.RunOnce(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// verify checks a delivery with the Standard Webhooks library's own
// verifier and returns its event id.
func verify(t *testing.T, d delivery, secret string) string {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.VerifyIgnoringTimestamp(d.body, d.header); err != nil {
		t.Errorf("the signature of %s does not verify: %v", d.header.Get("webhook-id"), err)
	}
	return d.header.Get("webhook-id")
}

func TestDeliveriesAreSignedTheEventAndInFeedOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, st *sqlstore.Store) {
		e := newEnv(t, st)
		rcv := newReceiver(t, nil)
		_, secret := e.endpoint(rcv.srv.URL+"/hooks", "client.*", "busy_time.deleted")
		for _, name := range []string{"Ann", "Ben", "Cat"} {
			e.call("POST", "/v1/clients", map[string]any{"first_name": name, "last_name": "Hook"}, http.StatusCreated)
		}
		// A busy time's creation is not asked for.
		e.call("POST", "/v1/busy_times", map[string]any{"location_id": e.clinic.Sydney.ID, "practitioner_id": e.clinic.Alice.ID,
			"starts_at": "2026-03-10T09:00:00+11:00", "ends_at": "2026-03-10T10:00:00+11:00"}, http.StatusCreated)
		e.run()

		feed := e.call("GET", "/v1/events?type=client.created&limit=100", nil, http.StatusOK)["data"].([]any)
		got := rcv.deliveries()
		if len(got) != 3 || len(feed) != 3 {
			t.Fatalf("%d deliveries of %d client events, want 3", len(got), len(feed))
		}
		for i, d := range got {
			id := verify(t, d, secret)
			want := feed[i].(map[string]any)["id"].(string)
			if id != want {
				t.Errorf("delivery %d is %s, want %s (feed order)", i, id, want)
			}
			body, _ := e.callRaw("GET", "/v1/events/"+id, nil, http.StatusOK)
			if !bytes.Equal(d.body, body) {
				t.Errorf("delivery %d body\n%s\nwant GET /v1/events/%s\n%s", i, d.body, id, body)
			}
			if ts := d.header.Get("webhook-timestamp"); ts != strconv.FormatInt(e.now.Unix(), 10) {
				t.Errorf("webhook-timestamp %s, want %d", ts, e.now.Unix())
			}
		}
		// Each was delivered once: another round sends nothing.
		e.run()
		if n := len(rcv.deliveries()); n != 3 {
			t.Errorf("after another round %d deliveries, want 3", n)
		}
	})
}

// TestAFailingEventHoldsBackOnlyItsRecord fails the first delivery of one
// client: the other client's event goes, the failing client's later
// event waits, and after the retry both come in order.
func TestAFailingEventHoldsBackOnlyItsRecord(t *testing.T) {
	eachStore(t, func(t *testing.T, st *sqlstore.Store) {
		e := newEnv(t, st)
		failOnce := true
		rcv := newReceiver(t, func(body []byte) int {
			if failOnce && bytes.Contains(body, []byte(`"first_name":"Ann"`)) {
				failOnce = false
				return http.StatusInternalServerError
			}
			return http.StatusOK
		})
		epID, secret := e.endpoint(rcv.srv.URL, "client.*")
		ann := e.call("POST", "/v1/clients", map[string]any{"first_name": "Ann", "last_name": "A"}, http.StatusCreated)
		e.call("POST", "/v1/clients", map[string]any{"first_name": "Ben", "last_name": "B"}, http.StatusCreated)
		e.call("POST", "/v1/clients/"+ann["id"].(string), map[string]any{"notes": "moved"}, http.StatusOK)
		e.run()

		got := rcv.deliveries()
		if len(got) != 2 || !bytes.Contains(got[0].body, []byte(`"Ann"`)) || !bytes.Contains(got[1].body, []byte(`"Ben"`)) {
			t.Fatalf("first round: %d deliveries, want Ann's (failed) then Ben's", len(got))
		}
		ds := e.call("GET", "/v1/webhook_endpoints/"+epID+"/deliveries", nil, http.StatusOK)["data"].([]any)
		statuses := map[string]map[string]any{}
		for _, d := range ds {
			d := d.(map[string]any)
			statuses[d["event_type"].(string)+" "+d["status"].(string)] = d
		}
		failed := statuses["client.created pending"]
		if failed == nil || failed["attempts"] != float64(1) || failed["last_response_status"] != float64(500) {
			t.Fatalf("deliveries after the first round: %v", ds)
		}
		next, _ := time.Parse(time.RFC3339, failed["next_attempt_at"].(string))
		if wait := next.Sub(e.now); wait < webhook.FirstRetry || wait > webhook.FirstRetry+webhook.FirstRetry/10+time.Second {
			t.Errorf("the retry is due after %v, want about %v", wait, webhook.FirstRetry)
		}
		if statuses["client.updated pending"] == nil || statuses["client.updated pending"]["attempts"] != float64(0) {
			t.Errorf("Ann's update was attempted before her creation was delivered: %v", ds)
		}

		// Not due yet: nothing goes.
		e.run()
		if n := len(rcv.deliveries()); n != 2 {
			t.Fatalf("before the retry is due: %d deliveries", n)
		}
		e.now = e.now.Add(7 * time.Second)
		e.run()
		e.run()
		got = rcv.deliveries()
		if len(got) != 4 {
			t.Fatalf("after the retry %d deliveries, want 4", len(got))
		}
		var annEvents []string
		for _, d := range got[2:] {
			id := verify(t, d, secret)
			ev := e.call("GET", "/v1/events/"+id, nil, http.StatusOK)
			annEvents = append(annEvents, ev["type"].(string))
		}
		if strings.Join(annEvents, ",") != "client.created,client.updated" {
			t.Errorf("Ann's events arrived as %v", annEvents)
		}
	})
}

// TestBadReceiversAreRetriedAndBlockNoOther gives one endpoint a receiver
// that redirects and one that hangs; the third endpoint is served in the
// same round.
func TestBadReceiversAreRetriedAndBlockNoOther(t *testing.T) {
	st := testfix.SQLiteStore(t)
	e := newEnv(t, st)
	client := webhook.NewClient(true)
	client.Timeout = 300 * time.Millisecond
	e.worker.Client = client
	redirect := httptest.NewServer(http.RedirectHandler("https://example.org/elsewhere", http.StatusFound))
	defer redirect.Close()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer hang.Close()
	defer close(release)
	// A receiver that closes the connection without answering.
	closer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer closer.Close()
	good := newReceiver(t, nil)
	redirectID, _ := e.endpoint(redirect.URL, "*")
	hangID, _ := e.endpoint(hang.URL, "*")
	closerID, _ := e.endpoint(closer.URL, "*")
	e.endpoint(good.srv.URL, "*")
	e.call("POST", "/v1/clients", map[string]any{"first_name": "Dee", "last_name": "D"}, http.StatusCreated)
	start := time.Now()
	e.run()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the round took %v", took)
	}
	if n := len(good.deliveries()); n != 1 {
		t.Errorf("the good receiver got %d deliveries, want 1", n)
	}
	for id, want := range map[string]string{redirectID: "302", hangID: "error", closerID: "error"} {
		d := e.call("GET", "/v1/webhook_endpoints/"+id+"/deliveries", nil, http.StatusOK)["data"].([]any)[0].(map[string]any)
		if d["status"] != "pending" || d["attempts"] != float64(1) {
			t.Errorf("%s: %v", want, d)
		}
		switch want {
		case "302":
			if d["last_response_status"] != float64(302) {
				t.Errorf("the redirect was recorded as %v", d["last_response_status"])
			}
		case "error":
			if d["last_response_status"] != nil || d["last_error"] == nil {
				t.Errorf("the hanging receiver was recorded as %v, %v", d["last_response_status"], d["last_error"])
			}
		}
	}
}

// TestAnEndpointFailingThreeDaysIsDisabled gives up a delivery after
// three days of failures and disables its endpoint, saying why.
func TestAnEndpointFailingThreeDaysIsDisabled(t *testing.T) {
	eachStore(t, func(t *testing.T, st *sqlstore.Store) {
		e := newEnv(t, st)
		rcv := newReceiver(t, func([]byte) int { return http.StatusServiceUnavailable })
		epID, _ := e.endpoint(rcv.srv.URL, "client.created")
		e.call("POST", "/v1/clients", map[string]any{"first_name": "Eve", "last_name": "E"}, http.StatusCreated)
		e.run()
		for range 40 {
			e.now = e.now.Add(2 * time.Hour)
			e.run()
		}
		ep := e.call("GET", "/v1/webhook_endpoints/"+epID, nil, http.StatusOK)
		if ep["enabled"] != false || ep["disabled_reason"] != "Disabled after failing for 72 hours: the last attempt answered status 503." {
			t.Errorf("after 80 hours of failures: enabled %v, disabled_reason %v", ep["enabled"], ep["disabled_reason"])
		}
		d := e.call("GET", "/v1/webhook_endpoints/"+epID+"/deliveries", nil, http.StatusOK)["data"].([]any)[0].(map[string]any)
		if d["status"] != "failed" || d["next_attempt_at"] != nil {
			t.Errorf("the delivery: %v", d)
		}
		attempts := len(rcv.deliveries())
		// Enabled again by hand, with the delivery retried: it goes.
		rcv.mu.Lock()
		rcv.answer = nil
		rcv.mu.Unlock()
		ep = e.call("POST", "/v1/webhook_endpoints/"+epID, map[string]any{"enabled": true}, http.StatusOK)
		if ep["enabled"] != true || ep["disabled_reason"] != nil {
			t.Errorf("enabled again: %v", ep)
		}
		e.call("POST", "/v1/webhook_endpoints/"+epID+"/deliveries/"+d["id"].(string)+"/retry", nil, http.StatusOK)
		e.run()
		if n := len(rcv.deliveries()); n != attempts+1 {
			t.Errorf("after the retry %d attempts, want %d", n, attempts+1)
		}
		d = e.call("GET", "/v1/webhook_endpoints/"+epID+"/deliveries", nil, http.StatusOK)["data"].([]any)[0].(map[string]any)
		if d["status"] != "delivered" {
			t.Errorf("the retried delivery: %v", d)
		}
	})
}

// TestRotatedSecretsSignTogether rotates an endpoint's secret: for a day
// deliveries carry a signature under each, and either verifies.
func TestRotatedSecretsSignTogether(t *testing.T) {
	st := testfix.SQLiteStore(t)
	e := newEnv(t, st)
	rcv := newReceiver(t, nil)
	epID, old := e.endpoint(rcv.srv.URL, "client.created")
	rotated := e.call("POST", "/v1/webhook_endpoints/"+epID+"/rotate_secret", nil, http.StatusOK)
	fresh := rotated["secret"].(string)
	if fresh == old || !strings.HasPrefix(fresh, "whsec_") {
		t.Fatalf("rotated to %q", fresh)
	}
	e.call("POST", "/v1/clients", map[string]any{"first_name": "Fay", "last_name": "F"}, http.StatusCreated)
	e.run()
	d := rcv.deliveries()[0]
	if sigs := strings.Fields(d.header.Get("webhook-signature")); len(sigs) != 2 {
		t.Errorf("webhook-signature %q, want two", d.header.Get("webhook-signature"))
	}
	verify(t, d, old)
	verify(t, d, fresh)
	// A day later only the new secret signs.
	e.now = e.now.Add(webhook.SecretOverlap + time.Minute)
	e.call("POST", "/v1/clients", map[string]any{"first_name": "Gus", "last_name": "G"}, http.StatusCreated)
	e.run()
	d = rcv.deliveries()[1]
	if sigs := strings.Fields(d.header.Get("webhook-signature")); len(sigs) != 1 {
		t.Errorf("webhook-signature %q, want one", d.header.Get("webhook-signature"))
	}
	verify(t, d, fresh)
	// The record never shows a secret.
	body, _ := e.callRaw("GET", "/v1/webhook_endpoints/"+epID, nil, http.StatusOK)
	if bytes.Contains(body, []byte("whsec_")) || bytes.Contains(body, []byte(`"secret"`)) {
		t.Errorf("GET shows a secret: %s", body)
	}
}

func TestSignMatchesTheSpecification(t *testing.T) {
	secret, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_700_000_000, 0)
	body := []byte(`{"id":"evt_1"}` + "\n")
	got, err := webhook.Sign([]string{secret}, "evt_1", at, body)
	if err != nil {
		t.Fatal(err)
	}
	wh, _ := standardwebhooks.NewWebhook(secret)
	want, err := wh.Sign("evt_1", at, body)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Sign = %q, the specification's library signs %q", got, want)
	}
	if _, err := webhook.Sign([]string{"whsec_not base64!"}, "evt_1", at, body); err == nil {
		t.Error("a secret that is not base64 was used")
	}
}

func TestCheckURL(t *testing.T) {
	lookup := func(host string) ([]netip.Addr, error) {
		switch host {
		case "hooks.example.org":
			return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
		case "internal.example.org":
			return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.1.2.3")}, nil
		}
		return nil, errNoHost
	}
	long := "https://hooks.example.org/" + strings.Repeat("a", webhook.MaxURL)
	for _, c := range []struct {
		url          string
		allowPrivate bool
		want         string
	}{
		{"https://hooks.example.org/practiced", false, ""},
		{"https://unknown.example.org/x", false, ""},
		{"http://hooks.example.org/x", false, "must be an https:// URL"},
		{"http://127.0.0.1:8080/x", true, ""},
		{"ftp://hooks.example.org/x", true, "must be an https:// URL"},
		{"https://127.0.0.1/x", false, "must not name a loopback, private or link-local address"},
		{"https://[::1]/x", false, "must not name a loopback, private or link-local address"},
		{"https://169.254.169.254/latest", false, "must not name a loopback, private or link-local address"},
		{"https://192.168.1.10/x", false, "must not name a loopback, private or link-local address"},
		{"https://localhost/x", false, "must not name a loopback, private or link-local address"},
		{"https://internal.example.org/x", false, "must not resolve to a loopback, private or link-local address (internal.example.org resolves to 10.1.2.3)"},
		{"https://user:pw@hooks.example.org/x", false, "must be an absolute URL such as https://example.org/hooks/practiced, without credentials or a fragment"},
		{"/relative", false, "must be an absolute URL such as https://example.org/hooks/practiced, without credentials or a fragment"},
		{long, false, "must be at most 2000 characters"},
	} {
		if got := webhook.CheckURL(c.url, c.allowPrivate, lookup); got != c.want {
			t.Errorf("CheckURL(%.60q, %v) = %q, want %q", c.url, c.allowPrivate, got, c.want)
		}
	}
}

var errNoHost = errors.New("no such host")

// TestNoConnectionToAPrivateAddress: without the allow flag, the client
// refuses to connect to a loopback receiver whatever the URL said.
func TestNoConnectionToAPrivateAddress(t *testing.T) {
	rcv := newReceiver(t, nil)
	_, err := webhook.NewClient(false).Post(rcv.srv.URL, "application/json", strings.NewReader("{}"))
	if err == nil || !strings.Contains(err.Error(), "not a public address") {
		t.Errorf("posting to %s: %v", rcv.srv.URL, err)
	}
	if n := len(rcv.deliveries()); n != 0 {
		t.Errorf("the receiver got %d requests", n)
	}
}

func TestBackoff(t *testing.T) {
	for attempt, want := range map[int]time.Duration{1: 5 * time.Second, 2: 10 * time.Second, 3: 20 * time.Second, 11: webhook.MaxRetryWait, 50: webhook.MaxRetryWait} {
		for range 20 {
			if got := webhook.Backoff(attempt); got < want || got > want+want/10 {
				t.Errorf("Backoff(%d) = %v, want %v to %v", attempt, got, want, want+want/10)
			}
		}
	}
}

// TestTwoWorkersAttemptEachDeliveryOnce runs two workers, each with a
// store of its own on one database as two server processes have, side
// by side: every event arrives exactly once.
func TestTwoWorkersAttemptEachDeliveryOnce(t *testing.T) {
	t.Run("postgres", func(t *testing.T) {
		url := testfix.PostgresURL(t)
		a, err := sqlstore.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		b, err := sqlstore.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		e := newEnv(t, a)
		rcv := newReceiver(t, nil)
		e.endpoint(rcv.srv.URL, "*")
		e.endpoint(rcv.srv.URL+"/second", "client.created")
		for i := range 60 {
			e.call("POST", "/v1/clients", map[string]any{"first_name": "Twin", "last_name": strconv.Itoa(i)}, http.StatusCreated)
		}
		var wg sync.WaitGroup
		for _, st := range []*sqlstore.Store{a, b} {
			w := &webhook.Worker{Store: st, Client: webhook.NewClient(true), Now: func() time.Time { return e.now }}
			wg.Go(func() {
				for range 20 {
					if _, err := w.RunOnce(context.Background()); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		got := rcv.deliveries()
		if len(got) != 120 {
			t.Errorf("%d deliveries of 60 events to two endpoints, want 120", len(got))
		}
		perEndpoint := map[string]int{}
		for _, d := range got {
			perEndpoint[d.header.Get("webhook-id")]++
		}
		for id, n := range perEndpoint {
			if n != 2 {
				t.Errorf("event %s arrived %d times, want once at each endpoint", id, n)
			}
		}
	})
}

// TestDeliveriesAreKeptThirtyDays: a delivered delivery goes after
// Retention; a pending one stays however old.
func TestDeliveriesAreKeptThirtyDays(t *testing.T) {
	eachStore(t, func(t *testing.T, st *sqlstore.Store) {
		e := newEnv(t, st)
		ok := newReceiver(t, nil)
		failing := newReceiver(t, func([]byte) int { return http.StatusBadGateway })
		okID, _ := e.endpoint(ok.srv.URL, "client.created")
		failingID, _ := e.endpoint(failing.srv.URL, "client.created")
		e.call("POST", "/v1/clients", map[string]any{"first_name": "Ivy", "last_name": "I"}, http.StatusCreated)
		e.run()
		count := func(id string) int {
			return len(e.call("GET", "/v1/webhook_endpoints/"+id+"/deliveries", nil, http.StatusOK)["data"].([]any))
		}
		if count(okID) != 1 || count(failingID) != 1 {
			t.Fatalf("deliveries %d and %d, want 1 and 1", count(okID), count(failingID))
		}
		e.now = e.now.Add(webhook.Retention - time.Hour)
		e.run()
		if count(okID) != 1 {
			t.Errorf("a delivery went before %v", webhook.Retention)
		}
		e.now = e.now.Add(2 * time.Hour)
		e.run()
		if count(okID) != 0 {
			t.Errorf("a delivered delivery was kept past %v", webhook.Retention)
		}
		// The failing one was given up after three days, then kept for
		// thirty, and goes too; a pending one would stay.
		if count(failingID) != 0 {
			t.Errorf("a failed delivery was kept past %v", webhook.Retention)
		}
	})
}
