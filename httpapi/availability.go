package httpapi

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
)

// availabilitySlot is one slot in the response.
type availabilitySlot struct {
	StartTimeLocal   string         `json:"start_time_local"`
	StartDateLocal   string         `json:"start_date_local"`
	LocalTimezone    string         `json:"local_timezone"`
	StartDatetimeUTC practiced.Time `json:"start_datetime_utc"`
}

// Limits of the availability query.
const (
	maxRangeDays = 31
	minDuration  = 5
	maxDuration  = 480
)

// GET /v1/availability_slots
func (s *Server) listAvailabilitySlots(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	q := newQuery(r.URL, &errs)
	locationID := q.id("location_id", practiced.PrefixLocation)
	if _, ok := q.values["location_id"]; !ok {
		errs.Add("location_id", "is required")
	}
	practitionerID := q.id("practitioner_id", practiced.PrefixPractitioner)
	if _, ok := q.values["practitioner_id"]; !ok {
		errs.Add("practitioner_id", "is required")
	}
	serviceID := q.id("service_id", practiced.PrefixService)
	duration, durationOK := q.integer("duration", minDuration, maxDuration, 0)
	_, hasService := q.values["service_id"]
	_, hasDuration := q.values["duration"]
	if !hasService && !hasDuration {
		errs.Add("duration", "is required when service_id is not given")
	}
	interval, _ := q.integer("interval", 5, 240, 0)
	fromRaw, hasFrom := q.get("from")
	toRaw, hasTo := q.get("to")
	q.finish()
	var from, to availability.Date
	var fromErr, toErr error
	if hasFrom {
		if from, fromErr = availability.ParseDate(fromRaw); fromErr != nil {
			errs.Add("from", "must be a date such as 2026-03-02")
		}
	}
	if hasTo {
		if to, toErr = availability.ParseDate(toRaw); toErr != nil {
			errs.Add("to", "must be a date such as 2026-03-08")
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}

	loc, err := s.store.GetLocation(ctx, biz, locationID)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("location_id", "does not exist")
	} else if err != nil {
		return err
	}
	pra, err := s.store.GetPractitioner(ctx, biz, practitionerID)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("practitioner_id", "does not exist")
	} else if err != nil {
		return err
	} else if loc.ID != "" && !slices.Contains(loc.PractitionerIDs, pra.ID) {
		errs.Add("practitioner_id", "does not work at the location "+loc.ID)
	}
	var svc practiced.Service
	if hasService && serviceID != "" {
		svc, err = s.store.GetService(ctx, biz, serviceID)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("service_id", "does not exist")
		} else if err != nil {
			return err
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	if !hasDuration || !durationOK {
		duration = svc.Duration
	}

	zone, err := time.LoadLocation(loc.Timezone)
	if err != nil {
		return fmt.Errorf("location %s: time zone %q: %w", loc.ID, loc.Timezone, err)
	}
	now := s.now()
	today := dateOf(now.In(zone))
	if !hasFrom {
		from = today
	}
	if !hasTo {
		to = from.AddDays(6)
	}
	if to.Before(from) {
		errs.Add("to", "must not be before from")
	} else if from.AddDays(maxRangeDays - 1).Before(to) {
		errs.Add("to", fmt.Sprintf("must be at most %d days after from (inclusive)", maxRangeDays-1))
	}
	if err := errs.Err(); err != nil {
		return err
	}

	// Read a day more on each side, so buffers and time zones reaching
	// past the range are seen.
	windowStart := time.Date(from.Year, from.Month, from.Day, 0, 0, 0, 0, zone).Add(-48 * time.Hour)
	windowEnd := time.Date(to.Year, to.Month, to.Day, 0, 0, 0, 0, zone).Add(72 * time.Hour)
	sch, err := s.store.PractitionerSchedule(ctx, biz, pra.ID, windowStart, windowEnd)
	if err != nil {
		return err
	}
	aq := availabilityQuery(loc, pra, svc, sch, zone)
	aq.Duration = time.Duration(duration) * time.Minute
	aq.Interval = time.Duration(interval) * time.Minute
	aq.From, aq.To = from, to
	aq.Now = now

	slots := availability.Slots(aq)
	out := make([]availabilitySlot, len(slots))
	for i, sl := range slots {
		out[i] = availabilitySlot{
			StartTimeLocal:   sl.Time,
			StartDateLocal:   sl.Date,
			LocalTimezone:    loc.Timezone,
			StartDatetimeUTC: practiced.NewTime(sl.Start),
		}
	}
	writeJSON(w, http.StatusOK, struct {
		Data []availabilitySlot `json:"data"`
	}{out})
	return nil
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
