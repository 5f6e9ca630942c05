package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
	"github.com/practiced/practiced/schedule"
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
	maxRangeDays     = 31
	minDuration      = 5
	maxDuration      = 480
	maxPractitioners = 50
)

// slotsRequest is a checked availability query.
type slotsRequest struct {
	schedule.Request
	tagSlots bool // name each slot's practitioner
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
	req := &slotsRequest{Request: schedule.Request{Interval: interval, FirstAvailable: firstAvailable}}
	var err error
	if hasFrom {
		if req.From, err = availability.ParseDate(fromRaw); err != nil {
			errs.Add("from", "must be a date such as 2026-03-02")
		}
	}
	if hasTo {
		if req.To, err = availability.ParseDate(toRaw); err != nil {
			errs.Add("to", "must be a date such as 2026-03-08")
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}

	req.Location, err = s.store.GetLocation(ctx, biz, locationID)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("location_id", "does not exist")
	} else if err != nil {
		return nil, err
	}
	if hasService && serviceID != "" {
		req.Service, err = s.store.GetService(ctx, biz, serviceID)
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
		practitionerIDs = req.Location.PractitionerIDs
	}
	name := func(id string) string {
		if len(practitionerIDs) > 1 {
			return id + " "
		}
		return ""
	}
	if !explicit && req.Location.ID != "" {
		// One list read instead of a read per practitioner.
		all, err := s.locationPractitioners(ctx, biz, req.Location.ID)
		if err != nil {
			return nil, err
		}
		for _, pra := range all {
			if schedule.Offers(pra, req.Location, req.Service) {
				req.Practitioners = append(req.Practitioners, pra)
			}
		}
		practitionerIDs = nil
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
		case !explicit && !schedule.Offers(pra, req.Location, req.Service):
		case req.Location.ID != "" && !slices.Contains(req.Location.PractitionerIDs, pra.ID):
			errs.Add("practitioner_id", name(id)+"does not work at the location "+req.Location.ID)
		default:
			req.Practitioners = append(req.Practitioners, pra)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	req.Duration = duration
	if !hasDuration || !durationOK {
		req.Duration = req.Service.Duration
	}
	req.Zone, err = time.LoadLocation(req.Location.Timezone)
	if err != nil {
		return nil, fmt.Errorf("location %s: time zone %q: %w", req.Location.ID, req.Location.Timezone, err)
	}
	today := schedule.DateOf(s.now().In(req.Zone))
	if !hasFrom {
		req.From = today
	}
	switch {
	case firstAvailable && !hasTo:
		req.To = today.AddDays(schedule.HorizonDays(req.Service))
	case !hasTo:
		req.To = req.From.AddDays(6)
	}
	if req.To.Before(req.From) {
		errs.Add("to", "must not be before from")
	} else if !firstAvailable && req.From.AddDays(maxRangeDays-1).Before(req.To) {
		errs.Add("to", fmt.Sprintf("must be at most %d days after from (inclusive)", maxRangeDays-1))
	} else if firstAvailable && req.From.AddDays(2*365).Before(req.To) {
		errs.Add("to", "must be at most two years after from")
	}
	return req, errs.Err()
}

// slots computes the slots of every practitioner of the request, sorted
// by UTC start, then practitioner id, with the function the booking page
// and bookings use too.
func (s *Server) slots(ctx context.Context, biz string, req *slotsRequest) ([]availabilitySlot, error) {
	req.Now = s.now()
	found, err := schedule.Slots(ctx, s.store, biz, req.Request)
	if err != nil {
		return nil, err
	}
	out := make([]availabilitySlot, len(found))
	for i, sl := range found {
		out[i] = availabilitySlot{
			StartTimeLocal:   sl.Time,
			StartDateLocal:   sl.Date,
			LocalTimezone:    req.Location.Timezone,
			StartDatetimeUTC: practiced.NewTime(sl.Start),
		}
		if req.tagSlots {
			out[i].PractitionerID = sl.PractitionerID
		}
	}
	return out, nil
}

// locationPractitioners returns every practitioner working at the
// location, archived ones included, in id order.
func (s *Server) locationPractitioners(ctx context.Context, biz, locationID string) ([]practiced.Practitioner, error) {
	var out []practiced.Practitioner
	page := practiced.PageRequest{Limit: 100}
	for {
		pras, info, err := s.store.ListPractitioners(ctx, biz, practiced.PractitionerFilter{
			ListFilter: practiced.ListFilter{IncludeArchived: true}, LocationID: locationID}, page)
		if err != nil {
			return nil, err
		}
		out = append(out, pras...)
		if !info.HasNext || len(pras) == 0 {
			return out, nil
		}
		page.After = pras[len(pras)-1].ID
	}
}
