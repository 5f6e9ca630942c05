package practiced

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Appointment is a booked time with a practitioner for one or more clients.
type Appointment struct {
	ID                   string   `json:"id"`
	LocationID           string   `json:"location_id"`
	PractitionerID       string   `json:"practitioner_id"`
	ServiceID            *string  `json:"service_id"`
	StartsAt             Time     `json:"starts_at"`
	EndsAt               Time     `json:"ends_at"`
	Duration             int      `json:"duration"`
	MaxClients           int      `json:"max_clients"`
	Notes                string   `json:"notes"`
	AppointmentClientIDs []string `json:"appointment_client_ids"`
	CancelledAt          *Time    `json:"cancelled_at"`
	CreatedAt            Time     `json:"created_at"`
	UpdatedAt            Time     `json:"updated_at"`
	ArchivedAt           *Time    `json:"archived_at"`
}

// Appointment client statuses.
const (
	StatusBooked    = "booked"
	StatusArrived   = "arrived"
	StatusCompleted = "completed"
	StatusNoShow    = "no_show"
	StatusCancelled = "cancelled"
)

// AppointmentClientStatuses lists every appointment client status.
var AppointmentClientStatuses = []string{StatusBooked, StatusArrived, StatusCompleted, StatusNoShow, StatusCancelled}

// AppointmentClient is one client's attendance of an appointment.
type AppointmentClient struct {
	ID                   string  `json:"id"`
	AppointmentID        string  `json:"appointment_id"`
	ClientID             string  `json:"client_id"`
	CaseID               *string `json:"case_id"`
	ClientPackageID      *string `json:"client_package_id"`
	Status               string  `json:"status"`
	DoNotInvoice         bool    `json:"do_not_invoice"`
	Note                 string  `json:"note"`
	Confirmed            bool    `json:"confirmed"`
	ConfirmedAt          *Time   `json:"confirmed_at"`
	CancellationReasonID *string `json:"cancellation_reason_id"`
	CancellationNote     string  `json:"cancellation_note"`
	CancelledAt          *Time   `json:"cancelled_at"`
	ArrivedAt            *Time   `json:"arrived_at"`
	StartsAt             Time    `json:"starts_at"`
	EndsAt               Time    `json:"ends_at"`
	CreatedAt            Time    `json:"created_at"`
	UpdatedAt            Time    `json:"updated_at"`
	ArchivedAt           *Time   `json:"archived_at"`
}

// AppointmentFilter filters the appointment list. StartsAfter is
// inclusive and StartsBefore exclusive. ClientID selects appointments
// the client attends in any status. Cancelled appointments (see
// AppointmentCancelled) are left out unless IncludeCancelled is set.
type AppointmentFilter struct {
	ListFilter
	PractitionerID   string
	LocationID       string
	ClientID         string
	StartsAfter      *time.Time
	StartsBefore     *time.Time
	IncludeCancelled bool
}

// AppointmentClientFilter filters the appointment client list.
type AppointmentClientFilter struct {
	ListFilter
	AppointmentID string
	ClientID      string
	Status        string
	StartsAfter   *time.Time
	StartsBefore  *time.Time
}

// ScheduleMargin is how far around an appointment the store reads the
// practitioner's schedule for a ScheduleCheck: far enough to see every
// buffer that can reach the appointment.
const ScheduleMargin = 24 * time.Hour

// ScheduleCheck vets an appointment against its practitioner's schedule:
// the busy times and non-cancelled appointments (the appointment itself
// among them when it is stored already) overlapping [StartsAt −
// ScheduleMargin, EndsAt + ScheduleMargin). An error refuses the change.
type ScheduleCheck func(a Appointment, sch Schedule) error

// AppointmentStore keeps appointments together with their attendees
// (appointment clients): every change to either goes through the
// appointment, so that rules spanning the attendees (places left, an
// appointment cancelled with its last attendee) see them all at once.
type AppointmentStore interface {
	ListAppointments(ctx context.Context, businessID string, f AppointmentFilter, p PageRequest) ([]Appointment, PageInfo, error)
	// GetAppointment returns ENOTFOUND if the business has no such appointment.
	GetAppointment(ctx context.Context, businessID, id string) (Appointment, error)
	// CreateAppointment stores a new appointment and its attendees in one
	// transaction, recording appointment.created and an
	// appointment_client.created for each attendee. Ids must be set;
	// AppointmentClientIDs is filled in. When check is not nil it is called
	// inside the transaction, after bookings of the practitioner by other
	// transactions have been shut out until this one ends, with the
	// practitioner's schedule as it then is: two bookings can never both
	// pass a check that each would fail with the other stored. An error
	// from check is returned as it is and nothing is written.
	CreateAppointment(ctx context.Context, businessID string, a *Appointment, attendees []AppointmentClient, check ScheduleCheck) error
	// UpdateAppointment reads the appointment and its attendees (in id
	// order) locked against concurrent changes, and passes them to change,
	// which may alter them and append new attendees (with ids set), but
	// not remove any. When change moved the appointment (its start, end or
	// practitioner) and check is not nil, check runs as for
	// CreateAppointment. Then each record that differs is written with
	// UpdatedAt now, recording appointment.updated,
	// appointment_client.updated or appointment_client.created. An error
	// from change or check is returned as it is and nothing is written.
	// Returns ENOTFOUND if the business has no such appointment.
	UpdateAppointment(ctx context.Context, businessID, id string, now Time, change func(a *Appointment, attendees *[]AppointmentClient) error, check ScheduleCheck) (Appointment, []AppointmentClient, error)
	ArchiveAppointment(ctx context.Context, businessID, id string, archived bool, now Time) (Appointment, error)
}

// AppointmentClientStore keeps appointment clients. They are created and
// changed through AppointmentStore.UpdateAppointment.
type AppointmentClientStore interface {
	ListAppointmentClients(ctx context.Context, businessID string, f AppointmentClientFilter, p PageRequest) ([]AppointmentClient, PageInfo, error)
	// GetAppointmentClient returns ENOTFOUND if the business has no such
	// appointment client.
	GetAppointmentClient(ctx context.Context, businessID, id string) (AppointmentClient, error)
	ArchiveAppointmentClient(ctx context.Context, businessID, id string, archived bool, now Time) (AppointmentClient, error)
	// ClientsOf returns the client each of ids (cases and client packages)
	// belongs to. Ids that name no record of the business are left out.
	ClientsOf(ctx context.Context, businessID string, ids []string) (map[string]string, error)
}

// appointmentClientMoves lists, for each status, the statuses it may
// change to. Moving back to booked undoes a mistaken arrival or no-show;
// completed and cancelled are final.
var appointmentClientMoves = map[string][]string{
	StatusBooked:    {StatusArrived, StatusNoShow, StatusCancelled},
	StatusArrived:   {StatusCompleted, StatusCancelled, StatusBooked},
	StatusNoShow:    {StatusBooked},
	StatusCompleted: {},
	StatusCancelled: {},
}

// TransitionAppointmentClient moves c to the status to, stamping the
// times the move sets: arrived_at on arriving (cleared when an arrival is
// undone), cancelled_at on cancelling. Staying in the same status changes
// nothing. Cancelling needs a cancellation reason or note on c. Returns
// EINVALID on status for a move the state machine does not allow, naming
// both states.
func TransitionAppointmentClient(c *AppointmentClient, to string, now Time) error {
	if _, known := appointmentClientMoves[to]; !known {
		return Invalid("status", "must be one of: "+strings.Join(AppointmentClientStatuses, ", "))
	}
	if c.Status == to {
		return nil
	}
	allowed := appointmentClientMoves[c.Status]
	if !slices.Contains(allowed, to) {
		return Invalid("status", moveRefusal(c.Status, to))
	}
	switch to {
	case StatusArrived:
		c.ArrivedAt = &now
	case StatusBooked:
		c.ArrivedAt = nil
	case StatusCancelled:
		if err := CheckCancellationReason(*c); err != nil {
			return err
		}
		c.CancelledAt = &now
	}
	c.Status = to
	return nil
}

// moveRefusal says why from cannot change to to, and what it can change to.
func moveRefusal(from, to string) string {
	allowed := appointmentClientMoves[from]
	msg := fmt.Sprintf("cannot change from %s to %s", from, to)
	if len(allowed) == 0 {
		return msg + " (" + from + " is final)"
	}
	return msg + " (from " + from + " it can change to " + orList(allowed) + ")"
}

// orList writes "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// CheckCancellationReason refuses an attendee with neither a
// cancellation reason nor a note, as a cancelled attendee must have: a
// clinic must be able to say why. Returns EINVALID on
// cancellation_reason_id.
func CheckCancellationReason(c AppointmentClient) error {
	if c.CancellationReasonID == nil && strings.TrimSpace(c.CancellationNote) == "" {
		return Invalid("cancellation_reason_id", "is required to cancel, unless cancellation_note is given")
	}
	return nil
}

// ConfirmAppointmentClient records whether the client confirmed their
// attendance: confirming stamps confirmed_at (kept when already
// confirmed), unconfirming clears it.
func ConfirmAppointmentClient(c *AppointmentClient, confirmed bool, now Time) {
	switch {
	case confirmed && !c.Confirmed:
		c.ConfirmedAt = &now
	case !confirmed:
		c.ConfirmedAt = nil
	}
	c.Confirmed = confirmed
}

// AppointmentCancelled reports whether an appointment is cancelled: it
// was cancelled as a whole, or it has attendees and every one of them is
// cancelled. A cancelled appointment blocks no time and takes no new
// attendees.
func AppointmentCancelled(a Appointment, attendees []AppointmentClient) bool {
	if a.CancelledAt != nil {
		return true
	}
	for _, c := range attendees {
		if c.Status != StatusCancelled {
			return false
		}
	}
	return len(attendees) > 0
}

// SettleAppointment stamps cancelled_at on an appointment whose last
// attendee has just been cancelled, with that attendee's cancellation
// time, so the appointment says when it was cancelled. Attendees
// cancelled without a time (only imported data has them) leave the
// appointment's updated_at instead. The stores settle every appointment
// they write, so that cancelled_at is set exactly when
// AppointmentCancelled holds and they need read nothing else.
func SettleAppointment(a *Appointment, attendees []AppointmentClient) {
	if a.CancelledAt != nil || !AppointmentCancelled(*a, attendees) {
		return
	}
	last := a.UpdatedAt
	found := false
	for _, c := range attendees {
		if c.CancelledAt != nil && (!found || c.CancelledAt.After(last.Time)) {
			last, found = *c.CancelledAt, true
		}
	}
	a.CancelledAt = &last
}

// CancelAppointment cancels every attendee of a, with the reason and
// note, and stamps the appointment's cancelled_at. Attendees already
// cancelled stay as they are. An attendee that completed the appointment
// or did not show cannot be cancelled, so neither can the appointment
// (its attendees are cancelled one by one instead): that is EINVALID on
// appointment_client_ids.N. Cancelling a cancelled appointment changes
// nothing.
func CancelAppointment(a *Appointment, attendees []AppointmentClient, reasonID *string, note string, now Time) error {
	if a.CancelledAt != nil {
		return nil
	}
	var errs FieldErrors
	if reasonID == nil && strings.TrimSpace(note) == "" {
		errs.Add("cancellation_reason_id", "is required to cancel, unless cancellation_note is given")
	}
	for i, c := range attendees {
		if c.Status != StatusCancelled && !slices.Contains(appointmentClientMoves[c.Status], StatusCancelled) {
			errs.Add(fmt.Sprintf("appointment_client_ids.%d", i), "names an attendee that "+moveRefusal(c.Status, StatusCancelled))
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	for i := range attendees {
		c := &attendees[i]
		if c.Status == StatusCancelled {
			continue
		}
		c.CancellationReasonID, c.CancellationNote = reasonID, note
		if err := TransitionAppointmentClient(c, StatusCancelled, now); err != nil {
			return err
		}
	}
	a.CancelledAt = &now
	return nil
}

// JoinAppointment checks that c may join appointment a, whose attendees
// are given: a is not cancelled, has a free place (attendees not
// cancelled are fewer than max_clients), and c's client does not attend
// it already (a cancelled attendance does not count, so a client can
// book again). Returns EINVALID on appointment_id or client_id.
func JoinAppointment(a Appointment, attendees []AppointmentClient, c AppointmentClient) error {
	if AppointmentCancelled(a, attendees) {
		return Invalid("appointment_id", "is cancelled: a cancelled appointment takes no new clients")
	}
	taken := 0
	for _, other := range attendees {
		if other.Status == StatusCancelled {
			continue
		}
		if other.ClientID == c.ClientID {
			return Invalid("client_id", "already attends the appointment (as "+other.ID+")")
		}
		taken++
	}
	if taken >= a.MaxClients {
		return Invalid("appointment_id", fmt.Sprintf("has no free place: %d of its %d places are taken", taken, a.MaxClients))
	}
	return nil
}

// MoveAppointment gives a a new start, length, practitioner and location,
// and its attendees the new times. A cancelled appointment cannot move:
// that is EINVALID on each field in moved, the fields the caller sent.
func MoveAppointment(a *Appointment, attendees []AppointmentClient, start time.Time, minutes int, practitionerID, locationID string, moved []string) error {
	if AppointmentCancelled(*a, attendees) {
		var errs FieldErrors
		for _, f := range moved {
			errs.Add(f, "cannot change: the appointment is cancelled")
		}
		return errs.Err() // nil when nothing was to move
	}
	a.StartsAt = NewTime(start)
	a.EndsAt = NewTime(start.Add(time.Duration(minutes) * time.Minute))
	a.Duration = minutes
	a.PractitionerID = practitionerID
	a.LocationID = locationID
	for i := range attendees {
		attendees[i].StartsAt, attendees[i].EndsAt = a.StartsAt, a.EndsAt
	}
	return nil
}
