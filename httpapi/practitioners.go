package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// GET /v1/practitioners
func (s *Server) listPractitioners(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "practitioners", 100)
	f := practiced.PractitionerFilter{
		ListFilter: l.q.listFilter(),
		LocationID: l.q.id("location_id", practiced.PrefixLocation),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListPractitionerDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// practitioners creates and updates practitioners.
func (s *Server) practitioners() *resource[practiced.Practitioner] {
	return &resource[practiced.Practitioner]{
		kind: practiced.KindPractitioner,
		get:  s.store.GetPractitioner, create: s.store.CreatePractitioner, update: s.store.UpdatePractitioner,
		fresh: func(id string, now practiced.Time) practiced.Practitioner {
			return practiced.Practitioner{ID: id, LocationIDs: []string{}, ServiceIDs: []string{},
				WorkingHours: []practiced.WorkingHours{}, Exceptions: []practiced.AvailabilityException{},
				CreatedAt: now, UpdatedAt: now}
		},
		read:  readPractitioner,
		check: (*practiced.Practitioner).Check,
		touch: func(p *practiced.Practitioner, now practiced.Time) { p.UpdatedAt = now },
	}
}

// weekdays are the day names, Monday first as people list them.
var weekdays = append(practiced.DayNames[1:7:7], practiced.DayNames[0])

// Limits of a practitioner's hours.
const (
	maxWorkingHours = 200
	maxExceptions   = 500
	maxRanges       = 24
)

func readPractitioner(o *object, stored *practiced.Practitioner) *patch[practiced.Practitioner] {
	create := stored == nil
	p := &patch[practiced.Practitioner]{}
	setText(p, o.str("title", shortText), func(p *practiced.Practitioner) *string { return &p.Title })
	setText(p, mandatoryStr(o, "first_name", shortText, create), func(p *practiced.Practitioner) *string { return &p.FirstName })
	setText(p, mandatoryStr(o, "last_name", shortText, create), func(p *practiced.Practitioner) *string { return &p.LastName })
	setText(p, o.str("display_name", shortText), func(p *practiced.Practitioner) *string { return &p.DisplayName })
	setText(p, o.str("designation", shortText), func(p *practiced.Practitioner) *string { return &p.Designation })
	setText(p, o.email("email"), func(p *practiced.Practitioner) *string { return &p.Email })
	setText(p, o.phone("phone", practiced.DefaultPhoneRegion), func(p *practiced.Practitioner) *string { return &p.Phone })
	setIDs(p, "location_ids", o.ids("location_ids", maxItems, practiced.PrefixLocation),
		func(p *practiced.Practitioner) *[]string { return &p.LocationIDs })
	setIDs(p, "service_ids", o.ids("service_ids", maxItems, practiced.PrefixService),
		func(p *practiced.Practitioner) *[]string { return &p.ServiceIDs })
	readWorkingHours(o, p)
	readExceptions(o, p)
	o.finish()
	return p
}

// readWorkingHours reads working_hours, replaced whole (null empties it).
// Whether each range lies at one of the practitioner's locations, in
// order and apart from the others is Practitioner.Check's to say.
func readWorkingHours(o *object, p *patch[practiced.Practitioner]) {
	hours := []practiced.WorkingHours{}
	set, null := o.objects("working_hours", maxWorkingHours, func(i int, it *object) {
		loc := it.requiredID("location_id", practiced.PrefixLocation)
		day := it.enum("day", weekdays)
		it.required("day", day.Set, day.Null)
		starts, ends := requiredClock(it, "starts_at"), requiredClock(it, "ends_at")
		it.finish()
		if loc.Set && !loc.Null {
			p.ref(it.name("location_id"), loc.V)
		}
		hours = append(hours, practiced.WorkingHours{LocationID: loc.V, Day: day.V, StartsAt: starts.V, EndsAt: ends.V})
	})
	if set || null {
		p.change(func(p *practiced.Practitioner) { p.WorkingHours = hours })
	}
}

// readExceptions reads exceptions, replaced whole (null empties it). An
// exception without ranges (or with an empty list) makes the practitioner
// unavailable that day.
func readExceptions(o *object, p *patch[practiced.Practitioner]) {
	exceptions := []practiced.AvailabilityException{}
	set, null := o.objects("exceptions", maxExceptions, func(i int, it *object) {
		date := it.date("date", false)
		it.required("date", date.Set, date.Null)
		loc := it.id("location_id", practiced.PrefixLocation)
		if loc.Set && !loc.Null {
			p.ref(it.name("location_id"), loc.V)
		}
		ranges := []practiced.TimeRange{}
		it.objects("ranges", maxRanges, func(k int, rt *object) {
			starts, ends := requiredClock(rt, "starts_at"), requiredClock(rt, "ends_at")
			rt.finish()
			ranges = append(ranges, practiced.TimeRange{StartsAt: starts.V, EndsAt: ends.V})
		})
		it.finish()
		exceptions = append(exceptions, practiced.AvailabilityException{Date: date.V, LocationID: optPtr(loc), Ranges: ranges})
	})
	if set || null {
		p.change(func(p *practiced.Practitioner) { p.Exceptions = exceptions })
	}
}

// requiredClock reads a time of day that must be sent.
func requiredClock(o *object, field string) opt[string] {
	v := o.clock(field)
	o.required(field, v.Set || o.errs.Has(o.name(field)), v.Null)
	return v
}
