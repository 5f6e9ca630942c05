package availability

import (
	"time"

	"github.com/practiced/practiced/wallclock"
)

// dayClock turns wall-clock times of one local date into instants. Most days
// lie in a single offset period, where the conversion is a subtraction; only
// days near a transition pay for wallclock.Instant.
type dayClock struct {
	loc      *time.Location
	midnight time.Time // the date's midnight as a naive wall clock
	fixed    bool      // one offset covers every instant the day can map to
	offset   time.Duration
}

// newDayClock prepares conversions for date d in loc.
func newDayClock(loc *time.Location, d Date) dayClock {
	midnight := d.midnightUTC()
	t := midnight.Add(-wallclock.Window).In(loc)
	_, off := t.Zone()
	_, end := t.ZoneBounds()
	fixed := end.IsZero() || !end.Before(midnight.Add(24*time.Hour+wallclock.Window))
	return dayClock{loc: loc, midnight: midnight, fixed: fixed, offset: time.Duration(off) * time.Second}
}

// at returns the instant of the wall-clock time sinceMidnight after the
// date's midnight, and whether that wall-clock time exists (see
// wallclock.Instant). sinceMidnight may be 24h, meaning the next midnight.
func (c dayClock) at(sinceMidnight time.Duration) (time.Time, bool) {
	w := c.midnight.Add(sinceMidnight)
	if c.fixed {
		return w.Add(-c.offset), true
	}
	return wallclock.Instant(w, c.loc)
}
