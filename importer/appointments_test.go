package importer

import (
	"context"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
)

func TestImportAppointments(t *testing.T) {
	ctx := context.Background()
	st := testfix.SQLiteStore(t)
	c := testfix.NewClinic(t, st, "Booked Clinic")
	csv := "practitioner,location,service,client,starts_at,ends_at,duration,status,notes\n" +
		"Alice Nguyen,Sydney CBD,Consultation,ann@example.com,2026-03-02 09:30,,,,First visit\n" +
		c.Bob.ID + "," + c.Sydney.ID + ",," + c.Clients[1].ID + ",2026-03-02T23:00:00Z,,45,arrived,\n" +
		// Adelaide's clocks go back at 03:00 on 5 April 2026: 02:30
		// happens twice, and the first is taken.
		"alice nguyen,ADELAIDE,consultation,CAT@example.com,2026-04-05 02:30,2026-04-04T16:30:00Z,,cancelled,\n"
	n, err := importString(t, st, c.Business.ID, "appointments", csv, false)
	if err != nil || n != 3 {
		t.Fatalf("%d rows, %v", n, err)
	}
	apts, _, err := st.ListAppointments(ctx, c.Business.ID, practiced.AppointmentFilter{IncludeCancelled: true}, practiced.PageRequest{Limit: 10})
	if err != nil || len(apts) != 3 {
		t.Fatalf("%d appointments, %v", len(apts), err)
	}
	want := map[string]struct {
		pra, loc, start, end string
		duration             int
		notes                string
		cancelled            bool
	}{
		"2026-03-01T22:30:00Z": {c.Alice.ID, c.Sydney.ID, "2026-03-01T22:30:00Z", "2026-03-01T23:00:00Z", 30, "First visit", false},
		"2026-03-02T23:00:00Z": {c.Bob.ID, c.Sydney.ID, "2026-03-02T23:00:00Z", "2026-03-02T23:45:00Z", 45, "", false},
		"2026-04-04T16:00:00Z": {c.Alice.ID, c.Adelaide.ID, "2026-04-04T16:00:00Z", "2026-04-04T16:30:00Z", 30, "", true},
	}
	for _, a := range apts {
		w, ok := want[a.StartsAt.String()]
		if !ok {
			t.Errorf("an appointment at %s", a.StartsAt)
			continue
		}
		if a.PractitionerID != w.pra || a.LocationID != w.loc || a.EndsAt.String() != w.end || a.Duration != w.duration ||
			a.Notes != w.notes || (a.CancelledAt != nil) != w.cancelled || len(a.AppointmentClientIDs) != 1 {
			t.Errorf("appointment at %s: %+v", w.start, a)
		}
	}
	acs, _, err := st.ListAppointmentClients(ctx, c.Business.ID, practiced.AppointmentClientFilter{}, practiced.PageRequest{Limit: 10})
	if err != nil || len(acs) != 3 {
		t.Fatalf("%d attendances, %v", len(acs), err)
	}
	got := map[string]string{}
	for _, ac := range acs {
		got[ac.ClientID] = ac.Status
	}
	if got[c.Clients[0].ID] != "booked" || got[c.Clients[1].ID] != "arrived" || got[c.Clients[2].ID] != "cancelled" {
		t.Errorf("attendances %v", got)
	}
}

func TestImportAppointmentsReportsEveryBadRow(t *testing.T) {
	ctx := context.Background()
	st := testfix.SQLiteStore(t)
	c := testfix.NewClinic(t, st, "Careful Clinic")
	csv := "Practitioner,Location,Service,Client,Start,End,Status\n" +
		"Zed Zero,Sydney CBD,,ann@example.com,2026-03-02 09:30,2026-03-02 10:00,\n" +
		"Bob Smith,Adelaide,,nobody@example.com,next tuesday,2026-03-02 10:00,maybe\n" +
		"Alice Nguyen,Sydney CBD,Pilates class,ben@example.com,2026-03-02 10:00,2026-03-02 09:00,\n" +
		"Alice Nguyen,Adelaide,Pilates class,cat@example.com,2026-03-02 10:00,,\n"
	_, err := importString(t, st, c.Business.ID, "appointments", csv, false)
	wantErrors(t, err,
		`line 2: Practitioner: "Zed Zero" is neither an id (pra_…) nor the name of one`,
		"line 3: Location: is not one of the practitioner's locations",
		"line 3: Client: no client has the e-mail address nobody@example.com",
		"line 3: Start: must be a time such as 2026-03-02T09:30:00+11:00, or 2026-03-02 09:30 in the location's time zone",
		"line 3: Status: must be one of booked, arrived, completed, no_show, cancelled",
		"line 4: End: must be after starts_at",
		"line 5: Service: is not offered at the location",
	)
	apts, _, _ := st.ListAppointments(ctx, c.Business.ID, practiced.AppointmentFilter{IncludeCancelled: true}, practiced.PageRequest{Limit: 10})
	if len(apts) != 0 {
		t.Errorf("a failing file stored %d appointments", len(apts))
	}
}
