package storetest

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// booking is a new appointment of the clinic's first practitioner at its
// first location, [t0+from, t0+to), with a booked attendee for each
// client, as CreateAppointment takes them.
func (c *clinic) booking(from, to time.Duration, clientIDs ...string) (practiced.Appointment, []practiced.AppointmentClient) {
	a := newAppointment(c.biz, c.loc1.ID, c.pra1.ID, &c.svc.ID, from, to)
	a.MaxClients = max(1, len(clientIDs))
	a.AppointmentClientIDs = []string{}
	var acs []practiced.AppointmentClient
	for _, cli := range clientIDs {
		ac := newAppointmentClient(c.biz, a, cli, practiced.StatusBooked)
		a.AppointmentClientIDs = append(a.AppointmentClientIDs, ac.ID)
		acs = append(acs, ac)
	}
	return a, acs
}

// clients seeds n clients of the clinic and returns their ids.
func (c *clinic) clients(t *testing.T, st practiced.Store, n int) []string {
	t.Helper()
	var d practiced.SeedData
	var ids []string
	for range n {
		cli := newClient(c.biz, "Ann", "Archer")
		d.Clients = append(d.Clients, cli)
		ids = append(ids, cli.ID)
	}
	seed(t, st, c.biz, d)
	return ids
}

// noOverlap is a ScheduleCheck that refuses an appointment overlapping
// any other appointment or busy time of the schedule.
func noOverlap(a practiced.Appointment, sch practiced.Schedule) error {
	for _, b := range sch.BusyTimes {
		if b.StartsAt.Before(a.EndsAt.Time) && a.StartsAt.Before(b.EndsAt.Time) {
			return practiced.Invalid("starts_at", "overlaps "+b.ID)
		}
	}
	for _, o := range sch.Appointments {
		if o.ID != a.ID && o.StartsAt.Before(a.EndsAt.Time) && a.StartsAt.Before(o.EndsAt.Time) {
			return practiced.Invalid("starts_at", "overlaps "+o.ID)
		}
	}
	return nil
}

func attendeesOf(t *testing.T, st practiced.Store, biz, appointmentID string) []practiced.AppointmentClient {
	t.Helper()
	got, _, err := st.ListAppointmentClients(ctx(t), biz, practiced.AppointmentClientFilter{ListFilter: everything, AppointmentID: appointmentID}, allOnPage)
	must(t, err)
	return got
}

var appointmentRules = []rule{
	{"CreateAppointment stores the appointment and its attendees as GetAppointment and GetAppointmentClient read them", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 2)
		a, acs := c.booking(hm(10, 0), hm(10, 45), ids...)
		a.Notes = "Bring scans"
		acs[1].Note, acs[1].Confirmed, acs[1].ConfirmedAt = "First visit", true, atp(-time.Hour)
		want, wantAcs := a, append([]practiced.AppointmentClient{}, acs...)
		a.AppointmentClientIDs, a.Duration = nil, 0 // filled by the store
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		wantEqual(t, "the appointment CreateAppointment leaves", a, want)
		got, err := st.GetAppointment(ctx(t), c.biz, a.ID)
		must(t, err)
		wantEqual(t, "GetAppointment", got, want)
		for _, ac := range wantAcs {
			got, err := st.GetAppointmentClient(ctx(t), c.biz, ac.ID)
			must(t, err)
			wantEqual(t, "GetAppointmentClient", got, ac)
		}
		wantEqual(t, "ListAppointmentClients", attendeesOf(t, st, c.biz, a.ID), wantAcs)
	}},
	{"CreateAppointment passes check the practitioner's schedule around the appointment, and writes nothing when check fails", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 1)
		near := c.busy(hm(-13, 0), hm(-12, 0)) // within a day of the booking
		far := c.busy(hm(-15, 0), hm(-14, 0))  // ends a day before it starts
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{near, far}})
		other := c.attended(t, st, c.loc2.ID, c.pra1.ID, hm(11, 0), hm(12, 0), practiced.StatusBooked, nil)
		a, acs := c.booking(hm(10, 0), hm(11, 0), ids...)
		refused := errors.New("refused")
		var seen practiced.Schedule
		err := st.CreateAppointment(ctx(t), c.biz, &a, acs, func(got practiced.Appointment, sch practiced.Schedule) error {
			if got.ID != a.ID || got.Duration != 60 {
				t.Errorf("check got appointment %s of %d minutes, want %s of 60", got.ID, got.Duration, a.ID)
			}
			seen = sch
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatalf("CreateAppointment: %v, want check's error as it is", err)
		}
		wantIDs(t, "busy times check saw", idsOf(seen.BusyTimes), []string{near.ID})
		wantEqual(t, "appointments check saw", scheduledViews(seen.Appointments), []scheduledView{scheduled(other, c.svc.BufferBefore, c.svc.BufferAfter, 1)})
		_, err = st.GetAppointment(ctx(t), c.biz, a.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		wantIDs(t, "attendees after a refused booking", idsOf(attendeesOf(t, st, c.biz, a.ID)), nil)
	}},
	{"concurrent checked CreateAppointment calls for one slot create exactly one", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 1)
		const callers = 12
		errs := gather(callers, func(i int) error {
			a, acs := c.booking(hm(10, 0), hm(10, 30), ids...)
			return st.CreateAppointment(ctx(t), c.biz, &a, acs, noOverlap)
		})
		made := 0
		for _, err := range errs {
			switch practiced.ErrorCode(err) {
			case "":
				made++
			case practiced.EINVALID:
			default:
				t.Errorf("CreateAppointment: %v", err)
			}
		}
		got, _, err := st.ListAppointments(ctx(t), c.biz, practiced.AppointmentFilter{ListFilter: everything, IncludeCancelled: true}, allOnPage)
		must(t, err)
		if made != 1 || len(got) != 1 {
			t.Fatalf("%d calls succeeded and %d appointments are stored, want 1 and 1", made, len(got))
		}
	}},
	{"UpdateAppointment writes only what change altered, stamping it now, and moves the attendees with the appointment", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 2)
		a, acs := c.booking(hm(10, 0), hm(11, 0), ids...)
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		now := practiced.NewTime(t0.Add(-time.Hour))

		// Nothing changed: nothing written.
		got, gotAcs, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(*practiced.Appointment, *[]practiced.AppointmentClient) error { return nil }, nil)
		must(t, err)
		wantEqual(t, "an unchanged appointment", got, a)
		wantEqual(t, "unchanged attendees", gotAcs, acs)

		// One attendee changed: only it is stamped.
		_, _, err = st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
			(*acs)[1].Note = "Late"
			return nil
		}, nil)
		must(t, err)
		acs[1].Note, acs[1].UpdatedAt = "Late", now
		got, err = st.GetAppointment(ctx(t), c.biz, a.ID)
		must(t, err)
		wantEqual(t, "the appointment after an attendee changed", got, a)
		wantEqual(t, "the attendees after one changed", attendeesOf(t, st, c.biz, a.ID), acs)

		// The appointment moved: the attendees move with it.
		later := practiced.NewTime(t0)
		got, gotAcs, err = st.UpdateAppointment(ctx(t), c.biz, a.ID, later, func(a *practiced.Appointment, _ *[]practiced.AppointmentClient) error {
			a.StartsAt, a.EndsAt = at(hm(14, 0)), at(hm(15, 30))
			return nil
		}, nil)
		must(t, err)
		a.StartsAt, a.EndsAt, a.Duration, a.UpdatedAt = at(hm(14, 0)), at(hm(15, 30)), 90, later
		for i := range acs {
			acs[i].StartsAt, acs[i].EndsAt, acs[i].UpdatedAt = a.StartsAt, a.EndsAt, later
		}
		wantEqual(t, "the moved appointment", got, a)
		wantEqual(t, "the moved attendees UpdateAppointment returns", gotAcs, acs)
		wantEqual(t, "the moved attendees", attendeesOf(t, st, c.biz, a.ID), acs)
	}},
	{"UpdateAppointment runs check only when the appointment moves, with the appointment itself in the schedule", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 1)
		a, acs := c.booking(hm(10, 0), hm(11, 0), ids...)
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		var calls atomic.Int32
		var seen practiced.Schedule
		check := func(_ practiced.Appointment, sch practiced.Schedule) error { calls.Add(1); seen = sch; return nil }
		now := practiced.NewTime(t0)
		_, _, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(a *practiced.Appointment, _ *[]practiced.AppointmentClient) error {
			a.Notes, a.LocationID = "Room 2", c.loc2.ID
			return nil
		}, check)
		must(t, err)
		if calls.Load() != 0 {
			t.Fatalf("check ran %d times for a change of notes and location", calls.Load())
		}
		// A write may run again, its change and check with it, when
		// another write committed with it fails (Store.UpdateAppointment):
		// check runs once for every run of the change.
		var changes atomic.Int32
		_, _, err = st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(a *practiced.Appointment, _ *[]practiced.AppointmentClient) error {
			changes.Add(1)
			a.StartsAt = at(hm(10, 15))
			return nil
		}, check)
		must(t, err)
		if calls.Load() == 0 || calls.Load() != changes.Load() {
			t.Fatalf("check ran %d times for a move whose change ran %d times, want as often", calls.Load(), changes.Load())
		}
		wantIDs(t, "appointments check saw", idsOf(seen.Appointments), []string{a.ID})

		// A refused move writes nothing.
		before, err := st.GetAppointment(ctx(t), c.biz, a.ID)
		must(t, err)
		_, _, err = st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(a *practiced.Appointment, _ *[]practiced.AppointmentClient) error {
			a.PractitionerID = c.pra2.ID
			return nil
		}, func(practiced.Appointment, practiced.Schedule) error { return practiced.Invalid("starts_at", "no") })
		wantInvalidField(t, err, "starts_at")
		after, err := st.GetAppointment(ctx(t), c.biz, a.ID)
		must(t, err)
		wantEqual(t, "the appointment after a refused move", after, before)
	}},
	{"UpdateAppointment adds the attendees change appends, and refuses removing one", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 2)
		a, acs := c.booking(hm(10, 0), hm(11, 0), ids[0])
		a.MaxClients = 4
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		now := practiced.NewTime(t0)
		added := newAppointmentClient(c.biz, a, ids[1], practiced.StatusBooked)
		got, gotAcs, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
			*acs = append(*acs, added)
			return nil
		}, nil)
		must(t, err)
		added.CreatedAt, added.UpdatedAt = now, now
		a.AppointmentClientIDs, a.UpdatedAt = []string{acs[0].ID, added.ID}, now
		wantEqual(t, "the appointment with a new attendee", got, a)
		wantEqual(t, "the attendees", gotAcs, []practiced.AppointmentClient{acs[0], added})
		wantEqual(t, "the stored attendees", attendeesOf(t, st, c.biz, a.ID), []practiced.AppointmentClient{acs[0], added})

		_, _, err = st.UpdateAppointment(ctx(t), c.biz, a.ID, now, func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
			*acs = (*acs)[:1]
			return nil
		}, nil)
		if err == nil {
			t.Fatal("UpdateAppointment let change remove an attendee")
		}
		wantEqual(t, "the attendees after a refused removal", attendeesOf(t, st, c.biz, a.ID), []practiced.AppointmentClient{acs[0], added})
	}},
	{"concurrent joins through UpdateAppointment see each other", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ids := c.clients(t, st, 9)
		a, acs := c.booking(hm(10, 0), hm(11, 0), ids[0])
		a.MaxClients = 3
		must(t, st.CreateAppointment(ctx(t), c.biz, &a, acs, nil))
		errs := gather(8, func(i int) error {
			_, _, err := st.UpdateAppointment(ctx(t), c.biz, a.ID, practiced.NewTime(t0), func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				ac := newAppointmentClient(c.biz, *a, ids[i+1], practiced.StatusBooked)
				if err := practiced.JoinAppointment(*a, *acs, ac); err != nil {
					return err
				}
				*acs = append(*acs, ac)
				return nil
			}, nil)
			return err
		})
		joined := 0
		for _, err := range errs {
			switch practiced.ErrorCode(err) {
			case "":
				joined++
			case practiced.EINVALID:
			default:
				t.Errorf("UpdateAppointment: %v", err)
			}
		}
		if n := len(attendeesOf(t, st, c.biz, a.ID)); joined != 2 || n != 3 {
			t.Fatalf("%d joins succeeded and %d attendees are stored, want 2 and 3", joined, n)
		}
	}},
	{"ListAppointments filters by practitioner, location, client, start and cancellation", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := c.clients(t, st, 2)
		var d practiced.SeedData
		add := func(loc, pra string, from time.Duration, cancelled *practiced.Time, statuses ...string) practiced.Appointment {
			a := newAppointment(c.biz, loc, pra, nil, from, from+30*time.Minute)
			a.CancelledAt = cancelled
			d.Appointments = append(d.Appointments, a)
			for i, s := range statuses {
				d.AppointmentClients = append(d.AppointmentClients, newAppointmentClient(c.biz, a, cli[i], s))
			}
			return a
		}
		a1 := add(c.loc1.ID, c.pra1.ID, hm(9, 0), nil, practiced.StatusBooked)
		a2 := add(c.loc2.ID, c.pra1.ID, hm(10, 0), nil, practiced.StatusCancelled, practiced.StatusArrived)
		a3 := add(c.loc1.ID, c.pra2.ID, hm(11, 0), nil, practiced.StatusCancelled)
		a4 := add(c.loc1.ID, c.pra2.ID, hm(12, 0), atp(-time.Hour), practiced.StatusBooked)
		a5 := add(c.loc1.ID, c.pra1.ID, hm(13, 0), nil)
		seed(t, st, c.biz, d)
		for _, tc := range []struct {
			name string
			f    practiced.AppointmentFilter
			want []string
		}{
			{"none", practiced.AppointmentFilter{}, []string{a1.ID, a2.ID, a5.ID}},
			{"IncludeCancelled", practiced.AppointmentFilter{IncludeCancelled: true}, []string{a1.ID, a2.ID, a3.ID, a4.ID, a5.ID}},
			{"PractitionerID", practiced.AppointmentFilter{PractitionerID: c.pra2.ID, IncludeCancelled: true}, []string{a3.ID, a4.ID}},
			{"LocationID", practiced.AppointmentFilter{LocationID: c.loc2.ID}, []string{a2.ID}},
			{"ClientID", practiced.AppointmentFilter{ClientID: cli[0], IncludeCancelled: true}, []string{a1.ID, a2.ID, a3.ID, a4.ID}},
			{"ClientID of a second attendee", practiced.AppointmentFilter{ClientID: cli[1]}, []string{a2.ID}},
			{"StartsAfter and StartsBefore", practiced.AppointmentFilter{StartsAfter: timep(hm(10, 0)), StartsBefore: timep(hm(13, 0)),
				IncludeCancelled: true}, []string{a2.ID, a3.ID, a4.ID}},
		} {
			got, _, err := st.ListAppointments(ctx(t), c.biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, "ListAppointments "+tc.name, idsOf(got), tc.want)
		}
		// Page by page, filtered by an attendee (a subquery of the
		// attendees) and by start.
		for _, tc := range []struct {
			name string
			f    practiced.AppointmentFilter
			want []string
		}{
			{"ClientID", practiced.AppointmentFilter{ClientID: cli[0], IncludeCancelled: true}, []string{a1.ID, a2.ID, a3.ID, a4.ID}},
			{"StartsAfter and StartsBefore", practiced.AppointmentFilter{StartsAfter: timep(hm(10, 0)), StartsBefore: timep(hm(13, 0)),
				IncludeCancelled: true}, []string{a2.ID, a3.ID, a4.ID}},
			{"none", practiced.AppointmentFilter{}, []string{a1.ID, a2.ID, a5.ID}},
		} {
			walkPages(t, "ListAppointments "+tc.name, func(p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				got, info, err := st.ListAppointments(ctx(t), c.biz, tc.f, p)
				return idsOf(got), info, err
			}, tc.want)
		}
	}},
	{"ClientsOf names the client of each case and package of the business", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		other := newRich(t, st)
		got, err := st.ClientsOf(ctx(t), r.biz, []string{r.cas1.ID, r.cpk1.ID, other.cas1.ID, tid.New(practiced.PrefixCase), r.cli1.ID})
		must(t, err)
		wantEqual(t, "ClientsOf", got, map[string]string{r.cas1.ID: r.cli1.ID, r.cpk1.ID: r.cli1.ID})
	}},
	{"appointments and attendees of another business are ENOTFOUND", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		_, err := st.GetAppointment(ctx(t), a.biz, b.apt1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetAppointmentClient(ctx(t), a.biz, b.apc1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		called := false
		_, _, err = st.UpdateAppointment(ctx(t), a.biz, b.apt1.ID, practiced.NewTime(t0), func(*practiced.Appointment, *[]practiced.AppointmentClient) error {
			called = true
			return nil
		}, nil)
		wantCode(t, err, practiced.ENOTFOUND)
		if called {
			t.Fatal("UpdateAppointment passed another business's appointment to change")
		}
		_, err = st.ArchiveAppointment(ctx(t), a.biz, b.apt1.ID, true, practiced.NewTime(t0))
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.ArchiveAppointmentClient(ctx(t), a.biz, b.apc1.ID, true, practiced.NewTime(t0))
		wantCode(t, err, practiced.ENOTFOUND)
		got, err := st.GetAppointment(ctx(t), b.biz, b.apt1.ID)
		must(t, err)
		if got.ArchivedAt != nil {
			t.Fatal("another business archived the appointment")
		}
	}},
}
