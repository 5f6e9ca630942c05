package storetest

import (
	"reflect"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// everything asks a list for all its records, archived ones included.
var (
	everything = practiced.ListFilter{IncludeArchived: true}
	allOnPage  = practiced.PageRequest{Limit: 100}
)

var seedRules = []rule{
	{"clients round-trip through GetClient and ListClients, archived ones too", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		for _, want := range []practiced.Client{r.cli1, r.cli2} {
			got, err := st.GetClient(ctx(t), r.biz, want.ID)
			must(t, err)
			wantEqual(t, "GetClient "+want.ID, got, want)
		}
		got, _, err := st.ListClients(ctx(t), r.biz, practiced.PersonFilter{ListFilter: everything}, allOnPage)
		must(t, err)
		wantEqual(t, "ListClients", got, []practiced.Client{r.cli1, r.cli2})
	}},
	{"contacts round-trip through ListContacts", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		got, _, err := st.ListContacts(ctx(t), r.biz, practiced.PersonFilter{ListFilter: everything}, allOnPage)
		must(t, err)
		wantEqual(t, "ListContacts", got, []practiced.Contact{r.con1, r.con2})
	}},
	{"locations round-trip through GetLocation and ListLocations with their practitioner_ids and service_ids in id order", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		for _, want := range []practiced.Location{r.loc1, r.loc2} {
			got, err := st.GetLocation(ctx(t), r.biz, want.ID)
			must(t, err)
			wantEqual(t, "GetLocation "+want.ID, got, want)
		}
		got, _, err := st.ListLocations(ctx(t), r.biz, everything, allOnPage)
		must(t, err)
		wantEqual(t, "ListLocations", got, []practiced.Location{r.loc1, r.loc2})
	}},
	{"practitioners round-trip through GetPractitioner with their location_ids and service_ids in id order", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		for _, want := range []practiced.Practitioner{r.pra1, r.pra2, r.pra3} {
			got, err := st.GetPractitioner(ctx(t), r.biz, want.ID)
			must(t, err)
			wantEqual(t, "GetPractitioner "+want.ID, got, want)
		}
	}},
	{"services round-trip through GetService with their location_ids in id order", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		for _, want := range []practiced.Service{r.ser1, r.ser2} {
			got, err := st.GetService(ctx(t), r.biz, want.ID)
			must(t, err)
			wantEqual(t, "GetService "+want.ID, got, want)
		}
	}},
	{"busy times round-trip through ListBusyTimes", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		got, _, err := st.ListBusyTimes(ctx(t), r.biz, practiced.BusyTimeFilter{ListFilter: everything}, allOnPage)
		must(t, err)
		wantEqual(t, "ListBusyTimes", got, []practiced.BusyTime{r.bti1, r.bti2})
	}},
	{"forms round-trip through ListForms", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		got, _, err := st.ListForms(ctx(t), r.biz, practiced.FormFilter{ListFilter: everything}, allOnPage)
		must(t, err)
		wantEqual(t, "ListForms", got, []practiced.Form{r.for1, r.for2})
	}},
	{"appointment clients round-trip through ListAppointmentClients with starts_at and ends_at of their appointment", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st) // seeds them without times
		got, _, err := st.ListAppointmentClients(ctx(t), r.biz, practiced.AppointmentClientFilter{ListFilter: everything}, allOnPage)
		must(t, err)
		wantEqual(t, "ListAppointmentClients", got, []practiced.AppointmentClient{r.apc1, r.apc2})
	}},
	{"appointments round-trip through PractitionerSchedule", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		sch, err := st.PractitionerSchedule(ctx(t), r.biz, r.pra1.ID, t0, t0.Add(24*time.Hour))
		must(t, err)
		want := scheduled(r.apt1, r.ser1.BufferBefore, r.ser1.BufferAfter, 1)
		wantEqual(t, "PractitionerSchedule appointments", scheduledViews(sch.Appointments), []scheduledView{want})
		wantEqual(t, "PractitionerSchedule busy times", sch.BusyTimes, []practiced.BusyTime{r.bti1})
	}},
	{"records of every kind are stored, as MissingRefs finds them", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		missing, err := st.MissingRefs(ctx(t), r.biz, r.ids())
		must(t, err)
		wantSameIDs(t, "MissingRefs of every seeded id", missing, nil)
	}},
	{"lists seeded nil read back empty, never nil", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		loc := practiced.Location{ID: tid.New(practiced.PrefixLocation), Name: "Bare", Timezone: "UTC", CreatedAt: created, UpdatedAt: updated}
		ser := practiced.Service{ID: tid.New(practiced.PrefixService), Name: "Bare", Duration: 30, CreatedAt: created, UpdatedAt: updated}
		pra := practiced.Practitioner{ID: tid.New(practiced.PrefixPractitioner), FirstName: "Bare", LastName: "Bones", CreatedAt: created, UpdatedAt: updated}
		con := practiced.Contact{ID: tid.New(practiced.PrefixContact), Type: "other", CreatedAt: created, UpdatedAt: updated}
		cli := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Bare", LastName: "Bones",
			NDISDetails: &practiced.NDISDetails{NDISNumber: "1"}, CreatedAt: created, UpdatedAt: updated}
		fte := practiced.FormTemplate{ID: tid.New(practiced.PrefixFormTemplate), Name: "Bare", CreatedAt: created, UpdatedAt: updated}
		frm := practiced.Form{ID: tid.New(practiced.PrefixForm), ClientID: cli.ID, FormTemplateID: fte.ID, Name: "Bare",
			Status: practiced.FormNotStarted, SentStatus: practiced.SentNotSent, CreatedAt: created, UpdatedAt: updated}
		bt := practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: loc.ID, PractitionerID: pra.ID,
			StartsAt: at(hm(9, 0)), EndsAt: at(hm(10, 0)), CreatedAt: created, UpdatedAt: updated}
		seed(t, st, biz, practiced.SeedData{Locations: []practiced.Location{loc}, Services: []practiced.Service{ser},
			Practitioners: []practiced.Practitioner{pra}, Contacts: []practiced.Contact{con}, Clients: []practiced.Client{cli},
			FormTemplates: []practiced.FormTemplate{fte}, Forms: []practiced.Form{frm}, BusyTimes: []practiced.BusyTime{bt}})

		var read []any
		gl, err := st.GetLocation(ctx(t), biz, loc.ID)
		must(t, err)
		ll, _, err := st.ListLocations(ctx(t), biz, everything, allOnPage)
		must(t, err)
		gs, err := st.GetService(ctx(t), biz, ser.ID)
		must(t, err)
		gp, err := st.GetPractitioner(ctx(t), biz, pra.ID)
		must(t, err)
		lc, _, err := st.ListContacts(ctx(t), biz, practiced.PersonFilter{}, allOnPage)
		must(t, err)
		gc, err := st.GetClient(ctx(t), biz, cli.ID)
		must(t, err)
		lcl, _, err := st.ListClients(ctx(t), biz, practiced.PersonFilter{}, allOnPage)
		must(t, err)
		lf, _, err := st.ListForms(ctx(t), biz, practiced.FormFilter{}, allOnPage)
		must(t, err)
		lb, _, err := st.ListBusyTimes(ctx(t), biz, practiced.BusyTimeFilter{}, allOnPage)
		must(t, err)
		read = append(read, gl, gs, gp, gc)
		for _, l := range [][]any{anys(ll), anys(lc), anys(lcl), anys(lf), anys(lb)} {
			if len(l) != 1 {
				t.Fatalf("a list holds %d records, want 1", len(l))
			}
			read = append(read, l[0])
		}
		read = append(read, *gc.NDISDetails)
		for _, rec := range read {
			v := reflect.ValueOf(rec)
			for i := 0; i < v.NumField(); i++ {
				if f := v.Field(i); f.Kind() == reflect.Slice && f.IsNil() {
					t.Errorf("%T.%s is nil, want an empty list", rec, v.Type().Field(i).Name)
				}
			}
		}
	}},
	{"busy time duration is the minutes between starts_at and ends_at", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		bt := c.busy(hm(10, 0), hm(11, 30))
		bt.Duration = 0 // not stored: derived from the times
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{bt}})
		got, _, err := st.ListBusyTimes(ctx(t), c.biz, practiced.BusyTimeFilter{}, allOnPage)
		must(t, err)
		if len(got) != 1 || got[0].Duration != 90 {
			t.Fatalf("ListBusyTimes = %+v, want one busy time of 90 minutes", got)
		}
	}},
	{"a batch may refer to records of an earlier batch", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		loc := newLocation(biz, "North")
		seed(t, st, biz, practiced.SeedData{Locations: []practiced.Location{loc}})
		pra := newPractitioner(biz, "Alice", loc.ID)
		seed(t, st, biz, practiced.SeedData{Practitioners: []practiced.Practitioner{pra}})
		got, err := st.GetLocation(ctx(t), biz, loc.ID)
		must(t, err)
		wantIDs(t, "practitioner_ids", got.PractitionerIDs, []string{pra.ID})
	}},
	{"a batch with a record referring to a missing one fails and leaves nothing", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		loc := newLocation(biz, "North")
		pra := newPractitioner(biz, "Alice", loc.ID)
		cli := newClient(biz, "Ann", "Archer")
		bad := newBusyTime(biz, tid.New(practiced.PrefixLocation), pra.ID, hm(9, 0), hm(10, 0))
		err := st.Seed(ctx(t), biz, practiced.SeedData{Locations: []practiced.Location{loc},
			Practitioners: []practiced.Practitioner{pra}, Clients: []practiced.Client{cli}, BusyTimes: []practiced.BusyTime{bad}})
		if err == nil {
			t.Fatal("Seed of a busy time at a missing location succeeded")
		}
		_, err = st.GetLocation(ctx(t), biz, loc.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetPractitioner(ctx(t), biz, pra.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		missing, err := st.MissingRefs(ctx(t), biz, []string{loc.ID, pra.ID, cli.ID, bad.ID})
		must(t, err)
		wantSameIDs(t, "MissingRefs after the failed batch", missing, []string{loc.ID, pra.ID, cli.ID, bad.ID})
	}},
}

// scheduledView is what a schedule tells of an appointment.
type scheduledView struct {
	ID, LocationID, PractitionerID string
	ServiceID                      *string
	StartsAt, EndsAt               practiced.Time
	Duration, MaxClients           int
	BufferBefore, BufferAfter      int
	Attendees                      int
}

func scheduled(a practiced.Appointment, bufferBefore, bufferAfter, attendees int) scheduledView {
	return scheduledView{ID: a.ID, LocationID: a.LocationID, PractitionerID: a.PractitionerID, ServiceID: a.ServiceID,
		StartsAt: a.StartsAt, EndsAt: a.EndsAt, Duration: a.Duration, MaxClients: a.MaxClients,
		BufferBefore: bufferBefore, BufferAfter: bufferAfter, Attendees: attendees}
}

func scheduledViews(as []practiced.ScheduledAppointment) []scheduledView {
	out := []scheduledView{}
	for _, a := range as {
		v := scheduled(a.Appointment, a.BufferBefore, a.BufferAfter, a.Attendees)
		out = append(out, v)
	}
	return out
}

func anys[T any](v []T) []any {
	out := make([]any, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}
