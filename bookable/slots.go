package bookable

import (
	"context"
	"slices"
	"strings"
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
// start, then practitioner id. What blocks the practitioners' time is
// read for all of them at once: one read of the whole range, or, for
// FirstAvailable, one read per window of the practitioners whose first
// slot is still to be found.
func Slots(ctx context.Context, st practiced.ScheduleStore, businessID string, req Request) ([]Slot, error) {
	var out []Slot
	pending := req.Practitioners
	for from := req.From; !req.To.Before(from) && len(pending) > 0; {
		to := req.To
		if req.FirstAvailable && from.AddDays(FirstAvailableWindow-1).Before(to) {
			to = from.AddDays(FirstAvailableWindow - 1)
		}
		blocks, err := readBlocks(ctx, st, businessID, req.Zone, pending, from, to)
		if err != nil {
			return nil, err
		}
		var unfound []practiced.Practitioner
		for _, pra := range pending {
			slots := slotsIn(req, pra, blocks[pra.ID], from, to)
			switch {
			case !req.FirstAvailable:
				out = append(out, slots...)
			case len(slots) > 0:
				out = append(out, slots[0])
			default:
				unfound = append(unfound, pra)
			}
		}
		if !req.FirstAvailable {
			break
		}
		pending, from = unfound, to.AddDays(1)
	}
	return sortSlots(out), nil
}

// sortSlots returns the slots sorted by UTC start, then practitioner id.
// No two share both (the engine lists each start once), so any sort gives
// the one order there is. It sorts the slots' positions and then moves
// each slot once, since moving slots at every step of the sort costs more
// than comparing them.
func sortSlots(slots []Slot) []Slot {
	if len(slots) < 2 {
		return slots
	}
	order := make([]int32, len(slots))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		a, b := &slots[i], &slots[j]
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return strings.Compare(a.PractitionerID, b.PractitionerID)
	})
	out := make([]Slot, len(slots))
	for i, k := range order {
		out[i] = slots[k]
	}
	return out
}

// readBlocks reads what blocks the practitioners' time over the local
// dates [from, to] in zone, by practitioner id. It reads two days more on
// each side, so buffers and time zones reaching past the range are seen.
func readBlocks(ctx context.Context, st practiced.ScheduleStore, businessID string, zone *time.Location, pras []practiced.Practitioner, from, to availability.Date) (map[string]practiced.Blocks, error) {
	start := time.Date(from.Year, from.Month, from.Day, 0, 0, 0, 0, zone).Add(-48 * time.Hour)
	end := time.Date(to.Year, to.Month, to.Day, 0, 0, 0, 0, zone).Add(72 * time.Hour)
	ids := make([]string, len(pras))
	for i, pra := range pras {
		ids[i] = pra.ID
	}
	return st.Blocks(ctx, businessID, ids, start, end)
}

// slotsIn runs the engine for one practitioner over [from, to] with what
// blocks the practitioner's time, and names the group appointment of each group place.
func slotsIn(req Request, pra practiced.Practitioner, blocks practiced.Blocks, from, to availability.Date) []Slot {
	q := Query(req.Location, pra, req.Service, blocks, req.Zone)
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
