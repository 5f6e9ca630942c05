package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// closedDay is the opening hours of a day that was never set.
func closedDay(prefix string) string {
	return `"` + prefix + `_active":false,"` + prefix + `_opens_at":"","` + prefix + `_closes_at":""`
}

func TestCreateLocationAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	logo := tid.New("med")
	body := `{"name":"Parramatta","description":"Upstairs, lift access","email":"parra@example.com","phone":"(02) 9000 1234",
		"timezone":"Australia/Sydney","online_appointment_booking":true,"online_class_booking":false,"online_bookings_per_email_per_day":5,"online_cancellation_hours":48,
		"tax_identifier":"51 824 753 556","tax_identifier_label":"ABN","ndis_number":"4050000001","logo_id":"LOGO","image_id":null,
		"opening_hours":{"mon_active":true,"mon_opens_at":"08:30","mon_closes_at":"17:00",
			"sat_active":false,"sat_opens_at":"09:00","sat_closes_at":"12:00",
			"sun_active":true,"sun_opens_at":"00:00","sun_closes_at":"24:00"},
		"address":{"line1":"1 Church St","line2":"Level 2","city":"Parramatta","state":"NSW","postal_code":"2150","country_code":"au"}}`
	id, r := setupCreate(t, e, "locations", strings.ReplaceAll(body, "LOGO", logo))
	want := withIDs(`{"id":"ID","name":"Parramatta","description":"Upstairs, lift access","email":"parra@example.com",
		"phone":"+61290001234","timezone":"Australia/Sydney","online_appointment_booking":true,"online_class_booking":false,
		"online_bookings_per_email_per_day":5,"online_cancellation_hours":48,
		"tax_identifier":"51 824 753 556","tax_identifier_label":"ABN","ndis_number":"4050000001","logo_id":"LOGO","image_id":null,
		"service_ids":[],"practitioner_ids":[],
		"opening_hours":{"mon_active":true,"mon_opens_at":"08:30","mon_closes_at":"17:00",`+closedDay("tue")+`,`+closedDay("wed")+`,
			`+closedDay("thu")+`,`+closedDay("fri")+`,"sat_active":false,"sat_opens_at":"09:00","sat_closes_at":"12:00",
			"sun_active":true,"sun_opens_at":"00:00","sun_closes_at":"24:00"},
		"address":{"line1":"1 Church St","line2":"Level 2","city":"Parramatta","state":"NSW","postal_code":"2150","country_code":"AU",
			"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""},
		"created_at":"NOW","updated_at":"NOW","archived_at":null}`, map[string]string{"ID": id, "LOGO": logo, "NOW": setupNow})
	wantBody(t, r, http.StatusCreated, want)
	wantBody(t, e.do("GET", "/v1/locations/"+id, e.a.Token, nil), http.StatusOK, want)
}

func TestCreateLocationWithOnlyTheRequiredFieldsIsClosedEveryDay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, r := setupCreate(t, e, "locations", `{"name":"Pop-up","timezone":"UTC"}`)
	days := []string{}
	for _, p := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		days = append(days, closedDay(p))
	}
	wantBody(t, r, http.StatusCreated, withIDs(`{"id":"ID","name":"Pop-up","description":"","email":"","phone":"",
		"timezone":"UTC","online_appointment_booking":false,"online_class_booking":false,"online_bookings_per_email_per_day":3,"online_cancellation_hours":24,"tax_identifier":"",
		"tax_identifier_label":"","ndis_number":"","logo_id":null,"image_id":null,"service_ids":[],"practitioner_ids":[],
		"opening_hours":{`+strings.Join(days, ",")+`},
		"address":{"line1":"","line2":null,"city":"","state":"","postal_code":"","country_code":"","latitude":null,
			"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""},
		"created_at":"NOW","updated_at":"NOW","archived_at":null}`, map[string]string{"ID": id, "NOW": setupNow}))
}

func TestLocationRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	for _, tc := range []struct {
		name string
		body string
		want map[string][]string
	}{
		{"unknown time zone", `{"name":"X","timezone":"Mars/Olympus_Mons"}`,
			oneError("timezone", "must be an IANA time zone such as Australia/Sydney")},
		{"the server's own zone is no place", `{"name":"X","timezone":"Local"}`,
			oneError("timezone", "must be an IANA time zone such as Australia/Sydney")},
		{"time zone names are case-sensitive", `{"name":"X","timezone":"australia/sydney"}`,
			oneError("timezone", "must be an IANA time zone such as Australia/Sydney")},
		{"empty time zone", `{"name":"X","timezone":""}`, oneError("timezone", "must not be empty")},
		{"time zone not a string", `{"name":"X","timezone":10}`, oneError("timezone", "must be a string, not a number")},
		{"cancellation notice within a year", `{"name":"X","timezone":"UTC","online_cancellation_hours":8761}`,
			oneError("online_cancellation_hours", "must be between 0 and 8760")},
		{"every plain field at once",
			`{"name":"","timezone":"Australia/Sydney","email":"nope","phone":"call me","online_class_booking":"yes",
			"logo_id":"img_01h455vb4pex5vsknk084sn02q","image_id":7,"ndis_number":"` + strings.Repeat("1", 256) + `"}`,
			map[string][]string{
				"name":                 {"must not be empty"},
				"email":                {"must be an e-mail address such as name@example.com"},
				"phone":                {"must be a phone number in international format, such as +61 412 345 678, or in the national format of AU (the record's address.country_code, else AU), such as 0412 345 678"},
				"online_class_booking": {"must be a boolean, not a string"},
				"logo_id":              {"must be an id starting with med_"},
				"image_id":             {"must be an id string such as \"med_01h455vb4pex5vsknk084sn02q\"; ids are prefixed strings, not numbers"},
				"ndis_number":          {"must be at most 255 characters (it has 256)"},
			}},
		{"practitioners and services are set from their side", `{"name":"X","timezone":"UTC","practitioner_ids":["PRA"],"service_ids":[]}`,
			map[string][]string{
				"practitioner_ids": {"is read-only: set location_ids on the practitioners instead"},
				"service_ids":      {"is read-only: set location_ids on the services instead"},
			}},
		{"address parts", `{"name":"X","timezone":"UTC","address":{"country_code":"ZZ","latitude":91,"street":"1 Main St"}}`,
			map[string][]string{
				"address.country_code": {"must be an ISO 3166-1 alpha-2 country code such as AU"},
				"address.latitude":     {"must be between -90 and 90"},
				"address.street":       {"is not a known field"},
			}},
		{"opening hours not an object", `{"name":"X","timezone":"UTC","opening_hours":[]}`,
			oneError("opening_hours", "must be an object, not an array")},
		{"malformed times and unknown days", `{"name":"X","timezone":"UTC","opening_hours":{"mon_active":true,
			"mon_opens_at":"9:00","mon_closes_at":"24:01","tue_active":"no","monday_active":true}}`,
			map[string][]string{
				"opening_hours.mon_opens_at":  {"must be a time of day such as 09:30, from 00:00 to 24:00"},
				"opening_hours.mon_closes_at": {"must be a time of day such as 09:30, from 00:00 to 24:00"},
				"opening_hours.tue_active":    {"must be a boolean, not a string"},
				"opening_hours.monday_active": {"is not a known field"},
			}},
		{"times sent without saying whether the day is active", `{"name":"X","timezone":"UTC",
			"opening_hours":{"wed_opens_at":"09:00","wed_closes_at":"17:00","thu_closes_at":"17:00"}}`,
			map[string][]string{
				"opening_hours.wed_active": {"is required when wed_opens_at or wed_closes_at is sent"},
				"opening_hours.thu_active": {"is required when thu_opens_at or thu_closes_at is sent"},
			}},
		{"an active day needs both times", `{"name":"X","timezone":"UTC",
			"opening_hours":{"mon_active":true,"tue_active":true,"tue_opens_at":"09:00"}}`,
			map[string][]string{
				"opening_hours.mon_opens_at":  {"is required when mon_active is true"},
				"opening_hours.mon_closes_at": {"is required when mon_active is true"},
				"opening_hours.tue_closes_at": {"is required when tue_active is true"},
			}},
		{"a day opens before it closes, active or not", `{"name":"X","timezone":"UTC",
			"opening_hours":{"mon_active":true,"mon_opens_at":"17:00","mon_closes_at":"09:00",
			"tue_active":true,"tue_opens_at":"09:00","tue_closes_at":"09:00",
			"sat_active":false,"sat_opens_at":"13:00","sat_closes_at":"12:00",
			"sun_active":true,"sun_opens_at":"24:00","sun_closes_at":"24:00"}}`,
			map[string][]string{
				"opening_hours.mon_closes_at": {"must be after mon_opens_at (17:00)"},
				"opening_hours.tue_closes_at": {"must be after tue_opens_at (09:00)"},
				"opening_hours.sat_closes_at": {"must be after sat_opens_at (13:00)"},
				"opening_hours.sun_opens_at":  {"must be before 24:00, which can only end a range"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.ReplaceAll(tc.body, "PRA", a.Alice.ID)
			wantInvalid(t, e.do("POST", "/v1/locations", a.Token, body), tc.want, "")
			// The same body refused as an update leaves the location alone.
			wantUpdateRefused(t, e, "/v1/locations/"+a.Sydney.ID, body, tc.want)
		})
	}
	wantRecordCount(t, e, "locations", 2)
}

func TestLocationUpdateChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	base := `{"name":"Parramatta","description":"Upstairs","email":"parra@example.com","phone":"0290001234",
		"timezone":"Australia/Sydney","online_appointment_booking":true,"tax_identifier":"51 824 753 556","logo_id":"` + tid.New("med") + `",
		"opening_hours":{"mon_active":true,"mon_opens_at":"08:30","mon_closes_at":"17:00"},
		"address":{"line1":"1 Church St","line2":"Level 2","city":"Parramatta","country_code":"AU","latitude":-33.81}}`
	const emptyAddress = `{"line1":"","line2":null,"city":"","state":"","postal_code":"","country_code":"",
		"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""}`
	allClosed := `{` + closedDay("mon") + `,` + closedDay("tue") + `,` + closedDay("wed") + `,` + closedDay("thu") + `,` +
		closedDay("fri") + `,` + closedDay("sat") + `,` + closedDay("sun") + `}`
	for _, tc := range []struct {
		name string
		body string
		// want holds the fields that differ from the location before the
		// update, updated_at aside.
		want string
	}{
		{"empty body", `{}`, `{}`},
		{"one field", `{"name":"Parramatta North"}`, `{"name":"Parramatta North"}`},
		{"the time zone", `{"timezone":"Australia/Perth"}`, `{"timezone":"Australia/Perth"}`},
		{"cancelling online until the start", `{"online_cancellation_hours":0}`, `{"online_cancellation_hours":0}`},
		{"null restores the cancellation notice", `{"online_cancellation_hours":null}`, `{"online_cancellation_hours":24}`},
		{"null clears text, ids and booleans",
			`{"description":null,"email":null,"phone":null,"tax_identifier":null,"logo_id":null,"online_appointment_booking":null}`,
			`{"description":"","email":"","phone":"","tax_identifier":"","logo_id":null,"online_appointment_booking":false}`},
		{"the address changes part by part", `{"address":{"city":"Harris Park","line2":null,"latitude":null}}`,
			`{"address":{"line1":"1 Church St","line2":null,"city":"Harris Park","state":"","postal_code":"","country_code":"AU",
				"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""}}`},
		{"null clears the address", `{"address":null}`, `{"address":` + emptyAddress + `}`},
		{"opening hours are replaced whole", `{"opening_hours":{"fri_active":true,"fri_opens_at":"10:00","fri_closes_at":"14:00"}}`,
			`{"opening_hours":{` + closedDay("mon") + `,` + closedDay("tue") + `,` + closedDay("wed") + `,` + closedDay("thu") + `,
				"fri_active":true,"fri_opens_at":"10:00","fri_closes_at":"14:00",` + closedDay("sat") + `,` + closedDay("sun") + `}}`},
		{"null closes every day", `{"opening_hours":null}`, `{"opening_hours":` + allClosed + `}`},
		{"an empty object closes every day", `{"opening_hours":{}}`, `{"opening_hours":` + allClosed + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantUpdateChanges(t, e, "locations", base, 2*time.Hour, tc.body, tc.want)
		})
	}
}

// A location's practitioner_ids and service_ids are the practitioners and
// services whose location_ids name it. When they change, so does the
// location: its updated_at moves and the change feed says so.
func TestLocationListsThePractitionersAndServicesThatNameIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	loc, _ := setupCreate(t, e, "locations", `{"name":"Parramatta","timezone":"Australia/Sydney"}`)
	location := func() map[string]any {
		return e.do("GET", "/v1/locations/"+loc, a.Token, nil).JSON(t)
	}
	wantJoined := func(step string, pras, sers []string, updatedAt string) {
		t.Helper()
		l := location()
		if got, want := jsonText(l["practitioner_ids"]), jsonText(pras); got != want {
			t.Errorf("%s: practitioner_ids %s, want %s", step, got, want)
		}
		if got, want := jsonText(l["service_ids"]), jsonText(sers); got != want {
			t.Errorf("%s: service_ids %s, want %s", step, got, want)
		}
		if l["updated_at"] != updatedAt {
			t.Errorf("%s: updated_at %v, want %s", step, l["updated_at"], updatedAt)
		}
	}
	e.clock = testfix.Now.Add(time.Hour)
	pra, _ := setupCreate(t, e, "practitioners", `{"first_name":"Dana","last_name":"Park","location_ids":["`+loc+`","`+a.Sydney.ID+`"]}`)
	wantJoined("a practitioner joins", []string{pra}, []string{}, "2026-03-01T23:00:00Z")
	e.clock = testfix.Now.Add(2 * time.Hour)
	ser, _ := setupCreate(t, e, "services", `{"name":"Review","duration":20,"location_ids":["`+loc+`"]}`)
	wantJoined("a service is added", []string{pra}, []string{ser}, "2026-03-02T00:00:00Z")
	e.clock = testfix.Now.Add(3 * time.Hour)
	wantStatus(t, e.do("POST", "/v1/practitioners/"+pra, a.Token, `{"designation":"Podiatrist"}`), http.StatusOK)
	wantJoined("the practitioner changes, not their locations", []string{pra}, []string{ser}, "2026-03-02T00:00:00Z")
	e.clock = testfix.Now.Add(4 * time.Hour)
	wantStatus(t, e.do("POST", "/v1/practitioners/"+pra, a.Token, `{"location_ids":["`+a.Sydney.ID+`"]}`), http.StatusOK)
	wantJoined("the practitioner leaves", []string{}, []string{ser}, "2026-03-02T02:00:00Z")
	e.clock = testfix.Now.Add(5 * time.Hour)
	wantStatus(t, e.do("POST", "/v1/services/"+ser, a.Token, `{"location_ids":null}`), http.StatusOK)
	wantJoined("the service is removed", []string{}, []string{}, "2026-03-02T03:00:00Z")

	want := []string{"location.created", "location.updated", "location.updated", "location.updated", "location.updated"}
	if got := setupEventTypes(t, e, a, loc); jsonText(got) != jsonText(want) {
		t.Fatalf("events of the location %v, want %v", got, want)
	}
	evs := setupEvents(t, e, a, loc)
	if data := decodeJSON(t, string(evs[2].Data)); jsonText(data["service_ids"]) != jsonText([]string{ser}) {
		t.Errorf("the event of the service's arrival carries service_ids %v, want [%s]", data["service_ids"], ser)
	}
	// Sydney, which the practitioner kept, did not change.
	if got := setupEventTypes(t, e, a, a.Sydney.ID); jsonText(got) != jsonText([]string{"location.updated"}) {
		t.Errorf("events of Sydney %v, want only the practitioner's arrival", got)
	}
	if ids := listedIDs(t, e, "/v1/locations?updated_since=2026-03-02T03:00:00Z", a.Token); jsonText(ids) != jsonText([]string{loc}) {
		t.Errorf("locations updated since the last change: %v, want [%s]", ids, loc)
	}
}
