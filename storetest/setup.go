package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// The clinic's set-up and people: locations, contacts, practitioners,
// services, named records, cases and client packages.

// setupEvents returns the record's events, oldest first.
func setupEvents(t *testing.T, st practiced.Store, biz, recordID string) []practiced.Event {
	t.Helper()
	evs, _, err := st.ListEvents(ctx(t), biz, practiced.EventFilter{RecordID: recordID}, allOnPage)
	must(t, err)
	return evs
}

// wantEvents fails unless the record's events have the types, in order,
// and the last one carries want as its data.
func wantEvents(t *testing.T, st practiced.Store, biz, recordID string, types []string, want any) {
	t.Helper()
	evs := setupEvents(t, st, biz, recordID)
	got := eventTypes(evs)
	wantIDs(t, "events of "+recordID, got, types)
	if len(evs) == 0 || want == nil {
		return
	}
	b, err := json.Marshal(want)
	must(t, err)
	if last := evs[len(evs)-1]; string(last.Data) != string(b) {
		t.Errorf("data of %s:\n%s\nwant\n%s", last.Type, last.Data, b)
	}
}

// wantUpdated checks what an update of the record id returned: no error,
// the record want makes of it, the same record stored, and one "updated"
// event carrying it. want is given the record returned, for the fields
// the update stamps.
func wantUpdated[T any](t *testing.T, st practiced.Store, biz, name, id string, got T, err error,
	get func(context.Context, string, string) (T, error), want func(got T) T) {
	t.Helper()
	must(t, err)
	w := want(got)
	wantEqual(t, name, got, w)
	stored, err := get(ctx(t), biz, id)
	must(t, err)
	wantEqual(t, name+" stored", stored, w)
	k, _ := practiced.KindOf(id)
	wantEvents(t, st, biz, id, []string{k.Type + ".updated"}, got)
}

// setupNow is the time the rules stamp their changes with.
var setupNow = at(hm(8, 0))

var setupRules = []rule{
	{"created records of every kind read back as they were created, and each creation is an event", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := newClient(c.biz, "Ann", "Archer")
		seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cli}})

		loc := newLocation(c.biz, "East")
		loc.OpeningHours.Days[1] = practiced.DayHours{Active: true, OpensAt: "09:00", ClosesAt: "24:00"}
		loc.Address.Line2 = ptr("Level 2")
		must(t, st.CreateLocation(ctx(t), c.biz, &loc))
		got, err := st.GetLocation(ctx(t), c.biz, loc.ID)
		must(t, err)
		wantEqual(t, "GetLocation", got, loc)
		wantEvents(t, st, c.biz, loc.ID, []string{"location.created"}, loc)

		con := newContact(c.biz, "Eve", "Ng")
		con.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Number: "0400111222", Type: "mobile"}}
		must(t, st.CreateContact(ctx(t), c.biz, &con))
		gotCon, err := st.GetContact(ctx(t), c.biz, con.ID)
		must(t, err)
		wantEqual(t, "GetContact", gotCon, con)
		wantEvents(t, st, c.biz, con.ID, []string{"contact.created"}, con)

		pra := newPractitioner(c.biz, "Dana", c.loc1.ID)
		pra.ServiceIDs = []string{c.svc.ID}
		pra.WorkingHours = []practiced.WorkingHours{{LocationID: c.loc1.ID, Day: "monday", StartsAt: "09:00", EndsAt: "12:00"}}
		pra.Exceptions = []practiced.AvailabilityException{{Date: "2026-03-09", Ranges: []practiced.TimeRange{}}}
		must(t, st.CreatePractitioner(ctx(t), c.biz, &pra))
		gotPra, err := st.GetPractitioner(ctx(t), c.biz, pra.ID)
		must(t, err)
		wantEqual(t, "GetPractitioner", gotPra, pra)
		wantEvents(t, st, c.biz, pra.ID, []string{"practitioner.created"}, pra)

		ser := newService(c.biz, "Review", 20, 0, 5, c.loc2.ID)
		ser.Color = "#aabbcc"
		must(t, st.CreateService(ctx(t), c.biz, &ser))
		gotSer, err := st.GetService(ctx(t), c.biz, ser.ID)
		must(t, err)
		wantEqual(t, "GetService", gotSer, ser)
		wantEvents(t, st, c.biz, ser.ID, []string{"service.created"}, ser)

		for _, k := range practiced.NamedKinds {
			n := newNamed(c.biz, k.Prefix, "A "+k.Name)
			must(t, st.CreateNamed(ctx(t), c.biz, &n))
			got, err := st.GetNamed(ctx(t), c.biz, n.ID)
			must(t, err)
			wantEqual(t, "GetNamed "+k.Plural, got, n)
			wantEvents(t, st, c.biz, n.ID, []string{k.Type + ".created"}, n)
		}

		cas := practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: cli.ID, Name: "Knee",
			Status: practiced.CaseOpen, Notes: "Claim", CreatedAt: created, UpdatedAt: updated}
		must(t, st.CreateCase(ctx(t), c.biz, &cas))
		gotCas, err := st.GetCase(ctx(t), c.biz, cas.ID)
		must(t, err)
		wantEqual(t, "GetCase", gotCas, cas)
		wantEvents(t, st, c.biz, cas.ID, []string{"case.created"}, cas)

		cpk := practiced.ClientPackage{ID: tid.New(practiced.PrefixClientPackage), ClientID: cli.ID,
			Name: "Five", SessionsTotal: 5, SessionsUsed: 1, ExpiresOn: ptr("2026-12-31"), CreatedAt: created, UpdatedAt: updated}
		must(t, st.CreateClientPackage(ctx(t), c.biz, &cpk))
		gotCpk, err := st.GetClientPackage(ctx(t), c.biz, cpk.ID)
		must(t, err)
		wantEqual(t, "GetClientPackage", gotCpk, cpk)
		wantEvents(t, st, c.biz, cpk.ID, []string{"client_package.created"}, cpk)
	}},
	{"join ids are written whole and read back in id order, whatever order they are given in", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		pra := newPractitioner(c.biz, "Dana", c.loc2.ID, c.loc1.ID)
		must(t, st.CreatePractitioner(ctx(t), c.biz, &pra))
		wantIDs(t, "location_ids of the created practitioner", pra.LocationIDs, []string{c.loc1.ID, c.loc2.ID})
		got, err := st.UpdatePractitioner(ctx(t), c.biz, pra.ID, func(p *practiced.Practitioner) error {
			p.LocationIDs = []string{c.loc2.ID}
			p.ServiceIDs = []string{c.svc.ID}
			return nil
		})
		must(t, err)
		stored, err := st.GetPractitioner(ctx(t), c.biz, pra.ID)
		must(t, err)
		wantEqual(t, "GetPractitioner after the update", stored, got)
		wantIDs(t, "location_ids", stored.LocationIDs, []string{c.loc2.ID})
		wantIDs(t, "service_ids", stored.ServiceIDs, []string{c.svc.ID})

		ser := newService(c.biz, "Review", 20, 0, 0, c.loc2.ID, c.loc1.ID)
		must(t, st.CreateService(ctx(t), c.biz, &ser))
		gotSer, err := st.UpdateService(ctx(t), c.biz, ser.ID, func(v *practiced.Service) error { v.LocationIDs = nil; return nil })
		must(t, err)
		wantIDs(t, "location_ids of the service emptied", gotSer.LocationIDs, []string{})
		if gotSer.LocationIDs == nil {
			t.Error("location_ids emptied read back nil, want an empty list")
		}
		loc1, err := st.GetLocation(ctx(t), c.biz, c.loc1.ID)
		must(t, err)
		wantIDs(t, "practitioner_ids of the first location", loc1.PractitionerIDs, []string{c.pra1.ID, c.pra2.ID})
		wantIDs(t, "service_ids of the first location", loc1.ServiceIDs, []string{c.svc.ID})
	}},
	{"a location a practitioner or service joins or leaves is updated, with an event; the others are not", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		pra := newPractitioner(c.biz, "Dana", c.loc1.ID)
		pra.UpdatedAt = setupNow
		must(t, st.CreatePractitioner(ctx(t), c.biz, &pra))
		loc1, err := st.GetLocation(ctx(t), c.biz, c.loc1.ID)
		must(t, err)
		want := c.loc1
		want.PractitionerIDs = []string{c.pra1.ID, c.pra2.ID, pra.ID}
		want.ServiceIDs = []string{c.svc.ID}
		want.UpdatedAt = setupNow
		wantEqual(t, "the location joined", loc1, want)
		wantEvents(t, st, c.biz, c.loc1.ID, []string{"location.updated"}, want)

		later := at(hm(9, 0))
		_, err = st.UpdatePractitioner(ctx(t), c.biz, pra.ID, func(p *practiced.Practitioner) error {
			p.LocationIDs = []string{c.loc2.ID}
			p.UpdatedAt = later
			return nil
		})
		must(t, err)
		want.PractitionerIDs = []string{c.pra1.ID, c.pra2.ID}
		want.UpdatedAt = later
		wantEvents(t, st, c.biz, c.loc1.ID, []string{"location.updated", "location.updated"}, want)
		wantEvents(t, st, c.biz, c.loc2.ID, []string{"location.updated"}, nil)

		// A change that leaves the locations as they are touches none.
		_, err = st.UpdatePractitioner(ctx(t), c.biz, pra.ID, func(p *practiced.Practitioner) error { p.Title = "Dr"; return nil })
		must(t, err)
		_, err = st.ArchivePractitioner(ctx(t), c.biz, pra.ID, true, at(hm(10, 0)))
		must(t, err)
		wantEvents(t, st, c.biz, c.loc1.ID, []string{"location.updated", "location.updated"}, nil)
		wantEvents(t, st, c.biz, c.loc2.ID, []string{"location.updated"}, nil)

		ser := newService(c.biz, "Review", 20, 0, 0, c.loc2.ID)
		ser.UpdatedAt = at(hm(11, 0))
		must(t, st.CreateService(ctx(t), c.biz, &ser))
		loc2, err := st.GetLocation(ctx(t), c.biz, c.loc2.ID)
		must(t, err)
		wantIDs(t, "service_ids of the second location", loc2.ServiceIDs, []string{c.svc.ID, ser.ID})
		wantEqual(t, "updated_at of the second location", loc2.UpdatedAt, ser.UpdatedAt)
		wantEvents(t, st, c.biz, c.loc2.ID, []string{"location.updated", "location.updated"}, loc2)
	}},
	{"a location's own writes leave its practitioners and services as they are", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		got, err := st.UpdateLocation(ctx(t), c.biz, c.loc1.ID, func(l *practiced.Location) error {
			l.Name = "North Shore"
			l.PractitionerIDs = nil
			l.ServiceIDs = []string{}
			return nil
		})
		must(t, err)
		stored, err := st.GetLocation(ctx(t), c.biz, c.loc1.ID)
		must(t, err)
		wantIDs(t, "practitioner_ids", stored.PractitionerIDs, []string{c.pra1.ID, c.pra2.ID})
		wantIDs(t, "service_ids", stored.ServiceIDs, []string{c.svc.ID})
		if stored.Name != "North Shore" || got.Name != "North Shore" {
			t.Errorf("name %q (returned %q), want North Shore", stored.Name, got.Name)
		}
	}},
	{"Update passes the stored record to change, writes what it leaves and records the change", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		var seen practiced.Practitioner
		got, err := st.UpdatePractitioner(ctx(t), r.biz, r.pra1.ID, func(p *practiced.Practitioner) error {
			seen = *p
			p.Designation = "Osteopath"
			p.WorkingHours = nil
			p.UpdatedAt = setupNow
			return nil
		})
		must(t, err)
		wantEqual(t, "practitioner passed to change", seen, r.pra1)
		want := r.pra1
		want.Designation = "Osteopath"
		want.WorkingHours = []practiced.WorkingHours{}
		want.UpdatedAt = setupNow
		wantEqual(t, "UpdatePractitioner result", got, want)
		wantEvents(t, st, r.biz, r.pra1.ID, []string{"practitioner.updated"}, want)

		// updated_at is the time of the update; the rule for clients pins it.
		loc, err := st.UpdateLocation(ctx(t), r.biz, r.loc1.ID, func(l *practiced.Location) error { l.Timezone = "Australia/Perth"; return nil })
		wantUpdated(t, st, r.biz, "location", r.loc1.ID, loc, err, st.GetLocation, func(got practiced.Location) practiced.Location {
			l := r.loc1
			l.Timezone = "Australia/Perth"
			l.UpdatedAt = got.UpdatedAt
			return l
		})
		con, err := st.UpdateContact(ctx(t), r.biz, r.con1.ID, func(c *practiced.Contact) error { c.PhoneNumbers = nil; return nil })
		wantUpdated(t, st, r.biz, "contact", r.con1.ID, con, err, st.GetContact, func(got practiced.Contact) practiced.Contact {
			c := r.con1
			c.PhoneNumbers = []practiced.PhoneNumber{}
			c.UpdatedAt = got.UpdatedAt
			return c
		})
		ser, err := st.UpdateService(ctx(t), r.biz, r.ser1.ID, func(v *practiced.Service) error { v.MaxClients = 3; return nil })
		wantUpdated(t, st, r.biz, "service", r.ser1.ID, ser, err, st.GetService, func(got practiced.Service) practiced.Service {
			v := r.ser1
			v.MaxClients = 3
			v.UpdatedAt = got.UpdatedAt
			return v
		})
		btt, err := st.UpdateNamed(ctx(t), r.biz, r.btt1.ID, func(n *practiced.Named) error { n.Color = ""; return nil })
		wantUpdated(t, st, r.biz, "named", r.btt1.ID, btt, err, st.GetNamed, func(got practiced.Named) practiced.Named {
			n := r.btt1
			n.Color = ""
			n.UpdatedAt = got.UpdatedAt
			return n
		})
		cas, err := st.UpdateCase(ctx(t), r.biz, r.cas1.ID, func(c *practiced.Case) error { c.Status = practiced.CaseClosed; return nil })
		wantUpdated(t, st, r.biz, "case", r.cas1.ID, cas, err, st.GetCase, func(got practiced.Case) practiced.Case {
			c := r.cas1
			c.Status = practiced.CaseClosed
			c.UpdatedAt = got.UpdatedAt
			return c
		})
		cpk, err := st.UpdateClientPackage(ctx(t), r.biz, r.cpk1.ID, func(c *practiced.ClientPackage) error { c.ExpiresOn = nil; return nil })
		wantUpdated(t, st, r.biz, "client package", r.cpk1.ID, cpk, err, st.GetClientPackage, func(got practiced.ClientPackage) practiced.ClientPackage {
			c := r.cpk1
			c.ExpiresOn = nil
			c.UpdatedAt = got.UpdatedAt
			return c
		})
	}},
	{"an error from change is returned as it is, and nothing is written or recorded", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		refused := practiced.Invalid("working_hours.0.location_id", "is not one of the practitioner's location_ids")
		_, err := st.UpdatePractitioner(ctx(t), r.biz, r.pra1.ID, func(p *practiced.Practitioner) error {
			p.LocationIDs = nil
			p.FirstName = "Mallory"
			return refused
		})
		if err != refused {
			t.Fatalf("UpdatePractitioner error %v, want the error change returned", err)
		}
		got, err := st.GetPractitioner(ctx(t), r.biz, r.pra1.ID)
		must(t, err)
		wantEqual(t, "practitioner after a refused change", got, r.pra1)
		plain := errors.New("plain failure")
		_, err = st.UpdateClientPackage(ctx(t), r.biz, r.cpk1.ID, func(c *practiced.ClientPackage) error { c.SessionsUsed = 9; return plain })
		if err != plain {
			t.Fatalf("UpdateClientPackage error %v, want the error change returned", err)
		}
		for _, id := range []string{r.pra1.ID, r.loc1.ID, r.loc2.ID, r.cpk1.ID} {
			wantEvents(t, st, r.biz, id, nil, nil)
		}
	}},
	{"another business's records are ENOTFOUND to every method, and change is never called", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		called := false
		never := func() error { called = true; return nil }
		now := setupNow
		for name, err := range map[string]error{
			"GetContact":           second(st.GetContact(ctx(t), a.biz, b.con1.ID)),
			"GetCase":              second(st.GetCase(ctx(t), a.biz, b.cas1.ID)),
			"GetClientPackage":     second(st.GetClientPackage(ctx(t), a.biz, b.cpk1.ID)),
			"GetNamed":             second(st.GetNamed(ctx(t), a.biz, b.tag1.ID)),
			"UpdateLocation":       second(st.UpdateLocation(ctx(t), a.biz, b.loc1.ID, func(*practiced.Location) error { return never() })),
			"UpdateContact":        second(st.UpdateContact(ctx(t), a.biz, b.con1.ID, func(*practiced.Contact) error { return never() })),
			"UpdatePractitioner":   second(st.UpdatePractitioner(ctx(t), a.biz, b.pra1.ID, func(*practiced.Practitioner) error { return never() })),
			"UpdateService":        second(st.UpdateService(ctx(t), a.biz, b.ser1.ID, func(*practiced.Service) error { return never() })),
			"UpdateNamed":          second(st.UpdateNamed(ctx(t), a.biz, b.ret1.ID, func(*practiced.Named) error { return never() })),
			"UpdateCase":           second(st.UpdateCase(ctx(t), a.biz, b.cas1.ID, func(*practiced.Case) error { return never() })),
			"UpdateClientPackage":  second(st.UpdateClientPackage(ctx(t), a.biz, b.cpk1.ID, func(*practiced.ClientPackage) error { return never() })),
			"ArchiveLocation":      second(st.ArchiveLocation(ctx(t), a.biz, b.loc1.ID, true, now)),
			"ArchiveContact":       second(st.ArchiveContact(ctx(t), a.biz, b.con1.ID, true, now)),
			"ArchivePractitioner":  second(st.ArchivePractitioner(ctx(t), a.biz, b.pra1.ID, true, now)),
			"ArchiveService":       second(st.ArchiveService(ctx(t), a.biz, b.ser1.ID, true, now)),
			"ArchiveNamed":         second(st.ArchiveNamed(ctx(t), a.biz, b.cnr1.ID, true, now)),
			"ArchiveCase":          second(st.ArchiveCase(ctx(t), a.biz, b.cas1.ID, true, now)),
			"ArchiveClientPackage": second(st.ArchiveClientPackage(ctx(t), a.biz, b.cpk1.ID, false, now)),
		} {
			if code := practiced.ErrorCode(err); code != practiced.ENOTFOUND {
				t.Errorf("%s of b's record in a: %v (code %q), want ENOTFOUND", name, err, code)
			}
		}
		if called {
			t.Error("change was called with another business's record")
		}
		got, err := st.GetPractitioner(ctx(t), b.biz, b.pra1.ID)
		must(t, err)
		wantEqual(t, "b's practitioner", got, b.pra1)
		wantEvents(t, st, b.biz, b.loc1.ID, nil, nil)
	}},
	{"Archive sets archived_at and records it once; Unarchive clears it", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		stamp := at(hm(12, 0))
		got, err := st.ArchiveService(ctx(t), c.biz, c.svc.ID, true, stamp)
		must(t, err)
		want := c.svc
		want.ArchivedAt, want.UpdatedAt = &stamp, stamp
		wantEqual(t, "ArchiveService", got, want)
		again, err := st.ArchiveService(ctx(t), c.biz, c.svc.ID, true, at(hm(13, 0)))
		must(t, err)
		wantEqual(t, "ArchiveService of an archived service", again, want)
		listed, _, err := st.ListServices(ctx(t), c.biz, practiced.ServiceFilter{}, allOnPage)
		must(t, err)
		wantIDs(t, "ListServices", idsOf(listed), nil)
		back, err := st.ArchiveService(ctx(t), c.biz, c.svc.ID, false, at(hm(14, 0)))
		must(t, err)
		want.ArchivedAt, want.UpdatedAt = nil, at(hm(14, 0))
		wantEqual(t, "ArchiveService undone", back, want)
		wantEvents(t, st, c.biz, c.svc.ID, []string{"service.archived", "service.unarchived"}, want)
		// Archiving a service keeps it at its locations.
		loc, err := st.GetLocation(ctx(t), c.biz, c.loc1.ID)
		must(t, err)
		wantIDs(t, "service_ids", loc.ServiceIDs, []string{c.svc.ID})
	}},
	{"a create naming another business's record is EINVALID and writes nothing", func(t *testing.T, st practiced.Store) {
		a, b := newClinic(t, st), newClinic(t, st)
		bCli := newClient(b.biz, "Ben", "Baker")
		seed(t, st, b.biz, practiced.SeedData{Clients: []practiced.Client{bCli}})
		pra := newPractitioner(a.biz, "Mallory", a.loc1.ID, b.loc1.ID)
		wantCode(t, st.CreatePractitioner(ctx(t), a.biz, &pra), practiced.EINVALID)
		ser := newService(a.biz, "Stolen", 30, 0, 0, b.loc1.ID)
		wantCode(t, st.CreateService(ctx(t), a.biz, &ser), practiced.EINVALID)
		cas := practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: bCli.ID, Name: "x", Status: "open", CreatedAt: created, UpdatedAt: updated}
		wantCode(t, st.CreateCase(ctx(t), a.biz, &cas), practiced.EINVALID)
		cpk := practiced.ClientPackage{ID: tid.New(practiced.PrefixClientPackage), ClientID: bCli.ID, Name: "x", SessionsTotal: 1,
			CreatedAt: created, UpdatedAt: updated}
		wantCode(t, st.CreateClientPackage(ctx(t), a.biz, &cpk), practiced.EINVALID)
		_, err := st.UpdatePractitioner(ctx(t), a.biz, a.pra1.ID, func(p *practiced.Practitioner) error {
			p.ServiceIDs = []string{b.svc.ID}
			return nil
		})
		wantCode(t, err, practiced.EINVALID)

		missing, err := st.MissingRefs(ctx(t), a.biz, []string{pra.ID, ser.ID, cas.ID, cpk.ID})
		must(t, err)
		wantSameIDs(t, "records after the refused creates", missing, []string{pra.ID, ser.ID, cas.ID, cpk.ID})
		for _, id := range []string{pra.ID, ser.ID, cas.ID, cpk.ID, a.loc1.ID, a.pra1.ID} {
			wantEvents(t, st, a.biz, id, nil, nil)
		}
		got, err := st.GetPractitioner(ctx(t), a.biz, a.pra1.ID)
		must(t, err)
		wantEqual(t, "a's practitioner after the refused update", got, a.pra1)
	}},
	{"named records are kept by kind: the id's prefix chooses the kind", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		for _, tc := range []struct {
			prefix string
			want   []string
		}{
			{practiced.PrefixTag, []string{r.tag1.ID, r.tag2.ID}},
			{practiced.PrefixReferralType, []string{r.ret1.ID}},
			{practiced.PrefixCancellationReason, []string{r.cnr1.ID}},
			{practiced.PrefixBusyTimeType, []string{r.btt1.ID}},
		} {
			got, _, err := st.ListNamed(ctx(t), r.biz, tc.prefix, everything, allOnPage)
			must(t, err)
			wantIDs(t, "ListNamed "+tc.prefix, idsOf(got), tc.want)
		}
		// An id of the right shape in another kind's table is not found.
		forged := practiced.PrefixReferralType + "_" + r.tag1.ID[len(practiced.PrefixTag)+1:]
		_, err := st.GetNamed(ctx(t), r.biz, forged)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetNamed(ctx(t), r.biz, r.cli1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.ArchiveNamed(ctx(t), r.biz, r.loc1.ID, true, setupNow)
		wantCode(t, err, practiced.ENOTFOUND)
		bad := newNamed(r.biz, practiced.PrefixClient, "Not a named record")
		wantCode(t, st.CreateNamed(ctx(t), r.biz, &bad), practiced.EINVALID)
	}},
	{"practitioners and services filter by location, cases by client and status, packages by client", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		pras, _, err := st.ListPractitioners(ctx(t), r.biz, practiced.PractitionerFilter{ListFilter: everything, LocationID: r.loc2.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "practitioners at loc2", idsOf(pras), []string{r.pra1.ID})
		pras, _, err = st.ListPractitioners(ctx(t), r.biz, practiced.PractitionerFilter{LocationID: r.loc1.ID}, allOnPage)
		must(t, err)
		wantEqual(t, "practitioners at loc1", pras, []practiced.Practitioner{r.pra1, r.pra2})
		sers, _, err := st.ListServices(ctx(t), r.biz, practiced.ServiceFilter{ListFilter: everything, LocationID: r.loc1.ID}, allOnPage)
		must(t, err)
		wantEqual(t, "services at loc1", sers, []practiced.Service{r.ser1, r.ser2})
		sers, _, err = st.ListServices(ctx(t), r.biz, practiced.ServiceFilter{ListFilter: everything, LocationID: r.loc2.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "services at loc2", idsOf(sers), []string{r.ser1.ID})

		closed := practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: r.cli2.ID, Name: "Old", Status: practiced.CaseClosed,
			CreatedAt: created, UpdatedAt: updated}
		must(t, st.CreateCase(ctx(t), r.biz, &closed))
		for _, tc := range []struct {
			f    practiced.CaseFilter
			want []string
		}{
			{practiced.CaseFilter{}, []string{r.cas1.ID, closed.ID}},
			{practiced.CaseFilter{ClientID: r.cli1.ID}, []string{r.cas1.ID}},
			{practiced.CaseFilter{Status: practiced.CaseClosed}, []string{closed.ID}},
			{practiced.CaseFilter{ClientID: r.cli1.ID, Status: practiced.CaseClosed}, nil},
		} {
			got, _, err := st.ListCases(ctx(t), r.biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, fmt.Sprintf("ListCases %+v", tc.f), idsOf(got), tc.want)
		}
		pkgs, _, err := st.ListClientPackages(ctx(t), r.biz, practiced.ClientPackageFilter{ClientID: r.cli1.ID}, allOnPage)
		must(t, err)
		wantEqual(t, "packages of cli1", pkgs, []practiced.ClientPackage{r.cpk1})
		pkgs, _, err = st.ListClientPackages(ctx(t), r.biz, practiced.ClientPackageFilter{ClientID: r.cli2.ID}, allOnPage)
		must(t, err)
		wantIDs(t, "packages of cli2", idsOf(pkgs), nil)
	}},
	{"practitioners joining and leaving the same locations at once all succeed, and every location change is recorded", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		const workers = 8
		made := make([]practiced.Practitioner, workers)
		errs := gather(workers, func(i int) error {
			// Half list the locations one way round, half the other.
			locs := []string{c.loc1.ID, c.loc2.ID}
			if i%2 == 1 {
				locs = []string{c.loc2.ID, c.loc1.ID}
			}
			made[i] = newPractitioner(c.biz, fmt.Sprint("Worker ", i), locs...)
			if err := st.CreatePractitioner(ctx(t), c.biz, &made[i]); err != nil {
				return err
			}
			_, err := st.UpdatePractitioner(ctx(t), c.biz, made[i].ID, func(p *practiced.Practitioner) error {
				p.LocationIDs = locs[1:]
				return nil
			})
			return err
		})
		for i, err := range errs {
			if err != nil {
				t.Errorf("worker %d: %v", i, err)
			}
		}
		// Even workers end at loc2 only, odd ones at loc1 only.
		at1, at2 := []string{c.pra1.ID, c.pra2.ID}, []string{c.pra1.ID}
		for i, p := range made {
			if i%2 == 1 {
				at1 = append(at1, p.ID)
			} else {
				at2 = append(at2, p.ID)
			}
		}
		loc1, err := st.GetLocation(ctx(t), c.biz, c.loc1.ID)
		must(t, err)
		wantSameIDs(t, "practitioner_ids of loc1", loc1.PractitionerIDs, at1)
		loc2, err := st.GetLocation(ctx(t), c.biz, c.loc2.ID)
		must(t, err)
		wantSameIDs(t, "practitioner_ids of loc2", loc2.PractitionerIDs, at2)
		// Each worker's creation touched both locations; each update left one.
		if n := len(setupEvents(t, st, c.biz, c.loc1.ID)) + len(setupEvents(t, st, c.biz, c.loc2.ID)); n != 3*workers {
			t.Errorf("%d location events, want %d", n, 3*workers)
		}
	}},
}

// second returns the error of a (value, error) pair.
func second[T any](_ T, err error) error { return err }

// The area's lists join the pagination and filter rules every list must
// keep (lists.go).
func init() {
	listCases = append(listCases,
		listCase{
			name: "practitioners", prefix: practiced.PrefixPractitioner,
			seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
				var d practiced.SeedData
				for i, s := range specs {
					p := newPractitioner(biz, fmt.Sprint("Pat ", i))
					s.stamp(&p.UpdatedAt, &p.ArchivedAt)
					d.Practitioners = append(d.Practitioners, p)
				}
				seed(t, st, biz, d)
				return idsOf(d.Practitioners)
			},
			list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				v, info, err := st.ListPractitioners(ctx, biz, practiced.PractitionerFilter{ListFilter: f}, p)
				return idsOf(v), info, err
			},
		},
		listCase{
			name: "services", prefix: practiced.PrefixService,
			seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
				var d practiced.SeedData
				for i, s := range specs {
					v := newService(biz, fmt.Sprint("Service ", i), 30, 0, 0)
					s.stamp(&v.UpdatedAt, &v.ArchivedAt)
					d.Services = append(d.Services, v)
				}
				seed(t, st, biz, d)
				return idsOf(d.Services)
			},
			list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				v, info, err := st.ListServices(ctx, biz, practiced.ServiceFilter{ListFilter: f}, p)
				return idsOf(v), info, err
			},
		},
		listCase{
			name: "cases", prefix: practiced.PrefixCase,
			seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
				cli := newClient(biz, "Ann", "Archer")
				d := practiced.SeedData{Clients: []practiced.Client{cli}}
				for i, s := range specs {
					c := practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: cli.ID, Name: fmt.Sprint("Case ", i),
						Status: practiced.CaseOpen, CreatedAt: created}
					s.stamp(&c.UpdatedAt, &c.ArchivedAt)
					d.Cases = append(d.Cases, c)
				}
				seed(t, st, biz, d)
				return idsOf(d.Cases)
			},
			list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				v, info, err := st.ListCases(ctx, biz, practiced.CaseFilter{ListFilter: f}, p)
				return idsOf(v), info, err
			},
		},
		listCase{
			name: "client packages", prefix: practiced.PrefixClientPackage,
			seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
				cli := newClient(biz, "Ann", "Archer")
				d := practiced.SeedData{Clients: []practiced.Client{cli}}
				for i, s := range specs {
					c := practiced.ClientPackage{ID: tid.New(practiced.PrefixClientPackage), ClientID: cli.ID,
						Name: fmt.Sprint("Package ", i), SessionsTotal: 5, CreatedAt: created}
					s.stamp(&c.UpdatedAt, &c.ArchivedAt)
					d.ClientPackages = append(d.ClientPackages, c)
				}
				seed(t, st, biz, d)
				return idsOf(d.ClientPackages)
			},
			list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				v, info, err := st.ListClientPackages(ctx, biz, practiced.ClientPackageFilter{ListFilter: f}, p)
				return idsOf(v), info, err
			},
		},
	)
	for _, k := range practiced.NamedKinds {
		listCases = append(listCases, listCase{
			name: k.Plural, prefix: k.Prefix,
			seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
				var d practiced.SeedData
				var named []practiced.Named
				for i, s := range specs {
					n := newNamed(biz, k.Prefix, fmt.Sprint(k.Name, " ", i))
					s.stamp(&n.UpdatedAt, &n.ArchivedAt)
					named = append(named, n)
				}
				switch k.Prefix {
				case practiced.PrefixTag:
					d.Tags = named
				case practiced.PrefixReferralType:
					d.ReferralTypes = named
				case practiced.PrefixCancellationReason:
					d.CancellationReasons = named
				case practiced.PrefixBusyTimeType:
					d.BusyTimeTypes = named
				}
				seed(t, st, biz, d)
				return idsOf(named)
			},
			list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				v, info, err := st.ListNamed(ctx, biz, k.Prefix, f, p)
				return idsOf(v), info, err
			},
		})
	}
}
