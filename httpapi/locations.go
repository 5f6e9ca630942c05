package httpapi

import (
	"net/http"
	"strings"
	"time"
	_ "time/tzdata" // time zones are checked alike on hosts without zoneinfo

	practiced "github.com/practiced/practiced"
)

// GET /v1/locations
func (s *Server) listLocations(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "locations", 100)
	f := l.q.listFilter()
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListLocationDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// locations creates and updates locations.
func (s *Server) locations() *resource[practiced.Location] {
	return &resource[practiced.Location]{
		kind: practiced.KindLocation,
		get:  s.store.GetLocation, create: s.store.CreateLocation, update: s.store.UpdateLocation,
		fresh: func(id string, now practiced.Time) practiced.Location {
			return practiced.Location{ID: id, ServiceIDs: []string{}, PractitionerIDs: []string{},
				OnlineBookingsPerEmailPerDay: practiced.DefaultOnlineBookingsPerEmailPerDay,
				OnlineCancellationHours:      practiced.DefaultOnlineCancellationHours, CreatedAt: now, UpdatedAt: now}
		},
		read:  readLocation,
		check: (*practiced.Location).Check,
		touch: func(l *practiced.Location, now practiced.Time) { l.UpdatedAt = now },
	}
}

// maxOnlineBookingsPerDay bounds a location's per-address cap.
const maxOnlineBookingsPerDay = 1000

// maxCancellationHours bounds a location's online cancellation notice:
// a year.
const maxCancellationHours = 365 * 24

func readLocation(o *object, stored *practiced.Location) *patch[practiced.Location] {
	create := stored == nil
	p := &patch[practiced.Location]{}
	setText(p, mandatoryStr(o, "name", shortText, create), func(l *practiced.Location) *string { return &l.Name })
	setText(p, o.str("description", longDescription), func(l *practiced.Location) *string { return &l.Description })
	setText(p, o.email("email"), func(l *practiced.Location) *string { return &l.Email })
	var country string
	if !create {
		country = stored.Address.CountryCode
	}
	setText(p, o.phone("phone", o.phoneRegion(country)), func(l *practiced.Location) *string { return &l.Phone })
	setText(p, readTimezone(o, create), func(l *practiced.Location) *string { return &l.Timezone })
	setBool(p, o.boolean("online_appointment_booking"), func(l *practiced.Location) *bool { return &l.OnlineAppointmentBooking })
	setBool(p, o.boolean("online_class_booking"), func(l *practiced.Location) *bool { return &l.OnlineClassBooking })
	setInt(p, o.integer("online_bookings_per_email_per_day", 0, maxOnlineBookingsPerDay), practiced.DefaultOnlineBookingsPerEmailPerDay,
		func(l *practiced.Location) *int { return &l.OnlineBookingsPerEmailPerDay })
	setInt(p, o.integer("online_cancellation_hours", 0, maxCancellationHours), practiced.DefaultOnlineCancellationHours,
		func(l *practiced.Location) *int { return &l.OnlineCancellationHours })
	setText(p, o.str("tax_identifier", shortText), func(l *practiced.Location) *string { return &l.TaxIdentifier })
	setText(p, o.str("tax_identifier_label", shortText), func(l *practiced.Location) *string { return &l.TaxIdentifierLabel })
	setText(p, o.str("ndis_number", shortText), func(l *practiced.Location) *string { return &l.NDISNumber })
	// Media are kept by integrations; the ids are stored as references to
	// them, checked for their shape only.
	setOptional(p, o.id("logo_id", practiced.PrefixMedia), func(l *practiced.Location) **string { return &l.LogoID })
	setOptional(p, o.id("image_id", practiced.PrefixMedia), func(l *practiced.Location) **string { return &l.ImageID })
	if hours, set := readOpeningHours(o); set {
		p.change(func(l *practiced.Location) { l.OpeningHours = hours })
	}
	if change := o.addressPatch("address"); change != nil {
		p.change(func(l *practiced.Location) { change(&l.Address) })
	}
	// The location's practitioners and services are the ones whose
	// location_ids name it: one list, written from one side.
	if o.has("practitioner_ids") {
		o.raw("practitioner_ids")
		o.fail("practitioner_ids", "is read-only: set location_ids on the practitioners instead")
	}
	if o.has("service_ids") {
		o.raw("service_ids")
		o.fail("service_ids", "is read-only: set location_ids on the services instead")
	}
	o.finish()
	return p
}

// readTimezone reads an IANA time zone name, such as Australia/Sydney.
func readTimezone(o *object, create bool) opt[string] {
	v := mandatoryStr(o, "timezone", 64, create)
	if v.Set && !v.Null && !validZone(v.V) {
		o.fail("timezone", "must be an IANA time zone such as Australia/Sydney")
		return opt[string]{}
	}
	return v
}

// validZone reports whether name is a time zone of the IANA database.
// time.LoadLocation also answers for "" (UTC) and "Local" (the server's
// own zone), which name no place.
func validZone(name string) bool {
	if name == "" || name == "Local" || strings.TrimSpace(name) != name {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

// readOpeningHours reads opening_hours, which is replaced whole: a day
// that is not sent is closed, and null closes every day. A day sent with
// a time must say whether it is active, so that hours sent without
// <day>_active are never silently closed.
func readOpeningHours(o *object) (h practiced.OpeningHours, set bool) {
	oh, set, null := o.obj("opening_hours")
	if null {
		return practiced.OpeningHours{}, true
	}
	if !set || oh == nil {
		return h, false
	}
	for i := range 7 {
		wd := (i + 1) % 7 // Monday first, as the hours are written
		prefix := practiced.DayPrefixes[wd]
		active := oh.boolean(prefix + "_active")
		opens := oh.clock(prefix + "_opens_at")
		closes := oh.clock(prefix + "_closes_at")
		if (opens.Set || closes.Set) && !active.Set && !oh.errs.Has(oh.name(prefix+"_active")) {
			oh.fail(prefix+"_active", "is required when "+prefix+"_opens_at or "+prefix+"_closes_at is sent")
		}
		h.Days[wd] = practiced.DayHours{Active: active.V && !active.Null, OpensAt: opens.V, ClosesAt: closes.V}
	}
	oh.finish()
	return h, true
}
