package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// keyed returns the headers of a JSON POST with the token and an
// Idempotency-Key.
func keyed(token, key string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}, "Idempotency-Key": {key}}
}

// countTags returns how many tags the business of the token has.
func (e *env) countTags(token string) int {
	e.t.Helper()
	return len(e.do("GET", "/v1/tags?limit=100", token, nil).page(e.t).Data)
}

// wantReplay fails unless got replays first: the same status, body bytes
// and body headers, with Idempotent-Replayed: true and a request id of
// its own.
func wantReplay(t *testing.T, got, first response) {
	t.Helper()
	if got.Status != first.Status || !bytes.Equal(got.Body, first.Body) {
		t.Fatalf("replay %d %s, want %d %s", got.Status, got.Body, first.Status, first.Body)
	}
	for _, h := range []string{"Content-Type", "Location"} {
		if got.Header.Get(h) != first.Header.Get(h) {
			t.Errorf("replay's %s %q, want %q", h, got.Header.Get(h), first.Header.Get(h))
		}
	}
	if v := got.Header.Get("Idempotent-Replayed"); v != "true" {
		t.Errorf("replay's Idempotent-Replayed %q, want true", v)
	}
	if got.Header.Get("X-Request-Id") == "" || got.Header.Get("X-Request-Id") == first.Header.Get("X-Request-Id") {
		t.Errorf("replay's X-Request-Id %q, want one of its own", got.Header.Get("X-Request-Id"))
	}
}

func TestIdempotencyKeyReplaysTheFirstAnswer(t *testing.T) {
	e := newEnv(t)
	before := e.countTags(e.a.Token)
	first := e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-1"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, first, http.StatusCreated)
	if v := first.Header.Get("Idempotent-Replayed"); v != "" {
		t.Errorf("first answer's Idempotent-Replayed %q, want none", v)
	}
	for range 2 {
		wantReplay(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-1"), strings.NewReader(`{"name":"Runner"}`)), first)
	}
	if n := e.countTags(e.a.Token); n != before+1 {
		t.Errorf("%d tags, want %d: the request ran more than once", n, before+1)
	}

	t.Run("a refusal of the request is replayed too", func(t *testing.T) {
		first := e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-2"), strings.NewReader(`{"name":""}`))
		wantStatus(t, first, http.StatusUnprocessableEntity)
		wantReplay(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-2"), strings.NewReader(`{"name":""}`)), first)
	})
	t.Run("a request without a key runs every time", func(t *testing.T) {
		n := e.countTags(e.a.Token)
		for range 2 {
			wantStatus(t, e.do("POST", "/v1/tags", e.a.Token, map[string]any{"name": "Runner"}), http.StatusCreated)
		}
		if got := e.countTags(e.a.Token); got != n+2 {
			t.Errorf("%d tags, want %d", got, n+2)
		}
	})
	t.Run("a key is replayed for a day, then free", func(t *testing.T) {
		n := e.countTags(e.a.Token)
		first := e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-3"), strings.NewReader(`{"name":"Daily"}`))
		wantStatus(t, first, http.StatusCreated)
		e.clock = e.clock.Add(practiced.IdempotencyTTL - time.Second)
		wantReplay(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-3"), strings.NewReader(`{"name":"Daily"}`)), first)
		e.clock = e.clock.Add(time.Second)
		again := e.send("POST", "/v1/tags", keyed(e.a.Token, "tag-3"), strings.NewReader(`{"name":"Daily"}`))
		wantStatus(t, again, http.StatusCreated)
		if again.Header.Get("Idempotent-Replayed") != "" || bytes.Equal(again.Body, first.Body) {
			t.Errorf("a day later the key replayed %s", again.Body)
		}
		if got := e.countTags(e.a.Token); got != n+2 {
			t.Errorf("%d tags, want %d", got, n+2)
		}
	})
}

func TestIdempotencyKeyWithAnotherRequestIs422(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`)), http.StatusCreated)
	want := `{"message": "Idempotency-Key was already used with a different request; send a new key for a new request",
		"errors": {"Idempotency-Key": ["was already used with a different request; send a new key for a new request"]}}`
	for _, other := range []struct{ path, body string }{
		{"/v1/tags", `{"name":"Swimmer"}`},
		{"/v1/tags", `{"name": "Runner"}`},
		{"/v1/referral_types", `{"name":"Runner"}`},
		{"/v1/tags?x=1", `{"name":"Runner"}`},
	} {
		wantBody(t, e.send("POST", other.path, keyed(e.a.Token, "k"), strings.NewReader(other.body)), http.StatusUnprocessableEntity, want)
	}
}

func TestIdempotencyKeyMustBePrintableASCII(t *testing.T) {
	e := newEnv(t)
	want := `{"message": "Idempotency-Key must be 1 to 255 printable ASCII characters",
		"errors": {"Idempotency-Key": ["must be 1 to 255 printable ASCII characters"]}}`
	for _, key := range []string{"", strings.Repeat("k", 256), "caf\u00e9", "tab\there"} {
		wantBody(t, e.send("POST", "/v1/tags", keyed(e.a.Token, key), strings.NewReader(`{"name":"Runner"}`)), http.StatusUnprocessableEntity, want)
	}
	h := keyed(e.a.Token, "one")
	h.Add("Idempotency-Key", "two")
	wantBody(t, e.send("POST", "/v1/tags", h, strings.NewReader(`{"name":"Runner"}`)), http.StatusUnprocessableEntity,
		`{"message": "Idempotency-Key must be sent once", "errors": {"Idempotency-Key": ["must be sent once"]}}`)
	for _, key := range []string{"k", strings.Repeat("k", 255), " ~!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ x"} {
		wantStatus(t, e.send("POST", "/v1/tags", keyed(e.a.Token, key), strings.NewReader(`{"name":"Runner"}`)), http.StatusCreated)
	}
}

func TestIdempotencyKeyOfAReadOnlyKeyIsNotClaimed(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.send("POST", "/v1/tags", keyed(e.a.ReadOnlyToken, "k"), strings.NewReader(`{"name":"Runner"}`)), http.StatusForbidden)
	ro, err := e.st.APIKeyByHash(t.Context(), practiced.HashToken(e.a.ReadOnlyToken))
	if err != nil {
		t.Fatal(err)
	}
	claim := practiced.IdempotencyKey{APIKeyID: ro.ID, Key: "k", RequestHash: "h", ClaimID: "probe",
		CreatedAt: e.clock, LeaseUntil: e.clock.Add(time.Minute)}
	got, err := e.st.ClaimIdempotencyKey(t.Context(), claim)
	if err != nil {
		t.Fatal(err)
	}
	if got.ClaimID != claim.ClaimID {
		t.Errorf("the read-only key's 403 claimed the key: %+v", got)
	}
}

func TestIdempotencyKeysOfDifferentAPIKeysDoNotCollide(t *testing.T) {
	e := newEnv(t)
	second := testfix.Key(t, e.st, e.a.Business.ID, false)
	n := e.countTags(e.a.Token)
	a := e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, a, http.StatusCreated)
	b := e.send("POST", "/v1/tags", keyed(second, "k"), strings.NewReader(`{"name":"Swimmer"}`))
	wantStatus(t, b, http.StatusCreated)
	c := e.send("POST", "/v1/tags", keyed(e.b.Token, "k"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, c, http.StatusCreated)
	if b.Header.Get("Idempotent-Replayed") != "" || c.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("another API key's request was replayed")
	}
	if got := e.countTags(e.a.Token); got != n+2 {
		t.Errorf("%d tags, want %d", got, n+2)
	}
}

// gatedStore runs hook, when set, before every CreateNamed. While
// crashed, it neither saves nor releases Idempotency-Keys, as a server
// killed mid-request would not.
type gatedStore struct {
	practiced.Store
	hook    func() error
	crashed bool
}

func (g *gatedStore) SaveIdempotentAnswer(ctx context.Context, apiKeyID, key, claimID string, a practiced.IdempotentAnswer) error {
	if g.crashed {
		return nil
	}
	return g.Store.SaveIdempotentAnswer(ctx, apiKeyID, key, claimID, a)
}

func (g *gatedStore) ReleaseIdempotencyKey(ctx context.Context, apiKeyID, key, claimID string) error {
	if g.crashed {
		return nil
	}
	return g.Store.ReleaseIdempotencyKey(ctx, apiKeyID, key, claimID)
}

func (g *gatedStore) CreateNamed(ctx context.Context, businessID string, n *practiced.Named) error {
	if g.hook != nil {
		if err := g.hook(); err != nil {
			return err
		}
	}
	return g.Store.CreateNamed(ctx, businessID, n)
}

// gatedEnv is newEnv on a gatedStore.
func gatedEnv(t *testing.T) (*env, *gatedStore) {
	e := newEnv(t)
	g := &gatedStore{Store: e.st}
	srv := httptest.NewServer(httpapi.NewServer(g, httpapi.Options{Now: func() time.Time { return e.clock }}))
	t.Cleanup(srv.Close)
	e.srv = srv
	return e, g
}

// post sends a keyed POST with a plain client, for answers the test
// checks itself (a 409 belongs to no single operation).
func post(t *testing.T, url, token, key, body string) response {
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return response{}
	}
	req.Header = keyed(token, key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return response{}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

func TestIdempotencyKeyWhileTheFirstRequestRunsIs409(t *testing.T) {
	e, g := gatedEnv(t)
	entered, release := make(chan struct{}), make(chan struct{})
	g.hook = func() error {
		close(entered)
		<-release
		return nil
	}
	done := make(chan response)
	go func() { done <- post(t, e.srv.URL+"/v1/tags", e.a.Token, "k", `{"name":"Runner"}`) }()
	<-entered
	busy := post(t, e.srv.URL+"/v1/tags", e.a.Token, "k", `{"name":"Runner"}`)
	wantBody(t, busy, http.StatusConflict, `{"message": "A request with this Idempotency-Key is still running; retry later."}`)
	if busy.Header.Get("Retry-After") != "1" || busy.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("409's headers %v, want Retry-After: 1 and no Idempotent-Replayed", busy.Header)
	}
	close(release)
	first := <-done
	wantStatus(t, first, http.StatusCreated)
	g.hook = nil
	wantReplay(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`)), first)
}

func TestIdempotencyKeyIsReleasedByAFailure(t *testing.T) {
	e, g := gatedEnv(t)
	n := e.countTags(e.a.Token)
	g.hook = func() error { return errors.New("disk on fire") }
	wantStatus(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`)), http.StatusInternalServerError)
	g.hook = func() error { panic("handler bug") }
	wantStatus(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`)), http.StatusInternalServerError)
	g.hook = func() error { return practiced.ErrSlotTaken }
	wantStatus(t, post(t, e.srv.URL+"/v1/tags", e.a.Token, "k", `{"name":"Runner"}`), http.StatusConflict)
	g.hook = nil
	first := e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, first, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the retry after failures was a replay")
	}
	if got := e.countTags(e.a.Token); got != n+1 {
		t.Errorf("%d tags, want %d", got, n+1)
	}
}

func TestIdempotencyKeyOfACrashedRequestIsFreeAfterItsLease(t *testing.T) {
	e, g := gatedEnv(t)
	// The server dies mid-request: it neither answers nor releases.
	g.crashed = true
	g.hook = func() error { return errors.New("killed") }
	post(t, e.srv.URL+"/v1/tags", e.a.Token, "k", `{"name":"Runner"}`)
	g.crashed, g.hook = false, nil
	e.clock = e.clock.Add(practiced.IdempotencyLease - time.Second)
	wantStatus(t, post(t, e.srv.URL+"/v1/tags", e.a.Token, "k", `{"name":"Runner"}`), http.StatusConflict)
	e.clock = e.clock.Add(time.Second)
	first := e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, first, http.StatusCreated)
	wantReplay(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`)), first)
}

// duplicates sends n copies of one keyed POST at once, spread over the
// servers, and checks that exactly one ran: the others are 409s or
// replays of its answer.
func duplicates(t *testing.T, urls []string, token string, n int) {
	t.Helper()
	answers := make([]response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			answers[i] = post(t, urls[i%len(urls)]+"/v1/tags", token, "dup", `{"name":"Duplicate"}`)
		})
	}
	close(start)
	wg.Wait()
	var ran []response
	var replays []response
	for _, a := range answers {
		switch {
		case a.Status == http.StatusCreated && a.Header.Get("Idempotent-Replayed") == "":
			ran = append(ran, a)
		case a.Status == http.StatusCreated:
			replays = append(replays, a)
		case a.Status != http.StatusConflict:
			t.Fatalf("a duplicate answered %d %s", a.Status, a.Body)
		}
	}
	if len(ran) != 1 {
		t.Fatalf("%d of %d duplicates ran, want 1", len(ran), n)
	}
	for _, a := range replays {
		if !bytes.Equal(a.Body, ran[0].Body) {
			t.Fatalf("a replay's body %s, want %s", a.Body, ran[0].Body)
		}
	}
	t.Logf("%d duplicates: 1 ran, %d replayed, %d were told to retry", n, len(replays), n-1-len(replays))
}

func TestIdempotencyKeyOfConcurrentDuplicatesRunsOnce(t *testing.T) {
	e := newEnv(t)
	n := e.countTags(e.a.Token)
	duplicates(t, []string{e.srv.URL}, e.a.Token, 16)
	if got := e.countTags(e.a.Token); got != n+1 {
		t.Errorf("%d tags, want %d", got, n+1)
	}
}

// TestIdempotencyKeyHoldsAcrossServers runs two servers, each with a
// store of its own, on one PostgreSQL database, as two processes would.
func TestIdempotencyKeyHoldsAcrossServers(t *testing.T) {
	url := testfix.PostgresURL(t)
	var urls []string
	var stores []*sqlstore.Store
	for range 2 {
		st, err := sqlstore.Open(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stores = append(stores, st)
		srv := httptest.NewServer(httpapi.NewServer(st, httpapi.Options{}))
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
	}
	clinic := testfix.NewClinic(t, stores[0], "Clinic A")
	duplicates(t, urls, clinic.Token, 16)
	tags, _, err := stores[1].ListNamedDocs(t.Context(), clinic.Business.ID, practiced.PrefixTag, practiced.ListFilter{}, practiced.PageRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if want := 2; len(tags) != want { // the clinic's own tag and one duplicate
		t.Errorf("%d tags, want %d", len(tags), want)
	}
	first := post(t, urls[0]+"/v1/tags", clinic.Token, "dup", `{"name":"Duplicate"}`)
	second := post(t, urls[1]+"/v1/tags", clinic.Token, "dup", `{"name":"Duplicate"}`)
	if first.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(first.Body, second.Body) || first.Status != second.Status {
		t.Errorf("the servers replay different answers:\n%d %s\n%d %s", first.Status, first.Body, second.Status, second.Body)
	}
	other := post(t, urls[1]+"/v1/tags", clinic.Token, "dup", `{"name":"Other"}`)
	if other.Status != http.StatusUnprocessableEntity {
		t.Errorf("another request with the key on the other server: %d %s", other.Status, other.Body)
	}
}

// A body over the size limit is refused before the request runs, so it
// claims no key: the key then runs the first request that fits.
func TestIdempotencyKeyOfAnOversizedBodyIsNotClaimed(t *testing.T) {
	e := newEnv(t)
	big := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	wantStatus(t, e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(big)), http.StatusRequestEntityTooLarge)
	r := e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, r, http.StatusCreated)
	if v := r.Header.Get("Idempotent-Replayed"); v != "" {
		t.Errorf("Idempotent-Replayed %q after a 413, want none: the 413 claimed the key", v)
	}
}

// Only POST reads the header: a GET with a key that would be refused on
// a POST is answered as without it, every time.
func TestIdempotencyKeyIsIgnoredByOtherMethods(t *testing.T) {
	e := newEnv(t)
	h := http.Header{"Authorization": {"Bearer " + e.a.Token}, "Idempotency-Key": {""}}
	for range 2 {
		r := e.send("GET", "/v1/tags", h, nil)
		wantStatus(t, r, http.StatusOK)
		if v := r.Header.Get("Idempotent-Replayed"); v != "" {
			t.Errorf("a GET's Idempotent-Replayed %q, want none", v)
		}
	}
}

// "The same request" is method, path, query and body: another header
// does not make it another request.
func TestIdempotencyKeyReplaysWhateverTheOtherHeaders(t *testing.T) {
	e := newEnv(t)
	first := e.send("POST", "/v1/tags", keyed(e.a.Token, "k"), strings.NewReader(`{"name":"Runner"}`))
	wantStatus(t, first, http.StatusCreated)
	h := keyed(e.a.Token, "k")
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("User-Agent", "another-client/2.0")
	wantReplay(t, e.send("POST", "/v1/tags", h, strings.NewReader(`{"name":"Runner"}`)), first)
}
