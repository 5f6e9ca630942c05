// Package zonetest finds the daylight-saving transitions that time-zone
// tests run on. It scans the zones rather than assuming their rules, so the
// tests follow the tzdata installed.
package zonetest

import (
	"sync"
	"testing"
	"time"
)

// Zones are the zones the DST tests cover: whole-hour shifts in both
// hemispheres, Lord Howe's 30-minute shift and Chatham's transitions at a
// quarter to the hour.
var Zones = []string{
	"Australia/Adelaide",
	"Australia/Lord_Howe",
	"Europe/London",
	"America/New_York",
	"Pacific/Chatham",
}

// Load loads a time zone or fails the test.
func Load(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return loc
}

// Transition is one change of a zone's UTC offset.
type Transition struct {
	At            time.Time // the first instant with the new offset, in UTC
	Before, After time.Duration
}

// SpringsForward reports whether clocks go forward, opening a gap.
func (tr Transition) SpringsForward() bool { return tr.After > tr.Before }

var (
	cacheMu sync.Mutex
	cache   = map[string][]Transition{}
)

// In2026 returns the offset changes of the zone during 2026, found by
// stepping through the year a quarter hour at a time and then narrowing
// each change down to the minute. A zone is scanned once per test binary.
func In2026(t testing.TB, name string) []Transition {
	t.Helper()
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if trs, ok := cache[name]; ok {
		return trs
	}
	loc := Load(t, name)
	offset := func(at time.Time) time.Duration {
		_, off := at.In(loc).Zone()
		return time.Duration(off) * time.Second
	}
	var trs []Transition
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
		trs = append(trs, Transition{At: first, Before: offset(prev), After: offset(first)})
	}
	cache[name] = trs
	return trs
}

// SpringForward returns the zone's 2026 transition that opens a gap.
func SpringForward(t testing.TB, name string) Transition {
	t.Helper()
	for _, tr := range In2026(t, name) {
		if tr.SpringsForward() {
			return tr
		}
	}
	t.Fatalf("%s has no spring-forward transition in 2026", name)
	return Transition{}
}

// FallBack returns the zone's 2026 transition that repeats local times.
func FallBack(t testing.TB, name string) Transition {
	t.Helper()
	for _, tr := range In2026(t, name) {
		if !tr.SpringsForward() {
			return tr
		}
	}
	t.Fatalf("%s has no fall-back transition in 2026", name)
	return Transition{}
}
