// Package wallclock turns local wall-clock times into instants by the one
// rule every part of practiced follows across DST changes: a local time
// maps to the earliest instant whose reading is at or after it. So a time
// that occurs twice (clocks going back) takes its first instant, and a
// time a gap skips (clocks going forward) takes the end of the gap, the
// transition itself. time.Date leaves both cases unspecified.
//
// Wall-clock times are "floating": a time.Time in UTC whose fields are the
// local fields, so that every local time exists exactly once and the
// difference of two is a difference on the wall clock.
package wallclock

import "time"

// Window bounds how far from a wall-clock reading its instants can lie.
// Real UTC offsets stay within ±15h (historic local mean times included);
// a day's margin leaves room for a transition on either side.
const Window = 26 * time.Hour

// Floating returns t's local date and time in zone as a floating time.
func Floating(t time.Time, zone *time.Location) time.Time {
	l := t.In(zone)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// Instant returns, in UTC, the earliest instant whose reading in zone is at
// or after the floating time wall, and whether that reading is exactly
// wall (false when wall lies in a gap).
//
// Instants are walked period by period, where a period is a span of
// constant UTC offset: inside one, wall clock and instants advance
// together, so the first period whose readings reach wall holds the
// answer. A gap has no period covering wall, so the answer is the start of
// the next period. An overlap is covered by two periods; the earlier wins.
func Instant(wall time.Time, zone *time.Location) (instant time.Time, exact bool) {
	t := wall.Add(-Window)
	limit := wall.Add(Window)
	offset := time.Duration(0)
	for t.Before(limit) {
		local := t.In(zone)
		_, off := local.Zone()
		_, end := local.ZoneBounds()
		offset = time.Duration(off) * time.Second
		if first := t.Add(offset); !first.Before(wall) {
			return t.UTC(), first.Equal(wall)
		}
		if end.IsZero() || wall.Before(end.Add(offset)) {
			return wall.Add(-offset).UTC(), true
		}
		t = end
	}
	// Unreachable for real zones, whose offsets lie well inside Window; the
	// last offset seen is the best remaining guess.
	return wall.Add(-offset).UTC(), true
}
