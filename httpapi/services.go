package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// GET /v1/services
func (s *Server) listServices(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "services", 100)
	f := practiced.ServiceFilter{
		ListFilter: l.q.listFilter(),
		LocationID: l.q.id("location_id", practiced.PrefixLocation),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListServiceDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// Defaults and limits of a service's numbers (minutes unless named).
const (
	defaultMaxClients         = 1
	defaultBookingHorizonDays = 90
	maxPriceCents             = 100_000_000 // a million in major units
	maxBuffer                 = 240
	maxGroupClients           = 100
	maxMinNotice              = 365 * 24 * 60
	maxBookingHorizonDays     = 730
)

// services creates and updates services.
func (s *Server) services() *resource[practiced.Service] {
	return &resource[practiced.Service]{
		kind: practiced.KindService,
		get:  s.store.GetService, create: s.store.CreateService, update: s.store.UpdateService,
		fresh: func(id string, now practiced.Time) practiced.Service {
			return practiced.Service{ID: id, MaxClients: defaultMaxClients, BookingHorizonDays: defaultBookingHorizonDays,
				ReminderMinutes: practiced.DefaultReminderMinutes, LocationIDs: []string{}, CreatedAt: now, UpdatedAt: now}
		},
		read:  readService,
		touch: func(v *practiced.Service, now practiced.Time) { v.UpdatedAt = now },
	}
}

func readService(o *object, stored *practiced.Service) *patch[practiced.Service] {
	create := stored == nil
	p := &patch[practiced.Service]{}
	setText(p, mandatoryStr(o, "name", shortText, create), func(v *practiced.Service) *string { return &v.Name })
	setText(p, o.str("description", longDescription), func(v *practiced.Service) *string { return &v.Description })
	setInt(p, mandatoryInt(o, "duration", minDuration, maxDuration, create), 0, func(v *practiced.Service) *int { return &v.Duration })
	setInt(p, o.integer("price_cents", 0, maxPriceCents), 0, func(v *practiced.Service) *int { return &v.PriceCents })
	setInt(p, o.integer("buffer_before", 0, maxBuffer), 0, func(v *practiced.Service) *int { return &v.BufferBefore })
	setInt(p, o.integer("buffer_after", 0, maxBuffer), 0, func(v *practiced.Service) *int { return &v.BufferAfter })
	setInt(p, o.integer("max_clients", 1, maxGroupClients), defaultMaxClients, func(v *practiced.Service) *int { return &v.MaxClients })
	setInt(p, o.integer("min_notice", 0, maxMinNotice), 0, func(v *practiced.Service) *int { return &v.MinNotice })
	setInt(p, o.integer("booking_horizon_days", 1, maxBookingHorizonDays), defaultBookingHorizonDays,
		func(v *practiced.Service) *int { return &v.BookingHorizonDays })
	setBool(p, o.boolean("online_booking"), func(v *practiced.Service) *bool { return &v.OnlineBooking })
	setIDs(p, "location_ids", o.ids("location_ids", maxItems, practiced.PrefixLocation),
		func(v *practiced.Service) *[]string { return &v.LocationIDs })
	setText(p, o.color("color"), func(v *practiced.Service) *string { return &v.Color })
	setInt(p, o.integer("reminder_minutes", 0, maxMinNotice), practiced.DefaultReminderMinutes,
		func(v *practiced.Service) *int { return &v.ReminderMinutes })
	o.finish()
	return p
}
