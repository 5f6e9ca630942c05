package availability

import "time"

// window bounds how far from a wall-clock reading its instants can lie. Real
// UTC offsets stay within ±15h (historic local mean times included); a day's
// margin leaves room for a transition on either side.
const window = 26 * time.Hour

// resolve maps the wall-clock time w to an instant in loc, following the
// package's DST rules: it returns the earliest instant whose local reading is
// at or after w, and whether that reading is exactly w. w is a "naive" wall
// clock: its UTC fields are the local fields.
//
// Instants are walked period by period, where a period is a span of constant
// UTC offset: inside one, wall clock and instants advance together, so the
// first period whose readings reach w holds the answer. A gap has no period
// covering w, so the answer is the start of the next period, the transition.
// An overlap is covered by two periods, and the earlier one wins.
func resolve(loc *time.Location, w time.Time) (instant time.Time, exact bool) {
	t := w.Add(-window)
	limit := w.Add(window)
	offset := time.Duration(0)
	for t.Before(limit) {
		local := t.In(loc)
		_, off := local.Zone()
		_, end := local.ZoneBounds()
		offset = time.Duration(off) * time.Second
		if first := t.Add(offset); !first.Before(w) {
			return t.UTC(), first.Equal(w)
		}
		if end.IsZero() || w.Before(end.Add(offset)) {
			return w.Add(-offset), true
		}
		t = end
	}
	// Unreachable for real zones, whose offsets lie well inside window; the
	// last offset seen is the best remaining guess.
	return w.Add(-offset), true
}

// dayClock turns wall-clock times of one local date into instants. Most days
// lie in a single offset period, where the conversion is a subtraction; only
// days near a transition pay for resolve.
type dayClock struct {
	loc      *time.Location
	midnight time.Time // the date's midnight as a naive wall clock
	fixed    bool      // one offset covers every instant the day can map to
	offset   time.Duration
}

// newDayClock prepares conversions for date d in loc.
func newDayClock(loc *time.Location, d Date) dayClock {
	midnight := d.midnightUTC()
	t := midnight.Add(-window).In(loc)
	_, off := t.Zone()
	_, end := t.ZoneBounds()
	fixed := end.IsZero() || !end.Before(midnight.Add(24*time.Hour+window))
	return dayClock{loc: loc, midnight: midnight, fixed: fixed, offset: time.Duration(off) * time.Second}
}

// at returns the instant of the wall-clock time sinceMidnight after the
// date's midnight, and whether that wall-clock time exists (see resolve).
// sinceMidnight may be 24h, meaning the next midnight.
func (c dayClock) at(sinceMidnight time.Duration) (time.Time, bool) {
	w := c.midnight.Add(sinceMidnight)
	if c.fixed {
		return w.Add(-c.offset), true
	}
	return resolve(c.loc, w)
}
