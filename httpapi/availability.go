package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
	"github.com/practiced/practiced/tid"
)

// availabilitySlot is one slot in the response. PractitionerID is set
// when the request names several practitioners or none.
type availabilitySlot struct {
	StartTimeLocal   string         `json:"start_time_local"`
	StartDateLocal   string         `json:"start_date_local"`
	LocalTimezone    string         `json:"local_timezone"`
	StartDatetimeUTC practiced.Time `json:"start_datetime_utc"`
	PractitionerID   string         `json:"practitioner_id,omitempty"`
}

// Limits of the availability query.
const (
	maxRangeDays         = 31
	minDuration          = 5
	maxDuration          = 480
	maxPractitioners     = 50
	defaultHorizonDays   = 90
	firstAvailableWindow = 14 // days searched per step of first_available
)

// slotsRequest is a checked availability query.
type slotsRequest struct {
	loc            practiced.Location
	zone           *time.Location
	svc            practiced.Service
	practitioners  []practiced.Practitioner
	tagSlots       bool // name each slot's practitioner
	duration       int
	interval       int
	from, to       availability.Date
	firstAvailable bool
}

// GET /v1/availability_slots
func (s *Server) listAvailabilitySlots(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readSlotsRequest(r)
	if err != nil {
		return err
	}
	out, err := s.slots(r.Context(), businessID(r.Context()), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct {
		Data []availabilitySlot `json:"data"`
	}{out})
	return nil
}

func (s *Server) readSlotsRequest(r *http.Request) (*slotsRequest, error) {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	q := newQuery(r.URL, &errs)
	locationID := q.id("location_id", practiced.PrefixLocation)
	if _, ok := q.values["location_id"]; !ok {
		errs.Add("location_id", "is required")
	}
	rawPractitioners := q.all("practitioner_id")
	var practitionerIDs []string
	for _, id := range rawPractitioners {
		switch {
		case !tid.Valid(id, practiced.PrefixPractitioner):
			errs.Add("practitioner_id", "must be an id starting with pra_")
		case slices.Contains(practitionerIDs, id):
			errs.Add("practitioner_id", "repeats "+id)
		default:
			practitionerIDs = append(practitionerIDs, id)
		}
	}
	if len(rawPractitioners) > maxPractitioners {
		errs.Add("practitioner_id", fmt.Sprintf("may be given at most %d times", maxPractitioners))
	}
	serviceID := q.id("service_id", practiced.PrefixService)
	duration, durationOK := q.integer("duration", minDuration, maxDuration, 0)
	_, hasService := q.values["service_id"]
	_, hasDuration := q.values["duration"]
	if !hasService && !hasDuration {
		errs.Add("duration", "is required when service_id is not given")
	}
	interval, _ := q.integer("interval", 5, 240, 0)
	firstAvailable := q.boolean("first_available")
	fromRaw, hasFrom := q.get("from")
	toRaw, hasTo := q.get("to")
	q.finish()
	req := &slotsRequest{interval: interval, firstAvailable: firstAvailable}
	var err error
	if hasFrom {
		if req.from, err = availability.ParseDate(fromRaw); err != nil {
			errs.Add("from", "must be a date such as 2026-03-02")
		}
	}
	if hasTo {
		if req.to, err = availability.ParseDate(toRaw); err != nil {
			errs.Add("to", "must be a date such as 2026-03-08")
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}

	req.loc, err = s.store.GetLocation(ctx, biz, locationID)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("location_id", "does not exist")
	} else if err != nil {
		return nil, err
	}
	if hasService && serviceID != "" {
		req.svc, err = s.store.GetService(ctx, biz, serviceID)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("service_id", "does not exist")
		} else if err != nil {
			return nil, err
		}
	}
	// Named practitioners must work at the location. Without
	// practitioner_id, every practitioner of the location who offers the
	// service (any of them, for a bare duration) is searched.
	req.tagSlots = len(practitionerIDs) != 1
	explicit := len(practitionerIDs) > 0
	if !explicit {
		practitionerIDs = req.loc.PractitionerIDs
	}
	name := func(id string) string {
		if len(practitionerIDs) > 1 {
			return id + " "
		}
		return ""
	}
	for _, id := range practitionerIDs {
		pra, err := s.store.GetPractitioner(ctx, biz, id)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("practitioner_id", name(id)+"does not exist")
			continue
		} else if err != nil {
			return nil, err
		}
		switch {
		case !explicit && (pra.ArchivedAt != nil || req.svc.ID != "" && !slices.Contains(pra.ServiceIDs, req.svc.ID)):
		case req.loc.ID != "" && !slices.Contains(req.loc.PractitionerIDs, pra.ID):
			errs.Add("practitioner_id", name(id)+"does not work at the location "+req.loc.ID)
		default:
			req.practitioners = append(req.practitioners, pra)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	req.duration = duration
	if !hasDuration || !durationOK {
		req.duration = req.svc.Duration
	}
	req.zone, err = time.LoadLocation(req.loc.Timezone)
	if err != nil {
		return nil, fmt.Errorf("location %s: time zone %q: %w", req.loc.ID, req.loc.Timezone, err)
	}
	today := dateOf(s.now().In(req.zone))
	if !hasFrom {
		req.from = today
	}
	horizon := req.svc.BookingHorizonDays
	if horizon <= 0 {
		horizon = defaultHorizonDays
	}
	switch {
	case firstAvailable && !hasTo:
		req.to = today.AddDays(horizon)
	case !hasTo:
		req.to = req.from.AddDays(6)
	}
	if req.to.Before(req.from) {
		errs.Add("to", "must not be before from")
	} else if !firstAvailable && req.from.AddDays(maxRangeDays-1).Before(req.to) {
		errs.Add("to", fmt.Sprintf("must be at most %d days after from (inclusive)", maxRangeDays-1))
	} else if firstAvailable && req.from.AddDays(2*365).Before(req.to) {
		errs.Add("to", "must be at most two years after from")
	}
	return req, errs.Err()
}

// slots computes the slots of every practitioner of the request, sorted
// by UTC start, then practitioner id.
func (s *Server) slots(ctx context.Context, biz string, req *slotsRequest) ([]availabilitySlot, error) {
	now := s.now()
	out := []availabilitySlot{}
	for _, pra := range req.practitioners {
		var found []availability.Slot
		// first_available searches window by window, so a free first week
		// costs one window, not the whole horizon.
		for from := req.from; !req.to.Before(from); {
			to := req.to
			if req.firstAvailable && from.AddDays(firstAvailableWindow-1).Before(to) {
				to = from.AddDays(firstAvailableWindow - 1)
			}
			slots, err := s.practitionerSlots(ctx, biz, req, pra, from, to, now)
			if err != nil {
				return nil, err
			}
			if !req.firstAvailable {
				found = slots
				break
			}
			if len(slots) > 0 {
				found = slots[:1]
				break
			}
			from = to.AddDays(1)
		}
		for _, sl := range found {
			slot := availabilitySlot{
				StartTimeLocal:   sl.Time,
				StartDateLocal:   sl.Date,
				LocalTimezone:    req.loc.Timezone,
				StartDatetimeUTC: practiced.NewTime(sl.Start),
			}
			if req.tagSlots {
				slot.PractitionerID = pra.ID
			}
			out = append(out, slot)
		}
	}
	slices.SortStableFunc(out, func(a, b availabilitySlot) int {
		if c := a.StartDatetimeUTC.Compare(b.StartDatetimeUTC.Time); c != 0 {
			return c
		}
		return strings.Compare(a.PractitionerID, b.PractitionerID)
	})
	return out, nil
}

// practitionerSlots runs the engine for one practitioner over [from, to].
func (s *Server) practitionerSlots(ctx context.Context, biz string, req *slotsRequest, pra practiced.Practitioner, from, to availability.Date, now time.Time) ([]availability.Slot, error) {
	// Read two days more on each side, so buffers and time zones reaching
	// past the range are seen.
	windowStart := time.Date(from.Year, from.Month, from.Day, 0, 0, 0, 0, req.zone).Add(-48 * time.Hour)
	windowEnd := time.Date(to.Year, to.Month, to.Day, 0, 0, 0, 0, req.zone).Add(72 * time.Hour)
	sch, err := s.store.PractitionerSchedule(ctx, biz, pra.ID, windowStart, windowEnd)
	if err != nil {
		return nil, err
	}
	aq := availabilityQuery(req.loc, pra, req.svc, sch, req.zone)
	aq.Duration = time.Duration(req.duration) * time.Minute
	aq.Interval = time.Duration(req.interval) * time.Minute
	aq.From, aq.To = from, to
	aq.Now = now
	return availability.Slots(aq), nil
}

func dateOf(t time.Time) availability.Date {
	return availability.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}
}

// availabilityQuery turns stored records into the engine's inputs.
func availabilityQuery(loc practiced.Location, pra practiced.Practitioner, svc practiced.Service, sch practiced.Schedule, zone *time.Location) availability.Query {
	q := availability.Query{
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
	for _, b := range sch.BusyTimes {
		q.Busy = append(q.Busy, availability.Interval{Start: b.StartsAt.Time, End: b.EndsAt.Time})
	}
	for _, a := range sch.Appointments {
		var service string
		if a.ServiceID != nil {
			service = *a.ServiceID
		}
		q.Appointments = append(q.Appointments, availability.Appointment{
			ID: a.ID, ServiceID: service, LocationID: a.LocationID,
			Start: a.StartsAt.Time, End: a.EndsAt.Time,
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
	s, ok1 := clockMinutes(start)
	e, ok2 := clockMinutes(end)
	if !ok1 || !ok2 || s >= e {
		return availability.Range{}, false
	}
	return availability.Range{Start: s, End: e}, true
}

func clockMinutes(hhmm string) (int, bool) {
	var h, m int
	if len(hhmm) != 5 || hhmm[2] != ':' {
		return 0, false
	}
	if _, err := fmt.Sscanf(hhmm, "%02d:%02d", &h, &m); err != nil {
		return 0, false
	}
	if h == 24 && m == 0 {
		return 1440, true
	}
	if h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}
