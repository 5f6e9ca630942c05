package storetest

import (
	"crypto/rand"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// t0 is the suite's reference instant, Monday 2 March 2026 00:00 UTC;
// appointments and busy times are placed relative to it.
var t0 = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

// created and updated are the timestamps seeded records carry unless a
// test says otherwise. Both lie in the past, so that an update moves
// updated_at forward.
var (
	created = practiced.NewTime(time.Date(2025, 1, 10, 8, 0, 0, 0, time.UTC))
	updated = practiced.NewTime(time.Date(2025, 6, 1, 12, 30, 0, 0, time.UTC))
)

// at returns t0 + d; hm makes d from hours and minutes.
func at(d time.Duration) practiced.Time   { return practiced.NewTime(t0.Add(d)) }
func atp(d time.Duration) *practiced.Time { v := at(d); return &v }
func hm(h, m int) time.Duration           { return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute }
func timep(d time.Duration) *time.Time    { v := t0.Add(d); return &v }
func ptr[T any](v T) *T                   { return &v }
func archivedAt() *practiced.Time {
	return ptr(practiced.NewTime(time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)))
}

// idsOf returns the ID field of each record, in order. Every kind of
// record has one, so one helper serves them all.
func idsOf[T any](recs []T) []string {
	out := make([]string, len(recs))
	for i := range recs {
		out[i] = reflect.ValueOf(recs[i]).FieldByName("ID").String()
	}
	return out
}

// eventTypes returns the type of each event, in order.
func eventTypes(evs []practiced.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// newBusiness creates a business with a name of its own.
func newBusiness(t *testing.T, st practiced.Store) string {
	t.Helper()
	b, err := st.CreateBusiness(ctx(t), "Clinic "+tid.New(practiced.PrefixBusiness))
	must(t, err)
	return b.ID
}

// seed stores d in the business or fails the test.
func seed(t *testing.T, st practiced.Store, biz string, d practiced.SeedData) {
	t.Helper()
	if err := st.Seed(ctx(t), biz, d); err != nil {
		t.Fatalf("Seed: %v", err)
	}
}

// The builders below make minimal valid records: every list empty but not
// nil, as the store reads them back.

func newLocation(biz, name string) practiced.Location {
	return practiced.Location{ID: tid.New(practiced.PrefixLocation), BusinessID: biz, Name: name, Timezone: "Australia/Sydney",
		ServiceIDs: []string{}, PractitionerIDs: []string{}, CreatedAt: created, UpdatedAt: updated}
}

func newPractitioner(biz, first string, locationIDs ...string) practiced.Practitioner {
	return practiced.Practitioner{ID: tid.New(practiced.PrefixPractitioner), FirstName: first, LastName: "Smith",
		LocationIDs: append([]string{}, locationIDs...), ServiceIDs: []string{},
		WorkingHours: []practiced.WorkingHours{}, Exceptions: []practiced.AvailabilityException{}, CreatedAt: created, UpdatedAt: updated}
}

func newService(biz, name string, duration, bufferBefore, bufferAfter int, locationIDs ...string) practiced.Service {
	return practiced.Service{ID: tid.New(practiced.PrefixService), Name: name, Duration: duration,
		BufferBefore: bufferBefore, BufferAfter: bufferAfter, MaxClients: 1, BookingHorizonDays: 90,
		LocationIDs: append([]string{}, locationIDs...), CreatedAt: created, UpdatedAt: updated}
}

func newClient(biz, first, last string) practiced.Client {
	return practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: first, LastName: last,
		Medications: []practiced.Medication{}, Allergies: []practiced.Allergy{}, Intolerances: []string{},
		PhoneNumbers: []practiced.PhoneNumber{}, TagIDs: []string{}, RelatedClients: []practiced.RelatedClient{},
		LinkedContacts: []practiced.LinkedContact{}, CreatedAt: created, UpdatedAt: updated}
}

func newContact(biz, first, last string) practiced.Contact {
	return practiced.Contact{ID: tid.New(practiced.PrefixContact), Type: "other", FirstName: first, LastName: last,
		PhoneNumbers: []practiced.PhoneNumber{}, TagIDs: []string{}, CreatedAt: created, UpdatedAt: updated}
}

func newNamed(biz, prefix, name string) practiced.Named {
	return practiced.Named{ID: tid.New(prefix), Name: name, CreatedAt: created, UpdatedAt: updated}
}

// newBusyTime blocks [t0+from, t0+to).
func newBusyTime(biz, locationID, practitionerID string, from, to time.Duration) practiced.BusyTime {
	return practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: locationID, PractitionerID: practitionerID,
		StartsAt: at(from), EndsAt: at(to), Duration: int((to - from) / time.Minute), ResourceIDs: []string{},
		CreatedAt: created, UpdatedAt: updated}
}

// newAppointment books [t0+from, t0+to).
func newAppointment(biz, locationID, practitionerID string, serviceID *string, from, to time.Duration) practiced.Appointment {
	return practiced.Appointment{ID: tid.New(practiced.PrefixAppointment), LocationID: locationID,
		PractitionerID: practitionerID, ServiceID: serviceID, StartsAt: at(from), EndsAt: at(to),
		Duration: int((to - from) / time.Minute), MaxClients: 1, CreatedAt: created, UpdatedAt: updated}
}

// newAppointmentClient seats a client at an appointment, with the times
// the store reads back from the appointment.
func newAppointmentClient(biz string, apt practiced.Appointment, clientID, status string) practiced.AppointmentClient {
	ac := practiced.AppointmentClient{ID: tid.New(practiced.PrefixAppointmentClient), AppointmentID: apt.ID,
		ClientID: clientID, Status: status, StartsAt: apt.StartsAt, EndsAt: apt.EndsAt, CreatedAt: created, UpdatedAt: updated}
	if status == practiced.StatusCancelled {
		ac.CancelledAt = atp(-24 * time.Hour)
		ac.CancellationNote = "Unwell"
	}
	return ac
}

func newFormTemplate(biz, name string) practiced.FormTemplate {
	return practiced.FormTemplate{ID: tid.New(practiced.PrefixFormTemplate), Name: name,
		Content: []practiced.Page{{Sections: []practiced.Section{{Title: "About you", Questions: []practiced.Question{
			{ID: "email", Type: "short_text", Label: "E-mail", Required: true, Options: []string{}},
		}}}}}, CreatedAt: created, UpdatedAt: updated}
}

func newForm(biz, clientID, templateID string) practiced.Form {
	return practiced.Form{ID: tid.New(practiced.PrefixForm), BusinessID: biz, ClientID: clientID, FormTemplateID: templateID,
		Name: "Intake", Status: practiced.FormNotStarted, SentStatus: practiced.SentNotSent, Content: []practiced.Page{},
		CreatedAt: created, UpdatedAt: updated}
}

// clinic is a business with two locations, two practitioners (the first
// at both locations, the second at the first) and a service with buffers.
type clinic struct {
	biz        string
	loc1, loc2 practiced.Location
	pra1, pra2 practiced.Practitioner
	svc        practiced.Service
}

func newClinic(t *testing.T, st practiced.Store) *clinic {
	t.Helper()
	c := &clinic{biz: newBusiness(t, st)}
	c.loc1 = newLocation(c.biz, "North")
	c.loc2 = newLocation(c.biz, "South")
	c.svc = newService(c.biz, "Consultation", 30, 5, 10, c.loc1.ID, c.loc2.ID)
	c.pra1 = newPractitioner(c.biz, "Alice", c.loc1.ID, c.loc2.ID)
	c.pra2 = newPractitioner(c.biz, "Bob", c.loc1.ID)
	seed(t, st, c.biz, practiced.SeedData{
		Locations:     []practiced.Location{c.loc1, c.loc2},
		Services:      []practiced.Service{c.svc},
		Practitioners: []practiced.Practitioner{c.pra1, c.pra2},
	})
	return c
}

// busy returns a busy time of the clinic's first practitioner at its
// first location.
func (c *clinic) busy(from, to time.Duration) practiced.BusyTime {
	return newBusyTime(c.biz, c.loc1.ID, c.pra1.ID, from, to)
}

// rich is one record of every kind with every field set, and a second,
// minimal and archived one of most kinds, as the store must read them
// back. Ids are made in order, so each kind's ids sort as listed.
type rich struct {
	biz              string
	loc1, loc2       practiced.Location
	ser1, ser2       practiced.Service
	pra1, pra2, pra3 practiced.Practitioner
	tag1, tag2       practiced.Named
	ret1, cnr1, btt1 practiced.Named
	con1, con2       practiced.Contact
	cli1, cli2       practiced.Client
	cas1             practiced.Case
	cpk1             practiced.ClientPackage
	apt1, apt2       practiced.Appointment
	apc1, apc2       practiced.AppointmentClient
	fte1             practiced.FormTemplate
	for1, for2       practiced.Form
	bti1, bti2       practiced.BusyTime
	msg1             practiced.Message // the e-mail of for1's link
}

func newRich(t *testing.T, st practiced.Store) *rich {
	t.Helper()
	biz := newBusiness(t, st)
	r := &rich{biz: biz}
	r.loc1 = practiced.Location{ID: tid.New(practiced.PrefixLocation), BusinessID: biz, Name: "Sydney CBD",
		Description: "Level 3, above the pharmacy", Email: "sydney@example.com", Phone: "0290001111", Timezone: "Australia/Sydney",
		OnlineAppointmentBooking: true, OnlineClassBooking: true, OnlineBookingsPerEmailPerDay: 7, TaxIdentifier: "51 824 753 556", TaxIdentifierLabel: "ABN",
		NDISNumber: "4050000000", LogoID: ptr(tid.New(practiced.PrefixMedia)), ImageID: ptr(tid.New(practiced.PrefixMedia)),
		Address: practiced.Address{Line1: "1 George St", Line2: ptr("Level 3"), City: "Sydney", State: "NSW", PostalCode: "2000",
			CountryCode: "AU", Latitude: ptr(-33.8688), Longitude: ptr(151.2093), FormattedAddress: "1 George St, Sydney NSW 2000",
			PlaceID: "ChIJP3Sa8ziYEmsRUKgyFmh9AQM"},
		CreatedAt: created, UpdatedAt: updated}
	for wd := time.Monday; wd <= time.Friday; wd++ {
		r.loc1.OpeningHours.Days[wd] = practiced.DayHours{Active: true, OpensAt: "09:00", ClosesAt: "17:30"}
	}
	r.loc1.OpeningHours.Days[time.Saturday] = practiced.DayHours{Active: true, OpensAt: "10:00", ClosesAt: "14:00"}
	r.loc2 = newLocation(biz, "Adelaide (closed)")
	r.loc2.Timezone = "Australia/Adelaide"
	r.loc2.ArchivedAt = archivedAt()

	r.ser1 = practiced.Service{ID: tid.New(practiced.PrefixService), Name: "Initial consultation",
		Description: "First visit", Duration: 45, PriceCents: 12050, BufferBefore: 5, BufferAfter: 15, MaxClients: 1,
		MinNotice: 120, BookingHorizonDays: 60, OnlineBooking: true, LocationIDs: []string{r.loc1.ID, r.loc2.ID}, Color: "#00ff00",
		CreatedAt: created, UpdatedAt: updated}
	r.ser2 = newService(biz, "Pilates class", 60, 0, 0, r.loc1.ID)
	r.ser2.MaxClients = 6
	r.ser2.ArchivedAt = archivedAt()

	r.pra1 = practiced.Practitioner{ID: tid.New(practiced.PrefixPractitioner), Title: "Dr", FirstName: "Alice",
		LastName: "Nguyen", DisplayName: "Dr Alice", Designation: "Physiotherapist", Email: "alice@example.com", Phone: "0411111111",
		LocationIDs: []string{r.loc1.ID, r.loc2.ID}, ServiceIDs: []string{r.ser1.ID, r.ser2.ID},
		WorkingHours: []practiced.WorkingHours{
			{LocationID: r.loc1.ID, Day: "monday", StartsAt: "09:00", EndsAt: "12:00"},
			{LocationID: r.loc1.ID, Day: "monday", StartsAt: "13:00", EndsAt: "17:00"},
		},
		Exceptions: []practiced.AvailabilityException{
			{Date: "2026-03-09", LocationID: ptr(r.loc1.ID), Ranges: []practiced.TimeRange{{StartsAt: "10:00", EndsAt: "11:00"}}},
			{Date: "2026-03-10", Ranges: []practiced.TimeRange{}},
		},
		CreatedAt: created, UpdatedAt: updated}
	r.pra2 = newPractitioner(biz, "Bob", r.loc1.ID)
	r.pra2.ServiceIDs = []string{r.ser1.ID}
	r.pra3 = newPractitioner(biz, "Carol")
	r.pra3.ArchivedAt = archivedAt()
	r.loc1.PractitionerIDs = []string{r.pra1.ID, r.pra2.ID}
	r.loc1.ServiceIDs = []string{r.ser1.ID, r.ser2.ID}
	r.loc2.PractitionerIDs = []string{r.pra1.ID}
	r.loc2.ServiceIDs = []string{r.ser1.ID}

	r.tag1 = newNamed(biz, practiced.PrefixTag, "VIP")
	r.tag1.Color = "#ff0000"
	r.tag2 = newNamed(biz, practiced.PrefixTag, "Old")
	r.tag2.ArchivedAt = archivedAt()
	r.ret1 = newNamed(biz, practiced.PrefixReferralType, "GP referral")
	r.cnr1 = newNamed(biz, practiced.PrefixCancellationReason, "Illness")
	r.btt1 = newNamed(biz, practiced.PrefixBusyTimeType, "Meeting")
	r.btt1.Color = "#0000ff"

	r.con1 = practiced.Contact{ID: tid.New(practiced.PrefixContact), Type: "emergency", Title: "Ms",
		FirstName: "Eve", LastName: "Ng", PreferredName: "Evie", Profession: "Nurse", Company: "St Vincent's", Email: "eve@example.com",
		Notes: "Call after 5pm", PhoneNumbers: []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Code: "61",
			Number: "422222222", Type: "mobile"}, {ID: tid.New(practiced.PrefixPhoneNumber), Number: "0298765432", Type: "work"}},
		Address: practiced.Address{Line1: "2 Pitt St", City: "Sydney", State: "NSW", PostalCode: "2000", CountryCode: "AU"},
		TagIDs:  []string{r.tag1.ID}, CreatedAt: created, UpdatedAt: updated}
	r.con2 = newContact(biz, "", "")
	r.con2.Type = "third_party_payer"
	r.con2.Company = "Medibank"
	r.con2.ArchivedAt = archivedAt()

	r.cli1 = practiced.Client{ID: tid.New(practiced.PrefixClient), Title: "Mx", FirstName: "Ann", LastName: "Archer",
		PreferredName: "Annie", Profession: "Engineer", Email: "ann@example.com", DateOfBirth: ptr("1990-04-05"), Sex: "female",
		GenderIdentity: "woman", Pronouns: "she/her", PrivacyPolicyConsent: ptr("accepted"), MarketingConsent: ptr("declined"),
		ConsentMethod: ptr("in_person"), Medications: []practiced.Medication{{Name: "Ibuprofen", Dosage: "200mg"}},
		Allergies: []practiced.Allergy{{Name: "Peanuts", Reaction: "Anaphylaxis"}}, Intolerances: []string{"lactose", "gluten"},
		EmergencyContactID: ptr(r.con1.ID), EmergencyContactRelationship: "sister", InvoiceContactID: ptr(r.con2.ID),
		Notes: "Prefers mornings.", Alert: "Latex allergy", ReferralTypeID: ptr(r.ret1.ID), ReferralDescription: "From Dr Who",
		ReferredByID: ptr(r.con1.ID), PhoneNumber: "0412345678",
		PhoneNumbers: []practiced.PhoneNumber{{ID: tid.New(practiced.PrefixPhoneNumber), Code: "61", Number: "412345678", Type: "mobile"}},
		Address: practiced.Address{Line1: "3 King St", Line2: ptr("Unit 4"), City: "Newtown", State: "NSW", PostalCode: "2042",
			CountryCode: "AU", Latitude: ptr(-33.8981), Longitude: ptr(151.1749), FormattedAddress: "3 King St, Newtown", PlaceID: "place-1"},
		TagIDs: []string{r.tag1.ID, r.tag2.ID},
		NDISDetails: &practiced.NDISDetails{NDISNumber: "430000000", PlanStartDate: atp(-30 * 24 * time.Hour),
			PlanEndDate: atp(335 * 24 * time.Hour), PlanManagerID: ptr(r.con1.ID), Diagnoses: []string{"ASD", "ADHD"}},
		LinkedContacts: []practiced.LinkedContact{{ContactID: r.con1.ID, IncludeInAppointmentNotifications: true,
			IncludeInProgressNoteNotifications: true, Note: "Mum"}},
		CreatedAt: created, UpdatedAt: updated}
	r.cli2 = newClient(biz, "Ben", "Baker")
	r.cli2.ArchivedAt = archivedAt()
	r.cli1.RelatedClients = []practiced.RelatedClient{{RelatedClientID: r.cli2.ID}}

	r.cas1 = practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: r.cli1.ID, Name: "Left knee",
		Status: "open", Notes: "Work cover", CreatedAt: created, UpdatedAt: updated}
	r.cpk1 = practiced.ClientPackage{ID: tid.New(practiced.PrefixClientPackage), ClientID: r.cli1.ID,
		Name: "Five sessions", SessionsTotal: 5, SessionsUsed: 2, ExpiresOn: ptr("2026-12-31"), CreatedAt: created, UpdatedAt: updated}

	r.apt1 = newAppointment(biz, r.loc1.ID, r.pra1.ID, ptr(r.ser1.ID), hm(10, 0), hm(10, 45))
	r.apt1.Notes = "First visit"
	r.apt2 = newAppointment(biz, r.loc2.ID, r.pra2.ID, nil, hm(11, 0), hm(12, 0))
	r.apt2.MaxClients = 3
	r.apt2.CancelledAt = atp(-24 * time.Hour)

	r.apc1 = practiced.AppointmentClient{ID: tid.New(practiced.PrefixAppointmentClient), AppointmentID: r.apt1.ID,
		ClientID: r.cli1.ID, CaseID: ptr(r.cas1.ID), ClientPackageID: ptr(r.cpk1.ID), Status: practiced.StatusArrived,
		DoNotInvoice: true, Note: "Bring scans", Confirmed: true, ConfirmedAt: atp(-48 * time.Hour), ArrivedAt: atp(hm(9, 55)),
		StartsAt: r.apt1.StartsAt, EndsAt: r.apt1.EndsAt, CreatedAt: created, UpdatedAt: updated}
	r.apc2 = newAppointmentClient(biz, r.apt2, r.cli2.ID, practiced.StatusCancelled)
	r.apc2.CancellationReasonID = ptr(r.cnr1.ID)
	r.apc2.ArchivedAt = archivedAt()

	r.fte1 = newFormTemplate(biz, "Intake")
	r.fte1.Color = "#123456"
	r.fte1.CompletionMessage = "Thanks!"
	r.fte1.PrefillClientFields = true
	r.for1 = practiced.Form{ID: tid.New(practiced.PrefixForm), BusinessID: biz, ClientID: r.cli1.ID, LocationID: ptr(r.loc1.ID),
		FormTemplateID: r.fte1.ID, AppointmentClientID: ptr(r.apc1.ID), Name: "Intake", Color: "#123456",
		CompletionMessage: "Thanks!", PrefillClientFields: true, OverrideClientFields: true, Status: practiced.FormCompleted,
		SentStatus: practiced.SentViewed, Content: []practiced.Page{{Sections: []practiced.Section{{
			Title: "About you", Description: "So we can help", Questions: []practiced.Question{
				{ID: "email", Type: "short_text", Label: "E-mail", Required: true, Options: []string{}, ClientField: ptr("email"),
					Answer: json.RawMessage(`"ann@example.com"`)},
				{ID: "pain", Type: "multiple_choice", Label: "Where?", Options: []string{"knee", "back"}, Answer: json.RawMessage(`["knee"]`)},
				{ID: "ok", Type: "yes_no", Label: "Consent", Options: []string{}, Answer: json.RawMessage(`true`)},
			}}}}},
		SentAt: atp(-72 * time.Hour), ViewedAt: atp(-71 * time.Hour), CompletedAt: atp(-70 * time.Hour),
		CreatedAt: created, UpdatedAt: updated}
	r.for2 = newForm(biz, r.cli2.ID, r.fte1.ID)
	r.for2.ArchivedAt = archivedAt()
	r.for1.LinkSecret, r.for2.LinkSecret = rand.Text(), rand.Text()

	r.bti1 = practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: r.loc1.ID,
		PractitionerID: r.pra1.ID, StartsAt: at(hm(13, 0)), EndsAt: at(hm(14, 30)), Duration: 90, Name: ptr("Team meeting"),
		Note: ptr("Weekly"), CreatedAt: created, BusyTimeTypeID: ptr(r.btt1.ID), RoomID: ptr("room-2"), VehicleID: ptr("van-1"),
		ResourceIDs: []string{"projector", "whiteboard"}, RepeatID: ptr(tid.New(practiced.PrefixRepeat)), UpdatedAt: updated}
	r.bti2 = newBusyTime(biz, r.loc2.ID, r.pra2.ID, hm(15, 0), hm(15, 20))
	r.bti2.ArchivedAt = archivedAt()

	r.msg1 = practiced.Message{ID: tid.New(practiced.PrefixMessage), Kind: practiced.MessageFormLink, Status: practiced.MessageSent,
		To: r.cli1.Email, ClientID: r.cli1.ID, FormID: ptr(r.for1.ID), Subject: "Please fill in: Intake", Text: "Hello Annie",
		HTML: "<p>Hello Annie</p>", Cause: "form_link:fixture", SendAfter: created, Attempts: 1, SentAt: &updated,
		CreatedAt: created, UpdatedAt: updated}

	seed(t, st, biz, r.data())
	return r
}

// data is the batch that stores r. Appointment clients are seeded
// without times, which the store takes from their appointment.
func (r *rich) data() practiced.SeedData {
	apc1, apc2 := r.apc1, r.apc2
	apc1.StartsAt, apc1.EndsAt = practiced.Time{}, practiced.Time{}
	apc2.StartsAt, apc2.EndsAt = practiced.Time{}, practiced.Time{}
	return practiced.SeedData{
		Locations:           []practiced.Location{r.loc1, r.loc2},
		Services:            []practiced.Service{r.ser1, r.ser2},
		Practitioners:       []practiced.Practitioner{r.pra1, r.pra2, r.pra3},
		Tags:                []practiced.Named{r.tag1, r.tag2},
		ReferralTypes:       []practiced.Named{r.ret1},
		CancellationReasons: []practiced.Named{r.cnr1},
		BusyTimeTypes:       []practiced.Named{r.btt1},
		Contacts:            []practiced.Contact{r.con1, r.con2},
		Clients:             []practiced.Client{r.cli1, r.cli2},
		Cases:               []practiced.Case{r.cas1},
		ClientPackages:      []practiced.ClientPackage{r.cpk1},
		Appointments:        []practiced.Appointment{r.apt1, r.apt2},
		AppointmentClients:  []practiced.AppointmentClient{apc1, apc2},
		FormTemplates:       []practiced.FormTemplate{r.fte1},
		Forms:               []practiced.Form{r.for1, r.for2},
		BusyTimes:           []practiced.BusyTime{r.bti1, r.bti2},
		Messages:            []practiced.Message{r.msg1},
	}
}

// ids returns the id of every record of r, of every kind.
func (r *rich) ids() []string {
	return []string{r.loc1.ID, r.loc2.ID, r.ser1.ID, r.ser2.ID, r.pra1.ID, r.pra2.ID, r.pra3.ID, r.tag1.ID, r.tag2.ID,
		r.ret1.ID, r.cnr1.ID, r.btt1.ID, r.con1.ID, r.con2.ID, r.cli1.ID, r.cli2.ID, r.cas1.ID, r.cpk1.ID, r.apt1.ID,
		r.apt2.ID, r.apc1.ID, r.apc2.ID, r.fte1.ID, r.for1.ID, r.for2.ID, r.bti1.ID, r.bti2.ID, r.msg1.ID}
}
