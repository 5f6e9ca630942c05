package storetest

import (
	"fmt"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// sydney is a zone far from UTC, to show that filter times are instants.
var sydney = time.FixedZone("AEDT", 11*60*60)

func inSydney(t *time.Time) *time.Time { v := t.In(sydney); return &v }

var busyTimeFilterRules = []rule{
	{"PractitionerID and LocationID select their busy times", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		b1 := c.busy(hm(9, 0), hm(10, 0))
		b2 := newBusyTime(c.biz, c.loc2.ID, c.pra1.ID, hm(9, 0), hm(10, 0))
		b3 := newBusyTime(c.biz, c.loc1.ID, c.pra2.ID, hm(9, 0), hm(10, 0))
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{b1, b2, b3}})
		for _, tc := range []struct {
			f    practiced.BusyTimeFilter
			want []string
		}{
			{practiced.BusyTimeFilter{PractitionerID: c.pra1.ID}, []string{b1.ID, b2.ID}},
			{practiced.BusyTimeFilter{PractitionerID: c.pra2.ID}, []string{b3.ID}},
			{practiced.BusyTimeFilter{LocationID: c.loc1.ID}, []string{b1.ID, b3.ID}},
			{practiced.BusyTimeFilter{LocationID: c.loc2.ID}, []string{b2.ID}},
			{practiced.BusyTimeFilter{PractitionerID: c.pra1.ID, LocationID: c.loc1.ID}, []string{b1.ID}},
			{practiced.BusyTimeFilter{PractitionerID: c.pra2.ID, LocationID: c.loc2.ID}, nil},
			{practiced.BusyTimeFilter{PractitionerID: tid.New(practiced.PrefixPractitioner)}, nil},
		} {
			got, _, err := st.ListBusyTimes(ctx(t), c.biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, fmt.Sprintf("ListBusyTimes %+v", tc.f), idsOf(got), tc.want)
		}
	}},
	{"StartsBefore and EndsAfter select the busy times overlapping the window, touching ones left out", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		b8 := c.busy(hm(8, 0), hm(9, 0))
		b9 := c.busy(hm(9, 0), hm(10, 0))
		b10 := c.busy(hm(10, 0), hm(11, 0))
		b11 := c.busy(hm(11, 0), hm(12, 0))
		b12 := c.busy(hm(12, 0), hm(13, 0))
		long := newBusyTime(c.biz, c.loc2.ID, c.pra1.ID, hm(7, 0), hm(14, 0))
		tiny := c.busy(hm(10, 30), hm(10, 30)+time.Second)
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{b8, b9, b10, b11, b12, long, tiny}})
		nine, noon := timep(hm(9, 0)), timep(hm(12, 0))
		for _, tc := range []struct {
			name string
			f    practiced.BusyTimeFilter
			want []string
		}{
			{"window 09:00-12:00", practiced.BusyTimeFilter{EndsAfter: nine, StartsBefore: noon}, []string{b9.ID, b10.ID, b11.ID, long.ID, tiny.ID}},
			{"window in another zone", practiced.BusyTimeFilter{EndsAfter: inSydney(nine), StartsBefore: inSydney(noon)}, []string{b9.ID, b10.ID, b11.ID, long.ID, tiny.ID}},
			{"ending after 12:00", practiced.BusyTimeFilter{EndsAfter: noon}, []string{b12.ID, long.ID}},
			{"starting before 09:00", practiced.BusyTimeFilter{StartsBefore: nine}, []string{b8.ID, long.ID}},
			{"window 10:30:00-10:30:01", practiced.BusyTimeFilter{EndsAfter: timep(hm(10, 30)), StartsBefore: timep(hm(10, 30) + time.Second)},
				[]string{b10.ID, long.ID, tiny.ID}},
			{"empty window at 09:00", practiced.BusyTimeFilter{EndsAfter: nine, StartsBefore: nine}, []string{long.ID}},
		} {
			got, _, err := st.ListBusyTimes(ctx(t), c.biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, "ListBusyTimes "+tc.name, idsOf(got), tc.want)
		}
	}},
}

var formFilterRules = []rule{
	{"each filter selects exactly the forms with that value, and filters combine", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		locA, locB := newLocation(biz, "A"), newLocation(biz, "B")
		pra := newPractitioner(biz, "Pat", locA.ID)
		cliA, cliB := newClient(biz, "Ann", "A"), newClient(biz, "Ben", "B")
		fteA, fteB := newFormTemplate(biz, "A"), newFormTemplate(biz, "B")
		apt := newAppointment(biz, locA.ID, pra.ID, nil, hm(9, 0), hm(10, 0))
		apt.MaxClients = 2
		apcA := newAppointmentClient(biz, apt, cliA.ID, practiced.StatusBooked)
		apcB := newAppointmentClient(biz, apt, cliB.ID, practiced.StatusBooked)
		form := func(cli string, loc *string, fte string, apc *string, status, sent string) practiced.Form {
			f := newForm(biz, cli, fte)
			f.LocationID, f.AppointmentClientID, f.Status, f.SentStatus = loc, apc, status, sent
			return f
		}
		f1 := form(cliA.ID, &locA.ID, fteA.ID, &apcA.ID, practiced.FormNotStarted, practiced.SentNotSent)
		f2 := form(cliB.ID, &locB.ID, fteA.ID, nil, practiced.FormInProgress, practiced.SentSent)
		f3 := form(cliA.ID, nil, fteB.ID, nil, practiced.FormCompleted, practiced.SentViewed)
		f4 := form(cliB.ID, &locA.ID, fteB.ID, &apcB.ID, practiced.FormInProgress, practiced.SentNotSent)
		archived := form(cliA.ID, &locA.ID, fteA.ID, &apcA.ID, practiced.FormNotStarted, practiced.SentNotSent)
		archived.ArchivedAt = archivedAt()
		seed(t, st, biz, practiced.SeedData{Locations: []practiced.Location{locA, locB}, Practitioners: []practiced.Practitioner{pra},
			Clients: []practiced.Client{cliA, cliB}, FormTemplates: []practiced.FormTemplate{fteA, fteB},
			Appointments: []practiced.Appointment{apt}, AppointmentClients: []practiced.AppointmentClient{apcA, apcB},
			Forms: []practiced.Form{f1, f2, f3, f4, archived}})
		for _, tc := range []struct {
			name string
			f    practiced.FormFilter
			want []string
		}{
			{"none", practiced.FormFilter{}, []string{f1.ID, f2.ID, f3.ID, f4.ID}},
			{"Status not_started", practiced.FormFilter{Status: practiced.FormNotStarted}, []string{f1.ID}},
			{"Status in_progress", practiced.FormFilter{Status: practiced.FormInProgress}, []string{f2.ID, f4.ID}},
			{"Status completed", practiced.FormFilter{Status: practiced.FormCompleted}, []string{f3.ID}},
			{"ClientID", practiced.FormFilter{ClientID: cliA.ID}, []string{f1.ID, f3.ID}},
			{"AppointmentClientID", practiced.FormFilter{AppointmentClientID: apcB.ID}, []string{f4.ID}},
			{"LocationID", practiced.FormFilter{LocationID: locA.ID}, []string{f1.ID, f4.ID}},
			{"FormTemplateID", practiced.FormFilter{FormTemplateID: fteB.ID}, []string{f3.ID, f4.ID}},
			{"SentStatus not_sent", practiced.FormFilter{SentStatus: practiced.SentNotSent}, []string{f1.ID, f4.ID}},
			{"SentStatus viewed", practiced.FormFilter{SentStatus: practiced.SentViewed}, []string{f3.ID}},
			{"ClientID and FormTemplateID", practiced.FormFilter{ClientID: cliB.ID, FormTemplateID: fteA.ID}, []string{f2.ID}},
			{"Status and LocationID", practiced.FormFilter{Status: practiced.FormInProgress, LocationID: locB.ID}, []string{f2.ID}},
			{"Status and SentStatus matching none", practiced.FormFilter{Status: practiced.FormCompleted, SentStatus: practiced.SentSent}, nil},
			{"ClientID with archived", practiced.FormFilter{ClientID: cliA.ID, ListFilter: everything}, []string{f1.ID, f3.ID, archived.ID}},
		} {
			got, _, err := st.ListForms(ctx(t), biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, "ListForms "+tc.name, idsOf(got), tc.want)
		}
	}},
}

var appointmentClientFilterRules = []rule{
	{"AppointmentID, ClientID and Status select their appointment clients", func(t *testing.T, st practiced.Store) {
		f := newAppointmentClientFixture(t, st)
		for _, tc := range []struct {
			name string
			f    practiced.AppointmentClientFilter
			want []string
		}{
			{"none", practiced.AppointmentClientFilter{}, []string{f.a1.ID, f.a2.ID, f.a3.ID, f.a4.ID}},
			{"AppointmentID", practiced.AppointmentClientFilter{AppointmentID: f.apt10.ID}, []string{f.a1.ID, f.a2.ID}},
			{"ClientID", practiced.AppointmentClientFilter{ClientID: f.cliA}, []string{f.a1.ID, f.a3.ID}},
			{"Status booked", practiced.AppointmentClientFilter{Status: practiced.StatusBooked}, []string{f.a1.ID, f.a4.ID}},
			{"Status cancelled", practiced.AppointmentClientFilter{Status: practiced.StatusCancelled}, []string{f.a2.ID}},
			{"ClientID and Status", practiced.AppointmentClientFilter{ClientID: f.cliA, Status: practiced.StatusArrived}, []string{f.a3.ID}},
			{"AppointmentID and ClientID", practiced.AppointmentClientFilter{AppointmentID: f.apt11.ID, ClientID: f.cliB}, nil},
		} {
			got, _, err := st.ListAppointmentClients(ctx(t), f.biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, "ListAppointmentClients "+tc.name, idsOf(got), tc.want)
		}
	}},
	{"StartsAfter (inclusive) and StartsBefore (exclusive) select by the appointment's start", func(t *testing.T, st practiced.Store) {
		f := newAppointmentClientFixture(t, st)
		ten, eleven, noon := timep(hm(10, 0)), timep(hm(11, 0)), timep(hm(12, 0))
		for _, tc := range []struct {
			name string
			f    practiced.AppointmentClientFilter
			want []string
		}{
			{"StartsAfter 11:00", practiced.AppointmentClientFilter{StartsAfter: eleven}, []string{f.a3.ID, f.a4.ID}},
			{"StartsAfter 11:00:01", practiced.AppointmentClientFilter{StartsAfter: timep(hm(11, 0) + time.Second)}, []string{f.a4.ID}},
			{"StartsBefore 11:00", practiced.AppointmentClientFilter{StartsBefore: eleven}, []string{f.a1.ID, f.a2.ID}},
			{"StartsBefore 11:00:01", practiced.AppointmentClientFilter{StartsBefore: timep(hm(11, 0) + time.Second)}, []string{f.a1.ID, f.a2.ID, f.a3.ID}},
			{"10:00 to 12:00", practiced.AppointmentClientFilter{StartsAfter: ten, StartsBefore: noon}, []string{f.a1.ID, f.a2.ID, f.a3.ID}},
			{"10:00 to 12:00 in another zone", practiced.AppointmentClientFilter{StartsAfter: inSydney(ten), StartsBefore: inSydney(noon)},
				[]string{f.a1.ID, f.a2.ID, f.a3.ID}},
			{"11:00 to 11:00", practiced.AppointmentClientFilter{StartsAfter: eleven, StartsBefore: eleven}, nil},
			{"ClientID from 10:30", practiced.AppointmentClientFilter{ClientID: f.cliB, StartsAfter: timep(hm(10, 30))}, []string{f.a4.ID}},
		} {
			got, _, err := st.ListAppointmentClients(ctx(t), f.biz, tc.f, allOnPage)
			must(t, err)
			wantIDs(t, "ListAppointmentClients "+tc.name, idsOf(got), tc.want)
		}
	}},
	{"pages of a filtered list of attendees know exactly what lies beyond their cursor", func(t *testing.T, st practiced.Store) {
		f := newAppointmentClientFixture(t, st)
		for _, tc := range []struct {
			name string
			f    practiced.AppointmentClientFilter
			want []string
		}{
			// The appointments' starts join their attendees.
			{"10:00 to 12:00", practiced.AppointmentClientFilter{StartsAfter: timep(hm(10, 0)), StartsBefore: timep(hm(12, 0))},
				[]string{f.a1.ID, f.a2.ID, f.a3.ID}},
			{"from 10:00", practiced.AppointmentClientFilter{StartsAfter: timep(hm(10, 0))}, []string{f.a1.ID, f.a2.ID, f.a3.ID, f.a4.ID}},
			{"none", practiced.AppointmentClientFilter{}, []string{f.a1.ID, f.a2.ID, f.a3.ID, f.a4.ID}},
		} {
			walkPages(t, "ListAppointmentClients "+tc.name, func(p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
				got, info, err := st.ListAppointmentClients(ctx(t), f.biz, tc.f, p)
				return idsOf(got), info, err
			}, tc.want)
		}
	}},
}

// appointmentClientFixture: appointments at 10:00, 11:00 and 12:00 (the
// last cancelled, whose attendees are still listed); a1 and a2 at 10:00
// (a2 cancelled), a3 at 11:00 (arrived), a4 at 12:00.
type appointmentClientFixture struct {
	biz                 string
	cliA, cliB          string
	apt10, apt11, apt12 practiced.Appointment
	a1, a2, a3, a4      practiced.AppointmentClient
}

func newAppointmentClientFixture(t *testing.T, st practiced.Store) *appointmentClientFixture {
	c := newClinic(t, st)
	cliA, cliB := newClient(c.biz, "Ann", "A"), newClient(c.biz, "Ben", "B")
	f := &appointmentClientFixture{biz: c.biz, cliA: cliA.ID, cliB: cliB.ID}
	f.apt10 = newAppointment(c.biz, c.loc1.ID, c.pra1.ID, nil, hm(10, 0), hm(10, 30))
	f.apt10.MaxClients = 2
	f.apt11 = newAppointment(c.biz, c.loc1.ID, c.pra1.ID, nil, hm(11, 0), hm(11, 30))
	f.apt12 = newAppointment(c.biz, c.loc2.ID, c.pra2.ID, nil, hm(12, 0), hm(12, 30))
	f.apt12.CancelledAt = atp(-time.Hour)
	f.a1 = newAppointmentClient(c.biz, f.apt10, cliA.ID, practiced.StatusBooked)
	f.a2 = newAppointmentClient(c.biz, f.apt10, cliB.ID, practiced.StatusCancelled)
	f.a3 = newAppointmentClient(c.biz, f.apt11, cliA.ID, practiced.StatusArrived)
	f.a4 = newAppointmentClient(c.biz, f.apt12, cliB.ID, practiced.StatusBooked)
	seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cliA, cliB},
		Appointments:       []practiced.Appointment{f.apt10, f.apt11, f.apt12},
		AppointmentClients: []practiced.AppointmentClient{f.a1, f.a2, f.a3, f.a4}})
	return f
}

// personFixture holds clients and contacts whose names, e-mails and
// phone numbers the Query filter can tell apart.
type personFixture struct {
	biz                                    string
	ann, ben, elodie, obrien, oxbrien, eve string // clients
	annArchived                            string
	fay, gil                               string // contacts
	tagA, tagB                             string
}

func newPersonFixture(t *testing.T, st practiced.Store) *personFixture {
	biz := newBusiness(t, st)
	f := &personFixture{biz: biz, tagA: tid.New(practiced.PrefixTag), tagB: tid.New(practiced.PrefixTag)}
	tagA := practiced.Named{ID: f.tagA, Name: "A", CreatedAt: created, UpdatedAt: updated}
	tagB := practiced.Named{ID: f.tagB, Name: "B", CreatedAt: created, UpdatedAt: updated}

	ann := newClient(biz, "Ann", "Archer")
	ann.PreferredName, ann.Email, ann.PhoneNumber = "Annie", "ann.archer@example.com", "0299998888"
	ann.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Code: "61", Number: "412345678", Type: "mobile"}}
	ann.TagIDs = []string{f.tagA}
	ben := newClient(biz, "Ben", "Baker")
	ben.PreferredName, ben.Email = "Benny", "ben@baker.org"
	ben.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Number: "0755554444", Type: "home"}}
	ben.TagIDs = []string{f.tagB, f.tagA}
	elodie := newClient(biz, "Élodie", "Durand")
	elodie.Email = "elodie@example.fr"
	elodie.TagIDs = []string{f.tagA + "x"} // an id the tag id is a prefix of
	obrien := newClient(biz, "Cat", "O_Brien")
	obrien.Email = "cat100%@example.com"
	oxbrien := newClient(biz, "Dan", "OxBrien")
	oxbrien.Email = "dan@example.com"
	oxbrien.Notes = "Prefers Ann's slot" // notes are not searched
	oxbrien.Profession = "Annotator"
	eve := newClient(biz, "Eve", `Back\slash`)
	eve.Email = "eve@example.net"
	annArchived := newClient(biz, "Ann", "Zed")
	annArchived.TagIDs = []string{f.tagA}
	annArchived.ArchivedAt = archivedAt()

	fay := newContact(biz, "Fay", "Fox")
	fay.PreferredName, fay.Email = "Foxy", "fay@fox.com"
	fay.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Code: "61", Number: "398765432", Type: "work"}}
	fay.TagIDs = []string{f.tagB}
	gil := newContact(biz, "Gil", "Gray")
	gil.Email = "g_gray@example.com"
	gil.Notes = "Fay's colleague"

	seed(t, st, biz, practiced.SeedData{Tags: []practiced.Named{tagA, tagB}, Contacts: []practiced.Contact{fay, gil},
		Clients: []practiced.Client{ann, ben, elodie, obrien, oxbrien, eve, annArchived}})
	f.ann, f.ben, f.elodie, f.obrien, f.oxbrien, f.eve, f.annArchived = ann.ID, ben.ID, elodie.ID, obrien.ID, oxbrien.ID, eve.ID, annArchived.ID
	f.fay, f.gil = fay.ID, gil.ID
	return f
}

func (f *personFixture) clients(t *testing.T, st practiced.Store, pf practiced.PersonFilter) []string {
	t.Helper()
	got, _, err := st.ListClients(ctx(t), f.biz, pf, allOnPage)
	must(t, err)
	return idsOf(got)
}

func (f *personFixture) contacts(t *testing.T, st practiced.Store, pf practiced.PersonFilter) []string {
	t.Helper()
	got, _, err := st.ListContacts(ctx(t), f.biz, pf, allOnPage)
	must(t, err)
	return idsOf(got)
}

var personFilterRules = []rule{
	{"Query matches first, last and preferred name, e-mail and phone numbers, ignoring case", func(t *testing.T, st practiced.Store) {
		f := newPersonFixture(t, st)
		for _, tc := range []struct {
			q, field          string
			clients, contacts []string
		}{
			{"ann", "first name", []string{f.ann}, nil},
			{"ARCHER", "last name", []string{f.ann}, nil},
			{"AnNiE", "preferred name", []string{f.ann}, nil},
			{"benny", "preferred name", []string{f.ben}, nil},
			{"baker.org", "e-mail", []string{f.ben}, nil},
			{"@example.com", "e-mail", []string{f.ann, f.obrien, f.oxbrien}, []string{f.gil}},
			{"99998888", "phone_number", []string{f.ann}, nil},
			{"412345", "phone number", []string{f.ann}, nil},
			{"61412345678", "phone number with its code", []string{f.ann}, nil},
			{"5555", "phone number", []string{f.ben}, nil},
			{"élodie", "first name, not ASCII", []string{f.elodie}, nil},
			{"ÉLOD", "first name, not ASCII, upper case", []string{f.elodie}, nil},
			{"durand", "last name", []string{f.elodie}, nil},
			{"FOX", "contact's last name", nil, []string{f.fay}},
			{"foxy", "contact's preferred name", nil, []string{f.fay}},
			{"fay", "contact's first name", nil, []string{f.fay}},
			{"398765", "contact's phone number", nil, []string{f.fay}},
			{"61398765432", "contact's phone number with its code", nil, []string{f.fay}},
			{"zzz", "nothing", nil, nil},
		} {
			pf := practiced.PersonFilter{Query: tc.q}
			wantIDs(t, fmt.Sprintf("ListClients Query %q (%s)", tc.q, tc.field), f.clients(t, st, pf), tc.clients)
			wantIDs(t, fmt.Sprintf("ListContacts Query %q (%s)", tc.q, tc.field), f.contacts(t, st, pf), tc.contacts)
		}
	}},
	{"Query takes %, _ and backslash literally", func(t *testing.T, st practiced.Store) {
		f := newPersonFixture(t, st)
		for _, tc := range []struct {
			q                 string
			clients, contacts []string
		}{
			{"%", []string{f.obrien}, nil},
			{"100%@", []string{f.obrien}, nil},
			{"_", []string{f.obrien}, []string{f.gil}},
			{"o_b", []string{f.obrien}, nil},
			{"g_g", nil, []string{f.gil}},
			{`\`, []string{f.eve}, nil},
			{`k\s`, []string{f.eve}, nil},
			{`\%`, nil, nil},
		} {
			pf := practiced.PersonFilter{Query: tc.q}
			wantIDs(t, fmt.Sprintf("ListClients Query %q", tc.q), f.clients(t, st, pf), tc.clients)
			wantIDs(t, fmt.Sprintf("ListContacts Query %q", tc.q), f.contacts(t, st, pf), tc.contacts)
		}
	}},
	{"Query does not match notes or other fields", func(t *testing.T, st practiced.Store) {
		f := newPersonFixture(t, st)
		for _, q := range []string{"prefers", "annotator", "colleague"} {
			pf := practiced.PersonFilter{Query: q}
			wantIDs(t, fmt.Sprintf("ListClients Query %q", q), f.clients(t, st, pf), nil)
			wantIDs(t, fmt.Sprintf("ListContacts Query %q", q), f.contacts(t, st, pf), nil)
		}
	}},
	{"TagID matches the exact tag id", func(t *testing.T, st practiced.Store) {
		f := newPersonFixture(t, st)
		wantIDs(t, "ListClients TagID a", f.clients(t, st, practiced.PersonFilter{TagID: f.tagA}), []string{f.ann, f.ben})
		wantIDs(t, "ListClients TagID b", f.clients(t, st, practiced.PersonFilter{TagID: f.tagB}), []string{f.ben})
		wantIDs(t, "ListContacts TagID b", f.contacts(t, st, practiced.PersonFilter{TagID: f.tagB}), []string{f.fay})
		wantIDs(t, "ListClients TagID of a part", f.clients(t, st, practiced.PersonFilter{TagID: f.tagA[:10]}), nil)
		wantIDs(t, "ListClients TagID unknown", f.clients(t, st, practiced.PersonFilter{TagID: tid.New(practiced.PrefixTag)}), nil)
	}},
	{"Query, TagID and the archived filter combine", func(t *testing.T, st practiced.Store) {
		f := newPersonFixture(t, st)
		wantIDs(t, "Query ann", f.clients(t, st, practiced.PersonFilter{Query: "ann"}), []string{f.ann})
		wantIDs(t, "Query ann with archived", f.clients(t, st, practiced.PersonFilter{Query: "ann", ListFilter: everything}),
			[]string{f.ann, f.annArchived})
		wantIDs(t, "Query a, TagID a", f.clients(t, st, practiced.PersonFilter{Query: "a", TagID: f.tagA}), []string{f.ann, f.ben})
		wantIDs(t, "Query baker, TagID a", f.clients(t, st, practiced.PersonFilter{Query: "baker", TagID: f.tagA}), []string{f.ben})
		wantIDs(t, "Query zed, TagID a with archived", f.clients(t, st, practiced.PersonFilter{Query: "zed", TagID: f.tagA, ListFilter: everything}),
			[]string{f.annArchived})
	}},
	{"Query follows UpdateClient", func(t *testing.T, st practiced.Store) {
		f := newPersonFixture(t, st)
		_, err := st.UpdateClient(ctx(t), f.biz, f.ben, func(c *practiced.Client) error {
			c.LastName = "Quartermaine"
			c.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Number: "0811112222", Type: "mobile"}}
			c.TagIDs = []string{f.tagB}
			return nil
		})
		must(t, err)
		wantIDs(t, "Query quartermaine", f.clients(t, st, practiced.PersonFilter{Query: "quartermaine"}), []string{f.ben})
		wantIDs(t, "Query 11112222", f.clients(t, st, practiced.PersonFilter{Query: "11112222"}), []string{f.ben})
		wantIDs(t, "Query baker", f.clients(t, st, practiced.PersonFilter{Query: "baker"}), []string{f.ben}) // still the e-mail
		wantIDs(t, "Query 5555", f.clients(t, st, practiced.PersonFilter{Query: "5555"}), nil)
		wantIDs(t, "TagID a", f.clients(t, st, practiced.PersonFilter{TagID: f.tagA}), []string{f.ann})
	}},
}

// walkPages pages through a filtered list a record at a time: after each
// record, from it, before it and up to it. Each page must hold the record
// the filter puts there (none past either end) and tell exactly whether
// the list goes on before and after it: the pages that hold a record
// learn the other side of their cursor in their own query, the empty ones
// on their own.
func walkPages(t *testing.T, what string, list func(practiced.PageRequest) ([]string, practiced.PageInfo, error), want []string) {
	t.Helper()
	n := len(want)
	if n < 3 {
		t.Fatalf("%s: %d records; a walk needs at least 3", what, n)
	}
	check := func(p practiced.PageRequest, page []string, hasPrev, hasNext bool) {
		t.Helper()
		wantPageOf(t, what, list, p, page, hasPrev, hasNext)
	}
	for i, id := range want {
		var next, prev []string
		if i+1 < n {
			next = want[i+1 : i+2]
		}
		if i > 0 {
			prev = want[i-1 : i]
		}
		check(practiced.PageRequest{Limit: 1, After: id}, next, true, i+2 < n)
		check(practiced.PageRequest{Limit: 1, After: id, Inclusive: true}, want[i:i+1], i > 0, i+1 < n)
		check(practiced.PageRequest{Limit: 1, Before: id}, prev, i > 1, true)
		check(practiced.PageRequest{Limit: 1, Before: id, Inclusive: true}, want[i:i+1], i > 0, i+1 < n)
	}
}
