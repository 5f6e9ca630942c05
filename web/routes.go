package web

import "net/http"

// Store is what the pages read and write.
type Store interface {
	FormsStore
	BookingStore
	CalendarStore
	AppointmentStore
}

// Routes returns the pages by route pattern, for the server to mount
// beside the API: the hosted form and online booking, outside /v1 and
// without a key (see Forms and Booking).
func Routes(store Store, opt Options) map[string]http.Handler {
	forms := NewForms(store, opt)
	booking := NewBooking(store, opt)
	calendar := NewCalendar(store, opt)
	appointments := NewAppointments(store, opt)
	return map[string]http.Handler{
		"GET /a/{token}":              appointments.Show(),
		"POST /a/{token}":             appointments.Act(),
		"GET /a/{token}/calendar.ics": appointments.Calendar(),
		"GET /calendar/{file}":        calendar.Feed(),
		"GET /f/{form_id}":            forms.Show(),
		"POST /f/{form_id}":           forms.Answer(),
		"GET /book/{location_id}":     booking.Show(),
		"POST /book/{location_id}":    booking.Book(),
	}
}
