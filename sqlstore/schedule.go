package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
)

// appointmentActive is the condition that appointment alias a blocks
// time: it is neither cancelled nor archived. Every write settles the
// appointment (practiced.SettleAppointment), so cancelled_at is set
// exactly when the appointment is cancelled, its attendees' statuses
// included, and is all the condition needs to read.
func appointmentActive(a string) string {
	return a + `.cancelled_at IS NULL AND ` + a + `.archived_at IS NULL`
}

// PractitionerSchedule returns what blocks the practitioner in [from, to).
func (s *Store) PractitionerSchedule(ctx context.Context, businessID, practitionerID string, from, to time.Time) (practiced.Schedule, error) {
	return scheduleIn(ctx, s.r, businessID, practitionerID, from, to)
}

// scheduleIn reads what blocks the practitioner in [from, to) through db,
// so that a booking reads it inside its own transaction.
func scheduleIn(ctx context.Context, db queryer, businessID, practitionerID string, from, to time.Time) (practiced.Schedule, error) {
	var sch practiced.Schedule
	rows, err := db.QueryContext(ctx, `SELECT `+busyTimeCols+` FROM busy_times
		WHERE business_id = $1 AND practitioner_id = $2 AND archived_at IS NULL AND starts_at < $3 AND ends_at > $4
		ORDER BY starts_at`, businessID, practitionerID, ts(to), ts(from))
	if err != nil {
		return sch, fmt.Errorf("schedule: %w", err)
	}
	for rows.Next() {
		b, err := scanBusyTime(rows)
		if err != nil {
			rows.Close()
			return sch, err
		}
		sch.BusyTimes = append(sch.BusyTimes, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return sch, err
	}

	// One pass over the practitioner's appointments in the window, with
	// their attendees joined and counted, instead of a lookup per row.
	// Appointments last at most a day, which bounds the index range from
	// below as well as above.
	rows, err = db.QueryContext(ctx, `SELECT a.id, a.location_id, a.practitioner_id, a.service_id, a.starts_at, a.ends_at,
			a.max_clients, COALESCE(s.buffer_before, 0), COALESCE(s.buffer_after, 0),
			COALESCE(SUM(CASE WHEN ac.status <> 'cancelled' THEN 1 ELSE 0 END), 0)
		FROM appointments a
		LEFT JOIN services s ON s.business_id = a.business_id AND s.id = a.service_id
		LEFT JOIN appointment_clients ac ON ac.business_id = a.business_id AND ac.appointment_id = a.id
		WHERE a.business_id = $1 AND a.practitioner_id = $2 AND `+appointmentActive("a")+`
			AND a.starts_at < $3 AND a.ends_at > $4 AND a.starts_at > $5
		GROUP BY a.id, a.location_id, a.practitioner_id, a.service_id, a.starts_at, a.ends_at, a.max_clients,
			s.buffer_before, s.buffer_after
		ORDER BY a.starts_at`, businessID, practitionerID, ts(to), ts(from), ts(from.Add(-maxAppointmentLength)))
	if err != nil {
		return sch, fmt.Errorf("schedule: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a practiced.ScheduledAppointment
		if err := rows.Scan(&a.ID, &a.LocationID, &a.PractitionerID, &a.ServiceID, timeScan{&a.StartsAt}, timeScan{&a.EndsAt},
			&a.MaxClients, &a.BufferBefore, &a.BufferAfter, &a.Attendees); err != nil {
			return sch, err
		}
		a.Duration = int(a.EndsAt.Sub(a.StartsAt.Time).Minutes())
		sch.Appointments = append(sch.Appointments, a)
	}
	return sch, rows.Err()
}

// Blocks returns what blocks each of the practitioners in [from, to):
// one query per table for all of them and the whole window, of the
// columns finding free slots reads alone, grouped by practitioner here.
// What it read is kept (blocksCache) and answered again while the
// business's schedule is unchanged, which costs one small read.
func (s *Store) Blocks(ctx context.Context, businessID string, practitionerIDs []string, from, to time.Time) (map[string]practiced.Blocks, error) {
	if len(practitionerIDs) == 0 {
		return map[string]practiced.Blocks{}, nil
	}
	key := keyOfBlocks(businessID, practitionerIDs, from, to)
	before, err := readScheduleVersion(ctx, s.r, businessID)
	if err != nil {
		return nil, err
	}
	if kept, ok := s.blocks.get(key, before); ok {
		return kept, nil
	}
	// Searches that miss together read once: the others wait for the
	// first's read and take a copy of it.
	v, err, _ := s.blocks.reads.Do(fmt.Sprint(key, before), func() (any, error) {
		// Read for all the waiters: one of them going away does not
		// fail the others.
		ctx := context.WithoutCancel(ctx)
		out, err := s.readBlocks(ctx, businessID, practitionerIDs, from, to)
		if err != nil {
			return nil, err
		}
		after, err := readScheduleVersion(ctx, s.r, businessID)
		if err != nil {
			return nil, err
		}
		if after == before {
			s.blocks.put(key, before, out)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return copyBlocks(v.(map[string]practiced.Blocks)), nil
}

// readBlocks is Blocks read from the database.
func (s *Store) readBlocks(ctx context.Context, businessID string, practitionerIDs []string, from, to time.Time) (map[string]practiced.Blocks, error) {
	out := map[string]practiced.Blocks{}
	if err := busySpans(ctx, s.r, businessID, practitionerIDs, from, to, out); err != nil {
		return nil, err
	}
	if err := blockingAppointments(ctx, s.r, businessID, practitionerIDs, from, to, out); err != nil {
		return nil, err
	}
	for id, b := range out {
		slices.SortFunc(b.Busy, func(x, y practiced.Span) int {
			return cmp.Or(x.Start.Compare(y.Start), x.End.Compare(y.End))
		})
		slices.SortFunc(b.Appointments, func(x, y practiced.BlockingAppointment) int {
			return cmp.Or(x.Start.Compare(y.Start), strings.Compare(x.ID, y.ID))
		})
		out[id] = b
	}
	return out, nil
}

// busySpans adds to out the spans of the practitioners' live busy times
// overlapping [from, to).
func busySpans(ctx context.Context, db queryer, businessID string, practitionerIDs []string, from, to time.Time, out map[string]practiced.Blocks) error {
	var a args
	rows, err := db.QueryContext(ctx, `SELECT practitioner_id, starts_at, ends_at FROM busy_times
		WHERE business_id = `+a.add(businessID)+` AND practitioner_id IN `+a.in(practitionerIDs)+`
			AND archived_at IS NULL AND starts_at < `+a.add(ts(to))+` AND ends_at > `+a.add(ts(from)), a.vals...)
	if err != nil {
		return fmt.Errorf("busy spans: %w", err)
	}
	defer rows.Close()
	var practitionerID string
	for rows.Next() {
		var sp practiced.Span
		if err := rows.Scan(&practitionerID, instantScan{&sp.Start}, instantScan{&sp.End}); err != nil {
			return fmt.Errorf("busy spans: %w", err)
		}
		b := out[practitionerID]
		b.Busy = append(b.Busy, sp)
		out[practitionerID] = b
	}
	return rows.Err()
}

// blockingAppointments adds to out the practitioners' live appointments
// overlapping [from, to), each with its attendees not cancelled, then
// their services' buffers. The buffers are read apart, a few rows for
// the business, rather than joined to every appointment; services are
// never deleted, so every service an appointment read names is found.
func blockingAppointments(ctx context.Context, db queryer, businessID string, practitionerIDs []string, from, to time.Time, out map[string]practiced.Blocks) error {
	var a args
	rows, err := db.QueryContext(ctx, `SELECT a.practitioner_id, a.id, a.location_id, a.service_id, a.starts_at, a.ends_at, a.max_clients,
			(SELECT COUNT(*) FROM appointment_clients ac
				WHERE ac.business_id = a.business_id AND ac.appointment_id = a.id AND ac.status <> 'cancelled')
		FROM appointments a
		WHERE a.business_id = `+a.add(businessID)+` AND a.practitioner_id IN `+a.in(practitionerIDs)+` AND `+appointmentActive("a")+`
			AND a.starts_at < `+a.add(ts(to))+` AND a.ends_at > `+a.add(ts(from))+` AND a.starts_at > `+a.add(ts(from.Add(-maxAppointmentLength))),
		a.vals...)
	if err != nil {
		return fmt.Errorf("blocking appointments: %w", err)
	}
	defer rows.Close()
	found := false
	var practitionerID string
	for rows.Next() {
		var apt practiced.BlockingAppointment
		var serviceID sql.NullString
		if err := rows.Scan(&practitionerID, &apt.ID, &apt.LocationID, &serviceID, instantScan{&apt.Start}, instantScan{&apt.End},
			&apt.MaxClients, &apt.Attendees); err != nil {
			return fmt.Errorf("blocking appointments: %w", err)
		}
		apt.ServiceID = serviceID.String
		b := out[practitionerID]
		b.Appointments = append(b.Appointments, apt)
		out[practitionerID] = b
		found = true
	}
	if err := rows.Err(); err != nil || !found {
		return err
	}
	rows.Close()
	buffers, err := serviceBuffers(ctx, db, businessID)
	if err != nil {
		return err
	}
	for _, b := range out {
		for i := range b.Appointments {
			apt := &b.Appointments[i]
			if bf, ok := buffers[apt.ServiceID]; ok {
				apt.BufferBefore, apt.BufferAfter = bf[0], bf[1]
			}
		}
	}
	return nil
}

// serviceBuffers returns the buffers before and after of every service
// of the business, in minutes, by service id.
func serviceBuffers(ctx context.Context, db queryer, businessID string) (map[string][2]int, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, buffer_before, buffer_after FROM services WHERE business_id = $1`, businessID)
	if err != nil {
		return nil, fmt.Errorf("service buffers: %w", err)
	}
	defer rows.Close()
	out := map[string][2]int{}
	for rows.Next() {
		var id string
		var bf [2]int
		if err := rows.Scan(&id, &bf[0], &bf[1]); err != nil {
			return nil, fmt.Errorf("service buffers: %w", err)
		}
		out[id] = bf
	}
	return out, rows.Err()
}

// instantScan scans a timestamp column into a time.Time in UTC, as
// every time the store reads is.
type instantScan struct{ dst *time.Time }

func (s instantScan) Scan(src any) error {
	t, err := parseTime(src)
	*s.dst = t.UTC()
	return err
}

// maxAppointmentLength is the longest an appointment can last.
const maxAppointmentLength = 24 * time.Hour

// lockPractitioner makes concurrent transactions that check and then
// change one practitioner's schedule take turns: on PostgreSQL it locks
// the practitioner's row until the transaction ends. SQLite needs nothing,
// since a write transaction holds the database's write lock from its start.
func (s *Store) lockPractitioner(ctx context.Context, tx *sql.Tx, businessID, practitionerID string) error {
	if s.dialect.lockRow == "" {
		return nil
	}
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM practitioners WHERE business_id = $1 AND id = $2`+s.dialect.lockRow,
		businessID, practitionerID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return practiced.Invalid("practitioner_id", "does not exist")
	}
	return err
}
