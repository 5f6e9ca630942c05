package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
)

const appointmentCols = `id, location_id, practitioner_id, service_id, starts_at, ends_at, max_clients,
	notes, cancelled_at, created_at, updated_at, archived_at`

func scanAppointment(r rowScanner) (practiced.Appointment, error) {
	var a practiced.Appointment
	err := r.Scan(&a.ID, &a.LocationID, &a.PractitionerID, &a.ServiceID, timeScan{&a.StartsAt}, timeScan{&a.EndsAt}, &a.MaxClients,
		&a.Notes, nullTimeScan{&a.CancelledAt}, timeScan{&a.CreatedAt}, timeScan{&a.UpdatedAt}, nullTimeScan{&a.ArchivedAt})
	return a, err
}

func appointmentValues(a *practiced.Appointment) []any {
	return []any{a.ID, a.LocationID, a.PractitionerID, nullStr(a.ServiceID), tsv(a.StartsAt), tsv(a.EndsAt), a.MaxClients,
		a.Notes, nullTs(a.CancelledAt), tsv(a.CreatedAt), tsv(a.UpdatedAt), nullTs(a.ArchivedAt)}
}

// normalizeAppointment derives the duration from the stored times, which
// are the truth, and makes the attendee list non-nil.
func normalizeAppointment(a *practiced.Appointment) {
	a.Duration = int(a.EndsAt.Sub(a.StartsAt.Time) / time.Minute)
	if a.AppointmentClientIDs == nil {
		a.AppointmentClientIDs = []string{}
	}
}

// loadAppointmentClientIDs fills the attendee ids of a page of
// appointments, in id order, with one query.
func loadAppointmentClientIDs(ctx context.Context, db queryer, businessID string, recs []practiced.Appointment) error {
	ids := make([]string, len(recs))
	for i := range recs {
		ids[i] = recs[i].ID
	}
	var a args
	rows, err := db.QueryContext(ctx, `SELECT appointment_id, id FROM appointment_clients
		WHERE business_id = `+a.add(businessID)+` AND appointment_id IN `+a.in(ids)+` ORDER BY appointment_id, id`, a.vals...)
	if err != nil {
		return fmt.Errorf("appointment clients: %w", err)
	}
	defer rows.Close()
	byAppointment := map[string][]string{}
	for rows.Next() {
		var apt, id string
		if err := rows.Scan(&apt, &id); err != nil {
			return err
		}
		byAppointment[apt] = append(byAppointment[apt], id)
	}
	for i := range recs {
		recs[i].AppointmentClientIDs = append([]string{}, byAppointment[recs[i].ID]...)
	}
	return rows.Err()
}

var appointments = &table[practiced.Appointment]{
	kind: practiced.KindAppointment,
	cols: appointmentCols, scan: scanAppointment, values: appointmentValues,
	load:      loadAppointmentClientIDs,
	normalize: normalizeAppointment,
	domain:    practiced.AppointmentEvents,
	stamp: func(a *practiced.Appointment) *stamps {
		return &stamps{ID: &a.ID, UpdatedAt: &a.UpdatedAt, ArchivedAt: &a.ArchivedAt}
	},
}

const appointmentClientCols = `id, appointment_id, client_id, case_id, client_package_id, status, do_not_invoice,
	note, confirmed, confirmed_at, cancellation_reason_id, cancellation_note, cancelled_at, arrived_at,
	created_at, updated_at, archived_at`

func scanAppointmentClient(r rowScanner) (practiced.AppointmentClient, error) {
	var c practiced.AppointmentClient
	err := r.Scan(&c.ID, &c.AppointmentID, &c.ClientID, &c.CaseID, &c.ClientPackageID, &c.Status,
		&c.DoNotInvoice, &c.Note, &c.Confirmed, nullTimeScan{&c.ConfirmedAt}, &c.CancellationReasonID, &c.CancellationNote,
		nullTimeScan{&c.CancelledAt}, nullTimeScan{&c.ArrivedAt}, timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt})
	return c, err
}

func appointmentClientValues(c *practiced.AppointmentClient) []any {
	return []any{c.ID, c.AppointmentID, c.ClientID, nullStr(c.CaseID), nullStr(c.ClientPackageID), c.Status, c.DoNotInvoice,
		c.Note, c.Confirmed, nullTs(c.ConfirmedAt), nullStr(c.CancellationReasonID), c.CancellationNote, nullTs(c.CancelledAt), nullTs(c.ArrivedAt),
		tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

// loadAppointmentTimes gives a page of appointment clients the times of
// their appointments, which are stored only there.
func loadAppointmentTimes(ctx context.Context, db queryer, businessID string, recs []practiced.AppointmentClient) error {
	var ids []string
	for i := range recs {
		if !slices.Contains(ids, recs[i].AppointmentID) {
			ids = append(ids, recs[i].AppointmentID)
		}
	}
	var a args
	rows, err := db.QueryContext(ctx, `SELECT id, starts_at, ends_at FROM appointments
		WHERE business_id = `+a.add(businessID)+` AND id IN `+a.in(ids), a.vals...)
	if err != nil {
		return fmt.Errorf("appointment times: %w", err)
	}
	defer rows.Close()
	type span struct{ start, end practiced.Time }
	times := map[string]span{}
	for rows.Next() {
		var id string
		var sp span
		if err := rows.Scan(&id, timeScan{&sp.start}, timeScan{&sp.end}); err != nil {
			return err
		}
		times[id] = sp
	}
	for i := range recs {
		sp := times[recs[i].AppointmentID]
		recs[i].StartsAt, recs[i].EndsAt = sp.start, sp.end
	}
	return rows.Err()
}

var appointmentClients = &table[practiced.AppointmentClient]{
	kind: practiced.KindAppointmentClient,
	cols: appointmentClientCols, scan: scanAppointmentClient, values: appointmentClientValues,
	load:   loadAppointmentTimes,
	domain: practiced.AppointmentClientEvents,
	stamp: func(c *practiced.AppointmentClient) *stamps {
		return &stamps{ID: &c.ID, UpdatedAt: &c.UpdatedAt, ArchivedAt: &c.ArchivedAt}
	},
}

// qualify prefixes each column of cols with alias.
func qualify(alias, cols string) string {
	names := splitCols(cols)
	for i, n := range names {
		names[i] = alias + "." + n
	}
	return strings.Join(names, ", ")
}

// ListAppointments returns a page of the business's appointments.
func (s *Store) ListAppointments(ctx context.Context, businessID string, f practiced.AppointmentFilter, p practiced.PageRequest) ([]practiced.Appointment, practiced.PageInfo, error) {
	q := newListQuery(businessID, qualify("a", appointmentCols), "appointments a", "a.business_id", "a.id")
	q.common("a.", f.ListFilter)
	if f.PractitionerID != "" {
		q.filter("a.practitioner_id = " + q.args.add(f.PractitionerID))
	}
	if f.LocationID != "" {
		q.filter("a.location_id = " + q.args.add(f.LocationID))
	}
	if f.ClientID != "" {
		q.filter(`EXISTS (SELECT 1 FROM appointment_clients x WHERE x.business_id = a.business_id
			AND x.appointment_id = a.id AND x.client_id = ` + q.args.add(f.ClientID) + `)`)
	}
	if f.StartsAfter != nil {
		q.filter("a.starts_at >= " + q.args.add(ts(*f.StartsAfter)))
	}
	if f.StartsBefore != nil {
		q.filter("a.starts_at < " + q.args.add(ts(*f.StartsBefore)))
	}
	if !f.IncludeCancelled {
		q.filter("a.cancelled_at IS NULL") // set exactly when cancelled: see appointmentActive
	}
	return appointments.list(ctx, s.r, businessID, q, p)
}

// GetAppointment returns one appointment of the business.
func (s *Store) GetAppointment(ctx context.Context, businessID, id string) (practiced.Appointment, error) {
	return appointments.get(ctx, s.r, businessID, id, "")
}

// ArchiveAppointment archives or unarchives an appointment.
func (s *Store) ArchiveAppointment(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Appointment, error) {
	return appointments.archive(ctx, s, businessID, id, archived, now)
}

// CreateAppointment stores an appointment and its attendees in one
// transaction, after check has passed on the practitioner's schedule.
func (s *Store) CreateAppointment(ctx context.Context, businessID string, a *practiced.Appointment, attendees []practiced.AppointmentClient, check practiced.ScheduleCheck) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		return s.createAppointment(ctx, tx, businessID, a, attendees, check)
	})
}

// createAppointment is CreateAppointment inside tx, so that an online
// booking creates its client in the same transaction.
func (s *Store) createAppointment(ctx context.Context, tx *sql.Tx, businessID string, a *practiced.Appointment, attendees []practiced.AppointmentClient, check practiced.ScheduleCheck) error {
	normalizeAppointment(a)
	practiced.SettleAppointment(a, attendees)
	a.AppointmentClientIDs = attendeeIDs(attendees)
	if check != nil {
		if err := s.checkSchedule(ctx, tx, businessID, *a, check); err != nil {
			return err
		}
	}
	if err := appointments.insert(ctx, tx, businessID, a); err != nil {
		return err
	}
	for i := range attendees {
		c := &attendees[i]
		c.AppointmentID, c.StartsAt, c.EndsAt = a.ID, a.StartsAt, a.EndsAt
		if err := appointmentClients.insert(ctx, tx, businessID, c); err != nil {
			return err
		}
	}
	return nil
}

// UpdateAppointment changes an appointment and its attendees in one
// transaction.
func (s *Store) UpdateAppointment(ctx context.Context, businessID, id string, now practiced.Time,
	change func(*practiced.Appointment, *[]practiced.AppointmentClient) error, check practiced.ScheduleCheck) (practiced.Appointment, []practiced.AppointmentClient, error) {
	var a practiced.Appointment
	var acs []practiced.AppointmentClient
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		a, acs, err = s.updateAppointment(ctx, tx, businessID, id, now, change, check)
		return err
	})
	return a, acs, err
}

// updateAppointment is UpdateAppointment inside tx, so that an online
// booking joining a group appointment creates its client in the same
// transaction.
func (s *Store) updateAppointment(ctx context.Context, tx *sql.Tx, businessID, id string, now practiced.Time,
	change func(*practiced.Appointment, *[]practiced.AppointmentClient) error, check practiced.ScheduleCheck) (a practiced.Appointment, acs []practiced.AppointmentClient, err error) {
	// The appointment's row lock makes every change of it and its
	// attendees take turns; the attendees' locks keep out archiving,
	// which changes one attendee alone.
	if a, err = appointments.get(ctx, tx, businessID, id, s.dialect.lockRow); err != nil {
		return a, acs, err
	}
	if acs, err = s.attendees(ctx, tx, businessID, id); err != nil {
		return a, acs, err
	}
	before, acsBefore := a, slices.Clone(acs)
	aSnap := snapshot(a)
	acIDs := make([]string, len(acs))
	acSnaps := make([]string, len(acs))
	for i := range acs {
		acIDs[i], acSnaps[i] = acs[i].ID, snapshot(acs[i])
	}
	if err := change(&a, &acs); err != nil {
		return a, acs, err
	}
	if len(acs) < len(acSnaps) {
		return a, acs, fmt.Errorf("update appointment %s: change removed attendees", id)
	}
	normalizeAppointment(&a)
	practiced.SettleAppointment(&a, acs)
	moved := !a.StartsAt.Equal(before.StartsAt.Time) || !a.EndsAt.Equal(before.EndsAt.Time) || a.PractitionerID != before.PractitionerID
	if moved && check != nil {
		if err := s.checkSchedule(ctx, tx, businessID, a, check); err != nil {
			return a, acs, err
		}
	}
	for i := range acs {
		c := &acs[i]
		c.AppointmentID, c.StartsAt, c.EndsAt = a.ID, a.StartsAt, a.EndsAt
		if i >= len(acSnaps) {
			c.CreatedAt, c.UpdatedAt = now, now
			if err := appointmentClients.insert(ctx, tx, businessID, c); err != nil {
				return a, acs, err
			}
			continue
		}
		if c.ID != acIDs[i] {
			return a, acs, fmt.Errorf("update appointment %s: change reordered attendees", id)
		}
		if snapshot(*c) == acSnaps[i] {
			continue
		}
		c.UpdatedAt = now
		doc, err := appointmentClients.write(ctx, tx, businessID, c)
		if err != nil {
			return a, acs, err
		}
		if err := appointmentClients.recordChange(ctx, tx, businessID, "updated", &acsBefore[i], c, doc); err != nil {
			return a, acs, err
		}
	}
	a.AppointmentClientIDs = attendeeIDs(acs)
	if snapshot(a) == aSnap {
		return a, acs, nil
	}
	a.UpdatedAt = now
	doc, err := appointments.write(ctx, tx, businessID, &a)
	if err != nil {
		return a, acs, err
	}
	return a, acs, appointments.recordChange(ctx, tx, businessID, "updated", &before, &a, doc)
}

// attendees reads an appointment's attendees in id order, locked for
// the transaction.
func (s *Store) attendees(ctx context.Context, tx *sql.Tx, businessID, appointmentID string) ([]practiced.AppointmentClient, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+appointmentClientCols+` FROM appointment_clients
		WHERE business_id = $1 AND appointment_id = $2 ORDER BY id`+s.dialect.lockRow, businessID, appointmentID)
	if err != nil {
		return nil, fmt.Errorf("attendees: %w", err)
	}
	var out []practiced.AppointmentClient
	for rows.Next() {
		c, err := scanAppointmentClient(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) > 0 {
		err = appointmentClients.finish(ctx, tx, businessID, out)
	}
	return out, err
}

// checkSchedule runs check on a with its practitioner's schedule, read
// after locking the practitioner, so that a concurrent booking of the
// same practitioner waits until this transaction ends and then sees what
// it wrote.
func (s *Store) checkSchedule(ctx context.Context, tx *sql.Tx, businessID string, a practiced.Appointment, check practiced.ScheduleCheck) error {
	if err := s.lockPractitioner(ctx, tx, businessID, a.PractitionerID); err != nil {
		return err
	}
	sch, err := scheduleIn(ctx, tx, businessID, a.PractitionerID,
		a.StartsAt.Add(-practiced.ScheduleMargin), a.EndsAt.Add(practiced.ScheduleMargin))
	if err != nil {
		return err
	}
	return check(a, sch)
}

// snapshot is a record's JSON text, to tell whether a change altered it
// (pointers included, which a comparison of the structs would share).
func snapshot(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("sqlstore: snapshot %T: %v", v, err))
	}
	return string(b)
}

// attendeeIDs returns the ids of attendees in id order.
func attendeeIDs(acs []practiced.AppointmentClient) []string {
	ids := make([]string, len(acs))
	for i := range acs {
		ids[i] = acs[i].ID
	}
	slices.Sort(ids)
	return ids
}

// ListAppointmentClients returns a page of the business's appointment clients.
func (s *Store) ListAppointmentClients(ctx context.Context, businessID string, f practiced.AppointmentClientFilter, p practiced.PageRequest) ([]practiced.AppointmentClient, practiced.PageInfo, error) {
	from := "appointment_clients ac"
	if f.StartsAfter != nil || f.StartsBefore != nil {
		from += " JOIN appointments a ON a.business_id = ac.business_id AND a.id = ac.appointment_id"
	}
	q := newListQuery(businessID, qualify("ac", appointmentClientCols), from, "ac.business_id", "ac.id")
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
	return appointmentClients.list(ctx, s.r, businessID, q, p)
}

// GetAppointmentClient returns one appointment client of the business.
func (s *Store) GetAppointmentClient(ctx context.Context, businessID, id string) (practiced.AppointmentClient, error) {
	return appointmentClients.get(ctx, s.r, businessID, id, "")
}

// ArchiveAppointmentClient archives or unarchives an appointment client.
func (s *Store) ArchiveAppointmentClient(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.AppointmentClient, error) {
	return appointmentClients.archive(ctx, s, businessID, id, archived, now)
}

// ClientsOf returns the client of each case and client package named.
func (s *Store) ClientsOf(ctx context.Context, businessID string, ids []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kind := range []practiced.Kind{practiced.KindCase, practiced.KindClientPackage} {
		table := kind.Plural
		var want []string
		for _, id := range ids {
			if k, _ := practiced.KindOf(id); k == kind {
				want = append(want, id)
			}
		}
		if len(want) == 0 {
			continue
		}
		var a args
		rows, err := s.r.QueryContext(ctx, `SELECT id, client_id FROM `+table+`
			WHERE business_id = `+a.add(businessID)+` AND id IN `+a.in(want), a.vals...)
		if err != nil {
			return nil, fmt.Errorf("clients of %s: %w", table, err)
		}
		for rows.Next() {
			var id, client string
			if err := rows.Scan(&id, &client); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = client
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
