package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	practiced "github.com/practiced/practiced"
)

// BookingSite finds a location by its id alone, with its business's
// name. The locations_by_id index (migration 0003) makes this one probe.
func (s *Store) BookingSite(ctx context.Context, locationID string) (practiced.BookingSite, error) {
	var site practiced.BookingSite
	var businessID string
	row := s.r.QueryRowContext(ctx, `SELECT `+qualify("l", locationCols)+`, l.business_id, b.name
		FROM locations l JOIN businesses b ON b.id = l.business_id WHERE l.id = $1`, locationID)
	loc, err := scanLocation(scanWith{row, []any{&businessID, &site.BusinessName}})
	if errors.Is(err, sql.ErrNoRows) {
		return site, practiced.NotFound(practiced.KindLocation.Name)
	} else if err != nil {
		return site, fmt.Errorf("booking site: %w", err)
	}
	recs := []practiced.Location{loc}
	if err := locations.finish(ctx, s.r, businessID, recs); err != nil {
		return site, err
	}
	site.Location = recs[0]
	site.Location.BusinessID = businessID
	return site, nil
}

// BookOnline makes a booking page's booking in one transaction: the
// client, then the appointment or the place in a group appointment.
func (s *Store) BookOnline(ctx context.Context, businessID string, b practiced.OnlineBooking) (practiced.BookedOnline, error) {
	var out practiced.BookedOnline
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		out = practiced.BookedOnline{}
		if err := s.lockEmail(ctx, tx, businessID, b.Client.Email); err != nil {
			return err
		}
		c, found, err := clientByEmail(ctx, tx, businessID, b.Client.Email)
		if err != nil {
			return err
		}
		if found {
			a, ac, already, err := s.attendance(ctx, tx, businessID, c.ID, b.Appointment)
			if err != nil || already {
				out = practiced.BookedOnline{Appointment: a, Attendee: ac, Client: c, Already: already}
				return err
			}
			if b.MaxPerDay > 0 {
				var n int
				err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM appointment_clients ac
					JOIN appointments a ON a.business_id = ac.business_id AND a.id = ac.appointment_id
					WHERE ac.business_id = $1 AND ac.client_id = $2 AND a.location_id = $3
					AND ac.created_at >= $4 AND ac.status <> 'cancelled'`,
					businessID, c.ID, b.Appointment.LocationID, tsv(b.Since)).Scan(&n)
				if err != nil {
					return fmt.Errorf("online bookings of the day: %w", err)
				}
				if n >= b.MaxPerDay {
					return practiced.ErrTooManyBookings
				}
			}
		} else {
			c = b.Client
			if err := clients.insert(ctx, tx, businessID, &c); err != nil {
				return err
			}
			out.NewClient = true
		}
		out.Client = c
		att := b.Attendee
		att.ClientID = c.ID
		if b.JoinID == "" {
			a := b.Appointment
			attendees := []practiced.AppointmentClient{att}
			if err := s.createAppointment(ctx, tx, businessID, &a, attendees, b.Check); err != nil {
				return err
			}
			out.Appointment, out.Attendee = a, attendees[0]
			return nil
		}
		a, acs, err := s.updateAppointment(ctx, tx, businessID, b.JoinID, att.CreatedAt,
			func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				if err := b.Join(*a, *acs, att); err != nil {
					return err
				}
				*acs = append(*acs, att)
				return nil
			}, nil)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			return practiced.ErrSlotTaken
		} else if err != nil {
			return err
		}
		out.Appointment, out.Attendee = a, acs[len(acs)-1]
		return nil
	})
	return out, err
}

// lockEmail makes bookings of one e-mail address at one business take
// turns, so that two pages sent at once by a new client create one
// client, not two. On PostgreSQL it takes a transaction-level advisory
// lock on the address (two addresses sharing a hash merely take turns);
// SQLite needs nothing, since a write transaction holds the database's
// write lock from its start. Callers take it before any other lock.
func (s *Store) lockEmail(ctx context.Context, tx *sql.Tx, businessID, email string) error {
	if s.dialect.name != "postgres" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1::text || ' ' || lower($2::text), 0))`, businessID, email)
	if err != nil {
		return fmt.Errorf("lock e-mail: %w", err)
	}
	return nil
}

// clientByEmail finds the business's oldest live client with the e-mail
// address, ignoring case (as the database's lower() does: all of Unicode
// on PostgreSQL, ASCII letters on SQLite), through the
// clients_email_lower index. The oldest of the few matches is picked
// here: an ORDER BY id would lead SQLite's planner to walk all the
// business's clients in id order instead.
func clientByEmail(ctx context.Context, db queryer, businessID, email string) (practiced.Client, bool, error) {
	var oldest practiced.Client
	rows, err := db.QueryContext(ctx, `SELECT doc FROM clients
		WHERE business_id = $1 AND lower(email) = lower($2) AND archived_at IS NULL`, businessID, email)
	if err != nil {
		return oldest, false, fmt.Errorf("client by e-mail: %w", err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		c, err := scanClient(rows)
		if err != nil {
			return oldest, false, fmt.Errorf("client by e-mail: %w", err)
		}
		if !found || c.ID < oldest.ID {
			oldest, found = c, true
		}
	}
	return oldest, found, rows.Err()
}

// attendance finds the client's live attendance of a live appointment of
// the practitioner, location and service of want that starts when want
// does: the booking the page would make, made already.
func (s *Store) attendance(ctx context.Context, tx *sql.Tx, businessID, clientID string, want practiced.Appointment) (practiced.Appointment, practiced.AppointmentClient, bool, error) {
	var a practiced.Appointment
	var ac practiced.AppointmentClient
	if want.ServiceID == nil {
		return a, ac, false, nil // the booking page books services only
	}
	var appointmentID, attendeeID string
	err := tx.QueryRowContext(ctx, `SELECT a.id, ac.id FROM appointment_clients ac
		JOIN appointments a ON a.business_id = ac.business_id AND a.id = ac.appointment_id
		WHERE ac.business_id = $1 AND ac.client_id = $2 AND ac.status <> 'cancelled' AND ac.archived_at IS NULL
			AND a.practitioner_id = $3 AND a.location_id = $4 AND a.starts_at = $5
			AND a.service_id = $6 AND `+appointmentActive("a")+`
		ORDER BY ac.id LIMIT 1`,
		businessID, clientID, want.PractitionerID, want.LocationID, tsv(want.StartsAt), *want.ServiceID).Scan(&appointmentID, &attendeeID)
	if errors.Is(err, sql.ErrNoRows) {
		return a, ac, false, nil
	} else if err != nil {
		return a, ac, false, fmt.Errorf("attendance: %w", err)
	}
	if a, err = appointments.get(ctx, tx, businessID, appointmentID, ""); err != nil {
		return a, ac, false, err
	}
	ac, err = appointmentClients.get(ctx, tx, businessID, attendeeID, "")
	return a, ac, err == nil, err
}
