package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/mail"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	mailer "github.com/practiced/practiced/mail"
)

// newMessagingEnv is newEnv on a server that e-mails clients.
func newMessagingEnv(t *testing.T) *env { return newEnvWith(t, true) }

// messages lists the business's messages through the API, oldest first.
func (e *env) messages(t *testing.T, token, query string) []map[string]any {
	t.Helper()
	r := e.do("GET", "/v1/messages?limit=100&"+query, token, nil)
	wantStatus(t, r, http.StatusOK)
	var out []map[string]any
	for _, m := range r.JSON(t)["data"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func kindsOf(ms []map[string]any) string {
	var ks []string
	for _, m := range ms {
		ks = append(ks, fmt.Sprintf("%s/%s@%s", m["kind"], m["status"], m["send_after"]))
	}
	return strings.Join(ks, " ")
}

// TestRemindersArePlannedAndReplanned books with notify, moves the
// appointment, cancels it, and reads the queue after each step.
func TestRemindersArePlannedAndReplanned(t *testing.T) {
	e := newMessagingEnv(t)
	a := e.a
	wantStatus(t, e.do("POST", "/v1/services/"+a.Consult.ID, a.Token, `{"reminder_minutes":1440}`), http.StatusOK)
	apt := e.booked(t, book(a.Sydney, a.Alice, "2026-03-04T01:00:00Z", a.Clients[0].ID,
		map[string]any{"service_id": a.Consult.ID, "notify": true}))
	apc := attendeeIDs(apt)[0]
	got := kindsOf(e.messages(t, a.Token, "appointment_client_id="+apc))
	want := "reminder/queued@2026-03-03T01:00:00Z confirmation/queued@2026-03-01T22:00:00Z"
	if got != want {
		t.Fatalf("after booking: %s\nwant %s", got, want)
	}
	// Moved a day later without notify: the reminder follows, no notice.
	e.clock = e.clock.Add(time.Hour)
	wantStatus(t, e.do("POST", "/v1/appointments/"+apt["id"].(string), a.Token, `{"starts_at":"2026-03-05T01:00:00Z"}`), http.StatusOK)
	want = "reminder/queued@2026-03-04T01:00:00Z confirmation/queued@2026-03-01T22:00:00Z"
	if got := kindsOf(e.messages(t, a.Token, "appointment_client_id="+apc)); got != want {
		t.Fatalf("after a move: %s\nwant %s", got, want)
	}
	// Moved again with notify: a change notice, the reminder moves again.
	wantStatus(t, e.do("POST", "/v1/appointments/"+apt["id"].(string), a.Token, `{"starts_at":"2026-03-05T03:00:00Z","notify":true}`), http.StatusOK)
	want = "reminder/queued@2026-03-04T03:00:00Z confirmation/queued@2026-03-01T22:00:00Z change/queued@2026-03-01T23:00:00Z"
	if got := kindsOf(e.messages(t, a.Token, "appointment_client_id="+apc)); got != want {
		t.Fatalf("after a notified move: %s\nwant %s", got, want)
	}
	// A bad notify is refused and changes nothing.
	r := e.do("POST", "/v1/appointments/"+apt["id"].(string)+"/cancel", a.Token, `{"cancellation_note":"Ill","notify":"yes"}`)
	wantInvalid(t, r, map[string][]string{"notify": {"must be true or false"}}, "notify must be true or false")
	// Cancelled with notify: the queued reminder goes, a notice comes.
	wantStatus(t, e.do("POST", "/v1/appointments/"+apt["id"].(string)+"/cancel", a.Token, `{"cancellation_note":"Ill","notify":true}`), http.StatusOK)
	want = "confirmation/queued@2026-03-01T22:00:00Z change/queued@2026-03-01T23:00:00Z cancellation/queued@2026-03-01T23:00:00Z"
	if got := kindsOf(e.messages(t, a.Token, "appointment_client_id="+apc)); got != want {
		t.Fatalf("after cancelling: %s\nwant %s", got, want)
	}
	// Filters, and no messages for a client marked no_messages.
	if got := kindsOf(e.messages(t, a.Token, "kind=change")); got != "change/queued@2026-03-01T23:00:00Z" {
		t.Errorf("kind=change: %s", got)
	}
	wantStatus(t, e.do("POST", "/v1/clients/"+a.Clients[1].ID, a.Token, `{"no_messages":true}`), http.StatusOK)
	e.booked(t, book(a.Sydney, a.Alice, "2026-03-06T01:00:00Z", a.Clients[1].ID, map[string]any{"duration": 30, "notify": true}))
	if got := e.messages(t, a.Token, "client_id="+a.Clients[1].ID); len(got) != 0 {
		t.Errorf("a client with no_messages has messages: %s", kindsOf(got))
	}
	// Another business sees none of them.
	if got := e.messages(t, e.b.Token, ""); len(got) != 0 {
		t.Errorf("business B sees %d messages", len(got))
	}
	wantStatus(t, e.do("GET", "/v1/messages/msg_01h455vb4pex5vsknk084sn02q", a.Token, nil), http.StatusNotFound)

	// The change feed followed the queue, the page links hidden.
	r = e.do("GET", "/v1/events?record_type=message&limit=100", a.Token, nil)
	wantStatus(t, r, http.StatusOK)
	var types []string
	for _, ev := range r.JSON(t)["data"].([]any) {
		ev := ev.(map[string]any)
		data := ev["data"].(map[string]any)
		types = append(types, ev["type"].(string)+" "+data["kind"].(string))
		if strings.Contains(data["text"].(string), "/a/") {
			t.Errorf("%s carries the page link: %q", ev["type"], data["text"])
		}
	}
	want = "message.created reminder, message.created confirmation, message.updated reminder, message.updated reminder, " +
		"message.created change, message.deleted reminder, message.created cancellation"
	if got := strings.Join(types, ", "); got != want {
		t.Errorf("message events: %s\nwant %s", got, want)
	}
}

// parts returns the leaf parts of a MIME message by content type.
func parts(t *testing.T, m *mail.Message) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(ct, enc string, body io.Reader)
	walk = func(ct, enc string, body io.Reader) {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(mt, "multipart/") {
			b, _ := io.ReadAll(body)
			if enc == "base64" {
				if b, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(b)), "")); err != nil {
					t.Fatal(err)
				}
			}
			out[mt] = string(b)
			return
		}
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
		}
	}
	walk(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
	return out
}

// TestMessagesReachARealSMTPServer books, sends a form link and cancels,
// runs the worker against aiosmtpd, and reads what arrived: the text,
// the HTML, and an invitation another iCalendar library parses, whose
// SEQUENCE grows.
func TestMessagesReachARealSMTPServer(t *testing.T) {
	addr, maildir := testfix.SMTPServer(t)
	e := newMessagingEnv(t)
	a := e.a
	apt := e.booked(t, book(a.Sydney, a.Alice, "2026-03-04T01:00:00Z", a.Clients[0].ID, map[string]any{"duration": 30, "notify": true}))
	apc := attendeeIDs(apt)[0]
	wantStatus(t, e.do("POST", "/v1/appointments/"+apt["id"].(string)+"/cancel", a.Token, `{"cancellation_note":"Ill","notify":true}`), http.StatusOK)

	sender, err := mailer.NewSMTP("smtp://"+addr, "Clinic A <bookings@clinic.example.org>")
	if err != nil {
		t.Fatal(err)
	}
	w := &mailer.Worker{Store: e.st, Sender: sender, Now: func() time.Time { return e.clock }}
	n, err := w.RunOnce(context.Background())
	if err != nil || n != 2 {
		t.Fatalf("the worker sent %d: %v", n, err)
	}
	if n, err := w.RunOnce(context.Background()); err != nil || n != 0 {
		t.Fatalf("a second run sent %d more: %v", n, err)
	}
	got := testfix.Received(t, maildir)
	if len(got) != 2 {
		t.Fatalf("%d messages arrived, want 2", len(got))
	}
	sequences := map[string]string{}
	for _, m := range got {
		if m.Header.Get("To") != "<Ann@example.com>" && m.Header.Get("To") != "Ann@example.com" {
			t.Errorf("To: %q", m.Header.Get("To"))
		}
		if from := m.Header.Get("From"); !strings.Contains(from, "bookings@clinic.example.org") {
			t.Errorf("From: %q", from)
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		p := parts(t, m)
		if !strings.Contains(p["text/plain"], "Hello Ann,") || !strings.Contains(p["text/plain"], "Wednesday 4 March 2026 at 12:00 pm") {
			t.Errorf("%s: text part %q", subject, p["text/plain"])
		}
		if !strings.Contains(p["text/html"], "Hello Ann,") {
			t.Errorf("%s: html part %q", subject, p["text/html"])
		}
		cal, err := ics.ParseCalendar(strings.NewReader(p["text/calendar"]))
		if err != nil {
			t.Fatalf("%s: the invitation does not parse: %v\n%s", subject, err, p["text/calendar"])
		}
		ev := cal.Events()
		if len(ev) != 1 || ev[0].Id() != apc+"@practiced" {
			t.Fatalf("%s: events %v", subject, ev)
		}
		method := cal.CalendarProperties[0]
		for _, cp := range cal.CalendarProperties {
			if cp.IANAToken == "METHOD" {
				method = cp
			}
		}
		sequences[method.Value] = ev[0].GetProperty(ics.ComponentPropertySequence).Value
		start, err := ev[0].GetStartAt()
		if err != nil || !start.Equal(time.Date(2026, 3, 4, 1, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: DTSTART %v, %v", subject, start, err)
		}
	}
	// The reminder, planned first and dropped by the cancellation, took
	// SEQUENCE 1.
	if sequences["REQUEST"] != "2" || sequences["CANCEL"] != "3" {
		t.Errorf("SEQUENCE by METHOD: %v, want REQUEST 2 and CANCEL 3", sequences)
	}
	for _, m := range e.messages(t, a.Token, "appointment_client_id="+apc) {
		if m["status"] != "sent" || m["attempts"] != float64(1) || m["sent_at"] != "2026-03-01T22:00:00Z" {
			t.Errorf("after sending: %v", m)
		}
	}
}

// refusing is a sender whose mail server refuses every address for good,
// before any message is handed over.
type refusing struct{}

func (refusing) Send(context.Context, practiced.Message, func(end func() error) error) error {
	return mailer.PermanentError(errors.New("550 5.1.1 <Ann@example.com>: no such mailbox"))
}

// TestFormLinksAreEmailed sends a form: its e-mail is queued, shown to a
// read-only key without the link, and a refused address makes the form
// bounced; a client marked no_messages cannot be sent one.
func TestFormLinksAreEmailed(t *testing.T) {
	e := newMessagingEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	r := e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, nil)
	wantStatus(t, r, http.StatusOK)
	if f := r.JSON(t); f["sent_status"] != "queued" || f["sent_at"] != nil {
		t.Fatalf("after send: sent_status %v, sent_at %v", f["sent_status"], f["sent_at"])
	}
	ms := e.messages(t, e.a.Token, "form_id="+id)
	if len(ms) != 1 || ms[0]["kind"] != "form_link" || ms[0]["to"] != "Ann@example.com" {
		t.Fatalf("messages of the form: %v", ms)
	}
	link := "https://clinic.example.org/f/" + id + "?secret="
	if text := ms[0]["text"].(string); !strings.Contains(text, link) {
		t.Errorf("the text has no link: %q", text)
	}
	ro := e.messages(t, e.a.ReadOnlyToken, "form_id="+id)
	if text := ro[0]["text"].(string); strings.Contains(text, "secret=") || !strings.Contains(text, "[link hidden from read-only keys]") {
		t.Errorf("a read-only key reads %q", text)
	}
	var log bytes.Buffer
	w := &mailer.Worker{Store: e.st, Sender: refusing{}, Now: func() time.Time { return e.clock },
		Logger: slog.New(slog.NewTextHandler(&log, nil))}
	if n, err := w.RunOnce(context.Background()); err != nil || n != 1 {
		t.Fatalf("the worker attempted %d: %v", n, err)
	}
	m := e.do("GET", "/v1/messages/"+ms[0]["id"].(string), e.a.Token, nil).JSON(t)
	if m["status"] != "failed" || m["last_error"] != "550 5.1.1 <Ann@example.com>: no such mailbox" {
		t.Errorf("the refused message: %v", m)
	}
	if l := log.String(); strings.Contains(l, "Ann@example.com") || !strings.Contains(l, ms[0]["id"].(string)) {
		t.Errorf("the log names the client's address, or not the message: %s", l)
	}
	if f := e.do("GET", "/v1/forms/"+id, e.a.Token, nil).JSON(t); f["sent_status"] != "bounced" {
		t.Errorf("the form's sent_status is %v, want bounced", f["sent_status"])
	}
	wantStatus(t, e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, `{"no_messages":true}`), http.StatusOK)
	r = e.do("POST", "/v1/forms/"+fx.createForm(t, e)+"/send", e.a.Token, nil)
	wantInvalid(t, r, map[string][]string{"client_id": {"the client is marked no_messages: the form's link cannot be e-mailed"}},
		"client_id the client is marked no_messages: the form's link cannot be e-mailed")
}

// pageLink is the path of the client's page in a message's text.
func pageLink(t *testing.T, text string) string {
	t.Helper()
	m := regexp.MustCompile(`https://clinic\.example\.org(/a/\S+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no page link in %q", text)
	}
	return m[1]
}

// TestAppointmentPage opens the client's page from the link in their
// confirmation, says "I'll be there", downloads the calendar file, is
// refused a late cancellation, cancels in time, and finds the page gone
// after the appointment.
func TestAppointmentPage(t *testing.T) {
	e := newMessagingEnv(t)
	a := e.a
	wantStatus(t, e.do("POST", "/v1/locations/"+a.Sydney.ID, a.Token, `{"online_cancellation_hours":24}`), http.StatusOK)
	apt := e.booked(t, book(a.Sydney, a.Alice, "2026-03-04T01:00:00Z", a.Clients[0].ID, map[string]any{"duration": 30, "notify": true}))
	apc := attendeeIDs(apt)[0]
	confirmation := e.messages(t, a.Token, "kind=confirmation&appointment_client_id="+apc)[0]
	path := pageLink(t, confirmation["text"].(string))
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	post := func(body string, h http.Header) response {
		return e.send("POST", path, h, strings.NewReader(body))
	}

	r := e.send("GET", path, nil, nil)
	wantStatus(t, r, http.StatusOK)
	for _, want := range []string{"Hello Ann,", "Wednesday 4 March 2026 at 12:00 pm", "Alice Nguyen", "Sydney CBD, 1 George St, Sydney NSW 2000",
		"I'll be there</button>", "You can cancel here until Tuesday 3 March 2026 at 12:00 pm."} {
		if !strings.Contains(string(r.Body), want) {
			t.Errorf("the page lacks %q:\n%s", want, r.Body)
		}
	}
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	i := strings.LastIndex(path, ".")
	wantStatus(t, e.send("GET", path[:i+1]+"WRONGSECRET", nil, nil), http.StatusNotFound)
	wantStatus(t, e.send("GET", "/a/"+apc, nil, nil), http.StatusNotFound)
	wantStatus(t, post("action=cancel", http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Sec-Fetch-Site": {"cross-site"}}), http.StatusForbidden)

	e.clock = e.clock.Add(time.Hour)
	r = post("action=confirm", form)
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(string(r.Body), "the clinic knows you&#39;ll be there") {
		t.Errorf("after confirming: %s", r.Body)
	}
	ac := e.do("GET", "/v1/appointment_clients/"+apc, a.Token, nil).JSON(t)
	if ac["confirmed"] != true || ac["confirmed_at"] != "2026-03-01T23:00:00Z" || ac["status"] != "booked" {
		t.Errorf("after confirming: %v", ac)
	}

	r = e.send("GET", path+"/calendar.ics", nil, nil)
	wantStatus(t, r, http.StatusOK)
	cal, err := ics.ParseCalendar(strings.NewReader(string(r.Body)))
	if err != nil || len(cal.Events()) != 1 || cal.Events()[0].Id() != apc+"@practiced" {
		t.Fatalf("the calendar file: %v\n%s", err, r.Body)
	}

	// 23 hours before the start is inside the 24-hour notice.
	e.clock = time.Date(2026, 3, 3, 2, 0, 0, 0, time.UTC)
	r = post("action=cancel&reason=Sick", form)
	wantStatus(t, r, http.StatusConflict)
	if !strings.Contains(string(r.Body), "too late to cancel here") {
		t.Errorf("a late cancellation: %s", r.Body)
	}
	e.clock = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	r = post("action=cancel&reason=Sick", form)
	wantStatus(t, r, http.StatusOK)
	ac = e.do("GET", "/v1/appointment_clients/"+apc, a.Token, nil).JSON(t)
	if ac["status"] != "cancelled" || ac["cancellation_note"] != "Cancelled by the client on their appointment page: Sick" ||
		ac["cancelled_at"] != "2026-03-02T00:00:00Z" {
		t.Errorf("after cancelling: %v", ac)
	}
	if got := kindsOf(e.messages(t, a.Token, "kind=cancellation&appointment_client_id="+apc)); got != "cancellation/queued@2026-03-02T00:00:00Z" {
		t.Errorf("the cancellation notice: %s", got)
	}
	if r = post("action=confirm", form); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "no longer booked") {
		t.Errorf("confirming a cancelled attendance: %d %s", r.Status, r.Body)
	}
	// The read-only key is not shown the link.
	ro := e.messages(t, a.ReadOnlyToken, "kind=confirmation&appointment_client_id="+apc)[0]
	if strings.Contains(ro["text"].(string), "/a/") {
		t.Errorf("a read-only key reads the page link: %q", ro["text"])
	}
	e.clock = time.Date(2026, 3, 4, 1, 30, 0, 0, time.UTC)
	wantStatus(t, e.send("GET", path, nil, nil), http.StatusGone)
}

// A message's events carry it as a read-only key reads it, byte for byte
// what GET answers that key, "&", "<" and ">" included: a form's link
// e-mailed to a client whose name holds them.
func TestMessageEventDataIsWhatAReadOnlyKeyReads(t *testing.T) {
	e := newMessagingEnv(t)
	fx := newFormFixture(t, e)
	wantStatus(t, e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, `{"first_name":"Ann & <Co>"}`), http.StatusOK)
	id := fx.createForm(t, e)
	wantStatus(t, e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, nil), http.StatusOK)
	ms := e.messages(t, e.a.Token, "form_id="+id)
	if len(ms) != 1 {
		t.Fatalf("messages of the form: %v", ms)
	}
	msg := ms[0]["id"].(string)
	r := e.do("GET", "/v1/messages/"+msg, e.a.ReadOnlyToken, nil)
	wantStatus(t, r, http.StatusOK)
	// The answer ends with a line feed, which is not part of the message.
	read := strings.TrimSuffix(string(r.Body), "\n")
	if !strings.Contains(read, "Hello Ann & <Co>,") || !strings.Contains(read, "[link hidden from read-only keys]") {
		t.Fatalf("the message does not name the client as written, or shows its link: %s", read)
	}
	if got, want := eventData(t, e, msg), []string{"message.created " + read}; !reflect.DeepEqual(got, want) {
		t.Errorf("events of the message:\n%q\nwant\n%q", got, want)
	}
}
