// Package bookable finds what can be booked over stored records: the
// free slots of practitioners, and whether an appointment conflicts with
// its practitioner's schedule. It loads the schedule from a store, turns
// the stored location, practitioner and service into the engine's query
// (package availability) and reads the engine's answer back.
//
// The API's slot listing, the API's booking and the booking page all
// call this package, so a slot that is listed can be booked and a
// booking that conflicts is never listed (docs/availability.md).
package bookable

import (
	"slices"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
)

// Query turns stored records into the engine's inputs for practitioner
// pra at location loc, booking service svc (the zero Service for a bare
// duration) with what blocks the practitioner's time. zone is loc's time zone; nil will do for
// checks that compare instants only (availability.Conflicts). Duration,
// Interval, From, To and Now are left for the caller.
func Query(loc practiced.Location, pra practiced.Practitioner, svc practiced.Service, blocks practiced.Blocks, zone *time.Location) availability.Query {
	q := availability.Query{
		Busy:         make([]availability.Interval, 0, len(blocks.Busy)),
		Appointments: make([]availability.Appointment, 0, len(blocks.Appointments)),
		Zone:         zone,
		LocationID:   loc.ID,
		ServiceID:    svc.ID,
		BufferBefore: time.Duration(svc.BufferBefore) * time.Minute,
		BufferAfter:  time.Duration(svc.BufferAfter) * time.Minute,
		MaxClients:   svc.MaxClients,
		MinNotice:    time.Duration(svc.MinNotice) * time.Minute,
		Exceptions:   map[availability.Date][]availability.Range{},
	}
	for wd, d := range loc.OpeningHours.Days {
		if r, ok := clockRange(d.OpensAt, d.ClosesAt); d.Active && ok {
			q.Opening[wd] = []availability.Range{r}
		}
	}
	for _, wh := range pra.WorkingHours {
		if wh.LocationID != loc.ID {
			continue
		}
		q.HasWorking = true
		wd := slices.Index(practiced.DayNames[:], wh.Day)
		if r, ok := clockRange(wh.StartsAt, wh.EndsAt); ok && wd >= 0 {
			q.Working[wd] = append(q.Working[wd], r)
		}
	}
	for _, ex := range pra.Exceptions {
		if ex.LocationID != nil && *ex.LocationID != loc.ID {
			continue
		}
		d, err := availability.ParseDate(ex.Date)
		if err != nil {
			continue
		}
		ranges := q.Exceptions[d]
		if ranges == nil {
			ranges = []availability.Range{}
		}
		for _, tr := range ex.Ranges {
			if r, ok := clockRange(tr.StartsAt, tr.EndsAt); ok {
				ranges = append(ranges, r)
			}
		}
		q.Exceptions[d] = ranges
	}
	for _, sp := range blocks.Busy {
		q.Busy = append(q.Busy, availability.Interval{Start: sp.Start, End: sp.End})
	}
	for _, a := range blocks.Appointments {
		q.Appointments = append(q.Appointments, availability.Appointment{
			ID: a.ID, ServiceID: a.ServiceID, LocationID: a.LocationID,
			Start: a.Start, End: a.End,
			BufferBefore: time.Duration(a.BufferBefore) * time.Minute,
			BufferAfter:  time.Duration(a.BufferAfter) * time.Minute,
			Attendees:    a.Attendees, MaxClients: a.MaxClients,
		})
	}
	return q
}

// clockRange converts "HH:MM" times to a range of minutes after
// midnight. "24:00" ends a range at the end of the day.
func clockRange(start, end string) (availability.Range, bool) {
	s, ok1 := practiced.ParseClock(start)
	e, ok2 := practiced.ParseClock(end)
	if !ok1 || !ok2 || s >= e {
		return availability.Range{}, false
	}
	return availability.Range{Start: s, End: e}, true
}

// DateOf returns the calendar date of t in t's own location.
func DateOf(t time.Time) availability.Date {
	return availability.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}
}
