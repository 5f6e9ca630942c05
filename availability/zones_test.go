package availability

import (
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
)

// springForwardDate returns the local date of the zone's 2026 transition
// that opens a gap.
func springForwardDate(t testing.TB, zone string) Date {
	t.Helper()
	return dateOf(zonetest.SpringForward(t, zone).At.In(zonetest.Load(t, zone)))
}

// fallBackDate returns the local date of the zone's 2026 transition that
// repeats local times.
func fallBackDate(t testing.TB, zone string) Date {
	t.Helper()
	return dateOf(zonetest.FallBack(t, zone).At.In(zonetest.Load(t, zone)))
}

// local renders an instant as "HH:MM±hh:mm" in loc, so that expectations
// name both the wall-clock time and which side of a transition it is on.
func local(at time.Time, loc *time.Location) string {
	return at.In(loc).Format("15:04-07:00")
}

// slotTimes renders slots with local, checking on the way that each slot's
// Date and Time fields agree with its Start and that Start is in UTC.
func slotTimes(t testing.TB, slots []Slot, loc *time.Location) []string {
	t.Helper()
	out := make([]string, 0, len(slots))
	for _, s := range slots {
		if s.Start.Location() != time.UTC {
			t.Errorf("slot %v: Start is not UTC", s.Start)
		}
		want := s.Start.In(loc).Format("2006-01-02 15:04")
		if got := s.Date + " " + s.Time; got != want {
			t.Errorf("slot %v: Date/Time %q, want %q", s.Start, got, want)
		}
		out = append(out, local(s.Start, loc))
	}
	return out
}

// intervalTimes renders intervals as "start/end" using local.
func intervalTimes(ivs []Interval, loc *time.Location) []string {
	out := make([]string, 0, len(ivs))
	for _, iv := range ivs {
		out = append(out, local(iv.Start, loc)+"/"+local(iv.End, loc))
	}
	return out
}

// equalStrings compares two rendered lists and reports them whole on
// mismatch, which reads better than a first-difference message.
func equalStrings(t testing.TB, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") || len(got) != len(want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// everyDay returns a Week with the same ranges on every weekday.
func everyDay(rs ...Range) Week {
	var w Week
	for i := range w {
		w[i] = rs
	}
	return w
}

// TestTransitionDates2026 pins the transition dates the DST tests run on, as
// found by scanning the zones, so a tzdata change shows up here first.
func TestTransitionDates2026(t *testing.T) {
	tests := []struct {
		zone                    string
		springForward, fallBack string
	}{
		{"Australia/Adelaide", "2026-10-04", "2026-04-05"},
		{"Australia/Lord_Howe", "2026-10-04", "2026-04-05"},
		{"Europe/London", "2026-03-29", "2026-10-25"},
		{"America/New_York", "2026-03-08", "2026-11-01"},
		{"Pacific/Chatham", "2026-09-27", "2026-04-05"},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			if got := springForwardDate(t, tt.zone).String(); got != tt.springForward {
				t.Errorf("spring forward on %s, want %s", got, tt.springForward)
			}
			if got := fallBackDate(t, tt.zone).String(); got != tt.fallBack {
				t.Errorf("fall back on %s, want %s", got, tt.fallBack)
			}
		})
	}
}
