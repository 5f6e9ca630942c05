package availability

import (
	"fmt"
	"slices"
	"time"

	"github.com/practiced/practiced/wallclock"
)

// Slots returns the bookable slots of q (rules 1 to 6 of the package doc),
// sorted by start with each start once.
func Slots(q Query) []Slot {
	if q.Duration <= 0 || q.To.Before(q.From) {
		return nil
	}
	loc := q.zone()
	earliest := q.Now.Add(q.MinNotice)
	// Every slot starts at or after earliest and From's local midnight, and
	// ends within Duration of the midnight after To; wallclock.Window
	// absorbs any UTC offset. Items outside these bounds cannot conflict,
	// and dropping them early keeps the sort small.
	from := later(earliest, q.From.midnightUTC().Add(-wallclock.Window))
	to := q.To.AddDays(1).midnightUTC().Add(wallclock.Window + q.Duration)
	blocks := newBlockers(q, from, to)

	var starts []time.Time
	for d := q.From; !q.To.Before(d); d = d.AddDays(1) {
		starts = appendGridStarts(starts, q, d, earliest, blocks)
	}
	starts = appendGroupStarts(starts, q, earliest, blocks)

	slices.SortFunc(starts, time.Time.Compare)
	starts = slices.CompactFunc(starts, time.Time.Equal)
	// A slot's local fields are read back from its instant rather than
	// from the candidate's wall-clock time, so they agree with Start by
	// construction. The slots of one local date share its text, and a
	// local time is one of clockTexts: nothing is formatted per slot.
	slots := make([]Slot, len(starts))
	var day Date // the local date of the slot before, written dayText
	var dayText string
	for i, start := range starts {
		local := start.In(loc)
		if d := dateOf(local); i == 0 || d != day {
			day, dayText = d, d.String()
		}
		hour, minute, _ := local.Clock()
		slots[i] = Slot{Start: start.UTC(), Date: dayText, Time: clockTexts[hour*60+minute]}
	}
	return slots
}

// appendGridStarts appends the free candidate starts of date d (rules 1, 2, 3
// and 5).
func appendGridStarts(starts []time.Time, q Query, d Date, earliest time.Time, blocks blockers) []time.Time {
	clock := newDayClock(q.zone(), d)
	step := q.step()
	for _, r := range openWallRanges(q, d) {
		rangeEnd, _ := clock.at(minutes(r.End))
		for wall := minutes(r.Start); wall < minutes(r.End); wall += step {
			start, exists := clock.at(wall)
			if !exists {
				continue
			}
			end := start.Add(q.Duration)
			if end.After(rangeEnd) {
				// Instants never go backwards as the wall clock advances, so
				// no later candidate of this range fits either.
				break
			}
			if start.Before(earliest) || blocks.overlaps(start, end, -1) {
				continue
			}
			starts = append(starts, start)
		}
	}
	return starts
}

// appendGroupStarts appends the starts of group appointments that still have
// places (rule 4), subject to rules 3 and 5 but not to opening hours.
func appendGroupStarts(starts []time.Time, q Query, earliest time.Time, blocks blockers) []time.Time {
	if q.MaxClients <= 1 || q.ServiceID == "" {
		return starts
	}
	loc := q.zone()
	for i, a := range q.Appointments {
		if a.ServiceID != q.ServiceID || a.LocationID != q.LocationID || a.Attendees >= a.MaxClients {
			continue
		}
		if d := dateOf(a.Start.In(loc)); d.Before(q.From) || q.To.Before(d) {
			continue
		}
		if a.Start.Before(earliest) || blocks.overlaps(a.Start, a.Start.Add(q.Duration), i) {
			continue
		}
		starts = append(starts, a.Start)
	}
	return starts
}

// clockTexts are the local times "HH:MM" of the minutes of a day, so
// that a slot's time is never formatted.
var clockTexts = func() []string {
	texts := make([]string, 24*60)
	for m := range texts {
		texts[m] = fmt.Sprintf("%02d:%02d", m/60, m%60)
	}
	return texts
}()

// later returns the later of two instants.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
