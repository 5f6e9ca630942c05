package httpapi_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// oaSeeded names the extra records of clinic A.
type oaSeeded struct {
	busy, busyArchived  practiced.BusyTime
	apt1, apt2, apt3    practiced.Appointment
	apc1, apc2, apc3    practiced.AppointmentClient
	form1, form2, form3 practiced.Form
	dee                 practiced.Client
	referrer            practiced.Contact
	annex               practiced.Location
	caseID, packageID   string
}

// oaSeed adds busy times, appointments with their clients, forms, a client
// and a contact with every field set, and a location with no
// practitioners to clinic A, so that no list is empty and nullable fields
// appear both null and set.
func oaSeed(t *testing.T, e *env) *oaSeeded {
	t.Helper()
	a := e.a
	at := func(s string) practiced.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return practiced.NewTime(v)
	}
	ptr := func(s string) *practiced.Time { v := at(s); return &v }
	created := practiced.NewTime(testfix.Now.Add(-24 * time.Hour))
	s := &oaSeeded{caseID: tid.New("cas"), packageID: tid.New("cpk")}

	s.annex = practiced.Location{ID: tid.New("loc"), Name: "Annex", Description: "Upstairs", Email: "annex@example.com", Phone: "+61290000000",
		Timezone: "Australia/Sydney", OnlineClassBooking: true, TaxIdentifier: "12 345 678 901", TaxIdentifierLabel: "ABN", NDISNumber: "4050000000",
		LogoID: ptrTo(tid.New("med")), ImageID: ptrTo(tid.New("med")),
		Address: practiced.Address{Line1: "3 Kent St", Line2: ptrTo("Level 2"), City: "Sydney", State: "NSW", PostalCode: "2000", CountryCode: "AU",
			Latitude: new(-33.86), Longitude: new(151.2), FormattedAddress: "Level 2, 3 Kent St, Sydney NSW 2000", PlaceID: "ChIJ"},
		CreatedAt: created, UpdatedAt: created}
	s.annex.OpeningHours.Days[time.Monday] = practiced.DayHours{Active: true, OpensAt: "07:30", ClosesAt: "24:00"}

	s.referrer = practiced.Contact{ID: tid.New("con"), Type: "referrer", Title: "Dr", FirstName: "Rae", LastName: "Lim", PreferredName: "Rae",
		Profession: "GP", Company: "City Medical", Email: "rae@example.com", Notes: "Prefers fax",
		PhoneNumbers: []practiced.PhoneNumber{{ID: tid.New("pho"), Code: "61", Number: "0298765432", Type: "work"}},
		Address:      practiced.Address{Line1: "9 York St", City: "Sydney", State: "NSW", PostalCode: "2000", CountryCode: "AU"},
		TagIDs:       []string{a.Tag.ID}, CreatedAt: created, UpdatedAt: created}

	s.dee = practiced.Client{ID: tid.New("cli"), Title: "Ms", FirstName: "Dee", LastName: "Dunn", PreferredName: "D", Profession: "Nurse",
		Email: "dee@example.com", DateOfBirth: ptrTo("1990-05-31"), Sex: "female", GenderIdentity: "woman", Pronouns: "she/her",
		PrivacyPolicyConsent: ptrTo("accepted"), MarketingConsent: ptrTo("declined"), ConsentMethod: ptrTo("paper_form"),
		Medications:  []practiced.Medication{{Name: "Ibuprofen", Dosage: "200 mg"}},
		Allergies:    []practiced.Allergy{{Name: "Penicillin", Reaction: "Rash"}},
		Intolerances: []string{"Lactose"}, EmergencyContactID: ptrTo(a.Emergency.ID), EmergencyContactRelationship: "Sister",
		InvoiceContactID: ptrTo(a.Payer.ID), Notes: "Left knee", Alert: "Needs ramp access", ReferralTypeID: ptrTo(a.Referral.ID),
		ReferralDescription: "From Dr Lim", ReferredByID: ptrTo(s.referrer.ID), PhoneNumber: "+61412345678",
		PhoneNumbers: []practiced.PhoneNumber{{ID: tid.New("pho"), Code: "61", Number: "0412345678", Type: "mobile"}},
		Address:      s.annex.Address, TagIDs: []string{a.Tag.ID},
		NDISDetails: &practiced.NDISDetails{NDISNumber: "430000000", PlanStartDate: ptr("2026-01-01T00:00:00Z"), PlanEndDate: ptr("2026-12-31T00:00:00Z"),
			PlanManagerID: ptrTo(a.Payer.ID), PlanNomineeID: ptrTo(a.Emergency.ID), Diagnoses: []string{"ABI"}},
		RelatedClients: []practiced.RelatedClient{{RelatedClientID: a.Clients[0].ID}},
		LinkedContacts: []practiced.LinkedContact{{ContactID: a.Payer.ID, IncludeInInvoiceNotifications: true, Note: "Invoices"}},
		CreatedAt:      created, UpdatedAt: created}

	s.busy = practiced.BusyTime{ID: tid.New("bti"), LocationID: a.Sydney.ID, PractitionerID: a.Alice.ID,
		StartsAt: at("2026-03-03T02:00:00Z"), EndsAt: at("2026-03-03T03:00:00Z"), Name: ptrTo("Team meeting"), Note: ptrTo("Room 2"),
		BusyTimeTypeID: ptrTo(a.MeetingType.ID), RoomID: ptrTo("room-2"), VehicleID: ptrTo("van-1"), ResourceIDs: []string{"projector"},
		RepeatID: ptrTo(tid.New("rep")), CreatedAt: created, UpdatedAt: created}
	s.busyArchived = practiced.BusyTime{ID: tid.New("bti"), LocationID: a.Adelaide.ID, PractitionerID: a.Alice.ID,
		StartsAt: at("2026-03-04T00:00:00Z"), EndsAt: at("2026-03-04T00:30:00Z"), CreatedAt: created, UpdatedAt: created, ArchivedAt: ptr("2026-02-28T00:00:00Z")}

	s.apt1 = practiced.Appointment{ID: tid.New("apt"), LocationID: a.Sydney.ID, PractitionerID: a.Alice.ID, ServiceID: ptrTo(a.Consult.ID),
		StartsAt: at("2026-03-03T00:00:00Z"), EndsAt: at("2026-03-03T00:30:00Z"), Duration: 30, MaxClients: 1, CreatedAt: created, UpdatedAt: created}
	s.apt2 = practiced.Appointment{ID: tid.New("apt"), LocationID: a.Sydney.ID, PractitionerID: a.Alice.ID, ServiceID: ptrTo(a.Group.ID),
		StartsAt: at("2026-03-04T01:00:00Z"), EndsAt: at("2026-03-04T02:00:00Z"), Duration: 60, MaxClients: 4, CreatedAt: created, UpdatedAt: created}
	s.apt3 = practiced.Appointment{ID: tid.New("apt"), LocationID: a.Sydney.ID, PractitionerID: a.Bob.ID, ServiceID: ptrTo(a.Consult.ID),
		StartsAt: at("2026-03-05T00:00:00Z"), EndsAt: at("2026-03-05T00:30:00Z"), Duration: 30, MaxClients: 1,
		CancelledAt: ptr("2026-03-01T00:00:00Z"), CreatedAt: created, UpdatedAt: created}
	s.apc1 = practiced.AppointmentClient{ID: tid.New("apc"), AppointmentID: s.apt1.ID, ClientID: a.Clients[0].ID, CaseID: &s.caseID,
		Status: practiced.StatusBooked, Note: "First visit", Confirmed: true, ConfirmedAt: ptr("2026-02-28T01:00:00Z"), CreatedAt: created, UpdatedAt: created}
	s.apc2 = practiced.AppointmentClient{ID: tid.New("apc"), AppointmentID: s.apt2.ID, ClientID: a.Clients[1].ID, ClientPackageID: &s.packageID,
		Status: practiced.StatusArrived, DoNotInvoice: true, ArrivedAt: ptr("2026-03-04T00:55:00Z"), CreatedAt: created, UpdatedAt: created}
	s.apc3 = practiced.AppointmentClient{ID: tid.New("apc"), AppointmentID: s.apt3.ID, ClientID: a.Clients[2].ID, Status: practiced.StatusCancelled,
		CancellationReasonID: ptrTo(a.Cancel.ID), CancellationNote: "Flu", CancelledAt: ptr("2026-03-01T00:00:00Z"), CreatedAt: created, UpdatedAt: created}

	content := func(answer json.RawMessage) []practiced.Page {
		return []practiced.Page{{Sections: []practiced.Section{{Title: "About you", Description: "Tell us about yourself",
			Questions: []practiced.Question{
				{ID: "email", Type: "short_text", Label: "E-mail", Required: true, Options: []string{}, ClientField: ptrTo("email"), Answer: answer},
				{ID: "pain", Type: "single_choice", Label: "Pain level", Options: []string{"low", "high"}},
			}}}}}
	}
	s.form1 = practiced.Form{ID: tid.New("for"), ClientID: a.Clients[0].ID, LocationID: ptrTo(a.Sydney.ID), FormTemplateID: a.Template.ID,
		AppointmentClientID: &s.apc1.ID, Name: "Intake", Color: "blue", CompletionMessage: "Thanks!", PrefillClientFields: true,
		Status: practiced.FormInProgress, SentStatus: practiced.SentViewed, Content: content(json.RawMessage(`"ann@example.com"`)),
		SentAt: ptr("2026-02-28T02:00:00Z"), ViewedAt: ptr("2026-02-28T03:00:00Z"), CreatedAt: created, UpdatedAt: created}
	s.form2 = practiced.Form{ID: tid.New("for"), ClientID: a.Clients[1].ID, FormTemplateID: a.Template.ID, Name: "Intake", Color: "blue",
		Status: practiced.FormNotStarted, SentStatus: practiced.SentNotSent, Content: content(json.RawMessage(`null`)), CreatedAt: created, UpdatedAt: created}
	s.form3 = practiced.Form{ID: tid.New("for"), ClientID: a.Clients[2].ID, FormTemplateID: a.Template.ID, Name: "Intake", Color: "red",
		OverrideClientFields: true, Status: practiced.FormCompleted, SentStatus: practiced.SentSent, Content: content(json.RawMessage(`"cat@example.com"`)),
		SentAt: ptr("2026-02-27T00:00:00Z"), CompletedAt: ptr("2026-02-27T01:00:00Z"), ArchivedAt: ptr("2026-02-28T00:00:00Z"),
		CreatedAt: created, UpdatedAt: created}

	err := e.st.Seed(context.Background(), a.Business.ID, practiced.SeedData{
		Locations:          []practiced.Location{s.annex},
		Contacts:           []practiced.Contact{s.referrer},
		Clients:            []practiced.Client{s.dee},
		Cases:              []practiced.Case{{ID: s.caseID, ClientID: a.Clients[0].ID, Name: "Knee", Status: "open", CreatedAt: created, UpdatedAt: created}},
		ClientPackages:     []practiced.ClientPackage{{ID: s.packageID, ClientID: a.Clients[1].ID, Name: "Five sessions", SessionsTotal: 5, CreatedAt: created, UpdatedAt: created}},
		Appointments:       []practiced.Appointment{s.apt1, s.apt2, s.apt3},
		AppointmentClients: []practiced.AppointmentClient{s.apc1, s.apc2, s.apc3},
		Forms:              []practiced.Form{s.form1, s.form2, s.form3},
		BusyTimes:          []practiced.BusyTime{s.busy, s.busyArchived},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
