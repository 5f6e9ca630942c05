package httpapi_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestSmokeEveryOperation runs one request of each common kind against a
// fresh clinic and pins down each answer exactly: the lists, a repeating
// busy time, a client update that is accepted and one that is refused,
// availability around the new busy time, a page of one, and a method the
// path does not allow.
func TestSmokeEveryOperation(t *testing.T) {
	e := newEnv(t)
	a := e.a

	// Every list answers a page of the clinic's records.
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/v1/busy_times", []string{}},
		{"/v1/forms", []string{}},
		{"/v1/appointment_clients", []string{}},
		{"/v1/clients", []string{a.Clients[0].ID, a.Clients[1].ID, a.Clients[2].ID}},
		{"/v1/locations", []string{a.Sydney.ID, a.Adelaide.ID}},
		{"/v1/contacts", []string{a.Payer.ID, a.Emergency.ID}},
	} {
		p := e.do("GET", tc.path, a.Token, nil).page(t)
		if got := pageIDs(p); !slices.Equal(got, tc.want) {
			t.Errorf("%s: ids %v, want %v", tc.path, got, tc.want)
		}
		if p.Links.Prev != nil || p.Links.Next != nil {
			t.Errorf("%s: links %v %v, want none on a single page", tc.path, p.Links.Prev, p.Links.Next)
		}
	}

	r := e.do("POST", "/v1/busy_times", a.Token, map[string]any{
		"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID,
		"starts_at": "2026-03-03T01:00:00Z", "ends_at": "2026-03-03T02:00:00Z", "name": "Meeting",
		"repeating_rule": map[string]any{"frequency": "weekly", "occurrences": 3, "days": []string{"tuesday", "thursday"}},
	})
	created := r.JSON(t)
	id, _ := created["id"].(string)
	repeat, _ := created["repeat_id"].(string)
	if !strings.HasPrefix(id, "bti_") || !strings.HasPrefix(repeat, "rep_") {
		t.Fatalf("created busy time: id %q, repeat_id %q; body %s", id, repeat, r.Body)
	}
	// A repeating busy time answers its first occurrence, and the series
	// holds the three occurrences its rule makes.
	wantBody(t, r, http.StatusCreated, `{"id":"`+id+`","location_id":"`+a.Sydney.ID+`","practitioner_id":"`+a.Alice.ID+`",
		"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T02:00:00Z","duration":60,"name":"Meeting","note":null,
		"created_at":"2026-03-01T22:00:00Z","busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],
		"repeat_id":"`+repeat+`","updated_at":"2026-03-01T22:00:00Z","archived_at":null}`)

	var starts []string
	for _, b := range e.listAll(t, "/v1/busy_times", a.Token) {
		if b["repeat_id"] != repeat {
			t.Errorf("busy time %v is not of the series %s", b["id"], repeat)
		}
		starts = append(starts, b["starts_at"].(string))
	}
	if want := []string{"2026-03-03T01:00:00Z", "2026-03-05T01:00:00Z", "2026-03-10T01:00:00Z"}; !slices.Equal(starts, want) {
		t.Errorf("the series starts at %v, want %v", starts, want)
	}

	// A client update answers the whole client.
	r = e.do("POST", "/v1/clients/"+a.Clients[0].ID, a.Token, map[string]any{
		"first_name": "Annie", "address": map[string]any{"country_code": "au", "line1": "2 Pitt St"},
		"phone_numbers": []any{map[string]any{"number": "0412 345 678", "code": "+61"}}, "tag_ids": []string{a.Tag.ID},
	})
	phones, _ := r.JSON(t)["phone_numbers"].([]any)
	if len(phones) != 1 {
		t.Fatalf("phone_numbers %v, want one; body %s", phones, r.Body)
	}
	phone, _ := phones[0].(map[string]any)["id"].(string)
	wantBody(t, r, http.StatusOK, `{"id":"`+a.Clients[0].ID+`","title":"","first_name":"Annie","last_name":"Archer",
		"preferred_name":"","profession":"","email":"Ann@example.com","date_of_birth":null,"sex":"","gender_identity":"",
		"pronouns":"","privacy_policy_consent":null,"marketing_consent":null,"no_messages":false,"consent_method":null,"medications":[],
		"allergies":[],"intolerances":[],"emergency_contact_id":null,"emergency_contact_relationship":"",
		"invoice_contact_id":null,"notes":"","alert":"","referral_type_id":null,"referral_description":"",
		"referred_by_id":null,"phone_number":"",
		"phone_numbers":[{"id":"`+phone+`","code":"+61","number":"412345678","type":"mobile"}],
		"address":{"line1":"2 Pitt St","line2":null,"city":"","state":"","postal_code":"","country_code":"AU",
			"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""},
		"tag_ids":["`+a.Tag.ID+`"],"ndis_details":null,"related_clients":[],"linked_contacts":[],
		"created_at":"2026-01-30T22:00:00Z","updated_at":"2026-03-01T22:00:00Z","archived_at":null}`)

	// A bad client update names every failing field.
	r = e.do("POST", "/v1/clients/"+a.Clients[0].ID, a.Token, map[string]any{
		"first_name": 5, "email": "nope", "tag_ids": []string{e.b.Tag.ID}, "bogus": 1, "emergency_contact_id": 12,
	})
	wantBody(t, r, http.StatusUnprocessableEntity, `{"message":"first_name must be a string, not a number (and 4 more errors)",
		"errors":{"bogus":["is not a known field"],"email":["must be an e-mail address such as name@example.com"],
		"emergency_contact_id":["must be an id string such as \"con_01h455vb4pex5vsknk084sn02q\"; ids are prefixed strings, not numbers"],
		"first_name":["must be a string, not a number"],"tag_ids.0":["does not exist"]}}`)

	// Availability leaves out the busy hour.
	r = e.do("GET", "/v1/availability_slots?location_id="+a.Sydney.ID+"&practitioner_id="+a.Alice.ID+
		"&duration=60&from=2026-03-03&to=2026-03-03", a.Token, nil)
	var slots []string
	for _, hm := range []struct{ local, utc string }{
		{"09:00", "2026-03-02T22:00:00Z"}, {"10:00", "2026-03-02T23:00:00Z"}, {"11:00", "2026-03-03T00:00:00Z"},
		{"13:00", "2026-03-03T02:00:00Z"}, {"14:00", "2026-03-03T03:00:00Z"}, {"15:00", "2026-03-03T04:00:00Z"},
		{"16:00", "2026-03-03T05:00:00Z"},
	} {
		slots = append(slots, `{"start_time_local":"`+hm.local+`","start_date_local":"2026-03-03",`+
			`"local_timezone":"Australia/Sydney","start_datetime_utc":"`+hm.utc+`"}`)
	}
	wantBody(t, r, http.StatusOK, `{"data":[`+strings.Join(slots, ",")+`]}`)

	// A page of one links to the next occurrence.
	p := e.do("GET", "/v1/busy_times?limit=1", a.Token, nil).page(t)
	if got := pageIDs(p); !slices.Equal(got, []string{id}) {
		t.Errorf("ids %v, want the first occurrence %s", got, id)
	}
	if p.Links.Prev != nil {
		t.Errorf("first page links to a previous one: %s", *p.Links.Prev)
	}
	if p.Links.Next == nil {
		t.Fatal("a page of one of three occurrences has no next link")
	}
	wantLinkCarries(t, e, *p.Links.Next, "/v1/busy_times", url.Values{"limit": {"1"}})

	// A method the path does not allow answers 405 with Allow.
	r = e.do("DELETE", "/v1/busy_times", a.Token, nil)
	wantBody(t, r, http.StatusMethodNotAllowed, `{"message":"The method DELETE is not allowed here; allowed: GET, HEAD, POST."}`)
	if allow := r.Header.Get("Allow"); allow != "GET, HEAD, POST" {
		t.Errorf("Allow %q, want GET, HEAD, POST", allow)
	}
}
