package practiced

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// reflectedDoc is the document encoding/json writes for v, the API's
// way (no HTML escaping), with its newline.
func reflectedDoc(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// encodedDoc is what EncodeDoc gives for v.
func encodedDoc(t testing.TB, v any) string {
	t.Helper()
	var got string
	if err := EncodeDoc(v, func(b []byte) { got = string(b) }); err != nil {
		t.Fatal(err)
	}
	return got
}

// sameDocuments holds what EncodeDoc and MarshalDocText write for each
// case, and for a pointer to it, to what encoding/json writes.
func sameDocuments[T any](t *testing.T, cases map[string]T) {
	t.Helper()
	for name, v := range cases {
		want := reflectedDoc(t, v)
		if got := encodedDoc(t, v); got != want {
			t.Errorf("%s: EncodeDoc wrote\n%s want\n%s", name, got, want)
		}
		if got := encodedDoc(t, &v); got != want {
			t.Errorf("%s: EncodeDoc of a pointer wrote\n%s want\n%s", name, got, want)
		}
		if doc, err := MarshalDocText(v); err != nil || doc+"\n" != want {
			t.Errorf("%s: MarshalDocText = %s, %v", name, doc, err)
		}
	}
}

func TestBusyTimeWritesItsOwnDocument(t *testing.T) {
	if _, ok := appendDocOf(nil, BusyTime{}); !ok {
		t.Fatal("BusyTime does not write its own document")
	}
	str := func(s string) *string { return &s }
	at := NewTime(time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC))
	odd := `quote " backslash \ tab	 line
 nul` + "\x00 \x1f <b>&amp; é ✓ 🙂 \xff\xfe bad \u2028 \u2029 \u007f end"
	cases := map[string]BusyTime{
		"zero": {},
		"every field": {
			ID: "bti_01", LocationID: "loc_01", PractitionerID: "pra_01", StartsAt: at, EndsAt: NewTime(at.Add(time.Hour)),
			Duration: 60, Name: str("Lunch"), Note: str(odd), CreatedAt: at, BusyTimeTypeID: str("btt_01"),
			RoomID: str("roo_01"), VehicleID: str("veh_01"), ResourceIDs: []string{"res_01", odd}, RepeatID: str("rep_01"),
			UpdatedAt: at, ArchivedAt: &at,
		},
		"empty lists and strings": {ResourceIDs: []string{}, Name: str(""), Note: str(""), Duration: -5},
		"odd strings everywhere":  {ID: odd, LocationID: odd, PractitionerID: odd, Name: str(odd), ResourceIDs: []string{odd, ""}},
		"years past four digits": {StartsAt: Time{time.Date(12026, 1, 1, 0, 0, 0, 0, time.UTC)},
			EndsAt: Time{time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}, ArchivedAt: &Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}
	sameDocuments(t, cases)
	if got := encodedDoc(t, (*BusyTime)(nil)); got != "null\n" {
		t.Errorf("EncodeDoc of a nil *BusyTime = %q, want null", got)
	}
}

// A struct that embeds a record writing its own document is written by
// encoding/json, its other fields with the record's.
func TestEmbeddedRecordsKeepTheirOtherFields(t *testing.T) {
	type withWarnings struct {
		BusyTime
		Warnings []string `json:"warnings"`
	}
	type clientAndCount struct {
		*Client
		Count int `json:"count"`
	}
	for _, v := range []any{withWarnings{BusyTime{ID: "bti_01"}, []string{"late"}}, clientAndCount{&Client{ID: "cli_01"}, 2}} {
		want := reflectedDoc(t, v)
		if got := encodedDoc(t, v); got != want {
			t.Errorf("EncodeDoc of %T wrote\n%s want\n%s", v, got, want)
		}
	}
}

// A document larger than a kept buffer is written whole, and the next
// as large as well.
func TestLongDocumentsWrittenWhole(t *testing.T) {
	long := strings.Repeat("x", 3*appendedDocBytes)
	for range 3 {
		c := Client{ID: "cli_01", Notes: long}
		if got, want := encodedDoc(t, c), reflectedDoc(t, c); got != want {
			t.Fatalf("EncodeDoc of a client with long notes wrote %d bytes, want %d", len(got), len(want))
		}
	}
}

func FuzzBusyTimeDocument(f *testing.F) {
	f.Add("bti_01", "Lunch", "a \"note\" <b>", "res_01", 60, int64(1772443800))
	f.Add("\xff", "\u2028", "\x00\x1f\\", "", -1, int64(-62135596800))
	f.Add("é", "🙂", "&", "\u007f", 0, int64(253402300800))
	f.Fuzz(func(t *testing.T, id, name, note, resource string, duration int, unix int64) {
		at := Time{time.Unix(unix, 0).UTC()}
		bt := BusyTime{ID: id, LocationID: resource, PractitionerID: name, StartsAt: at, EndsAt: at, Duration: duration,
			Name: &name, Note: &note, CreatedAt: at, ResourceIDs: []string{resource, id}, UpdatedAt: at, ArchivedAt: &at}
		if got, want := encodedDoc(t, bt), reflectedDoc(t, bt); got != want {
			t.Errorf("EncodeDoc wrote\n%s want\n%s", got, want)
		}
	})
}

func TestClientWritesItsOwnDocument(t *testing.T) {
	if _, ok := appendDocOf(nil, Client{}); !ok {
		t.Fatal("Client does not write its own document")
	}
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	at := NewTime(time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC))
	odd := "quote \" backslash \\ tab\t nul\x00 <b>&amp; é 🙂 \xff bad \u2028 end"
	full := Client{
		ID: "cli_01", Title: "Ms", FirstName: "Amara", LastName: odd, PreferredName: "Am", Profession: "Nurse",
		Email: "amara@example.com", DateOfBirth: str("1990-02-03"), Sex: "female", GenderIdentity: "woman", Pronouns: "she/her",
		PrivacyPolicyConsent: str("accepted"), MarketingConsent: str("declined"), NoMessages: true, ConsentMethod: str("in_person"),
		Medications: []Medication{{Name: "A", Dosage: odd}, {}}, Allergies: []Allergy{{Name: "Nuts", Reaction: "hives"}},
		Intolerances: []string{"lactose", odd}, EmergencyContactID: str("con_01"), EmergencyContactRelationship: "sister",
		InvoiceContactID: str("con_02"), Notes: odd, Alert: "!", ReferralTypeID: str("ref_01"), ReferralDescription: "GP",
		ReferredByID: str("con_03"), PhoneNumber: "+61412345678",
		PhoneNumbers: []PhoneNumber{{ID: "pho_01", Code: "AU", Number: "0412 345 678", Type: "mobile"}},
		Address: Address{Line1: "1 Main St", Line2: str(odd), City: "Sydney", State: "NSW", PostalCode: "2000", CountryCode: "AU",
			Latitude: num(-33.8688), Longitude: num(151.2093), FormattedAddress: "1 Main St, Sydney", PlaceID: "abc"},
		TagIDs: []string{"tag_01"},
		NDISDetails: &NDISDetails{NDISNumber: "430000000", PlanStartDate: &at, PlanEndDate: &at, PlanManagerID: str("con_04"),
			PlanNomineeID: str("con_05"), Diagnoses: []string{"x", odd}},
		RelatedClients: []RelatedClient{{RelatedClientID: "cli_02"}},
		LinkedContacts: []LinkedContact{{ContactID: "con_06", IncludeInAppointmentNotifications: true, IncludeInProgressNoteNotifications: true, Note: odd}},
		CreatedAt:      at, UpdatedAt: at, ArchivedAt: &at,
	}
	empty := Client{Medications: []Medication{}, Allergies: []Allergy{}, Intolerances: []string{}, PhoneNumbers: []PhoneNumber{},
		TagIDs: []string{}, RelatedClients: []RelatedClient{}, LinkedContacts: []LinkedContact{}, NDISDetails: &NDISDetails{}}
	cases := map[string]Client{"zero": {}, "every field": full, "empty lists": empty}
	for _, f := range []float64{0, -0.0, 1, -1.5, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 123456789012345678901234.0, 5e-324, 1.7976931348623157e308, -2.5e-9} {
		c := full
		c.Address.Latitude, c.Address.Longitude = num(f), num(-f)
		cases[fmt.Sprintf("coordinates %g", f)] = c
	}
	sameDocuments(t, cases)
	// A coordinate JSON cannot carry is left to encoding/json, which
	// says why, and nothing is written.
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		c := full
		c.Address.Longitude = num(f)
		called := false
		err := EncodeDoc(c, func([]byte) { called = true })
		if err == nil || !strings.Contains(err.Error(), "unsupported value") || called {
			t.Errorf("EncodeDoc with longitude %v = %v, use called %v; want encoding/json's error", f, err, called)
		}
	}
}

func FuzzClientDocument(f *testing.F) {
	f.Add("cli_01", "Amara", "a \"note\" <b>", "+61412345678", true, -33.8688, int64(1772443800))
	f.Add("\xff", "\u2028", "\x00\x1f\\", "", false, 1e-7, int64(-62135596800))
	f.Add("é", "🙂", "&", "\u007f", true, 1e21, int64(253402300800))
	f.Fuzz(func(t *testing.T, id, name, note, phone string, flag bool, coord float64, unix int64) {
		if math.IsNaN(coord) || math.IsInf(coord, 0) {
			return // refused by both, as TestClientWritesItsOwnDocument checks
		}
		at := Time{time.Unix(unix, 0).UTC()}
		c := Client{ID: id, FirstName: name, LastName: note, Email: phone, DateOfBirth: &note, NoMessages: flag,
			Medications: []Medication{{Name: name, Dosage: note}}, Intolerances: []string{note}, Notes: note, PhoneNumber: phone,
			PhoneNumbers: []PhoneNumber{{ID: id, Number: phone}}, Address: Address{Line1: note, Line2: &name, Latitude: &coord},
			NDISDetails: &NDISDetails{NDISNumber: phone, PlanStartDate: &at}, LinkedContacts: []LinkedContact{{ContactID: id, IncludeInInvoiceNotifications: flag, Note: note}},
			CreatedAt: at, UpdatedAt: at}
		if got, want := encodedDoc(t, c), reflectedDoc(t, c); got != want {
			t.Errorf("EncodeDoc wrote\n%s want\n%s", got, want)
		}
	})
}

// BenchmarkClientDocument writes a demo-like client's document with its
// own writer (EncodeDoc) and with encoding/json, as EncodeDoc did before.
func BenchmarkClientDocument(b *testing.B) {
	dob, consent := "1990-02-03", "accepted"
	at := NewTime(time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC))
	c := Client{ID: "cli_01m8kg8w0ved181gq5h2fj5fqk", Title: "Ms", FirstName: "Amara", LastName: "Osei", Email: "amara.osei@example.com",
		DateOfBirth: &dob, Sex: "female", PrivacyPolicyConsent: &consent, Medications: []Medication{}, Allergies: []Allergy{},
		Intolerances: []string{}, PhoneNumber: "+61412345678", PhoneNumbers: []PhoneNumber{{ID: "pho_01", Code: "AU", Number: "0412 345 678", Type: "mobile"}},
		Address: Address{Line1: "1 Main St", City: "Sydney", State: "NSW", PostalCode: "2000", CountryCode: "AU"},
		TagIDs:  []string{}, RelatedClients: []RelatedClient{}, LinkedContacts: []LinkedContact{}, CreatedAt: at, UpdatedAt: at}
	b.Run("own", func(b *testing.B) {
		for b.Loop() {
			if err := EncodeDoc(c, func([]byte) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
