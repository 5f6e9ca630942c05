package availability

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// testZones are the zones the DST tests and the property test cover: whole-
// hour shifts in both hemispheres, Lord Howe's 30-minute shift and Chatham's
// transitions at a quarter to the hour.
var testZones = []string{
	"Australia/Adelaide",
	"Australia/Lord_Howe",
	"Europe/London",
	"America/New_York",
	"Pacific/Chatham",
}

// mustZone loads a time zone or fails the test.
func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return loc
}

// transition is one change of UTC offset, found by scanning the zone rather
// than assumed, so the tests follow the real 2026 rules.
type transition struct {
	At            time.Time // the first instant with the new offset
	Date          Date      // local date of the transition
	Before, After time.Duration
}

// springsForward reports whether clocks go forward, opening a gap.
func (tr transition) springsForward() bool { return tr.After > tr.Before }

var (
	transitionsMu    sync.Mutex
	transitionsCache = map[string][]transition{}
)

// transitions2026 returns the offset changes of the zone during 2026 by
// stepping through the year a quarter hour at a time and then narrowing each
// change down to the minute.
func transitions2026(t testing.TB, name string) []transition {
	t.Helper()
	transitionsMu.Lock()
	defer transitionsMu.Unlock()
	if trs, ok := transitionsCache[name]; ok {
		return trs
	}
	loc := mustZone(t, name)
	offset := func(at time.Time) time.Duration {
		_, off := at.In(loc).Zone()
		return time.Duration(off) * time.Second
	}
	var trs []transition
	end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	prev := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for at := prev.Add(15 * time.Minute); at.Before(end); prev, at = at, at.Add(15*time.Minute) {
		if offset(at) == offset(prev) {
			continue
		}
		first := prev.Add(time.Minute)
		for offset(first) == offset(prev) {
			first = first.Add(time.Minute)
		}
		trs = append(trs, transition{
			At:     first,
			Date:   dateOf(first.In(loc)),
			Before: offset(prev),
			After:  offset(first),
		})
	}
	transitionsCache[name] = trs
	return trs
}

// springForward returns the zone's 2026 transition that opens a gap.
func springForward(t testing.TB, name string) transition {
	t.Helper()
	for _, tr := range transitions2026(t, name) {
		if tr.springsForward() {
			return tr
		}
	}
	t.Fatalf("%s has no spring-forward transition in 2026", name)
	return transition{}
}

// fallBack returns the zone's 2026 transition that repeats local times.
func fallBack(t testing.TB, name string) transition {
	t.Helper()
	for _, tr := range transitions2026(t, name) {
		if !tr.springsForward() {
			return tr
		}
	}
	t.Fatalf("%s has no fall-back transition in 2026", name)
	return transition{}
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
			if got := springForward(t, tt.zone).Date.String(); got != tt.springForward {
				t.Errorf("spring forward on %s, want %s", got, tt.springForward)
			}
			if got := fallBack(t, tt.zone).Date.String(); got != tt.fallBack {
				t.Errorf("fall back on %s, want %s", got, tt.fallBack)
			}
		})
	}
}
