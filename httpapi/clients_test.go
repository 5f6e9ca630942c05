package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// POST /v1/clients/{client}: the partial update of docs/api.md.

// clientRefs names the records a client update can refer to, for
// writing request bodies and expected records as text.
type clientRefs struct {
	pho1, pho2 string
	secondTag  string
	replacer   *strings.Replacer
}

func ptrTo[T any](v T) *T { return &v }

// fullClient seeds a client of A with every field set.
func fullClient(t *testing.T, e *env, refs *clientRefs) practiced.Client {
	t.Helper()
	a := e.a
	c := newClient("Dana", "Doe", "dana@example.com")
	c.Title, c.PreferredName, c.Profession = "Ms", "Dee", "Nurse"
	c.DateOfBirth = ptrTo("1985-04-12")
	c.Sex, c.GenderIdentity, c.Pronouns = "female", "woman", "she/her"
	c.PrivacyPolicyConsent, c.MarketingConsent, c.ConsentMethod = ptrTo("accepted"), ptrTo("granted"), ptrTo("in_person")
	c.Medications = []practiced.Medication{{Name: "Ibuprofen", Dosage: "200mg"}}
	c.Allergies = []practiced.Allergy{{Name: "Peanuts", Reaction: "anaphylaxis"}}
	c.Intolerances = []string{"lactose"}
	c.EmergencyContactID, c.EmergencyContactRelationship = &a.Emergency.ID, "sister"
	c.InvoiceContactID = &a.Payer.ID
	c.Notes, c.Alert = "Prefers mornings", "Latex allergy"
	c.ReferralTypeID, c.ReferralDescription = &a.Referral.ID, "From Dr Lee"
	c.ReferredByID = &a.Clients[1].ID
	c.PhoneNumber = "0412345678"
	c.PhoneNumbers = []practiced.PhoneNumber{
		{ID: refs.pho1, Code: "61", Number: "0298765432", Type: "home"},
		{ID: refs.pho2, Code: "61", Number: "0400111222", Type: "mobile"},
	}
	c.Address = practiced.Address{Line1: "1 George St", Line2: ptrTo("Level 2"), City: "Sydney", State: "NSW", PostalCode: "2000",
		CountryCode: "AU", Latitude: ptrTo(-33.86), Longitude: ptrTo(151.21), FormattedAddress: "1 George St, Sydney NSW 2000", PlaceID: "place-1"}
	c.TagIDs = []string{a.Tag.ID}
	c.NDISDetails = &practiced.NDISDetails{NDISNumber: "430000000",
		PlanStartDate: practiced.TimePtr(mustUTC("2026-01-01T00:00:00Z")), PlanEndDate: practiced.TimePtr(mustUTC("2026-12-31T00:00:00Z")),
		PlanManagerID: &a.Payer.ID, PlanNomineeID: &a.Emergency.ID, Diagnoses: []string{"ASD"}}
	c.RelatedClients = []practiced.RelatedClient{{RelatedClientID: a.Clients[2].ID}}
	c.LinkedContacts = []practiced.LinkedContact{{ContactID: a.Payer.ID, IncludeInAppointmentNotifications: true,
		IncludeInProgressNoteNotifications: true, Note: "Invoices"}}
	seedData(t, e, a, practiced.SeedData{Clients: []practiced.Client{c}})
	return c
}

// newClientRefs seeds a second tag and names the ids bodies may use:
// PAYER, EMERGENCY, TAG, TAG2, REFERRAL, ANN, BEN, CAT, PHO1, PHO2 and
// the other business's B_CONTACT, B_CLIENT, B_TAG, B_REFERRAL.
func newClientRefs(t *testing.T, e *env) *clientRefs {
	tag2 := practiced.Named{ID: tid.New("tag"), Name: "Second", CreatedAt: seeded, UpdatedAt: seeded}
	seedData(t, e, e.a, practiced.SeedData{Tags: []practiced.Named{tag2}})
	r := &clientRefs{pho1: tid.New("pho"), pho2: tid.New("pho"), secondTag: tag2.ID}
	a, b := e.a, e.b
	r.replacer = strings.NewReplacer(
		"B_CONTACT", b.Payer.ID, "B_CLIENT", b.Clients[0].ID, "B_TAG", b.Tag.ID, "B_REFERRAL", b.Referral.ID,
		"PAYER", a.Payer.ID, "EMERGENCY", a.Emergency.ID, "TAG2", tag2.ID, "TAG", a.Tag.ID, "REFERRAL", a.Referral.ID,
		"ANN", a.Clients[0].ID, "BEN", a.Clients[1].ID, "CAT", a.Clients[2].ID, "PHO1", r.pho1, "PHO2", r.pho2)
	return r
}

// clientView returns a client as the client list shows it.
func clientView(t *testing.T, e *env, id string) map[string]any {
	t.Helper()
	for _, c := range e.listAll(t, "/v1/clients", e.a.Token) {
		if c["id"] == id {
			return c
		}
	}
	t.Fatalf("client %s is not listed", id)
	return nil
}

func decodeJSON(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	return m
}

func TestClientUpdateChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := newClientRefs(t, e)
	const emptyAddress = `{"line1":"","line2":null,"city":"","state":"","postal_code":"","country_code":"",
		"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""}`
	for _, tc := range []struct {
		name string
		// plain updates a client with only names and e-mail set instead
		// of one with every field set.
		plain bool
		body  string
		// want holds the top-level fields that differ from the record
		// before the update (updated_at aside).
		want string
		// newPhones checks the numbers sent without a kept id.
		newPhones func(t *testing.T, got []any)
	}{
		{name: "empty body", body: `{}`, want: `{}`},
		{name: "one short field", body: `{"title":"Dr"}`, want: `{"title":"Dr"}`},
		{name: "every text field",
			body: `{"first_name":"Dani","last_name":"Dow","preferred_name":"D","profession":"Doctor","sex":"female",
				"gender_identity":"non-binary","pronouns":"they/them","emergency_contact_relationship":"friend",
				"notes":"New notes","alert":"New alert","referral_description":"Walk-in"}`,
			want: `{"first_name":"Dani","last_name":"Dow","preferred_name":"D","profession":"Doctor","sex":"female",
				"gender_identity":"non-binary","pronouns":"they/them","emergency_contact_relationship":"friend",
				"notes":"New notes","alert":"New alert","referral_description":"Walk-in"}`},
		{name: "null clears text fields to empty strings",
			body: `{"title":null,"preferred_name":null,"email":null,"notes":null,"alert":null,"phone_number":null,"sex":null}`,
			want: `{"title":"","preferred_name":"","email":"","notes":"","alert":"","phone_number":"","sex":""}`},
		{name: "null clears optional values",
			body: `{"date_of_birth":null,"emergency_contact_id":null,"invoice_contact_id":null,"referral_type_id":null,
				"referred_by_id":null,"privacy_policy_consent":null,"marketing_consent":null,"consent_method":null}`,
			want: `{"date_of_birth":null,"emergency_contact_id":null,"invoice_contact_id":null,"referral_type_id":null,
				"referred_by_id":null,"privacy_policy_consent":null,"marketing_consent":null,"consent_method":null}`},
		{name: "null clears the address", body: `{"address":null}`, want: `{"address":` + emptyAddress + `}`},
		{name: "null clears the NDIS details", body: `{"ndis_details":null}`, want: `{"ndis_details":null}`},
		{name: "null empties every list",
			body: `{"medications":null,"allergies":null,"intolerances":null,"tag_ids":null,"phone_numbers":null,"related_clients":null,"linked_contacts":null}`,
			want: `{"medications":[],"allergies":[],"intolerances":[],"tag_ids":[],"phone_numbers":[],"related_clients":[],"linked_contacts":[]}`},
		{name: "empty lists empty every list",
			body: `{"medications":[],"allergies":[],"intolerances":[],"tag_ids":[],"phone_numbers":[],"related_clients":[],"linked_contacts":[]}`,
			want: `{"medications":[],"allergies":[],"intolerances":[],"tag_ids":[],"phone_numbers":[],"related_clients":[],"linked_contacts":[]}`},
		{name: "lists are replaced whole",
			body: `{"medications":[{"name":"Paracetamol"},{"name":"Insulin","dosage":"10u"}],"allergies":[{"name":"Bees","reaction":"swelling"}],
				"intolerances":["gluten","fructose"],"tag_ids":["TAG2","TAG"],"related_clients":[{"related_client_id":"ANN"},{"related_client_id":"BEN"}],
				"linked_contacts":[{"contact_id":"EMERGENCY","include_in_invoice_notifications":true}]}`,
			want: `{"medications":[{"name":"Paracetamol","dosage":""},{"name":"Insulin","dosage":"10u"}],"allergies":[{"name":"Bees","reaction":"swelling"}],
				"intolerances":["gluten","fructose"],"tag_ids":["TAG2","TAG"],"related_clients":[{"related_client_id":"ANN"},{"related_client_id":"BEN"}],
				"linked_contacts":[{"contact_id":"EMERGENCY","include_in_appointment_notifications":false,"include_in_invoice_notifications":true,
					"include_in_progress_note_notifications":false,"note":""}]}`},
		{name: "phone numbers sent with their id keep it, others get a new one",
			body: `{"phone_numbers":[{"id":"PHO2","number":"0400 999 888","code":"+61","type":"work"},{"number":"(02) 9999-0000"},{"id":"` + tid.New("pho") + `","number":"021 123 4567","code":"64"}]}`,
			want: `{"phone_numbers":[{"id":"PHO2","code":"+61","number":"400999888","type":"work"},
				{"id":"NEW","code":"+61","number":"299990000","type":"mobile"},{"id":"NEW","code":"+64","number":"211234567","type":"mobile"}]}`},
		{name: "the address changes part by part",
			body: `{"address":{"city":"Melbourne","state":"VIC","line2":"Unit 4","latitude":-37.81,"place_id":null}}`,
			want: `{"address":{"line1":"1 George St","line2":"Unit 4","city":"Melbourne","state":"VIC","postal_code":"2000","country_code":"AU",
				"latitude":-37.81,"longitude":151.21,"formatted_address_geocoder_estimate":"1 George St, Sydney NSW 2000","place_id":""}}`},
		{name: "an empty or null line2 is null",
			body: `{"address":{"line2":"","longitude":null}}`,
			want: `{"address":{"line1":"1 George St","line2":null,"city":"Sydney","state":"NSW","postal_code":"2000","country_code":"AU",
				"latitude":-33.86,"longitude":null,"formatted_address_geocoder_estimate":"1 George St, Sydney NSW 2000","place_id":"place-1"}}`},
		{name: "a lower-case country code is upper-cased",
			body: `{"address":{"country_code":"nz"}}`,
			want: `{"address":{"line1":"1 George St","line2":"Level 2","city":"Sydney","state":"NSW","postal_code":"2000","country_code":"NZ",
				"latitude":-33.86,"longitude":151.21,"formatted_address_geocoder_estimate":"1 George St, Sydney NSW 2000","place_id":"place-1"}}`},
		{name: "an address on a client without one", plain: true,
			body: `{"address":{"line1":"2 Pitt St","country_code":"Au"}}`,
			want: `{"address":{"line1":"2 Pitt St","line2":null,"city":"","state":"","postal_code":"","country_code":"AU",
				"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""}}`},
		{name: "the NDIS details change part by part",
			body: `{"ndis_details":{"diagnoses":["ADHD"],"plan_nominee_id":null,"plan_start_date":"2026-02-01T10:00:00+10:00"}}`,
			want: `{"ndis_details":{"ndis_number":"430000000","plan_start_date":"2026-02-01T00:00:00Z","plan_end_date":"2026-12-31T00:00:00Z",
				"plan_manager_id":"PAYER","plan_nominee_id":null,"diagnoses":["ADHD"]}}`},
		{name: "NDIS details on a client without them", plain: true,
			body: `{"ndis_details":{"ndis_number":"431111111","plan_manager_id":"PAYER"}}`,
			want: `{"ndis_details":{"ndis_number":"431111111","plan_start_date":null,"plan_end_date":null,
				"plan_manager_id":"PAYER","plan_nominee_id":null,"diagnoses":[]}}`},
		{name: "consents: rejected, declined, online_booking",
			body: `{"privacy_policy_consent":"rejected","marketing_consent":"declined","consent_method":"online_booking"}`,
			want: `{"privacy_policy_consent":"rejected","marketing_consent":"declined","consent_method":"online_booking"}`},
		{name: "consents: accepted, granted, over_the_phone", plain: true,
			body: `{"privacy_policy_consent":"accepted","marketing_consent":"granted","consent_method":"over_the_phone"}`,
			want: `{"privacy_policy_consent":"accepted","marketing_consent":"granted","consent_method":"over_the_phone"}`},
		{name: "consent method paper_form", body: `{"consent_method":"paper_form"}`, want: `{"consent_method":"paper_form"}`},
		{name: "consent method in_person", plain: true, body: `{"consent_method":"in_person"}`, want: `{"consent_method":"in_person"}`},
		{name: "e-mail address", body: `{"email":"New.Person+tag@Example.co.uk"}`, want: `{"email":"New.Person+tag@Example.co.uk"}`},
		{name: "an empty e-mail clears it", body: `{"email":""}`, want: `{"email":""}`},
		{name: "date of birth as a date", plain: true, body: `{"date_of_birth":"1990-05-31"}`, want: `{"date_of_birth":"1990-05-31"}`},
		{name: "date of birth as a timestamp keeps its date as written", body: `{"date_of_birth":"1990-05-31T23:30:00-05:00"}`, want: `{"date_of_birth":"1990-05-31"}`},
		{name: "date of birth today in Sydney, still yesterday in UTC", body: `{"date_of_birth":"2026-03-02"}`, want: `{"date_of_birth":"2026-03-02"}`},
		{name: "phone number with spaces", body: `{"phone_number":"0412 345 678"}`, want: `{"phone_number":"+61412345678"}`},
		{name: "international phone number with brackets and hyphens", body: `{"phone_number":"+61 (2) 9999-8888"}`, want: `{"phone_number":"+61299998888"}`},
		{name: "255 characters of a short text, counted as characters",
			body: `{"title":"` + strings.Repeat("é", 255) + `","first_name":"` + strings.Repeat("😀", 255) + `"}`,
			want: `{"title":"` + strings.Repeat("é", 255) + `","first_name":"` + strings.Repeat("😀", 255) + `"}`},
		{name: "500 characters of notes, alert and referral description",
			body: `{"notes":"` + strings.Repeat("é", 500) + `","alert":"` + strings.Repeat("😀", 500) + `","referral_description":"` + strings.Repeat("x", 500) + `"}`,
			want: `{"notes":"` + strings.Repeat("é", 500) + `","alert":"` + strings.Repeat("😀", 500) + `","referral_description":"` + strings.Repeat("x", 500) + `"}`},
		{name: "references of the business",
			body: `{"emergency_contact_id":"PAYER","invoice_contact_id":"EMERGENCY","referral_type_id":"REFERRAL","referred_by_id":"CAT"}`,
			want: `{"emergency_contact_id":"PAYER","invoice_contact_id":"EMERGENCY","referral_type_id":"REFERRAL","referred_by_id":"CAT"}`},
		{name: "referred by a contact", body: `{"referred_by_id":"PAYER"}`, want: `{"referred_by_id":"PAYER"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c practiced.Client
			if tc.plain {
				c = newClient("Plain", "Person", "plain@example.com")
				seedData(t, e, e.a, practiced.SeedData{Clients: []practiced.Client{c}})
			} else {
				c = fullClient(t, e, refs)
			}
			// The record as the API shows it: the stored client, encoded.
			stored, err := e.st.GetClient(context.Background(), e.a.Business.ID, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			storedJSON, _ := json.Marshal(stored)
			before := decodeJSON(t, string(storedJSON))
			r := e.do("POST", "/v1/clients/"+c.ID, e.a.Token, refs.replacer.Replace(tc.body))
			wantStatus(t, r, http.StatusOK)
			got := r.JSON(t)

			want := map[string]any{}
			for k, v := range before {
				want[k] = v
			}
			for k, v := range decodeJSON(t, refs.replacer.Replace(tc.want)) {
				want[k] = v
			}
			// updated_at becomes the server's clock, even when nothing
			// else changes.
			if before["updated_at"] != "2026-02-28T22:00:00Z" {
				t.Fatalf("seeded updated_at %v", before["updated_at"])
			}
			want["updated_at"] = "2026-03-01T22:00:00Z"
			// New phone numbers get ids the test cannot know: check them,
			// then take them as they are.
			if phones, ok := want["phone_numbers"].([]any); ok {
				gotPhones, _ := got["phone_numbers"].([]any)
				for i, p := range phones {
					if p.(map[string]any)["id"] != "NEW" || i >= len(gotPhones) {
						continue
					}
					id, _ := gotPhones[i].(map[string]any)["id"].(string)
					if !tid.Valid(id, "pho") || id == refs.pho1 || id == refs.pho2 || strings.Contains(tc.body, id) {
						t.Fatalf("phone number %d has id %q, want a new pho_ id", i, id)
					}
					p.(map[string]any)["id"] = id
				}
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			if a, b := canonicalJSON(t, gotJSON), canonicalJSON(t, wantJSON); a != b {
				t.Fatalf("updated client:\n%s\nwant:\n%s", a, b)
			}
			// The list shows what the update answered.
			afterJSON, _ := json.Marshal(clientView(t, e, c.ID))
			if a, b := canonicalJSON(t, afterJSON), canonicalJSON(t, gotJSON); a != b {
				t.Fatalf("listed client:\n%s\nupdate answered:\n%s", a, b)
			}
			// Archived, the client leaves the list short for the next case.
			if _, err := e.st.UpdateClient(context.Background(), e.a.Business.ID, c.ID, func(c *practiced.Client) error {
				c.ArchivedAt = &seeded
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestClientUpdateRefusesInvalidValuesAndChangesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := newClientRefs(t, e)
	c := fullClient(t, e, refs)
	self := c.ID
	// Every case is refused, so the list stays as it is now.
	before := e.listAll(t, "/v1/clients?include_archived=true", e.a.Token)
	type errs = map[string][]string
	const (
		notEmpty = "cannot be empty: a client needs a first and last name"
		badEmail = "must be an e-mail address such as name@example.com"
		badDate  = "must be a date such as 1990-05-31"
		country  = "must be an ISO 3166-1 alpha-2 country code such as AU"
		badPhone = "must be a phone number in international format, such as +61 412 345 678, or in the national format of AU (the record's address.country_code, else AU), such as 0412 345 678"
		missing  = "does not exist"
	)
	for _, tc := range []struct {
		name string
		body string
		want errs
	}{
		{"empty first name", `{"first_name":""}`, errs{"first_name": {notEmpty}}},
		{"null last name", `{"last_name":null}`, errs{"last_name": {notEmpty}}},
		{"blank first name", `{"first_name":"   "}`, errs{"first_name": {notEmpty}}},
		{"title of 256 characters", `{"title":"` + strings.Repeat("t", 256) + `"}`, errs{"title": {"must be at most 255 characters (it has 256)"}}},
		{"first name of 256 four-byte characters", `{"first_name":"` + strings.Repeat("😀", 256) + `"}`, errs{"first_name": {"must be at most 255 characters (it has 256)"}}},
		{"pronouns of 256 characters", `{"pronouns":"` + strings.Repeat("p", 256) + `"}`, errs{"pronouns": {"must be at most 255 characters (it has 256)"}}},
		{"notes of 501 two-byte characters", `{"notes":"` + strings.Repeat("é", 501) + `"}`, errs{"notes": {"must be at most 500 characters (it has 501)"}}},
		{"alert of 501 characters", `{"alert":"` + strings.Repeat("😀", 501) + `"}`, errs{"alert": {"must be at most 500 characters (it has 501)"}}},
		{"referral description of 501 characters", `{"referral_description":"` + strings.Repeat("r", 501) + `"}`, errs{"referral_description": {"must be at most 500 characters (it has 501)"}}},
		{"linked contact note of 501 characters", `{"linked_contacts":[{"contact_id":"PAYER","note":"` + strings.Repeat("n", 501) + `"}]}`,
			errs{"linked_contacts.0.note": {"must be at most 500 characters (it has 501)"}}},
		{"medication name of 256 characters", `{"medications":[{"name":"` + strings.Repeat("m", 256) + `"}]}`, errs{"medications.0.name": {"must be at most 255 characters (it has 256)"}}},
		{"intolerance of 256 characters", `{"intolerances":["ok","` + strings.Repeat("i", 256) + `"]}`, errs{"intolerances.1": {"must be at most 255 characters (it has 256)"}}},
		{"title as a number", `{"title":1}`, errs{"title": {"must be a string, not a number"}}},
		{"e-mail without @", `{"email":"nope"}`, errs{"email": {badEmail}}},
		{"e-mail without a dot in the domain", `{"email":"ann@localhost"}`, errs{"email": {badEmail}}},
		{"e-mail with a display name", `{"email":"Ann <ann@example.com>"}`, errs{"email": {badEmail}}},
		{"e-mail with a space", `{"email":"ann @example.com"}`, errs{"email": {badEmail}}},
		{"e-mail with two @", `{"email":"ann@@example.com"}`, errs{"email": {badEmail}}},
		{"date of birth tomorrow in Sydney", `{"date_of_birth":"2026-03-03"}`, errs{"date_of_birth": {"cannot be in the future"}}},
		{"date of birth as a timestamp in the future", `{"date_of_birth":"2027-01-01T00:00:00Z"}`, errs{"date_of_birth": {"cannot be in the future"}}},
		{"date of birth that does not exist", `{"date_of_birth":"1990-02-30"}`, errs{"date_of_birth": {badDate}}},
		{"date of birth day first", `{"date_of_birth":"31/05/1990"}`, errs{"date_of_birth": {badDate}}},
		{"date of birth before 1900", `{"date_of_birth":"1899-12-31"}`, errs{"date_of_birth": {"must be between the years 1900 and 2200"}}},
		{"date of birth as a number", `{"date_of_birth":19900531}`, errs{"date_of_birth": {"must be a string, not a number"}}},
		{"country XX", `{"address":{"country_code":"XX"}}`, errs{"address.country_code": {country}}},
		{"country ZZ", `{"address":{"country_code":"ZZ"}}`, errs{"address.country_code": {country}}},
		{"country EU, a grouping", `{"address":{"country_code":"EU"}}`, errs{"address.country_code": {country}}},
		{"country of one letter", `{"address":{"country_code":"A"}}`, errs{"address.country_code": {country}}},
		{"country of digits", `{"address":{"country_code":"36"}}`, errs{"address.country_code": {country}}},
		{"country alpha-3", `{"address":{"country_code":"AUS"}}`, errs{"address.country_code": {"must be at most 2 characters (it has 3)"}}},
		{"latitude 91", `{"address":{"latitude":91}}`, errs{"address.latitude": {"must be between -90 and 90"}}},
		{"longitude -181", `{"address":{"longitude":-181}}`, errs{"address.longitude": {"must be between -180 and 180"}}},
		{"address as a string", `{"address":"1 George St"}`, errs{"address": {"must be an object, not a string"}}},
		{"phone with letters", `{"phone_number":"0412 abc 678"}`, errs{"phone_number": {badPhone}}},
		{"phone too short", `{"phone_number":"12"}`, errs{"phone_number": {badPhone}}},
		{"phone of 21 digits", `{"phone_number":"` + strings.Repeat("1", 21) + `"}`, errs{"phone_number": {badPhone}}},
		{"phone with + inside", `{"phone_number":"61+412345678"}`, errs{"phone_number": {badPhone}}},
		{"phone with an extension", `{"phone_numbers":[{"number":"0412345678"},{"number":"0299998888 ext 5"}]}`, errs{"phone_numbers.1.number": {badPhone}}},
		{"phone number without number", `{"phone_numbers":[{"code":"61"}]}`, errs{"phone_numbers.0.number": {"is required"}}},
		{"phone number with an empty number", `{"phone_numbers":[{"number":""}]}`, errs{"phone_numbers.0.number": {"must not be empty"}}},
		{"dial code with letters", `{"phone_numbers":[{"number":"0412345678","code":"AU"}]}`, errs{"phone_numbers.0.code": {"must be a country dial code of 1 to 4 digits, such as 61"}}},
		{"phone type pager", `{"phone_numbers":[{"number":"0412345678","type":"pager"}]}`, errs{"phone_numbers.0.type": {"must be one of: mobile, home, work, fax, other"}}},
		{"phone id of another kind", `{"phone_numbers":[{"id":"TAG","number":"0412345678"}]}`, errs{"phone_numbers.0.id": {"must be an id starting with pho_"}}},
		{"privacy consent yes", `{"privacy_policy_consent":"yes"}`, errs{"privacy_policy_consent": {"must be one of: accepted, rejected"}}},
		{"privacy consent granted", `{"privacy_policy_consent":"granted"}`, errs{"privacy_policy_consent": {"must be one of: accepted, rejected"}}},
		{"marketing consent accepted", `{"marketing_consent":"accepted"}`, errs{"marketing_consent": {"must be one of: granted, declined"}}},
		{"marketing consent as a boolean", `{"marketing_consent":true}`, errs{"marketing_consent": {"must be a string, not a boolean"}}},
		{"consent method email", `{"consent_method":"email"}`, errs{"consent_method": {"must be one of: online_booking, in_person, over_the_phone, paper_form"}}},
		{"consent method capitalised", `{"consent_method":"In_Person"}`, errs{"consent_method": {"must be one of: online_booking, in_person, over_the_phone, paper_form"}}},
		{"emergency contact of another business", `{"emergency_contact_id":"B_CONTACT"}`, errs{"emergency_contact_id": {missing}}},
		{"invoice contact of another business", `{"invoice_contact_id":"B_CONTACT"}`, errs{"invoice_contact_id": {missing}}},
		{"referral type of another business", `{"referral_type_id":"B_REFERRAL"}`, errs{"referral_type_id": {missing}}},
		{"referred by a client of another business", `{"referred_by_id":"B_CLIENT"}`, errs{"referred_by_id": {missing}}},
		{"referred by a contact of another business", `{"referred_by_id":"B_CONTACT"}`, errs{"referred_by_id": {missing}}},
		{"tag of another business", `{"tag_ids":["TAG","B_TAG"]}`, errs{"tag_ids.1": {missing}}},
		{"related client of another business", `{"related_clients":[{"related_client_id":"ANN"},{"related_client_id":"B_CLIENT"}]}`, errs{"related_clients.1.related_client_id": {missing}}},
		{"linked contact of another business", `{"linked_contacts":[{"contact_id":"B_CONTACT"}]}`, errs{"linked_contacts.0.contact_id": {missing}}},
		{"NDIS plan manager of another business", `{"ndis_details":{"plan_manager_id":"B_CONTACT"}}`, errs{"ndis_details.plan_manager_id": {missing}}},
		{"NDIS plan nominee of another business", `{"ndis_details":{"plan_nominee_id":"B_CONTACT"}}`, errs{"ndis_details.plan_nominee_id": {missing}}},
		{"every reference of another business at once",
			`{"emergency_contact_id":"B_CONTACT","invoice_contact_id":"B_CONTACT","referral_type_id":"B_REFERRAL","referred_by_id":"B_CLIENT",
			  "tag_ids":["B_TAG"],"related_clients":[{"related_client_id":"B_CLIENT"}],"linked_contacts":[{"contact_id":"B_CONTACT"}],
			  "ndis_details":{"plan_manager_id":"B_CONTACT","plan_nominee_id":"B_CONTACT"}}`,
			errs{"emergency_contact_id": {missing}, "invoice_contact_id": {missing}, "referral_type_id": {missing}, "referred_by_id": {missing},
				"tag_ids.0": {missing}, "related_clients.0.related_client_id": {missing}, "linked_contacts.0.contact_id": {missing},
				"ndis_details.plan_manager_id": {missing}, "ndis_details.plan_nominee_id": {missing}}},
		{"emergency contact that never existed", `{"emergency_contact_id":"` + tid.New("con") + `"}`, errs{"emergency_contact_id": {missing}}},
		{"emergency contact id of a client", `{"emergency_contact_id":"ANN"}`, errs{"emergency_contact_id": {"must be an id starting with con_"}}},
		{"referral type id of a tag", `{"referral_type_id":"TAG"}`, errs{"referral_type_id": {"must be an id starting with ret_"}}},
		{"referred by a tag", `{"referred_by_id":"TAG"}`, errs{"referred_by_id": {"must be an id starting with cli_ or con_"}}},
		{"referred by the client itself", `{"referred_by_id":"` + self + `"}`, errs{"referred_by_id": {"cannot be the client itself"}}},
		{"related to itself", `{"related_clients":[{"related_client_id":"` + self + `"}]}`, errs{"related_clients.0.related_client_id": {"cannot be the client itself"}}},
		{"related client twice", `{"related_clients":[{"related_client_id":"ANN"},{"related_client_id":"ANN"}]}`, errs{"related_clients.1.related_client_id": {"repeats a client given earlier"}}},
		{"related client without id", `{"related_clients":[{}]}`, errs{"related_clients.0.related_client_id": {"is required"}}},
		{"linked contact without contact id", `{"linked_contacts":[{"note":"x"}]}`, errs{"linked_contacts.0.contact_id": {"is required"}}},
		{"too many phone numbers", `{"phone_numbers":[` + strings.Repeat(`{"number":"0412345678"},`, 20) + `{"number":"0412345678"}]}`,
			errs{"phone_numbers": {"must have at most 20 items"}}},
		{"linked contact twice", `{"linked_contacts":[{"contact_id":"PAYER"},{"contact_id":"PAYER"}]}`, errs{"linked_contacts.1.contact_id": {"repeats a contact given earlier"}}},
		{"linked contact flag as a string", `{"linked_contacts":[{"contact_id":"PAYER","include_in_invoice_notifications":"yes"}]}`,
			errs{"linked_contacts.0.include_in_invoice_notifications": {"must be a boolean, not a string"}}},
		{"tag twice", `{"tag_ids":["TAG","TAG"]}`, errs{"tag_ids.1": {"repeats an id given earlier"}}},
		{"tag ids not an array", `{"tag_ids":"TAG"}`, errs{"tag_ids": {"must be an array, not a string"}}},
		{"medication without name", `{"medications":[{"dosage":"5mg"}]}`, errs{"medications.0.name": {"is required"}}},
		{"medication as a string", `{"medications":["Ibuprofen"]}`, errs{"medications.0": {"must be an object, not a string"}}},
		{"allergy with an empty name", `{"allergies":[{"name":" "}]}`, errs{"allergies.0.name": {"must not be empty"}}},
		{"intolerance as a number", `{"intolerances":[1]}`, errs{"intolerances.0": {"must be a string, not a number"}}},
		{"NDIS plan ending before it starts", `{"ndis_details":{"plan_start_date":"2026-06-01T00:00:00Z","plan_end_date":"2026-05-31T23:59:59Z"}}`,
			errs{"ndis_details.plan_end_date": {"must not be before plan_start_date (2026-06-01T00:00:00Z)"}}},
		{"NDIS plan ending before the stored start", `{"ndis_details":{"plan_end_date":"2025-12-31T00:00:00Z"}}`,
			errs{"ndis_details.plan_end_date": {"must not be before plan_start_date (2026-01-01T00:00:00Z)"}}},
		{"NDIS plan starting after the stored end", `{"ndis_details":{"plan_start_date":"2027-01-01T00:00:00Z"}}`,
			errs{"ndis_details.plan_end_date": {"must not be before plan_start_date (2027-01-01T00:00:00Z)"}}},
		{"NDIS plan date without a time", `{"ndis_details":{"plan_start_date":"2026-06-01"}}`,
			errs{"ndis_details.plan_start_date": {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"}}},
		{"NDIS diagnoses not an array", `{"ndis_details":{"diagnoses":"ASD"}}`, errs{"ndis_details.diagnoses": {"must be an array, not a string"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/v1/clients/"+c.ID, e.a.Token, refs.replacer.Replace(tc.body))
			wantInvalid(t, r, tc.want, "")
			if after := e.listAll(t, "/v1/clients?include_archived=true", e.a.Token); !reflect.DeepEqual(before, after) {
				t.Fatal("a refused update changed the client list")
			}
		})
	}
}

func TestClientUpdateIsFoundByItsNewNameEmailAndPhone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.a.Clients[0].ID
	r := e.do("POST", "/v1/clients/"+ann, e.a.Token, map[string]any{
		"first_name": "Annabel", "email": "annabel@newmail.example", "phone_number": "0499 000 111",
	})
	wantStatus(t, r, http.StatusOK)
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"annabel@newmail", []string{ann}},
		{"ANNABEL", []string{ann}},
		{"0499000111", []string{ann}},
		{"ann@example.com", []string{}},
	} {
		got := pageIDs(e.do("GET", "/v1/clients?q="+tc.q, e.a.Token, nil).page(t))
		if !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("q=%s: %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestClientCountryCodeMustBeAnAssignedISOCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.a.Clients[0].ID
	// Codes CLDR knows as regions but ISO 3166-1 does not assign:
	// exceptionally reserved (UK, AC, CP, DG, EA, IC, TA, EZ, UN) and
	// withdrawn ones (AN, BU, CS, DD, SU, TP, YU, ZR).
	for _, code := range []string{"UK", "AC", "CP", "DG", "EA", "IC", "TA", "EZ", "UN", "AN", "BU", "CS", "DD", "SU", "TP", "YU", "ZR"} {
		t.Run(code, func(t *testing.T) {
			r := e.do("POST", "/v1/clients/"+ann, e.a.Token, map[string]any{"address": map[string]any{"country_code": code}})
			wantInvalid(t, r, oneError("address.country_code", "must be an ISO 3166-1 alpha-2 country code such as AU"), "")
		})
	}
	for _, code := range []string{"GB", "AQ", "NZ", "gb"} {
		r := e.do("POST", "/v1/clients/"+ann, e.a.Token, map[string]any{"address": map[string]any{"country_code": code}})
		wantStatus(t, r, http.StatusOK)
	}
}
