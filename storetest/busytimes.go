package storetest

import (
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// listBusyTimes returns every busy time of the business, archived ones
// included.
func listBusyTimes(t *testing.T, st practiced.Store, biz string) []practiced.BusyTime {
	t.Helper()
	got, _, err := st.ListBusyTimes(ctx(t), biz, practiced.BusyTimeFilter{ListFilter: everything}, allOnPage)
	must(t, err)
	return got
}

// attended returns an appointment of the clinic's practitioner with one
// booked attendee, as the batch that stores them.
func (c *clinic) attended(t *testing.T, st practiced.Store, locationID, practitionerID string, from, to time.Duration, status string, change func(*practiced.Appointment)) practiced.Appointment {
	t.Helper()
	cli := newClient(c.biz, "Ann", "Archer")
	apt := newAppointment(c.biz, locationID, practitionerID, &c.svc.ID, from, to)
	if change != nil {
		change(&apt)
	}
	ac := newAppointmentClient(c.biz, apt, cli.ID, status)
	seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cli}, Appointments: []practiced.Appointment{apt},
		AppointmentClients: []practiced.AppointmentClient{ac}})
	return apt
}

var createBusyTimesRules = []rule{
	{"creates every busy time and returns them as stored", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		b1 := c.busy(hm(9, 0), hm(10, 30))
		b1.Name, b1.Note, b1.RoomID, b1.ResourceIDs = ptr("Admin"), ptr("Paperwork"), ptr("room-1"), []string{"desk"}
		b1.RepeatID = ptr(tid.New(practiced.PrefixRepeat))
		b2 := newBusyTime(c.biz, c.loc2.ID, c.pra2.ID, hm(9, 0), hm(9, 45))
		b3 := c.busy(hm(33, 0), hm(34, 0))
		b3.RepeatID = b1.RepeatID
		in := []practiced.BusyTime{b1, b2, b3}
		for i := range in {
			in[i].Duration = 0 // derived by the store
		}
		in[1].ResourceIDs = nil // stored and read back as an empty list
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, false)
		must(t, err)
		want := []practiced.BusyTime{b1, b2, b3}
		wantEqual(t, "CreateBusyTimes", created, want)
		wantEqual(t, "ListBusyTimes", listBusyTimes(t, st, c.biz), want)
	}},
	{"without skipConflicts overlapping busy times are created too", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0))}})
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(12, 0), hm(13, 0), practiced.StatusBooked, nil)
		in := []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0)), c.busy(hm(10, 30), hm(12, 30)), c.busy(hm(12, 0), hm(13, 0))}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, false)
		must(t, err)
		wantIDs(t, "created", idsOf(created), idsOf(in))
		if n := len(listBusyTimes(t, st, c.biz)); n != 4 {
			t.Errorf("%d busy times stored, want 4", n)
		}
	}},
	{"skipConflicts leaves out busy times overlapping the practitioner's busy times or non-cancelled appointments at any location", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		existing := c.busy(hm(10, 0), hm(11, 0))
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{existing}})
		c.attended(t, st, c.loc2.ID, c.pra1.ID, hm(13, 0), hm(14, 0), practiced.StatusBooked, nil)
		before := c.busy(hm(9, 0), hm(10, 0))                                         // touches the busy time: kept
		overBusy := c.busy(hm(10, 30), hm(11, 30))                                    // overlaps the busy time
		after := c.busy(hm(11, 0), hm(12, 0))                                         // touches the busy time: kept
		overSecond := c.busy(hm(9, 59)+59*time.Second, hm(10, 0)+time.Second)         // overlaps by two seconds
		elsewhere := newBusyTime(c.biz, c.loc2.ID, c.pra1.ID, hm(10, 15), hm(10, 45)) // the busy time is at loc1
		overApt := c.busy(hm(13, 30), hm(13, 45))                                     // the appointment is at loc2
		untilApt := c.busy(hm(12, 0), hm(13, 0))                                      // touches the appointment: kept
		inside := c.busy(hm(12, 59), hm(15, 0))                                       // covers the appointment
		in := []practiced.BusyTime{before, overBusy, after, overSecond, elsewhere, overApt, untilApt, inside}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, true)
		must(t, err)
		want := []string{before.ID, after.ID, untilApt.ID}
		wantIDs(t, "created", idsOf(created), want)
		wantIDs(t, "stored", idsOf(listBusyTimes(t, st, c.biz)), append([]string{existing.ID}, want...))
	}},
	{"skipConflicts ignores cancelled appointments, archived busy times and other practitioners", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		// cancelled_at alone cancels, even with an attendee left booked.
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(10, 0), hm(11, 0), practiced.StatusBooked, func(a *practiced.Appointment) {
			a.CancelledAt = atp(-time.Hour)
		})
		archived := c.busy(hm(11, 0), hm(12, 0))
		archived.ArchivedAt = archivedAt()
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{archived, newBusyTime(c.biz, c.loc1.ID, c.pra2.ID, hm(12, 0), hm(13, 0))}})
		c.attended(t, st, c.loc1.ID, c.pra2.ID, hm(13, 0), hm(14, 0), practiced.StatusBooked, nil)
		in := []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0)), c.busy(hm(11, 0), hm(12, 0)), c.busy(hm(12, 0), hm(13, 0)), c.busy(hm(13, 0), hm(14, 0))}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, true)
		must(t, err)
		wantIDs(t, "created", idsOf(created), idsOf(in))
	}},
	{"skipConflicts ignores an appointment whose attendees are all cancelled", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		// docs/states.md: an appointment is cancelled when all its
		// attendees are, whether or not cancelled_at is set.
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(10, 0), hm(11, 0), practiced.StatusCancelled, nil)
		in := []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0))}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, true)
		must(t, err)
		wantIDs(t, "created", idsOf(created), idsOf(in))
	}},
	{"skipConflicts leaves out a busy time inside an appointment that began before it", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		c.attended(t, st, c.loc1.ID, c.pra1.ID, hm(9, 0), hm(17, 0), practiced.StatusBooked, nil)
		in := []practiced.BusyTime{c.busy(hm(16, 0), hm(16, 30)), c.busy(hm(17, 0), hm(18, 0))}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, true)
		must(t, err)
		wantIDs(t, "created", idsOf(created), []string{in[1].ID})
	}},
	{"skipConflicts leaves out a busy time overlapping an earlier one of the same batch", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		in := []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0)), c.busy(hm(10, 30), hm(11, 30)), c.busy(hm(11, 0), hm(12, 0))}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, true)
		must(t, err)
		wantIDs(t, "created", idsOf(created), []string{in[0].ID, in[2].ID})
	}},
	{"skipConflicts with none left is EINVALID on starts_at and creates nothing", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		existing := c.busy(hm(10, 0), hm(11, 0))
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{existing}})
		_, err := st.CreateBusyTimes(ctx(t), c.biz, []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0)), c.busy(hm(10, 15), hm(10, 45))}, true)
		wantInvalidField(t, err, "starts_at")
		wantIDs(t, "stored", idsOf(listBusyTimes(t, st, c.biz)), []string{existing.ID})
	}},
	{"a batch with a failing insert creates nothing", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		existing := c.busy(hm(8, 0), hm(9, 0))
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{existing}})
		duplicate := c.busy(hm(12, 0), hm(13, 0))
		duplicate.ID = existing.ID
		for name, bad := range map[string]practiced.BusyTime{
			"a missing location":     newBusyTime(c.biz, tid.New(practiced.PrefixLocation), c.pra1.ID, hm(11, 0), hm(12, 0)),
			"a missing practitioner": newBusyTime(c.biz, c.loc1.ID, tid.New(practiced.PrefixPractitioner), hm(11, 0), hm(12, 0)),
			"a missing busy time type": func() practiced.BusyTime {
				b := c.busy(hm(11, 0), hm(12, 0))
				b.BusyTimeTypeID = ptr(tid.New(practiced.PrefixBusyTimeType))
				return b
			}(),
			"the id of a stored one": duplicate,
		} {
			for _, skip := range []bool{false, true} {
				in := []practiced.BusyTime{c.busy(hm(9, 0), hm(10, 0)), c.busy(hm(10, 0), hm(11, 0)), bad}
				if _, err := st.CreateBusyTimes(ctx(t), c.biz, in, skip); err == nil {
					t.Errorf("CreateBusyTimes (skipConflicts %v) with %s succeeded", skip, name)
				}
				wantIDs(t, "stored after a batch with "+name, idsOf(listBusyTimes(t, st, c.biz)), []string{existing.ID})
			}
		}
	}},
}
