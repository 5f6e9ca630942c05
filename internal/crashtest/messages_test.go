package crashtest

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// messageRounds is how many times the message test kills the server.
const messageRounds = 6

func TestMessagesSurviveKillNineSQLite(t *testing.T) {
	messageKills(t, "sqlite:"+filepath.Join(t.TempDir(), "mail.db"))
}

func TestMessagesSurviveKillNinePostgres(t *testing.T) {
	messageKills(t, testfix.PostgresURL(t))
}

// messageKills sends form links by e-mail through aiosmtpd while killing
// the server with SIGKILL at random moments, and in the end checks that
// every message the store holds was sent and arrived once, and that
// every answered request has its message.
func messageKills(t *testing.T, url string) {
	addr, maildir := testfix.SMTPServer(t)
	st, err := sqlstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	clinic := testfix.NewClinic(t, st, "Mailing Clinic")
	st.Close()

	w := &writes{token: clinic.Token, created: map[string]answer{}}
	client := &http.Client{Timeout: 30 * time.Second}
	var servers []*server
	serve := func() *server {
		srv := startServer(t, url, "--smtp", "smtp://"+addr, "--mail-from", "Mailing Clinic <clinic@example.org>", "--mail-lease", "2s")
		w.base = srv.base
		servers = append(servers, srv)
		return srv
	}
	srv := serve()
	var forms []string
	for _, c := range clinic.Clients {
		status, f, err := w.do(client, "POST", "/v1/forms", map[string]any{"form_template_id": clinic.Template.ID, "client_id": c.ID})
		if err != nil || status != http.StatusCreated {
			t.Fatalf("creating a form: %d %v %v", status, f, err)
		}
		forms = append(forms, f["id"].(string))
	}

	var answered atomic.Int64
	loadAndKill(messageRounds, srv, serve, 200*time.Millisecond, 400*time.Millisecond, func(round, g, i int) bool {
		status, _, err := w.do(client, "POST", "/v1/forms/"+forms[(g+i)%len(forms)]+"/send", map[string]any{})
		if status == http.StatusOK {
			answered.Add(1)
		}
		return err == nil
	})

	// The last server sends what is left, claimed ones after their lease.
	srv = serve()
	killed := false
	defer func() {
		if !killed {
			srv.kill(t)
		}
	}()
	deadline := time.Now().Add(90 * time.Second)
	for {
		status, body, err := w.do(client, "GET", "/v1/messages?status=queued&limit=1", nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("reading the queue: %d %v", status, err)
		}
		if len(body["data"].([]any)) == 0 {
			break
		}
		if time.Now().After(deadline) {
			m := body["data"].([]any)[0].(map[string]any)
			srv.kill(t)
			killed = true
			t.Fatalf("messages were still queued after 90 s, among them %s after %v attempts (last error %v); the last server logged:\n%s",
				m["id"], m["attempts"], m["last_error"], srv.stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}

	var stored []string
	for path := "/v1/messages?limit=100"; path != ""; {
		status, body, err := w.do(client, "GET", path, nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("listing messages: %d %v", status, err)
		}
		for _, d := range body["data"].([]any) {
			m := d.(map[string]any)
			if m["status"] != "sent" {
				t.Errorf("message %s is %s: %v", m["id"], m["status"], m["last_error"])
			}
			stored = append(stored, m["id"].(string))
		}
		next, _ := body["links"].(map[string]any)["next"].(string)
		path = strings.TrimPrefix(next, w.base)
	}
	srv.kill(t)
	killed = true
	// A kill between a message's hand-over and the record of the mail
	// server's answer leaves it for the next server to record as sent.
	handedOver := map[string]bool{}
	for _, s := range servers {
		for _, line := range strings.Split(s.stderr.String(), "\n") {
			if !strings.Contains(line, "handed to the mail server before a restart") {
				continue
			}
			_, id, ok := strings.Cut(line, "message_id=")
			if !ok {
				t.Fatalf("a hand-over line without its message: %s", line)
			}
			id, _, _ = strings.Cut(id, " ")
			handedOver[id] = true
		}
	}
	recovered := len(handedOver)
	arrived := map[string]int{}
	got := testfix.Received(t, maildir)
	for _, m := range got {
		arrived[strings.TrimSuffix(strings.TrimPrefix(m.Header.Get("Message-Id"), "<"), "@practiced>")]++
	}
	// The one loss the hand-over leaves is a kill in the instant between
	// the record of a message's hand-over and the write of its last line:
	// the next server finds the mark and records the message sent, and
	// it never arrived. Any other missing message is a fault, and so are
	// losses in more than a quarter of the hand-overs a kill interrupted,
	// which would mean the line waits after the record.
	missing, lostAtHandOver, twice := 0, 0, 0
	for _, id := range stored {
		switch n := arrived[id]; {
		case n == 0 && handedOver[id]:
			lostAtHandOver++
		case n == 0:
			missing++
		case n > 1:
			twice += n - 1
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d messages never arrived, and were not being handed over at a kill", missing, len(stored))
	}
	if lostAtHandOver > recovered/4 {
		t.Errorf("%d of the %d messages handed over at a kill never arrived: the last line is not sent straight after the record",
			lostAtHandOver, recovered)
	}
	if int64(len(stored)) < answered.Load() {
		t.Errorf("%d sends were answered 200 but the store holds %d messages", answered.Load(), len(stored))
	}
	if len(got) != len(stored)-lostAtHandOver+twice {
		t.Errorf("%d e-mails arrived for %d messages, %d repeats: some are not the store's", len(got), len(stored), twice)
	}
	if twice > 0 {
		t.Errorf("%d e-mails arrived a second time after %d kills", twice, messageRounds)
	}
	if recovered == 0 {
		t.Errorf("no kill came between a message's hand-over and its outcome: the test did not reach the hand-over")
	}
	if answered.Load() < messageRounds {
		t.Errorf("only %d sends were answered: too few to prove anything", answered.Load())
	}
	t.Logf("%d kills: %d sends answered, %d messages stored, %d missing, %d repeats; %d handed over before a kill and recorded after it, %d of them lost between the record and the last line",
		messageRounds, answered.Load(), len(stored), missing, twice, recovered, lostAtHandOver)
}
