package storetest

import (
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// Every rule here works on two businesses holding one record of every
// kind each, and checks that business a sees nothing of business b.
var isolationRules = []rule{
	{"Get methods answer ENOTFOUND for another business's records", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		_, err := st.GetClient(ctx(t), a.biz, b.cli1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetLocation(ctx(t), a.biz, b.loc1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetPractitioner(ctx(t), a.biz, b.pra1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetService(ctx(t), a.biz, b.ser1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
	}},
	{"lists show only the business's own records", func(t *testing.T, st practiced.Store) {
		a, _ := newRich(t, st), newRich(t, st)
		empty := newBusiness(t, st)
		want := map[string]map[string][]string{
			a.biz: {
				"ListBusyTimes":          {a.bti1.ID, a.bti2.ID},
				"ListForms":              {a.for1.ID, a.for2.ID},
				"ListAppointmentClients": {a.apc1.ID, a.apc2.ID},
				"ListClients":            {a.cli1.ID, a.cli2.ID},
				"ListContacts":           {a.con1.ID, a.con2.ID},
				"ListLocations":          {a.loc1.ID, a.loc2.ID},
			},
			empty: {},
		}
		for biz, lists := range want {
			for name, got := range listEverything(t, st, biz) {
				wantIDs(t, name+" of "+biz, got, lists[name])
			}
		}
	}},
	{"filters naming another business's records match nothing", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		bts, _, err := st.ListBusyTimes(ctx(t), a.biz, practiced.BusyTimeFilter{ListFilter: everything, PractitionerID: b.pra1.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "ListBusyTimes by b's practitioner", idsOf(bts), nil)
		bts, _, err = st.ListBusyTimes(ctx(t), a.biz, practiced.BusyTimeFilter{ListFilter: everything, LocationID: b.loc1.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "ListBusyTimes by b's location", idsOf(bts), nil)
		fs, _, err := st.ListForms(ctx(t), a.biz, practiced.FormFilter{ListFilter: everything, ClientID: b.cli1.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "ListForms by b's client", idsOf(fs), nil)
		acs, _, err := st.ListAppointmentClients(ctx(t), a.biz, practiced.AppointmentClientFilter{ListFilter: everything, AppointmentID: b.apt1.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "ListAppointmentClients by b's appointment", idsOf(acs), nil)
		cs, _, err := st.ListClients(ctx(t), a.biz, practiced.PersonFilter{ListFilter: everything, TagID: b.tag1.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "ListClients by b's tag", idsOf(cs), nil)
	}},
	{"UpdateClient answers ENOTFOUND for another business's client and leaves it alone", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		called := false
		_, err := st.UpdateClient(ctx(t), a.biz, b.cli1.ID, func(c *practiced.Client) error {
			called = true
			c.FirstName = "Mallory"
			return nil
		})
		wantCode(t, err, practiced.ENOTFOUND)
		if called {
			t.Error("change was called with another business's client")
		}
		got, err := st.GetClient(ctx(t), b.biz, b.cli1.ID)
		must(t, err)
		wantEqual(t, "b's client", got, b.cli1)
	}},
	{"MissingRefs counts another business's records as missing", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		missing, err := st.MissingRefs(ctx(t), a.biz, append(a.ids(), b.ids()...))
		must(t, err)
		wantSameIDs(t, "MissingRefs in a of a's and b's ids", missing, b.ids())
	}},
	{"PractitionerSchedule sees nothing of another business", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		sch, err := st.PractitionerSchedule(ctx(t), a.biz, b.pra1.ID, t0.Add(-24*time.Hour), t0.Add(48*time.Hour))
		must(t, err)
		if len(sch.BusyTimes)+len(sch.Appointments) != 0 {
			t.Errorf("schedule of b's practitioner in a = %+v, want empty", sch)
		}
	}},
	{"CreateBusyTimes cannot refer to another business's location or practitioner", func(t *testing.T, st practiced.Store) {
		a, b := newClinic(t, st), newClinic(t, st)
		for _, bt := range []practiced.BusyTime{
			newBusyTime(a.biz, b.loc1.ID, a.pra1.ID, hm(9, 0), hm(10, 0)),
			newBusyTime(a.biz, a.loc1.ID, b.pra1.ID, hm(9, 0), hm(10, 0)),
		} {
			for _, skip := range []bool{false, true} {
				if _, err := st.CreateBusyTimes(ctx(t), a.biz, []practiced.BusyTime{bt}, skip); err == nil {
					t.Errorf("CreateBusyTimes (skipConflicts %v) in a at location %s with practitioner %s succeeded", skip, bt.LocationID, bt.PractitionerID)
				}
			}
		}
		for _, biz := range []string{a.biz, b.biz} {
			got, _, err := st.ListBusyTimes(ctx(t), biz, practiced.BusyTimeFilter{ListFilter: everything}, allOnPage)
			must(t, err)
			wantIDs(t, "busy times of "+biz, idsOf(got), nil)
		}
	}},
	{"Seed cannot refer to another business's records", func(t *testing.T, st practiced.Store) {
		a, b := newClinic(t, st), newClinic(t, st)
		pra := newPractitioner(a.biz, "Mallory", b.loc1.ID)
		if err := st.Seed(ctx(t), a.biz, practiced.SeedData{Practitioners: []practiced.Practitioner{pra}}); err == nil {
			t.Error("Seed in a of a practitioner at b's location succeeded")
		}
		got, err := st.GetLocation(ctx(t), b.biz, b.loc1.ID)
		must(t, err)
		wantIDs(t, "practitioner_ids of b's location", got.PractitionerIDs, []string{b.pra1.ID, b.pra2.ID})
	}},
	{"page info ignores other businesses' records", func(t *testing.T, st practiced.Store) {
		for _, lc := range listCases {
			t.Run(lc.name, func(t *testing.T) {
				a, b := newBusiness(t, st), newBusiness(t, st)
				// Interleave the two businesses' ids: a1 < b1 < a2 < b2.
				a1 := lc.seed(t, st, a, []spec{{}})
				b1 := lc.seed(t, st, b, []spec{{}})
				a2 := lc.seed(t, st, a, []spec{{}})
				lc.seed(t, st, b, []spec{{}})
				wantPage(t, lc, st, a, practiced.ListFilter{}, practiced.PageRequest{Limit: 1}, a1, false, true)
				wantPage(t, lc, st, a, practiced.ListFilter{}, practiced.PageRequest{Limit: 1, After: a1[0]}, a2, true, false)
				wantPage(t, lc, st, a, practiced.ListFilter{}, practiced.PageRequest{Limit: 1, Before: a2[0]}, a1, false, true)
				wantPage(t, lc, st, a, practiced.ListFilter{}, practiced.PageRequest{Limit: 5, After: a2[0]}, nil, true, false)
				wantPage(t, lc, st, b, practiced.ListFilter{}, practiced.PageRequest{Limit: 5, Before: b1[0], Inclusive: true}, b1, false, true)
			})
		}
	}},
}

// listEverything lists every record of the business in each list.
func listEverything(t *testing.T, st practiced.Store, biz string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	bts, _, err := st.ListBusyTimes(ctx(t), biz, practiced.BusyTimeFilter{ListFilter: everything}, allOnPage)
	must(t, err)
	out["ListBusyTimes"] = idsOf(bts)
	fs, _, err := st.ListForms(ctx(t), biz, practiced.FormFilter{ListFilter: everything}, allOnPage)
	must(t, err)
	out["ListForms"] = idsOf(fs)
	acs, _, err := st.ListAppointmentClients(ctx(t), biz, practiced.AppointmentClientFilter{ListFilter: everything}, allOnPage)
	must(t, err)
	out["ListAppointmentClients"] = idsOf(acs)
	cs, _, err := st.ListClients(ctx(t), biz, practiced.PersonFilter{ListFilter: everything}, allOnPage)
	must(t, err)
	out["ListClients"] = idsOf(cs)
	cos, _, err := st.ListContacts(ctx(t), biz, practiced.PersonFilter{ListFilter: everything}, allOnPage)
	must(t, err)
	out["ListContacts"] = idsOf(cos)
	ls, _, err := st.ListLocations(ctx(t), biz, everything, allOnPage)
	must(t, err)
	out["ListLocations"] = idsOf(ls)
	return out
}
