package practiced

import "context"

// AppointmentStore keeps appointments.
type AppointmentStore interface {
}

// AppointmentClientStore keeps appointment clients.
type AppointmentClientStore interface {
	ListAppointmentClients(ctx context.Context, businessID string, f AppointmentClientFilter, p PageRequest) ([]AppointmentClient, PageInfo, error)
}
