package mail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

func TestDatesAsPeopleReadThem(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for country, want := range map[string]string{
		"AU": "Tuesday 1 December 2026 at 9:30 am",
		"nz": "Tuesday 1 December 2026 at 9:30 am",
		"US": "Tuesday, December 1, 2026 at 9:30 AM",
		"":   "Tuesday 1 December 2026 at 9:30 am",
	} {
		if got := WhenText(at, country); got != want {
			t.Errorf("WhenText(%q) = %q, want %q", country, got, want)
		}
	}
}

func TestNewSMTPReadsTheURL(t *testing.T) {
	for _, tc := range []struct {
		url              string
		port             int
		implicit, loopbk bool
		user             string
	}{
		{"smtp://mail.example.org", 587, false, false, ""},
		{"smtp://u%40x:p%3Aw@127.0.0.1:2525", 2525, false, true, "u@x"},
		{"smtps://mail.example.org", 465, true, false, ""},
		{"smtp://localhost:25", 25, false, true, ""},
	} {
		s, err := NewSMTP(tc.url, "Clinic <x@example.org>")
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		if s.port != tc.port || s.implicit != tc.implicit || s.loopback != tc.loopbk || s.user != tc.user {
			t.Errorf("%s: %+v", tc.url, s)
		}
	}
	for url, want := range map[string]string{
		"http://mail.example.org": "the scheme must be smtp or smtps",
		"smtp://":                 "want smtp://",
		"smtp://h:port":           "want smtp://",
	} {
		if _, err := NewSMTP(url, "x@example.org"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewSMTP(%q) = %v, want an error saying %q", url, err, want)
		}
	}
	if _, err := NewSMTP("smtp://h", "not an address"); err == nil || !strings.Contains(err.Error(), "--mail-from") {
		t.Errorf("a bad --mail-from: %v", err)
	}
}

func TestBackoffDoublesToAnHour(t *testing.T) {
	for attempt, base := range map[int]time.Duration{1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 8: time.Hour, 20: time.Hour} {
		for range 20 {
			if d := Backoff(attempt); d < base || d > base+base/10 {
				t.Fatalf("Backoff(%d) = %v, want %v plus at most a tenth", attempt, d, base)
			}
		}
	}
}

func TestTemplatesOfABusiness(t *testing.T) {
	dir := t.TempDir()
	biz := tid.New(practiced.PrefixBusiness)
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("reminder.txt", "Every clinic: see you {{.When}}.\n")
	write(biz+"/reminder.txt", "{{.Business}} only: see you {{.When}}, {{.ClientName}}.\n")
	write(biz+"/message.html", `<p><img src="https://clinic.example.org/logo.png" alt="{{.Business}}"> {{.ClientName}}</p>`)
	ts, err := LoadTemplates(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := Appointment{Business: "Harbour Physio", ClientName: "Ann <3", Location: practiced.Location{Timezone: "Australia/Sydney"},
		Appointment: practiced.Appointment{StartsAt: practiced.NewTime(time.Date(2026, 3, 3, 23, 0, 0, 0, time.UTC)),
			EndsAt: practiced.NewTime(time.Date(2026, 3, 3, 23, 30, 0, 0, time.UTC))}}
	for _, tc := range []struct{ biz, kind, text, html string }{
		{biz, practiced.MessageReminder, "Harbour Physio only: see you Wednesday 4 March 2026 at 10:00 am, Ann <3.\n",
			`<p><img src="https://clinic.example.org/logo.png" alt="Harbour Physio"> Ann &lt;3</p>`},
		{"biz_other", practiced.MessageReminder, "Every clinic: see you Wednesday 4 March 2026 at 10:00 am.\n", ""},
	} {
		r, err := ts.RenderAppointment(tc.biz, tc.kind, a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Text != tc.text || tc.html != "" && r.HTML != tc.html {
			t.Errorf("%s: text %q, html %q", tc.biz, r.Text, r.HTML)
		}
	}
	// The other kinds keep the built-in text.
	r, err := ts.RenderAppointment(biz, practiced.MessageConfirmation, a)
	if err != nil || !strings.Contains(r.Text, "Your appointment is booked.") {
		t.Errorf("confirmation: %q %v", r.Text, err)
	}
}

func TestTemplateMistakesStopTheStart(t *testing.T) {
	for files, want := range map[string]string{
		"reminder.txt=Hello {{.Nmae}}":    "a reminder message",
		"reminder.txt=Hello {{.When":      "reminder.txt",
		"welcome.txt=Hi":                  "welcome.txt: not a template file",
		"some dir/reminder.txt=Hi":        "a subdirectory is named by a business's id",
		"message.html=<p>{{.Client}}</p>": "a confirmation message",
	} {
		dir := t.TempDir()
		name, body, _ := strings.Cut(files, "=")
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
		if _, err := LoadTemplates(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want one saying %q", files, err, want)
		}
	}
}
