package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
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
	st := rerunStore{testfix.Store(t)}
	c := testfix.NewClinic(t, st.Store, "Hooks")
	public := func(string) ([]netip.Addr, error) { return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil }
	srv := httptest.NewServer(httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }, LookupHost: public}))
	defer srv.Close()
	post := func(path, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+c.Token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, out
	}
	code, ep := post("/v1/webhook_endpoints", `{"url":"https://hooks.example.org/a","event_types":["client.*"]}`)
	if code != 201 {
		t.Fatalf("create: %d %v", code, ep)
	}
	one := "/v1/webhook_endpoints/" + ep["id"].(string)

	code, got := post(one, `{"url":"ftp://hooks.example.org/b","colour":"red"}`)
	want := `{"errors":{"colour":["is not a known field"],"url":["must be an https:// URL"]},"message":"url must be an https:// URL (and 1 more error)"}`
	if b, _ := json.Marshal(got); code != 422 || string(b) != want {
		t.Errorf("a bad update: %d %s, want 422 %s", code, b, want)
	}
	code, got = post(one, `{"url":"https://hooks.example.org/b","event_types":["*","client.*","*"],"enabled":false}`)
	if code != 200 || got["url"] != "https://hooks.example.org/b" || got["enabled"] != false || !slices.Equal(strSlice(got["event_types"]), []string{"*", "client.*"}) {
		t.Errorf("an update: %d %v", code, got)
	}
}

func strSlice(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}
