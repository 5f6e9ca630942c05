package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	practiced "github.com/practiced/practiced"
)

// appointmentActive is the condition that appointment alias a is not
// cancelled: it has no cancelled_at, and not every one of its attendees
// is cancelled.
func appointmentActive(a string) string {
	return a + `.cancelled_at IS NULL AND ` + a + `.archived_at IS NULL AND (
		NOT EXISTS (SELECT 1 FROM appointment_clients x WHERE x.business_id = ` + a + `.business_id AND x.appointment_id = ` + a + `.id)
		OR EXISTS (SELECT 1 FROM appointment_clients x WHERE x.business_id = ` + a + `.business_id AND x.appointment_id = ` + a + `.id AND x.status <> 'cancelled'))`
}

// practitionerBusy reports whether the practitioner has a busy time or a
// non-cancelled appointment overlapping [from, to).
func practitionerBusy(ctx context.Context, db queryer, businessID, practitionerID string, from, to time.Time) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM busy_times WHERE business_id = $1 AND practitioner_id = $2
			AND archived_at IS NULL AND starts_at < $3 AND ends_at > $4)
		+ (SELECT COUNT(*) FROM appointments a WHERE a.business_id = $1 AND a.practitioner_id = $2
			AND `+appointmentActive("a")+` AND a.starts_at < $3 AND a.ends_at > $4)`,
		businessID, practitionerID, ts(to), ts(from)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("conflicts: %w", err)
	}
	return n > 0, nil
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
			COUNT(ac.id), COALESCE(SUM(CASE WHEN ac.status <> 'cancelled' THEN 1 ELSE 0 END), 0)
		FROM appointments a
		LEFT JOIN services s ON s.business_id = a.business_id AND s.id = a.service_id
		LEFT JOIN appointment_clients ac ON ac.business_id = a.business_id AND ac.appointment_id = a.id
		WHERE a.business_id = $1 AND a.practitioner_id = $2 AND a.cancelled_at IS NULL AND a.archived_at IS NULL
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
		var total int
		if err := rows.Scan(&a.ID, &a.LocationID, &a.PractitionerID, &a.ServiceID, timeScan{&a.StartsAt}, timeScan{&a.EndsAt},
			&a.MaxClients, &a.BufferBefore, &a.BufferAfter, &total, &a.Attendees); err != nil {
			return sch, err
		}
		if total > 0 && a.Attendees == 0 {
			continue // every attendee cancelled: the appointment is cancelled
		}
		a.Duration = int(a.EndsAt.Sub(a.StartsAt.Time).Minutes())
		sch.Appointments = append(sch.Appointments, a)
	}
	return sch, rows.Err()
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
