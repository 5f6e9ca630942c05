package crashtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// webhookRounds is how many times the webhook test kills the server.
const webhookRounds = 8

func TestWebhooksSurviveKillNineSQLite(t *testing.T) {
	webhookKills(t, "sqlite:"+filepath.Join(t.TempDir(), "hooks.db"))
}

func TestWebhooksSurviveKillNinePostgres(t *testing.T) {
	webhookKills(t, testfix.PostgresURL(t))
}

// hookReceiver records every delivery: its event, the event's record,
// and whether its signature verified.
type hookReceiver struct {
	mu       sync.Mutex
	wh       *standardwebhooks.Webhook
	arrivals []arrival
	bad      int
}

type arrival struct{ event, record string }

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var ev struct {
		ID       string `json:"id"`
		RecordID string `json:"record_id"`
	}
	json.Unmarshal(body, &ev)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.wh == nil || h.wh.Verify(body, r.Header) != nil || r.Header.Get("webhook-id") != ev.ID {
		h.bad++
	}
	h.arrivals = append(h.arrivals, arrival{ev.ID, ev.RecordID})
	// A slow receiver keeps deliveries in flight when the kill comes.
	time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
	w.WriteHeader(http.StatusNoContent)
}

// webhookKills writes client changes while the server delivers them to
// a receiver, kills the server with SIGKILL at random moments, and in the
// end checks that every event of the feed arrived, each record's events
// first arriving in feed order, every one signed.
func webhookKills(t *testing.T, url string) {
	st, err := sqlstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	clinic := testfix.NewClinic(t, st, "Hooked Clinic")
	st.Close()
	rcv := &hookReceiver{}
	hooks := httptest.NewServer(rcv)
	defer hooks.Close()

	w := &writes{token: clinic.Token, created: map[string]answer{}}
	client := &http.Client{Timeout: 30 * time.Second}
	serve := func() *server {
		srv := startServer(t, url, "--webhooks-allow-private")
		w.base = srv.base
		return srv
	}
	srv := serve()
	status, ep, err := w.do(client, "POST", "/v1/webhook_endpoints", map[string]any{"url": hooks.URL, "event_types": []string{"client.*"}})
	if err != nil || status != http.StatusCreated {
		t.Fatalf("creating the endpoint: %d %v %v", status, ep, err)
	}
	wh, err := standardwebhooks.NewWebhook(ep["secret"].(string))
	if err != nil {
		t.Fatal(err)
	}
	rcv.mu.Lock()
	rcv.wh = wh
	rcv.mu.Unlock()

	// Two connections create and update clients until each kill.
	mine := make([]string, 2)
	loadAndKill(webhookRounds, srv, serve, 100*time.Millisecond, 300*time.Millisecond, func(round, g, i int) bool {
		var err error
		if mine[g] == "" || i%3 == 0 {
			var body map[string]any
			_, body, err = w.do(client, "POST", "/v1/clients", map[string]any{"first_name": fmt.Sprint("R", round, "G", g), "last_name": fmt.Sprint("N", i)})
			if err == nil && body["id"] != nil {
				mine[g] = body["id"].(string)
			}
		} else {
			_, _, err = w.do(client, "POST", "/v1/clients/"+mine[g], map[string]any{"notes": fmt.Sprint("update ", i)})
		}
		return err == nil
	})

	// The last server delivers what is left.
	srv = serve()
	defer srv.kill(t)
	var feed []arrival
	deadline := time.Now().Add(60 * time.Second)
	for {
		feed = w.feed(t, client)
		if delivered(rcv, feed) || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	first := map[string]int{} // event → its first arrival
	for i, a := range rcv.arrivals {
		if _, ok := first[a.event]; !ok {
			first[a.event] = i
		}
	}
	missing := 0
	last := map[string]int{} // record → the first arrival of its latest event in feed order
	for _, ev := range feed {
		at, ok := first[ev.event]
		if !ok {
			missing++
			continue
		}
		if prev, seen := last[ev.record]; seen && at < prev {
			t.Errorf("event %s of %s first arrived before an earlier event of its record", ev.event, ev.record)
		}
		last[ev.record] = at
	}
	if missing > 0 {
		t.Errorf("%d of %d events never arrived", missing, len(feed))
	}
	if rcv.bad > 0 {
		t.Errorf("%d deliveries failed their signature check", rcv.bad)
	}
	if len(feed) < webhookRounds {
		t.Errorf("the load wrote %d events; too few to prove anything", len(feed))
	}
	t.Logf("%d kills: %d events, all delivered (%d deliveries, %d of them repeats after a kill), each record's in feed order, every signature valid",
		webhookRounds, len(feed), len(rcv.arrivals), len(rcv.arrivals)-len(first))
}

// feed reads every client event of the change feed, in feed order.
func (w *writes) feed(t *testing.T, client *http.Client) []arrival {
	var out []arrival
	after := ""
	for {
		path := "/v1/events?record_type=client&limit=100"
		if after != "" {
			path += "&after=" + after
		}
		status, body, err := w.do(client, "GET", path, nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("reading the feed: %d %v", status, err)
		}
		data := body["data"].([]any)
		for _, d := range data {
			ev := d.(map[string]any)
			out = append(out, arrival{ev["id"].(string), ev["record_id"].(string)})
		}
		if len(data) < 100 {
			return out
		}
		after = out[len(out)-1].event
	}
}

// delivered reports whether every event of the feed has arrived.
func delivered(rcv *hookReceiver, feed []arrival) bool {
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	got := map[string]bool{}
	for _, a := range rcv.arrivals {
		got[a.event] = true
	}
	return !slices.ContainsFunc(feed, func(a arrival) bool { return !got[a.event] })
}
