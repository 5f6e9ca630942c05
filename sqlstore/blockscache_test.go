package sqlstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

func TestBlocksFollowEveryChangeSQLite(t *testing.T) {
	testBlocksFollowEveryChange(t, testfix.SQLiteStore(t))
}

func TestBlocksFollowEveryChangePostgres(t *testing.T) {
	testBlocksFollowEveryChange(t, testfix.PostgresStore(t))
}

// testBlocksFollowEveryChange reads a practitioner's week after each
// kind of change of what blocks it, and holds what Blocks answers (kept
// by the store, or read again) to what the database holds, and to a
// change from the answer before.
func testBlocksFollowEveryChange(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Blocks")
	biz, pras := c.Business.ID, []string{c.Alice.ID, c.Bob.ID}
	from, to := testfix.Now, testfix.Now.Add(7*24*time.Hour)
	now := practiced.NewTime(testfix.Now)
	var last map[string]practiced.Blocks
	check := func(what string, changed bool) {
		t.Helper()
		got, err := st.Blocks(ctx, biz, pras, from, to)
		if err != nil {
			t.Fatal(err)
		}
		want, err := sqlstore.ReadBlocksUncached(st, ctx, biz, pras, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Blocks answered %+v, the database holds %+v", what, got, want)
		}
		if last != nil && reflect.DeepEqual(got, last) == changed {
			t.Fatalf("%s: changed %v, want %v", what, !changed, changed)
		}
		// What a caller is given is its own.
		if b, ok := got[c.Alice.ID]; ok && len(b.Appointments) > 0 {
			b.Appointments[0].MaxClients = 999
		}
		last = want
	}
	check("first read", false)
	check("read again, unchanged", false)

	start := testfix.Now.Add(24 * time.Hour)
	bt := practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: c.Sydney.ID, PractitionerID: c.Alice.ID,
		StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(time.Hour)), CreatedAt: now, UpdatedAt: now}
	if _, err := st.CreateBusyTimes(ctx, biz, []practiced.BusyTime{bt}, false); err != nil {
		t.Fatal(err)
	}
	check("a busy time made", true)

	apt := practiced.Appointment{ID: tid.New(practiced.PrefixAppointment), LocationID: c.Sydney.ID, PractitionerID: c.Bob.ID,
		ServiceID: &c.Consult.ID, StartsAt: practiced.NewTime(start.Add(2 * time.Hour)), EndsAt: practiced.NewTime(start.Add(150 * time.Minute)),
		Duration: 30, MaxClients: 1, CreatedAt: now, UpdatedAt: now}
	ac := practiced.AppointmentClient{ID: tid.New(practiced.PrefixAppointmentClient), AppointmentID: apt.ID, ClientID: c.Clients[0].ID,
		Status: practiced.StatusBooked, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateAppointment(ctx, biz, &apt, []practiced.AppointmentClient{ac}, nil); err != nil {
		t.Fatal(err)
	}
	check("an appointment booked", true)

	if _, err := st.UpdateService(ctx, biz, c.Consult.ID, func(v *practiced.Service) error { v.BufferBefore = 15; return nil }); err != nil {
		t.Fatal(err)
	}
	check("its service's buffer changed", true)

	if _, err := st.UpdateClient(ctx, biz, c.Clients[1].ID, func(cl *practiced.Client) error { cl.Notes = "x"; return nil }); err != nil {
		t.Fatal(err)
	}
	check("a client changed", false)

	_, _, err := st.UpdateAppointment(ctx, biz, apt.ID, now, func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		(*acs)[0].CancellationNote = "Ill"
		return practiced.TransitionAppointmentClient(&(*acs)[0], practiced.StatusCancelled, now)
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("its attendee cancelled", true)

	if _, err := st.ArchiveBusyTime(ctx, biz, bt.ID, true, now); err != nil {
		t.Fatal(err)
	}
	check("the busy time archived", true)
}
