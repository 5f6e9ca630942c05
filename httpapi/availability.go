package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
	"github.com/practiced/practiced/bookable"
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
	bookable.Request
	tagSlots bool // name each slot's practitioner
}

// GET /v1/availability_slots
func (s *Server) listAvailabilitySlots(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readSlotsRequest(r)
	if err != nil {
		return err
	}
	// A month of a location's slots takes megabytes while it is found
	// and written: searches take turns beyond a few per core, so that
	// many at once queue rather than multiply the memory they take, at
	// no cost in throughput, as each keeps a core busy.
	select {
	case s.searches <- struct{}{}:
		defer func() { <-s.searches }()
	case <-r.Context().Done():
		return r.Context().Err()
	}
	out, err := s.slots(r.Context(), businessID(r.Context()), req)
	if err != nil {
		return err
	}
	// The answer is put together in a kept page buffer, large enough
	// for it at once, and written whole with its length, as a list's
	// page is.
	buf := getPageBuffer(16 + len(out)*slotBytes)
	defer putPageBuffer(buf)
	writePage(w, appendSlotsBody(buf.AvailableBuffer(), out))
	return nil
}

// slotBytes is about the length of one slot in the answer, with its
// practitioner id, so that the answer's buffer is grown once.
const slotBytes = 200

// appendSlotsBody appends the answer of slots to buf: the bytes writeJSON
// writes for {"data": slots}. A month of a location holds thousands of
// slots, which encoding/json writes several times slower, through
// reflection and a check of every value its marshalers return.
func appendSlotsBody(buf []byte, slots []availabilitySlot) []byte {
	buf = append(buf, `{"data":[`...)
	for i, sl := range slots {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"start_time_local":`...)
		buf = practiced.AppendJSONString(buf, sl.StartTimeLocal)
		buf = append(buf, `,"start_date_local":`...)
		buf = practiced.AppendJSONString(buf, sl.StartDateLocal)
		buf = append(buf, `,"local_timezone":`...)
		buf = practiced.AppendJSONString(buf, sl.LocalTimezone)
		buf = append(buf, `,"start_datetime_utc":"`...)
		buf = practiced.AppendTime(buf, sl.StartDatetimeUTC.Time)
		buf = append(buf, '"')
		if sl.PractitionerID != "" {
			buf = append(buf, `,"practitioner_id":`...)
			buf = practiced.AppendJSONString(buf, sl.PractitionerID)
		}
		buf = append(buf, '}')
	}
	return append(buf, "]}\n"...)
}

// readSlotsRequest reads and checks the availability query: its
// parameters, then the location, service and practitioners they name,
// then the window of days.
func (s *Server) readSlotsRequest(r *http.Request) (*slotsRequest, error) {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	q := readSlotsQuery(newQuery(r.URL, &errs))
	if err := errs.Err(); err != nil {
		return nil, err
	}
	req := &slotsRequest{Request: bookable.Request{Interval: q.interval, FirstAvailable: q.firstAvailable, From: q.from, To: q.to}}
	if err := s.readSlotsPlace(ctx, biz, q, req, &errs); err != nil {
		return nil, err
	}
	if err := s.readSlotsPractitioners(ctx, biz, q.practitionerIDs, req, &errs); err != nil {
		return nil, err
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	req.Duration = q.duration
	if !q.hasDuration || !q.durationOK {
		req.Duration = req.Service.Duration
	}
	var err error
	req.Zone, err = time.LoadLocation(req.Location.Timezone)
	if err != nil {
		return nil, fmt.Errorf("location %s: time zone %q: %w", req.Location.ID, req.Location.Timezone, err)
	}
	s.readSlotsWindow(q, req, &errs)
	return req, errs.Err()
}

// slotsQuery is the availability query's parameters, each checked on
// its own.
type slotsQuery struct {
	locationID, serviceID   string
	practitionerIDs         []string
	hasService, hasDuration bool
	duration                int
	durationOK              bool
	interval                int
	firstAvailable          bool
	from, to                availability.Date
	hasFrom, hasTo          bool
}

// readSlotsQuery reads the query's parameters; a failure is added to the
// query's errors.
func readSlotsQuery(q *query) slotsQuery {
	errs := q.errs
	var sq slotsQuery
	sq.locationID = q.id("location_id", practiced.PrefixLocation)
	if _, ok := q.values["location_id"]; !ok {
		errs.Add("location_id", "is required")
	}
	rawPractitioners := q.all("practitioner_id")
	for _, id := range rawPractitioners {
		switch {
		case !tid.Valid(id, practiced.PrefixPractitioner):
			errs.Add("practitioner_id", "must be an id starting with pra_")
		case slices.Contains(sq.practitionerIDs, id):
			errs.Add("practitioner_id", "repeats "+id)
		default:
			sq.practitionerIDs = append(sq.practitionerIDs, id)
		}
	}
	if len(rawPractitioners) > maxPractitioners {
		errs.Add("practitioner_id", fmt.Sprintf("may be given at most %d times", maxPractitioners))
	}
	sq.serviceID = q.id("service_id", practiced.PrefixService)
	sq.duration, sq.durationOK = q.integer("duration", minDuration, maxDuration, 0)
	_, sq.hasService = q.values["service_id"]
	_, sq.hasDuration = q.values["duration"]
	if !sq.hasService && !sq.hasDuration {
		errs.Add("duration", "is required when service_id is not given")
	}
	sq.interval, _ = q.integer("interval", 5, 240, 0)
	sq.firstAvailable = q.boolean("first_available")
	fromRaw, hasFrom := q.get("from")
	toRaw, hasTo := q.get("to")
	q.finish()
	var err error
	if sq.hasFrom = hasFrom; hasFrom {
		if sq.from, err = availability.ParseDate(fromRaw); err != nil {
			errs.Add("from", "must be a date such as 2026-03-02")
		}
	}
	if sq.hasTo = hasTo; hasTo {
		if sq.to, err = availability.ParseDate(toRaw); err != nil {
			errs.Add("to", "must be a date such as 2026-03-08")
		}
	}
	return sq
}

// readSlotsPlace reads the location and the service the query names.
func (s *Server) readSlotsPlace(ctx context.Context, biz string, q slotsQuery, req *slotsRequest, errs *practiced.FieldErrors) error {
	var err error
	req.Location, err = s.store.GetLocation(ctx, biz, q.locationID)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("location_id", "does not exist")
	} else if err != nil {
		return err
	}
	if q.hasService && q.serviceID != "" {
		req.Service, err = s.store.GetService(ctx, biz, q.serviceID)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("service_id", "does not exist")
		} else if err != nil {
			return err
		}
	}
	return nil
}

// readSlotsPractitioners reads the practitioners to search. Named
// practitioners must work at the location. Without practitioner_id,
// every practitioner of the location who offers the service (any of
// them, for a bare duration) is searched.
func (s *Server) readSlotsPractitioners(ctx context.Context, biz string, practitionerIDs []string, req *slotsRequest, errs *practiced.FieldErrors) error {
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
			return err
		}
		for _, pra := range all {
			if bookable.Offers(pra, req.Location, req.Service) {
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
			return err
		}
		switch {
		case !explicit && !bookable.Offers(pra, req.Location, req.Service):
		case req.Location.ID != "" && !slices.Contains(req.Location.PractitionerIDs, pra.ID):
			errs.Add("practitioner_id", name(id)+"does not work at the location "+req.Location.ID)
		default:
			req.Practitioners = append(req.Practitioners, pra)
		}
	}
	return nil
}

// readSlotsWindow sets the days to search: from today in the location's
// zone, for a week, or up to the service's booking horizon when the
// first available slot is asked for.
func (s *Server) readSlotsWindow(q slotsQuery, req *slotsRequest, errs *practiced.FieldErrors) {
	today := bookable.DateOf(s.now().In(req.Zone))
	if !q.hasFrom {
		req.From = today
	}
	switch {
	case q.firstAvailable && !q.hasTo:
		req.To = today.AddDays(bookable.HorizonDays(req.Service))
	case !q.hasTo:
		req.To = req.From.AddDays(6)
	}
	if req.To.Before(req.From) {
		errs.Add("to", "must not be before from")
	} else if !q.firstAvailable && req.From.AddDays(maxRangeDays-1).Before(req.To) {
		errs.Add("to", fmt.Sprintf("must be at most %d days after from (inclusive)", maxRangeDays-1))
	} else if q.firstAvailable && req.From.AddDays(2*365).Before(req.To) {
		errs.Add("to", "must be at most two years after from")
	}
}

// slots computes the slots of every practitioner of the request, sorted
// by UTC start, then practitioner id, with the function the booking page
// and bookings use too.
func (s *Server) slots(ctx context.Context, biz string, req *slotsRequest) ([]availabilitySlot, error) {
	req.Now = s.now()
	found, err := bookable.Slots(ctx, s.store, biz, req.Request)
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
