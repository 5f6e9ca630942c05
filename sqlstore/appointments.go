package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const appointmentCols = `id, location_id, practitioner_id, service_id, starts_at, ends_at, max_clients,
	notes, cancelled_at, created_at, updated_at, archived_at`

func appointmentValues(a *practiced.Appointment) []any {
	return []any{a.ID, a.LocationID, a.PractitionerID, nullStr(a.ServiceID), tsv(a.StartsAt), tsv(a.EndsAt), a.MaxClients,
		a.Notes, nullTs(a.CancelledAt), tsv(a.CreatedAt), tsv(a.UpdatedAt), nullTs(a.ArchivedAt)}
}

const appointmentClientCols = `id, appointment_id, client_id, case_id, client_package_id, status, do_not_invoice,
	note, confirmed, confirmed_at, cancellation_reason_id, cancellation_note, cancelled_at, arrived_at,
	created_at, updated_at, archived_at`

// appointmentClientSelect reads appointment clients with the times of
// their appointment.
const appointmentClientSelect = `ac.id, ac.appointment_id, ac.client_id, ac.case_id, ac.client_package_id, ac.status,
	ac.do_not_invoice, ac.note, ac.confirmed, ac.confirmed_at, ac.cancellation_reason_id, ac.cancellation_note,
	ac.cancelled_at, ac.arrived_at, ac.created_at, ac.updated_at, ac.archived_at, a.starts_at, a.ends_at`

const appointmentClientFrom = `appointment_clients ac JOIN appointments a
	ON a.business_id = ac.business_id AND a.id = ac.appointment_id`

func scanAppointmentClient(r rowScanner) (practiced.AppointmentClient, error) {
	var c practiced.AppointmentClient
	err := r.Scan(&c.ID, &c.AppointmentID, &c.ClientID, &c.CaseID, &c.ClientPackageID, &c.Status,
		&c.DoNotInvoice, &c.Note, &c.Confirmed, nullTimeScan{&c.ConfirmedAt}, &c.CancellationReasonID, &c.CancellationNote,
		nullTimeScan{&c.CancelledAt}, nullTimeScan{&c.ArrivedAt}, timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt},
		timeScan{&c.StartsAt}, timeScan{&c.EndsAt})
	return c, err
}

func appointmentClientValues(c *practiced.AppointmentClient) []any {
	return []any{c.ID, c.AppointmentID, c.ClientID, nullStr(c.CaseID), nullStr(c.ClientPackageID), c.Status, c.DoNotInvoice,
		c.Note, c.Confirmed, nullTs(c.ConfirmedAt), nullStr(c.CancellationReasonID), c.CancellationNote, nullTs(c.CancelledAt), nullTs(c.ArrivedAt),
		tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

// ListAppointmentClients returns a page of the business's appointment clients.
func (s *Store) ListAppointmentClients(ctx context.Context, businessID string, f practiced.AppointmentClientFilter, p practiced.PageRequest) ([]practiced.AppointmentClient, practiced.PageInfo, error) {
	q := newListQuery(businessID, appointmentClientSelect, appointmentClientFrom, "ac.business_id", "ac.id")
	q.common("ac.", f.ListFilter)
	if f.AppointmentID != "" {
		q.filter("ac.appointment_id = " + q.args.add(f.AppointmentID))
	}
	if f.ClientID != "" {
		q.filter("ac.client_id = " + q.args.add(f.ClientID))
	}
	if f.Status != "" {
		q.filter("ac.status = " + q.args.add(f.Status))
	}
	if f.StartsAfter != nil {
		q.filter("a.starts_at >= " + q.args.add(ts(*f.StartsAfter)))
	}
	if f.StartsBefore != nil {
		q.filter("a.starts_at < " + q.args.add(ts(*f.StartsBefore)))
	}
	return list(ctx, s.r, q, p, scanAppointmentClient)
}
