package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/ratelimit"
	"github.com/practiced/practiced/tid"
)

// limitedEnv serves the API with an in-process limiter of perMinute a
// key, on the env's clock.
func limitedEnv(t *testing.T, perMinute int) *env {
	t.Helper()
	st := testfix.Store(t)
	e := &env{t: t, st: st, clock: testfix.Now}
	e.a = testfix.NewClinic(t, st, "Clinic A")
	e.b = testfix.NewClinic(t, st, "Clinic B")
	clock := func() time.Time { return e.clock }
	e.srv = httptest.NewServer(newServer(st, httpapi.Options{Now: clock, Limiter: ratelimit.NewMemory(clock), RatePerMinute: perMinute}))
	t.Cleanup(e.srv.Close)
	return e
}

func wantRateHeaders(t *testing.T, r response, limit, remaining, reset int) {
	t.Helper()
	got := [3]string{r.Header.Get("RateLimit-Limit"), r.Header.Get("RateLimit-Remaining"), r.Header.Get("RateLimit-Reset")}
	want := [3]string{strconv.Itoa(limit), strconv.Itoa(remaining), strconv.Itoa(reset)}
	if got != want {
		t.Errorf("RateLimit-Limit, -Remaining, -Reset = %v, want %v", got, want)
	}
}

// TestRateLimitPerKey sends a burst over the limit from one key while
// another key of the same business is served beside it.
func TestRateLimitPerKey(t *testing.T) {
	e := limitedEnv(t, 6) // one every 10 s, six at once
	for i := range 6 {
		r := e.do("GET", "/v1/clients", e.a.Token, nil)
		wantStatus(t, r, http.StatusOK)
		wantRateHeaders(t, r, 6, 5-i, 10*(i+1))
	}
	r := e.do("POST", "/v1/clients", e.a.Token, map[string]any{"first_name": "Over", "last_name": "Limit"})
	wantStatus(t, r, http.StatusTooManyRequests)
	wantRateHeaders(t, r, 6, 0, 60)
	if got := r.Header.Get("Retry-After"); got != "10" {
		t.Errorf("Retry-After %q, want 10", got)
	}
	if got := string(r.Body); got != `{"message":"This API key is limited to 6 requests a minute; try again in 10 seconds."}`+"\n" {
		t.Errorf("body %s", got)
	}
	// The refused write wrote nothing.
	e.clock = e.clock.Add(10 * time.Second)
	list := e.do("GET", "/v1/clients?q=Over", e.a.Token, nil)
	wantStatus(t, list, http.StatusOK)
	if data := list.JSON(t)["data"].([]any); len(data) != 0 {
		t.Errorf("the refused write stored %d clients", len(data))
	}
	// The read-only key of the same business has a bucket of its own.
	r = e.do("GET", "/v1/clients", e.a.ReadOnlyToken, nil)
	wantStatus(t, r, http.StatusOK)
	wantRateHeaders(t, r, 6, 5, 10)
	// Requests without a valid key are not counted against anyone.
	wantStatus(t, e.do("GET", "/v1/clients", "pk_unknown", nil), http.StatusUnauthorized)
	if h := e.do("GET", "/v1/clients", "", nil).Header.Get("RateLimit-Limit"); h != "" {
		t.Errorf("a request without a key got RateLimit-Limit %q", h)
	}
}

// TestRateLimitOfAKey gives a key its own rate, as apikey create --rate
// does.
func TestRateLimitOfAKey(t *testing.T) {
	e := limitedEnv(t, 0) // the default, 600
	token := "pk_test_" + tid.New("key")
	err := e.st.CreateAPIKey(context.Background(), practiced.APIKey{ID: tid.New(practiced.PrefixAPIKey), BusinessID: e.a.Business.ID,
		TokenHash: practiced.HashToken(token), RatePerMinute: 2, CreatedAt: practiced.NewTime(testfix.Now)})
	if err != nil {
		t.Fatal(err)
	}
	wantRateHeaders(t, e.do("GET", "/v1/clients", e.a.Token, nil), 600, 599, 1)
	wantStatus(t, e.do("GET", "/v1/clients", token, nil), http.StatusOK)
	wantStatus(t, e.do("GET", "/v1/clients", token, nil), http.StatusOK)
	r := e.do("GET", "/v1/clients", token, nil)
	wantStatus(t, r, http.StatusTooManyRequests)
	wantRateHeaders(t, r, 2, 0, 60)
	if r.Header.Get("Retry-After") != "30" {
		t.Errorf("Retry-After %q, want 30", r.Header.Get("Retry-After"))
	}
	keys, err := e.st.ListAPIKeys(context.Background(), e.a.Business.ID)
	if err != nil {
		t.Fatal(err)
	}
	rates := map[int]int{}
	for _, k := range keys {
		rates[k.RatePerMinute]++
	}
	if rates[2] != 1 || rates[0] != 2 {
		t.Errorf("stored rates %v, want one key of 2 and two of the default", rates)
	}
}

// TestRateLimitWaitOfOneSecond: at 60 a minute the 61st request waits one
// second, and the 429 says so as docs/api.md shows it, in the singular.
func TestRateLimitWaitOfOneSecond(t *testing.T) {
	e := limitedEnv(t, 60)
	for range 60 {
		wantStatus(t, e.do("GET", "/v1/clients", e.a.Token, nil), http.StatusOK)
	}
	r := e.do("GET", "/v1/clients", e.a.Token, nil)
	wantStatus(t, r, http.StatusTooManyRequests)
	if got := r.Header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After %q, want 1", got)
	}
	if got := string(r.Body); got != `{"message":"This API key is limited to 60 requests a minute; try again in 1 second."}`+"\n" {
		t.Errorf("body %s", got)
	}
}
