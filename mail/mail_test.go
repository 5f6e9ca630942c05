package mail

import (
	"strings"
	"testing"
	"time"
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
