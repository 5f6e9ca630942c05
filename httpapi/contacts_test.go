package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

func TestCreateContactAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	id, r := setupCreate(t, e, "contacts", `{"type":"referrer","title":"Dr","first_name":"Jo","last_name":"Lee",
		"preferred_name":"Joey","profession":"GP","company":"Harbour Medical","email":"jo@example.com","notes":"Fax only",
		"phone_numbers":[{"number":"02 9000 1111","code":"+61","type":"work"},{"number":"0400-111-222"}],
		"address":{"line1":"5 Bay St","city":"Sydney","state":"NSW","postal_code":"2000","country_code":"au"},
		"tag_ids":["`+a.Tag.ID+`"]}`)
	got := r.JSON(t)
	phones := got["phone_numbers"].([]any)
	pho := func(i int) string { return phones[i].(map[string]any)["id"].(string) }
	for i := range phones {
		if !tid.Valid(pho(i), "pho") {
			t.Fatalf("phone number %d has id %q, want a new pho_ id", i, pho(i))
		}
	}
	want := withIDs(`{"id":"ID","type":"referrer","title":"Dr","first_name":"Jo","last_name":"Lee","preferred_name":"Joey",
		"profession":"GP","company":"Harbour Medical","email":"jo@example.com","notes":"Fax only",
		"phone_numbers":[{"id":"PHO1","code":"+61","number":"290001111","type":"work"},{"id":"PHO2","code":"+61","number":"400111222","type":"mobile"}],
		"address":{"line1":"5 Bay St","line2":null,"city":"Sydney","state":"NSW","postal_code":"2000","country_code":"AU",
			"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""},
		"tag_ids":["TAG"],"created_at":"NOW","updated_at":"NOW","archived_at":null}`,
		map[string]string{"ID": id, "PHO1": pho(0), "PHO2": pho(1), "TAG": a.Tag.ID, "NOW": setupNow})
	wantBody(t, r, http.StatusCreated, want)
	wantBody(t, e.do("GET", "/v1/contacts/"+id, a.Token, nil), http.StatusOK, want)
}

func TestContactRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.a, e.b
	for _, tc := range []struct {
		name   string
		body   string
		want   map[string][]string
		create bool // only as a create: an update may leave type out
	}{
		{"type is required", `{"first_name":"Jo"}`, oneError("type", "is required"), true},
		{"type is one of the contact types", `{"type":"doctor"}`,
			oneError("type", "must be one of: third_party_payer, referrer, plan_manager, emergency, other"), false},
		{"every plain field at once", `{"type":"other","email":"jo@","first_name":["Jo"],"notes":"` + strings.Repeat("n", 501) + `"}`,
			map[string][]string{
				"email":      {"must be an e-mail address such as name@example.com"},
				"first_name": {"must be a string, not an array"},
				"notes":      {"must be at most 500 characters (it has 501)"},
			}, false},
		{"phone numbers like a client's", `{"type":"other","phone_numbers":[{"code":"+6a1"},{"number":"12","type":"pager"},"0400111222"]}`,
			map[string][]string{
				"phone_numbers.0.number": {"is required"},
				"phone_numbers.0.code":   {"must be a country dial code of 1 to 4 digits, such as 61"},
				"phone_numbers.1.number": {"must be a phone number in international format, such as +61 412 345 678, or in the national format of AU (the record's address.country_code, else AU), such as 0412 345 678"},
				"phone_numbers.1.type":   {"must be one of: mobile, home, work, fax, other"},
				"phone_numbers.2":        {"must be an object, not a string"},
			}, false},
		{"tags must be the business's own", `{"type":"other","tag_ids":["TAG","B_TAG","` + tid.New("tag") + `"]}`,
			map[string][]string{
				"tag_ids.1": {"does not exist"},
				"tag_ids.2": {"does not exist"},
			}, false},
		{"tag ids are tag ids, once each", `{"type":"other","tag_ids":["TAG","TAG","REFERRAL"]}`,
			map[string][]string{
				"tag_ids.1": {"repeats an id given earlier"},
				"tag_ids.2": {"must be an id starting with tag_"},
			}, false},
		{"references are checked beside other failures", `{"type":"nurse","tag_ids":["B_TAG"],"address":{"country_code":"XX"}}`,
			map[string][]string{
				"type":                 {"must be one of: third_party_payer, referrer, plan_manager, emergency, other"},
				"tag_ids.0":            {"does not exist"},
				"address.country_code": {"must be an ISO 3166-1 alpha-2 country code such as AU"},
			}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.NewReplacer("B_TAG", b.Tag.ID, "TAG", a.Tag.ID, "REFERRAL", a.Referral.ID).Replace(tc.body)
			wantInvalid(t, e.do("POST", "/v1/contacts", a.Token, body), tc.want, "")
			if tc.create {
				return
			}
			wantUpdateRefused(t, e, "/v1/contacts/"+a.Payer.ID, body, tc.want)
		})
	}
	wantRecordCount(t, e, "contacts", 2)
}

func TestContactUpdateChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	tag2, _ := setupCreate(t, e, "tags", `{"name":"Second"}`)
	base := `{"type":"plan_manager","first_name":"Pat","last_name":"Ode","company":"Plan Co","email":"pat@example.com",
		"notes":"Monthly","phone_numbers":[{"number":"0400111222"},{"number":"0299998888","type":"work"}],
		"address":{"line1":"9 High St","city":"Perth","country_code":"AU"},"tag_ids":["` + a.Tag.ID + `"]}`
	for _, tc := range []struct {
		name string
		body string
		// want holds the top-level fields that differ from the contact
		// before the update, updated_at aside; PHO1 and PHO2 are the ids
		// of its numbers.
		want string
	}{
		{"empty body", `{}`, `{}`},
		{"the type", `{"type":"emergency"}`, `{"type":"emergency"}`},
		{"null clears text", `{"first_name":null,"company":null,"email":null,"notes":null}`,
			`{"first_name":"","company":"","email":"","notes":""}`},
		{"null empties lists", `{"phone_numbers":null,"tag_ids":null}`, `{"phone_numbers":[],"tag_ids":[]}`},
		{"tags are replaced whole", `{"tag_ids":["TAG2","TAG"]}`, `{"tag_ids":["TAG2","TAG"]}`},
		{"numbers sent with their id keep it", `{"phone_numbers":[{"id":"PHO2","number":"0299997777","type":"home"}]}`,
			`{"phone_numbers":[{"id":"PHO2","code":"+61","number":"299997777","type":"home"}]}`},
		{"the address changes part by part", `{"address":{"city":"Fremantle","postal_code":"6160"}}`,
			`{"address":{"line1":"9 High St","line2":null,"city":"Fremantle","state":"","postal_code":"6160","country_code":"AU",
				"latitude":null,"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.clock = testfix.Now
			id, created := setupCreate(t, e, "contacts", base)
			before := created.JSON(t)
			phones := before["phone_numbers"].([]any)
			ids := map[string]string{"TAG2": tag2, "TAG": a.Tag.ID,
				"PHO1": phones[0].(map[string]any)["id"].(string), "PHO2": phones[1].(map[string]any)["id"].(string)}
			e.clock = testfix.Now.Add(time.Hour)
			r := e.do("POST", "/v1/contacts/"+id, a.Token, withIDs(tc.body, ids))
			want := updatedRecord(t, created, withIDs(tc.want, ids), "2026-03-01T23:00:00Z")
			wantBody(t, r, http.StatusOK, want)
			wantBody(t, e.do("GET", "/v1/contacts/"+id, a.Token, nil), http.StatusOK, want)
		})
	}
}

func TestContactIsFoundByWhatItWasCreatedAndUpdatedWith(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	id, _ := setupCreate(t, e, "contacts", `{"type":"referrer","company":"Harbour Medical","phone_numbers":[{"number":"0400 123 987"}]}`)
	for _, q := range []string{"harbour", "0400123987", "0400 123 987"} {
		if got := listedIDs(t, e, "/v1/contacts?q="+strings.ReplaceAll(q, " ", "+"), a.Token); jsonText(got) != jsonText([]string{id}) {
			t.Errorf("q=%s: %v, want [%s]", q, got, id)
		}
	}
	e.clock = testfix.Now.Add(time.Hour)
	wantStatus(t, e.do("POST", "/v1/contacts/"+id, a.Token, `{"company":"Bayside Clinic","tag_ids":["`+a.Tag.ID+`"]}`), http.StatusOK)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"q=harbour", []string{}},
		{"q=bayside", []string{id}},
		{"tag_id=" + a.Tag.ID, []string{id}},
	} {
		if got := listedIDs(t, e, "/v1/contacts?"+tc.query, a.Token); jsonText(got) != jsonText(tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, got, tc.want)
		}
	}
}
