package bookable

import (
	"fmt"
	"strings"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
)

// ConflictCheck refuses an appointment that rule 3 of docs/availability.md
// finds in conflict with its practitioner's schedule: busy times, and
// other non-cancelled appointments with their services' buffers, at any
// location. The store runs it inside the booking's transaction. The
// refusal is EINVALID on starts_at, naming what the appointment
// conflicts with.
func ConflictCheck(loc practiced.Location, pra practiced.Practitioner, svc practiced.Service) practiced.ScheduleCheck {
	return func(a practiced.Appointment, sch practiced.Schedule) error {
		// Conflicts compares instants, so the location's zone is not needed.
		q := Query(loc, pra, svc, sch.Blocks(), nil)
		q.Duration = a.EndsAt.Sub(a.StartsAt.Time)
		if !availability.Conflicts(q, a.StartsAt.Time, a.ID) {
			return nil
		}
		return practiced.Invalid("starts_at", conflictMessage(q, sch, a))
	}
}

// conflictMessage names what an appointment conflicts with, testing each
// busy time and appointment of the schedule on its own, and points to
// the way to join a group appointment the booking would duplicate.
func conflictMessage(q availability.Query, sch practiced.Schedule, a practiced.Appointment) string {
	var with []string
	one := q
	for i, b := range sch.BusyTimes {
		one.Busy, one.Appointments = q.Busy[i:i+1], nil
		if availability.Conflicts(one, a.StartsAt.Time, a.ID) {
			with = append(with, "busy time "+b.ID)
		}
	}
	group := ""
	for i, other := range sch.Appointments {
		one.Busy, one.Appointments = nil, q.Appointments[i:i+1]
		if !availability.Conflicts(one, a.StartsAt.Time, a.ID) {
			continue
		}
		with = append(with, "appointment "+other.ID)
		if a.ServiceID != nil && other.ServiceID != nil && *other.ServiceID == *a.ServiceID && other.LocationID == a.LocationID &&
			other.StartsAt == a.StartsAt && other.Attendees < other.MaxClients && group == "" {
			group = "; to join the group appointment " + other.ID + ", add the clients with POST /v1/appointment_clients"
		}
	}
	const shown = 3
	list := strings.Join(with[:min(len(with), shown)], ", ")
	if len(with) > shown {
		list += fmt.Sprintf(" and %d more", len(with)-shown)
	}
	return "conflicts with the practitioner's " + list + group + " (send allow_overlap: true to book it anyway)"
}

// SlotCheck is the check of a booking made on the booking page (rule 7:
// the page accepts only listed slots). The store runs it inside the
// booking's transaction, on the schedule as every earlier booking of the
// practitioner left it. It refuses the appointment with
// practiced.ErrSlotTaken unless ConflictCheck, the API's own check,
// passes, and req still lists the appointment's start as a slot of pra
// that makes a new appointment (not a place in a group appointment that
// now stands there).
func SlotCheck(req Request, pra practiced.Practitioner) practiced.ScheduleCheck {
	conflicts := ConflictCheck(req.Location, pra, req.Service)
	return func(a practiced.Appointment, sch practiced.Schedule) error {
		if err := conflicts(a, sch); err != nil {
			return practiced.ErrSlotTaken
		}
		// The schedule reaches a day past the appointment on either side,
		// which covers everything that can refuse its start.
		day := DateOf(a.StartsAt.In(req.Zone))
		for _, sl := range slotsIn(req, pra, sch.Blocks(), day, day) {
			if sl.Start.Equal(a.StartsAt.Time) && sl.GroupAppointmentID == "" {
				return nil
			}
		}
		return practiced.ErrSlotTaken
	}
}
