package storetest

import (
	"cmp"
	"maps"
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
		wantIDs(t, "appointments", idsOf(apts), idsOf(f.apts))
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
		// docs/states.md: an appointment is cancelled when all its
		// attendees are, whether or not cancelled_at is set.
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(10, 0), hm(11, 0), practiced.StatusCancelled, nil)
		_, apts := schedule(t, st, c.biz, c.pra1.ID, hm(0, 0), hm(24, 0))
		if len(apts) != 0 {
			t.Errorf("schedule = %+v, want no appointment", apts)
		}
	}},
}

// blocksOf returns what Blocks reads of the practitioners in the window
// [t0+from, t0+to).
func blocksOf(t *testing.T, st practiced.Store, biz string, practitionerIDs []string, from, to time.Duration) map[string]practiced.Blocks {
	t.Helper()
	got, err := st.Blocks(ctx(t), biz, practitionerIDs, t0.Add(from), t0.Add(to))
	must(t, err)
	return got
}

// wantBlocks is the Blocks of a practitioner with the busy times and the
// appointments given, in the order Blocks promises.
func wantBlocks(busy []practiced.BusyTime, apts []scheduledView) practiced.Blocks {
	var sch practiced.Schedule
	sch.BusyTimes = slices.SortedFunc(slices.Values(busy), func(a, b practiced.BusyTime) int { return a.StartsAt.Compare(b.StartsAt.Time) })
	for _, a := range apts {
		sch.Appointments = append(sch.Appointments, practiced.ScheduledAppointment{
			Appointment: practiced.Appointment{ID: a.ID, LocationID: a.LocationID, PractitionerID: a.PractitionerID,
				ServiceID: a.ServiceID, StartsAt: a.StartsAt, EndsAt: a.EndsAt, MaxClients: a.MaxClients},
			BufferBefore: a.BufferBefore, BufferAfter: a.BufferAfter, Attendees: a.Attendees})
	}
	slices.SortFunc(sch.Appointments, func(a, b practiced.ScheduledAppointment) int {
		return cmp.Or(a.StartsAt.Compare(b.StartsAt.Time), cmp.Compare(a.ID, b.ID))
	})
	return sch.Blocks()
}

// wantBlocksEqual fails the test unless got has the practitioners of want
// and, for each, what want has.
func wantBlocksEqual(t *testing.T, got, want map[string]practiced.Blocks) {
	t.Helper()
	wantSameIDs(t, "practitioners of Blocks", slices.Collect(maps.Keys(got)), slices.Collect(maps.Keys(want)))
	for id, w := range want {
		wantEqual(t, "Blocks of "+id, got[id], w)
	}
}

var blocksRules = []rule{
	{"Blocks reads each practitioner's live busy times and appointments overlapping the window, at every location", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		got := blocksOf(t, st, f.biz, []string{f.pra1.ID}, hm(10, 0), hm(14, 0))
		wantBlocksEqual(t, got, map[string]practiced.Blocks{f.pra1.ID: wantBlocks(f.busy, f.apts)})
	}},
	{"Blocks reads several practitioners at once, each as PractitionerSchedule reads them alone", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		ids := []string{f.pra1.ID, f.pra2.ID}
		got := blocksOf(t, st, f.biz, ids, hm(10, 0), hm(14, 0))
		want := map[string]practiced.Blocks{}
		for _, id := range ids {
			busy, apts := schedule(t, st, f.biz, id, hm(10, 0), hm(14, 0))
			want[id] = wantBlocks(busy, apts)
		}
		if len(want[f.pra2.ID].Busy) != 1 || len(want[f.pra2.ID].Appointments) != 1 {
			t.Fatalf("the fixture gives %s %+v, want a busy time and an appointment", f.pra2.ID, want[f.pra2.ID])
		}
		wantBlocksEqual(t, got, want)
	}},
	{"Blocks leaves out archived busy times and cancelled or archived appointments", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		bt := newBusyTime(c.biz, c.loc1.ID, c.pra1.ID, hm(9, 0), hm(10, 0))
		bt.ArchivedAt = archivedAt()
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{bt}})
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(10, 0), hm(11, 0), practiced.StatusCancelled, nil)
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(11, 0), hm(12, 0), practiced.StatusBooked,
			func(a *practiced.Appointment) { a.CancelledAt = atp(-time.Hour) })
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(12, 0), hm(13, 0), practiced.StatusBooked,
			func(a *practiced.Appointment) { a.ArchivedAt = archivedAt() })
		if got := blocksOf(t, st, c.biz, []string{c.pra1.ID}, hm(0, 0), hm(24, 0)); len(got) != 0 {
			t.Errorf("Blocks = %+v, want no entry", got)
		}
	}},
	{"Blocks gives no entry to a practitioner with nothing in the window, and none for no practitioners", func(t *testing.T, st practiced.Store) {
		f := newScheduleFixture(t, st)
		if got := blocksOf(t, st, f.biz, []string{f.pra1.ID, f.pra2.ID}, hm(48, 0), hm(72, 0)); len(got) != 0 {
			t.Errorf("Blocks of an empty day = %+v, want no entry", got)
		}
		if got := blocksOf(t, st, f.biz, nil, hm(0, 0), hm(24, 0)); len(got) != 0 {
			t.Errorf("Blocks of no practitioners = %+v, want no entry", got)
		}
	}},
	{"Blocks sees nothing of another business", func(t *testing.T, st practiced.Store) {
		a, b := newScheduleFixture(t, st), newScheduleFixture(t, st)
		got := blocksOf(t, st, a.biz, []string{b.pra1.ID, b.pra2.ID, a.pra1.ID}, hm(10, 0), hm(14, 0))
		wantBlocksEqual(t, got, map[string]practiced.Blocks{a.pra1.ID: wantBlocks(a.busy, a.apts)})
	}},
}
