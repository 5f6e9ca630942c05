package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

func appointmentClientID(c practiced.AppointmentClient) string { return c.ID }

// GET /v1/appointment_clients
func (s *Server) listAppointmentClients(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "appointment_clients", 100)
	f := practiced.AppointmentClientFilter{
		ListFilter:    l.q.listFilter(),
		AppointmentID: l.q.id("appointment_id", practiced.PrefixAppointment),
		ClientID:      l.q.id("client_id", practiced.PrefixClient),
		Status:        l.q.enum("status", practiced.AppointmentClientStatuses),
		StartsAfter:   l.q.timestamp("starts_after"),
		StartsBefore:  l.q.timestamp("starts_before"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListAppointmentClients(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, appointmentClientID)
}
