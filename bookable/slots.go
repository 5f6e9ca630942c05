package bookable

import (
	"container/heap"
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
	var lists [][]Slot // each one practitioner's, in order of start
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
				lists = append(lists, slots)
			case len(slots) > 0:
				lists = append(lists, slots[:1])
			default:
				unfound = append(unfound, pra)
			}
		}
		if !req.FirstAvailable {
			break
		}
		pending, from = unfound, to.AddDays(1)
	}
	return mergeSlots(lists), nil
}

// mergeSlots merges lists, each the slots of one practitioner in order
// of start (as the engine lists them, each start once), into one list in
// order of start, then practitioner id: the one order there is, as no two
// slots share both. With the lists in order of their practitioner's id,
// a heap of the lists by their first slot compares starts alone (a tie
// goes to the earlier list), about log2(len(lists)) times a slot, and
// each slot is moved once.
func mergeSlots(lists [][]Slot) []Slot {
	slices.SortFunc(lists, func(a, b []Slot) int {
		if len(a) == 0 || len(b) == 0 {
			return len(a) - len(b)
		}
		return strings.Compare(a[0].PractitionerID, b[0].PractitionerID)
	})
	n := 0
	h := &slotHeap{lists: lists}
	for i, l := range lists {
		n += len(l)
		if len(l) > 0 {
			h.at = append(h.at, i)
		}
	}
	if n == 0 {
		return nil
	}
	heap.Init(h)
	out := make([]Slot, 0, n)
	for len(h.at) > 0 {
		first := h.at[0]
		out = append(out, lists[first][0])
		if lists[first] = lists[first][1:]; len(lists[first]) == 0 {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return out
}

// slotHeap is a heap (container/heap) of the lists of mergeSlots not yet
// merged, held as their indices at, by their first slot's start, a tie
// to the earlier list.
type slotHeap struct {
	lists [][]Slot
	at    []int
}

func (h *slotHeap) Len() int { return len(h.at) }

func (h *slotHeap) Less(i, j int) bool {
	a, b := h.at[i], h.at[j]
	if c := h.lists[a][0].Start.Compare(h.lists[b][0].Start); c != 0 {
		return c < 0
	}
	return a < b
}

func (h *slotHeap) Swap(i, j int) { h.at[i], h.at[j] = h.at[j], h.at[i] }

func (h *slotHeap) Push(x any) { h.at = append(h.at, x.(int)) }

func (h *slotHeap) Pop() any {
	last := h.at[len(h.at)-1]
	h.at = h.at[:len(h.at)-1]
	return last
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
