package storetest

import (
	"cmp"
	"slices"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// scheduleFixture books the clinic's first practitioner around the
// window [10:00, 14:00) and returns what the schedule must hold.
type scheduleFixture struct {
	*clinic
	busy []practiced.BusyTime
	apts []scheduledView
}

func newScheduleFixture(t *testing.T, st practiced.Store) *scheduleFixture {
	c := newClinic(t, st)
	f := &scheduleFixture{clinic: c}
	bt := func(loc string, from, to time.Duration, in bool, change func(*practiced.BusyTime)) practiced.BusyTime {
		b := newBusyTime(c.biz, loc, c.pra1.ID, from, to)
		if change != nil {
			change(&b)
		}
		if in {
			f.busy = append(f.busy, b)
		}
		return b
	}
	archive := func(b *practiced.BusyTime) { b.ArchivedAt = archivedAt() }
	other := func(b *practiced.BusyTime) { b.PractitionerID = c.pra2.ID }
	busy := []practiced.BusyTime{
		bt(c.loc1.ID, hm(9, 0), hm(10, 0), false, nil),      // ends as the window starts
		bt(c.loc1.ID, hm(9, 30), hm(10, 30), true, nil),     // across the start
		bt(c.loc2.ID, hm(11, 0), hm(12, 0), true, nil),      // inside, at the other location
		bt(c.loc1.ID, hm(13, 30), hm(15, 0), true, nil),     // across the end
		bt(c.loc1.ID, hm(14, 0), hm(15, 0), false, nil),     // starts as the window ends
		bt(c.loc1.ID, hm(12, 0), hm(13, 0), false, archive), // archived
		bt(c.loc2.ID, hm(8, 0), hm(16, 0), true, nil),       // around the window
		bt(c.loc1.ID, hm(11, 0), hm(12, 0), false, other),   // another practitioner's
		bt(c.loc1.ID, hm(-24, 0), hm(-23, 0), false, nil),   // another day
	}

	var d practiced.SeedData
	d.BusyTimes = busy
	cli := newClient(c.biz, "Ann", "Archer")
	d.Clients = []practiced.Client{cli}
	apt := func(loc, pra string, svc *string, from, to time.Duration, statuses []string, change func(*practiced.Appointment)) practiced.Appointment {
		a := newAppointment(c.biz, loc, pra, svc, from, to)
		a.MaxClients = max(1, len(statuses))
		if change != nil {
			change(&a)
		}
		d.Appointments = append(d.Appointments, a)
		for _, s := range statuses {
			d.AppointmentClients = append(d.AppointmentClients, newAppointmentClient(c.biz, a, cli.ID, s))
		}
		return a
	}
	booked := []string{practiced.StatusBooked}
	cancel := func(a *practiced.Appointment) { a.CancelledAt = atp(-time.Hour) }
	archiveApt := func(a *practiced.Appointment) { a.ArchivedAt = archivedAt() }
	group := apt(c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(10, 0), hm(10, 30),
		[]string{practiced.StatusBooked, practiced.StatusCancelled, practiced.StatusNoShow, practiced.StatusArrived}, nil)
	bare := apt(c.loc2.ID, c.pra1.ID, nil, hm(12, 0), hm(13, 0), booked, nil)
	apt(c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(11, 0), hm(12, 0), booked, cancel) // cancelled_at alone cancels
	apt(c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(11, 30), hm(12, 0), booked, archiveApt)
	apt(c.loc1.ID, c.pra2.ID, &c.svc.ID, hm(11, 0), hm(12, 0), booked, nil)
	apt(c.loc1.ID, c.pra1.ID, &c.svc.ID, hm(9, 0), hm(10, 0), booked, nil)
	apt(c.loc2.ID, c.pra1.ID, &c.svc.ID, hm(14, 0), hm(14, 30), booked, nil)
	seed(t, st, c.biz, d)
	f.apts = []scheduledView{
		scheduled(group, c.svc.BufferBefore, c.svc.BufferAfter, 3),
		scheduled(bare, 0, 0, 1),
	}
	return f
}

// schedule returns the practitioner's schedule with its lists in id
// order, since their order is not part of the contract.
func schedule(t *testing.T, st practiced.Store, biz, practitionerID string, from, to time.Duration) ([]practiced.BusyTime, []scheduledView) {
	t.Helper()
	sch, err := st.PractitionerSchedule(ctx(t), biz, practitionerID, t0.Add(from), t0.Add(to))
	must(t, err)
	busy := slices.SortedFunc(slices.Values(sch.BusyTimes), func(a, b practiced.BusyTime) int { return cmp.Compare(a.ID, b.ID) })
	apts := slices.SortedFunc(slices.Values(scheduledViews(sch.Appointments)), func(a, b scheduledView) int { return cmp.Compare(a.ID, b.ID) })
	return busy, apts
}

var scheduleRules = []rule{
	{"returns the busy times and non-cancelled appointments overlapping the window at every location", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		busy, apts := schedule(t, st, f.biz, f.pra1.ID, hm(10, 0), hm(14, 0))
		wantEqual(t, "busy times", busy, f.busy)
		wantIDs(t, "appointments", idsOf(apts, func(a scheduledView) string { return a.ID }), idsOf(f.apts, func(a scheduledView) string { return a.ID }))
	}},
	{"appointments carry their service's buffers and their attendees not cancelled", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		_, apts := schedule(t, st, f.biz, f.pra1.ID, hm(10, 0), hm(14, 0))
		wantEqual(t, "appointments", apts, f.apts)
	}},
	{"the window is instants, whatever its zone", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		sch, err := st.PractitionerSchedule(ctx(t), f.biz, f.pra1.ID, t0.Add(hm(10, 0)).In(sydney), t0.Add(hm(14, 0)).In(sydney))
		must(t, err)
		if len(sch.BusyTimes) != len(f.busy) || len(sch.Appointments) != len(f.apts) {
			t.Errorf("schedule in another zone holds %d busy times and %d appointments, want %d and %d",
				len(sch.BusyTimes), len(sch.Appointments), len(f.busy), len(f.apts))
		}
	}},
	{"a window with nothing in it gives an empty schedule", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		busy, apts := schedule(t, st, f.biz, f.pra1.ID, hm(48, 0), hm(72, 0))
		if len(busy)+len(apts) != 0 {
			t.Errorf("schedule of an empty day = %d busy times and %d appointments, want none", len(busy), len(apts))
		}
	}},
	{"an appointment whose attendees are all cancelled is left out", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		// DESIGN.md §7.3: an appointment is cancelled when all its
		// attendees are, whether or not cancelled_at is set.
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(10, 0), hm(11, 0), practiced.StatusCancelled, nil)
		_, apts := schedule(t, st, c.biz, c.pra1.ID, hm(0, 0), hm(24, 0))
		if len(apts) != 0 {
			t.Errorf("schedule = %+v, want no appointment", apts)
		}
	}},
}
