package availability

import (
	"time"

	"github.com/practiced/practiced/wallclock"
)

// window bounds how far from a wall-clock reading its instants can lie;
// see the wallclock package.
const window = 26 * time.Hour

// resolve maps the wall-clock time w to an instant in loc by the package's
// DST rules (the wallclock package's), and reports whether the reading is
// exactly w.
func resolve(loc *time.Location, w time.Time) (instant time.Time, exact bool) {
	return wallclock.Instant(w, loc)
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
