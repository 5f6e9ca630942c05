package storetest

import (
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// An appointment is cancelled when it was cancelled as a whole or every
// one of its attendees is (practiced.AppointmentCancelled). The store
// keeps cancelled_at set exactly when that holds, settling every
// appointment it writes (practiced.SettleAppointment), so that what it
// reads needs nothing but cancelled_at.

// wantCancelledAt fails unless the stored appointment's cancelled_at is want.
func wantCancelledAt(t *testing.T, st practiced.Store, biz, id string, want *practiced.Time) {
	t.Helper()
	got, err := st.GetAppointment(ctx(t), biz, id)
	must(t, err)
	wantEqual(t, "cancelled_at of "+id, got.CancelledAt, want)
}

// cancelAttendee cancels the attendee of the appointment at now, as a
// change for UpdateAppointment, without settling the appointment.
func cancelAttendee(attendeeID string, now practiced.Time) func(*practiced.Appointment, *[]practiced.AppointmentClient) error {
	return func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		for i := range *acs {
			if c := &(*acs)[i]; c.ID == attendeeID {
				c.CancellationNote = "Unwell"
				return practiced.TransitionAppointmentClient(c, practiced.StatusCancelled, now)
			}
		}
		return nil
	}
}

var cancelledRules = []rule{
	{"UpdateAppointment stamps cancelled_at when the last attendee is cancelled, with that cancellation's time, and not before", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		a, acs := c.booking(hm(10, 0), hm(10, 30), c.clients(t, st, 2)...)
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))

		first, last := at(hm(8, 0)), at(hm(9, 0))
		got, _, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, first, cancelAttendee(acs[0].ID, first), nil)
		must(t, err)
		wantEqual(t, "cancelled_at with one attendee left", got.CancelledAt, (*practiced.Time)(nil))
		wantCancelledAt(t, st, c.biz, a.ID, nil)
		_, apts := schedule(t, st, c.biz, c.pra1.ID, hm(0, 0), hm(24, 0))
		wantIDs(t, "schedule with one attendee left", idsOf(apts), []string{a.ID})

		got, _, err = st.UpdateAppointment(ctx(t), c.biz, a.ID, last, cancelAttendee(acs[1].ID, last), nil)
		must(t, err)
		wantEqual(t, "cancelled_at with every attendee cancelled", got.CancelledAt, &last)
		wantCancelledAt(t, st, c.biz, a.ID, &last)
		_, apts = schedule(t, st, c.biz, c.pra1.ID, hm(0, 0), hm(24, 0))
		wantIDs(t, "schedule with every attendee cancelled", idsOf(apts), nil)
		listed, _, err := st.ListAppointments(ctx(t), c.biz, practiced.AppointmentFilter{}, allOnPage)
		must(t, err)
		wantIDs(t, "ListAppointments with every attendee cancelled", idsOf(listed), nil)
	}},
	{"cancelled_at, once set, stays: a cancelled appointment a new attendee joins stays cancelled", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 2)
		a, acs := c.booking(hm(10, 0), hm(10, 30), ids[0])
		a.MaxClients = 2
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		cancelled := at(hm(8, 0))
		_, _, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, cancelled, cancelAttendee(acs[0].ID, cancelled), nil)
		must(t, err)

		joining := newAppointmentClient(c.biz, a, ids[1], practiced.StatusBooked)
		got, _, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, at(hm(9, 0)), func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
			*acs = append(*acs, joining)
			return nil
		}, nil)
		must(t, err)
		wantEqual(t, "cancelled_at after a join", got.CancelledAt, &cancelled)
		wantCancelledAt(t, st, c.biz, a.ID, &cancelled)
		_, apts := schedule(t, st, c.biz, c.pra1.ID, hm(0, 0), hm(24, 0))
		wantIDs(t, "schedule after a join", idsOf(apts), nil)
	}},
	{"CreateAppointment with every attendee cancelled stores the appointment cancelled", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		a, acs := c.booking(hm(10, 0), hm(10, 30), c.clients(t, st, 1)...)
		acs[0] = newAppointmentClient(c.biz, a, acs[0].ClientID, practiced.StatusCancelled)
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		wantCancelledAt(t, st, c.biz, a.ID, acs[0].CancelledAt)
	}},
	{"Seed stamps cancelled_at on an appointment whose attendees are all cancelled, in its batch or a later one", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := c.clients(t, st, 2)
		together := newAppointment(c.biz, c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(9, 0), hm(9, 30))
		early := newAppointmentClient(c.biz, together, cli[0], practiced.StatusCancelled)
		late := newAppointmentClient(c.biz, together, cli[1], practiced.StatusCancelled)
		late.CancelledAt = atp(-time.Hour)
		untimed := newAppointment(c.biz, c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(10, 0), hm(10, 30))
		noTime := newAppointmentClient(c.biz, untimed, cli[0], practiced.StatusCancelled)
		noTime.CancelledAt = nil
		live := newAppointment(c.biz, c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(11, 0), hm(11, 30))
		seed(t, st, c.biz, practiced.SeedData{
			Appointments:       []practiced.Appointment{together, untimed, live},
			AppointmentClients: []practiced.AppointmentClient{early, late, noTime, newAppointmentClient(c.biz, live, cli[1], practiced.StatusBooked)},
		})
		later := newAppointment(c.biz, c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(12, 0), hm(12, 30))
		seed(t, st, c.biz, practiced.SeedData{Appointments: []practiced.Appointment{later}})
		joined := newAppointmentClient(c.biz, later, cli[0], practiced.StatusCancelled)
		seed(t, st, c.biz, practiced.SeedData{AppointmentClients: []practiced.AppointmentClient{joined}})

		wantCancelledAt(t, st, c.biz, together.ID, late.CancelledAt)
		wantCancelledAt(t, st, c.biz, untimed.ID, &untimed.UpdatedAt)
		wantCancelledAt(t, st, c.biz, live.ID, nil)
		wantCancelledAt(t, st, c.biz, later.ID, joined.CancelledAt)
		if together.CancelledAt != nil {
			t.Error("Seed changed the caller's appointment")
		}
		_, apts := schedule(t, st, c.biz, c.pra1.ID, hm(0, 0), hm(24, 0))
		wantIDs(t, "schedule", idsOf(apts), []string{live.ID})
	}},
}
