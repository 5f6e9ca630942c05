package schedule

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
)

// Request is one availability question over stored records: the slots
// of some practitioners at a location, for a service or a bare duration,
// between two local dates.
type Request struct {
	Location practiced.Location
	Zone     *time.Location    // the location's time zone
	Service  practiced.Service // the zero Service for a bare duration
	// Practitioners are searched in turn; each must work at the location.
	Practitioners []practiced.Practitioner
	Duration      int               // minutes
	Interval      int               // minutes between candidate starts; 0 means Duration
	From, To      availability.Date // local dates, inclusive
	// FirstAvailable asks for each practitioner's first slot alone,
	// searched FirstAvailableWindow days at a time, so that a free first
	// week costs one window and not the whole range.
	FirstAvailable bool
	Now            time.Time
}

// Slot is a start time at which one practitioner can be booked.
type Slot struct {
	availability.Slot
	PractitionerID string
	// GroupAppointmentID names the group appointment whose free place the
	// slot is (rule 4): booking it joins that appointment. It is "" for a
	// slot that makes a new appointment.
	GroupAppointmentID string
}

// FirstAvailableWindow is how many days a FirstAvailable search reads at
// a time.
const FirstAvailableWindow = 14

// DefaultHorizonDays bounds the booking page and first_available searches
// of a service without a booking_horizon_days of its own.
const DefaultHorizonDays = 90

// HorizonDays is how many days after today the booking page and
// first_available searches reach for svc (rule 5): slots on local dates
// up to today + HorizonDays, inclusive.
func HorizonDays(svc practiced.Service) int {
	if svc.BookingHorizonDays > 0 {
		return svc.BookingHorizonDays
	}
	return DefaultHorizonDays
}

// Offers reports whether pra is searched when a request names no
// practitioner: not archived, working at loc, and giving svc (any
// practitioner of the location for a bare duration).
func Offers(pra practiced.Practitioner, loc practiced.Location, svc practiced.Service) bool {
	return pra.ArchivedAt == nil && slices.Contains(loc.PractitionerIDs, pra.ID) &&
		(svc.ID == "" || slices.Contains(pra.ServiceIDs, svc.ID))
}

// Slots returns the slots of every practitioner of req, sorted by UTC
// start, then practitioner id. Practitioners are searched side by side,
// a few at a time, since each search is mostly waiting on the store.
func Slots(ctx context.Context, st practiced.ScheduleStore, businessID string, req Request) ([]Slot, error) {
	found := make([][]Slot, len(req.Practitioners))
	errs := make([]error, len(req.Practitioners))
	sem := make(chan struct{}, parallelSearches)
	var wg sync.WaitGroup
	for i, pra := range req.Practitioners {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			found[i], errs[i] = practitionerFirstSlots(ctx, st, businessID, req, pra)
		}()
	}
	wg.Wait()
	var out []Slot
	for i := range found {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, found[i]...)
	}
	slices.SortStableFunc(out, func(a, b Slot) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return strings.Compare(a.PractitionerID, b.PractitionerID)
	})
	return out, nil
}

// parallelSearches bounds the practitioners searched at once, below the
// SQLite store's pool of readers.
const parallelSearches = 4

// practitionerFirstSlots returns one practitioner's slots over the
// request's range, or only the first of them for first_available, which
// is searched window by window so a free first week costs one window.
func practitionerFirstSlots(ctx context.Context, st practiced.ScheduleStore, businessID string, req Request, pra practiced.Practitioner) ([]Slot, error) {
	for from := req.From; !req.To.Before(from); {
		to := req.To
		if req.FirstAvailable && from.AddDays(FirstAvailableWindow-1).Before(to) {
			to = from.AddDays(FirstAvailableWindow - 1)
		}
		slots, err := practitionerSlots(ctx, st, businessID, req, pra, from, to)
		if err != nil {
			return nil, err
		}
		if !req.FirstAvailable {
			return slots, nil
		}
		if len(slots) > 0 {
			return slots[:1], nil
		}
		from = to.AddDays(1)
	}
	return nil, nil
}

// practitionerSlots runs the engine for one practitioner over [from, to].
func practitionerSlots(ctx context.Context, st practiced.ScheduleStore, businessID string, req Request, pra practiced.Practitioner, from, to availability.Date) ([]Slot, error) {
	// Read two days more on each side, so buffers and time zones reaching
	// past the range are seen.
	windowStart := time.Date(from.Year, from.Month, from.Day, 0, 0, 0, 0, req.Zone).Add(-48 * time.Hour)
	windowEnd := time.Date(to.Year, to.Month, to.Day, 0, 0, 0, 0, req.Zone).Add(72 * time.Hour)
	sch, err := st.PractitionerSchedule(ctx, businessID, pra.ID, windowStart, windowEnd)
	if err != nil {
		return nil, err
	}
	return slotsIn(req, pra, sch, from, to), nil
}

// slotsIn runs the engine for one practitioner over [from, to] with the
// schedule sch, and names the group appointment of each group place.
func slotsIn(req Request, pra practiced.Practitioner, sch practiced.Schedule, from, to availability.Date) []Slot {
	q := Query(req.Location, pra, req.Service, sch, req.Zone)
	q.Duration = time.Duration(req.Duration) * time.Minute
	q.Interval = time.Duration(req.Interval) * time.Minute
	q.From, q.To = from, to
	q.Now = req.Now
	found := availability.Slots(q)
	out := make([]Slot, len(found))
	for i, sl := range found {
		out[i] = Slot{Slot: sl, PractitionerID: pra.ID, GroupAppointmentID: groupAt(q, sl.Start)}
	}
	return out
}

// groupAt returns the group appointment with a free place that rule 4
// offers at start, or "". A listed start that is such an appointment's
// own start is that place: a new appointment there would overlap it, so
// it cannot be a slot of its own.
func groupAt(q availability.Query, start time.Time) string {
	if q.MaxClients <= 1 || q.ServiceID == "" {
		return ""
	}
	for _, a := range q.Appointments {
		if a.ServiceID == q.ServiceID && a.LocationID == q.LocationID && a.Attendees < a.MaxClients && a.Start.Equal(start) {
			return a.ID
		}
	}
	return ""
}
