package httpapi_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/tid"
)

// POST /v1/clients, GET /v1/clients/{client}, POST …/archive and
// …/unarchive: the rules of docs/api.md.

// emptyClient is a client created with names alone, as the API shows it,
// with ID for its id; the server's clock stamps it.
const emptyClient = `{"id":"ID","title":"","first_name":"Zoe","last_name":"Zed","preferred_name":"","profession":"","email":"",
	"date_of_birth":null,"sex":"","gender_identity":"","pronouns":"","privacy_policy_consent":null,"marketing_consent":null,"no_messages":false,
	"consent_method":null,"medications":[],"allergies":[],"intolerances":[],"emergency_contact_id":null,
	"emergency_contact_relationship":"","invoice_contact_id":null,"notes":"","alert":"","referral_type_id":null,
	"referral_description":"","referred_by_id":null,"phone_number":"","phone_numbers":[],
	"address":{"line1":"","line2":null,"city":"","state":"","postal_code":"","country_code":"","latitude":null,"longitude":null,
		"formatted_address_geocoder_estimate":"","place_id":""},
	"tag_ids":[],"ndis_details":null,"related_clients":[],"linked_contacts":[],
	"created_at":"2026-03-01T22:00:00Z","updated_at":"2026-03-01T22:00:00Z","archived_at":null}`

// withFields returns the JSON object text base with fields set over it.
func withFields(t *testing.T, base, fields string) string {
	t.Helper()
	m := decodeJSON(t, base)
	for k, v := range decodeJSON(t, fields) {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// wantSameRecord fails unless the record answered by GET path and listed
// by list (with archived ones) are both exactly want.
func wantSameRecord(t *testing.T, e *env, path, list, want string) {
	t.Helper()
	wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusOK, want)
	id := path[strings.LastIndex(path, "/")+1:]
	for _, rec := range e.listAll(t, list+"?include_archived=true", e.a.Token) {
		if rec["id"] == id {
			b, _ := json.Marshal(rec)
			if canonicalJSON(t, b) != canonicalJSON(t, []byte(want)) {
				t.Fatalf("listed %s\nwant %s", b, want)
			}
			return
		}
	}
	t.Fatalf("%s is not listed by %s", id, list)
}

func TestCreateClientAnswers201WithTheWholeClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := newClientRefs(t, e)
	for _, tc := range []struct {
		name string
		body string
		// want holds the fields that differ from emptyClient.
		want string
	}{
		{"names alone", `{"first_name":"Zoe","last_name":"Zed"}`, `{}`},
		{"every field",
			`{"first_name":"Zoe","last_name":"Zed","title":"Dr","preferred_name":"Z","profession":"Nurse","email":"zoe@example.com",
			  "date_of_birth":"1980-02-29","sex":"female","gender_identity":"woman","pronouns":"she/her","privacy_policy_consent":"accepted",
			  "marketing_consent":"declined","no_messages":true,"consent_method":"paper_form","medications":[{"name":"Insulin","dosage":"10u"}],
			  "allergies":[{"name":"Bees"}],"intolerances":["gluten"],"emergency_contact_id":"EMERGENCY","emergency_contact_relationship":"sister",
			  "invoice_contact_id":"PAYER","notes":"Notes","alert":"Alert","referral_type_id":"REFERRAL","referral_description":"GP",
			  "referred_by_id":"ANN","phone_number":"0412 345 678","phone_numbers":[{"number":"02 9999 0000","code":"+61","type":"home"}],
			  "address":{"line1":"1 Main St","line2":"","city":"Sydney","state":"NSW","postal_code":"2000","country_code":"au","latitude":-33.5},
			  "tag_ids":["TAG"],"ndis_details":{"ndis_number":"430000001","plan_manager_id":"PAYER","diagnoses":["ASD"]},
			  "related_clients":[{"related_client_id":"BEN"}],"linked_contacts":[{"contact_id":"PAYER","include_in_invoice_notifications":true}]}`,
			`{"title":"Dr","preferred_name":"Z","profession":"Nurse","email":"zoe@example.com",
			  "date_of_birth":"1980-02-29","sex":"female","gender_identity":"woman","pronouns":"she/her","privacy_policy_consent":"accepted",
			  "marketing_consent":"declined","no_messages":true,"consent_method":"paper_form","medications":[{"name":"Insulin","dosage":"10u"}],
			  "allergies":[{"name":"Bees","reaction":""}],"intolerances":["gluten"],"emergency_contact_id":"EMERGENCY","emergency_contact_relationship":"sister",
			  "invoice_contact_id":"PAYER","notes":"Notes","alert":"Alert","referral_type_id":"REFERRAL","referral_description":"GP",
			  "referred_by_id":"ANN","phone_number":"+61412345678","phone_numbers":[{"id":"PHONE","number":"299990000","code":"+61","type":"home"}],
			  "address":{"line1":"1 Main St","line2":null,"city":"Sydney","state":"NSW","postal_code":"2000","country_code":"AU","latitude":-33.5,
			  	"longitude":null,"formatted_address_geocoder_estimate":"","place_id":""},
			  "tag_ids":["TAG"],"ndis_details":{"ndis_number":"430000001","plan_start_date":null,"plan_end_date":null,"plan_manager_id":"PAYER",
			  	"plan_nominee_id":null,"diagnoses":["ASD"]},
			  "related_clients":[{"related_client_id":"BEN"}],"linked_contacts":[{"contact_id":"PAYER","include_in_appointment_notifications":false,
			  	"include_in_invoice_notifications":true,"include_in_progress_note_notifications":false,"note":""}]}`},
		{"nulls leave fields unset", `{"first_name":"Zoe","last_name":"Zed","title":null,"email":null,"tag_ids":null,"address":null,"ndis_details":null}`, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/v1/clients", e.a.Token, refs.replacer.Replace(tc.body))
			wantStatus(t, r, http.StatusCreated)
			got := r.JSON(t)
			id, _ := got["id"].(string)
			if !tid.Valid(id, "cli") {
				t.Fatalf("id %q is not a cli_ id", id)
			}
			want := strings.ReplaceAll(withFields(t, emptyClient, refs.replacer.Replace(tc.want)), `"ID"`, `"`+id+`"`)
			if phones, _ := got["phone_numbers"].([]any); len(phones) == 1 {
				phone, _ := phones[0].(map[string]any)["id"].(string)
				if !tid.Valid(phone, "pho") {
					t.Fatalf("phone number id %q is not a pho_ id", phone)
				}
				want = strings.ReplaceAll(want, `"PHONE"`, `"`+phone+`"`)
			}
			wantBody(t, r, http.StatusCreated, want)
			wantSameRecord(t, e, "/v1/clients/"+id, "/v1/clients", want)
			wantRecordEvents(t, e, id, []string{"client.created"}, []string{want})
		})
	}
}

func TestCreateClientRefusesInvalidBodiesAndCreatesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := newClientRefs(t, e)
	const (
		missing   = "does not exist"
		noName    = "cannot be empty: a client needs a first and last name"
		required  = "is required"
		notString = "must be a string, not a number"
	)
	type errs = map[string][]string
	before := e.listAll(t, "/v1/clients?include_archived=true", e.a.Token)
	for _, tc := range []struct {
		name string
		body string
		want errs
	}{
		{"empty body", `{}`, errs{"first_name": {required}, "last_name": {required}}},
		{"no last name", `{"first_name":"Zoe"}`, errs{"last_name": {required}}},
		{"null names", `{"first_name":null,"last_name":null}`, errs{"first_name": {noName}, "last_name": {noName}}},
		{"blank names", `{"first_name":" ","last_name":""}`, errs{"first_name": {noName}, "last_name": {noName}}},
		{"a name as a number", `{"first_name":1,"last_name":"Zed"}`, errs{"first_name": {notString}}},
		{"an unknown field", `{"first_name":"Zoe","last_name":"Zed","nickname":"Z"}`, errs{"nickname": {"is not a known field"}}},
		{"references of another business", `{"first_name":"Zoe","last_name":"Zed","emergency_contact_id":"B_CONTACT","tag_ids":["TAG","B_TAG"],
			"related_clients":[{"related_client_id":"B_CLIENT"}]}`,
			errs{"emergency_contact_id": {missing}, "tag_ids.1": {missing}, "related_clients.0.related_client_id": {missing}}},
		{"every failure at once", `{"last_name":"","email":"zoe","date_of_birth":"2099-01-01","referral_type_id":"B_REFERRAL","bogus":true}`,
			errs{"first_name": {required}, "last_name": {noName}, "email": {"must be an e-mail address such as name@example.com"},
				"date_of_birth": {"cannot be in the future"}, "referral_type_id": {missing}, "bogus": {"is not a known field"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do("POST", "/v1/clients", e.a.Token, refs.replacer.Replace(tc.body)), tc.want, "")
		})
	}
	if after := e.listAll(t, "/v1/clients?include_archived=true", e.a.Token); !reflect.DeepEqual(before, after) {
		t.Fatalf("refused creations changed the clients: %d before, %d after", len(before), len(after))
	}
	if evs := e.listAll(t, "/v1/events", e.a.Token); len(evs) != 0 {
		t.Fatalf("refused creations recorded %d events", len(evs))
	}
}

func TestClientPathIDThatIsMalformedUnknownOrOfAnotherBusinessIs404(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.a.Clients[0].ID
	for _, id := range []string{e.b.Clients[0].ID, tid.New("cli"), e.a.Payer.ID, "cli_123", strings.TrimPrefix(ann, "cli_"),
		"cli_" + strings.ToUpper(strings.TrimPrefix(ann, "cli_"))} {
		for _, op := range []struct{ method, suffix string }{{"GET", ""}, {"POST", "/archive"}, {"POST", "/unarchive"}} {
			t.Run(op.method+" "+id+op.suffix, func(t *testing.T) {
				var body any
				if op.method == "POST" {
					body = map[string]any{}
				}
				wantBody(t, e.do(op.method, "/v1/clients/"+id+op.suffix, e.a.Token, body), http.StatusNotFound, messageJSON("Client not found."))
			})
		}
	}
	if got := e.listAll(t, "/v1/clients", e.b.Token); len(got) != 3 {
		t.Fatalf("clinic B has %d live clients, want its 3", len(got))
	}
}

func TestArchiveClientHidesItFromTheListUntilUnarchived(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.a.Clients[0].ID
	path := "/v1/clients/" + ann
	live := string(e.do("GET", path, e.a.Token, nil).Body)
	listed := func() []string { return pageIDs(e.do("GET", "/v1/clients", e.a.Token, nil).page(t)) }
	if got := listed(); len(got) != 3 || got[0] != ann {
		t.Fatalf("clients before archiving: %v", got)
	}

	// The server's clock stamps archived_at and updated_at.
	e.clock = e.clock.Add(90 * time.Minute)
	archived := withFields(t, live, `{"archived_at":"2026-03-01T23:30:00Z","updated_at":"2026-03-01T23:30:00Z"}`)
	wantBody(t, e.do("POST", path+"/archive", e.a.Token, nil), http.StatusOK, archived)
	wantSameRecord(t, e, path, "/v1/clients", archived)
	if got := listed(); len(got) != 2 || got[0] == ann {
		t.Fatalf("clients after archiving: %v, want the two others", got)
	}
	// Archiving again changes nothing and records nothing.
	e.clock = e.clock.Add(time.Minute)
	wantBody(t, e.do("POST", path+"/archive", e.a.Token, map[string]any{}), http.StatusOK, archived)

	e.clock = e.clock.Add(time.Minute)
	unarchived := withFields(t, live, `{"archived_at":null,"updated_at":"2026-03-01T23:32:00Z"}`)
	wantBody(t, e.do("POST", path+"/unarchive", e.a.Token, nil), http.StatusOK, unarchived)
	wantBody(t, e.do("POST", path+"/unarchive", e.a.Token, nil), http.StatusOK, unarchived)
	wantSameRecord(t, e, path, "/v1/clients", unarchived)
	if got := listed(); len(got) != 3 {
		t.Fatalf("clients after unarchiving: %v", got)
	}
	wantRecordEvents(t, e, ann, []string{"client.archived", "client.unarchived"}, []string{archived, unarchived})

	// An archived client can still be read and updated.
	wantStatus(t, e.do("POST", path+"/archive", e.a.Token, nil), http.StatusOK)
	r := e.do("POST", path, e.a.Token, map[string]any{"notes": "moved away"})
	wantStatus(t, r, http.StatusOK)
	if got := r.JSON(t); got["notes"] != "moved away" || got["archived_at"] == nil {
		t.Fatalf("update of an archived client: %v", got)
	}
}

func TestArchiveRefusesABodyWithFieldsAndReadOnlyKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := "/v1/clients/" + e.a.Clients[0].ID
	wantInvalid(t, e.do("POST", path+"/archive", e.a.Token, map[string]any{"archived": true}), oneError("archived", "is not a known field"), "")
	wantBody(t, e.do("POST", path+"/archive", e.a.Token, "[]"), http.StatusBadRequest, messageJSON("The request body must be a JSON object."))
	wantBody(t, e.do("POST", path+"/archive", e.a.ReadOnlyToken, nil), http.StatusForbidden, messageJSON("This API key is read-only."))
	wantBody(t, e.do("POST", path+"/unarchive", e.a.ReadOnlyToken, nil), http.StatusForbidden, messageJSON("This API key is read-only."))
	if got := e.do("GET", path, e.a.ReadOnlyToken, nil).JSON(t); got["archived_at"] != nil {
		t.Fatalf("a refused archive archived the client: %v", got)
	}
}
