package httpapi_test

import (
	"context"
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// rerunStore runs every change of a webhook endpoint twice, the first
// time on a copy that is then dropped whatever it returned, as SQLite's
// committer does when the group a change ran in runs again.
type rerunStore struct{ *sqlstore.Store }

func (s rerunStore) UpdateWebhookEndpoint(ctx context.Context, businessID, id string, fn func(*practiced.WebhookEndpoint) error) (practiced.WebhookEndpoint, error) {
	return s.Store.UpdateWebhookEndpoint(ctx, businessID, id, func(e *practiced.WebhookEndpoint) error {
		first := *e
		first.EventTypes = slices.Clone(e.EventTypes)
		fn(&first)
		return fn(e)
	})
}

// An update of a webhook endpoint answers the same when its change runs
// twice: its body is read and checked once, before the transaction.
func TestWebhookEndpointUpdateRunTwiceAnswersOnce(t *testing.T) {
	st := testfix.Store(t)
	e := &env{t: t, st: st, clock: testfix.Now}
	e.a = testfix.NewClinic(t, st, "Hooks")
	public := func(string) ([]netip.Addr, error) { return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil }
	e.srv = httptest.NewServer(httpapi.NewServer(rerunStore{st}, httpapi.Options{Now: func() time.Time { return e.clock }, LookupHost: public}))
	t.Cleanup(e.srv.Close)

	r := e.do("POST", "/v1/webhook_endpoints", e.a.Token, `{"url":"https://hooks.example.org/a","event_types":["client.*"]}`)
	wantStatus(t, r, 201)
	one := "/v1/webhook_endpoints/" + r.JSON(t)["id"].(string)

	r = e.do("POST", one, e.a.Token, `{"url":"ftp://hooks.example.org/b","colour":"red"}`)
	want := `{"message":"url must be an https:// URL (and 1 more error)","errors":{"colour":["is not a known field"],"url":["must be an https:// URL"]}}` + "\n"
	if r.Status != 422 || string(r.Body) != want {
		t.Errorf("a bad update: %d %s, want 422 %s", r.Status, r.Body, want)
	}
	r = e.do("POST", one, e.a.Token, `{"url":"https://hooks.example.org/b","event_types":["*","client.*","*"],"enabled":false}`)
	wantStatus(t, r, 200)
	got := r.JSON(t)
	if got["url"] != "https://hooks.example.org/b" || got["enabled"] != false || oaJSON(t, got["event_types"]) != `["*","client.*"]` {
		t.Errorf("an update: %s", r.Body)
	}
}
