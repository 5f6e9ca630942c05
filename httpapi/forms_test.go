package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// /v1/forms: create from a template, read, send, archive. Answers come
// only through the hosted page (package web).

// formRecord is a form of templateRecord as the API answers it: every
// question carries "answer", null until answered.
const formRecord = `{"id":"ID","client_id":"CLIENT","location_id":LOCATION,"form_template_id":"TEMPLATE","appointment_client_id":APC,
	"name":"Intake","color":"#2e86ab","completion_message":"Thanks!","prefill_client_fields":true,"override_client_fields":false,
	"status":"not_started","sent_status":"not_sent",
	"content":[{"sections":[{"title":"About you","description":"So we can help","questions":[
		{"id":"email","type":"short_text","label":"E-mail","required":true,"options":[],"client_field":"email","answer":null},
		{"id":"areas","type":"multiple_choice","label":"Where?","required":false,"options":["Neck","Back"],"client_field":null,"answer":null}]}]}],
	"hosted_form_url":"BASE/f/ID?secret=SECRET","sent_at":null,"viewed_at":null,"completed_at":null,"archived_at":null,
	"created_at":"2026-03-01T22:00:00Z","updated_at":"UPDATED"}`

// formFixture is clinic A with templateBody and an appointment of Ann's,
// for making forms.
type formFixture struct {
	template string
	apc      practiced.AppointmentClient // Ann's
	benAPC   practiced.AppointmentClient // Ben's
}

func newFormFixture(t *testing.T, e *env) formFixture {
	t.Helper()
	a := e.a
	apt := newAppointment(a.Alice, a.Sydney, &a.Consult, testfix.Now.Add(48*time.Hour), 30)
	apt.MaxClients = 2
	f := formFixture{template: createTemplate(t, e),
		apc:    newAppointmentClient(apt, a.Clients[0].ID, practiced.StatusBooked),
		benAPC: newAppointmentClient(apt, a.Clients[1].ID, practiced.StatusBooked)}
	seedData(t, e, a, practiced.SeedData{Appointments: []practiced.Appointment{apt},
		AppointmentClients: []practiced.AppointmentClient{f.apc, f.benAPC}})
	return f
}

// createForm creates a form of the fixture's template for Ann and returns
// its id.
func (f formFixture) createForm(t *testing.T, e *env) string {
	t.Helper()
	r := e.do("POST", "/v1/forms", e.a.Token, map[string]any{"form_template_id": f.template, "client_id": e.a.Clients[0].ID})
	wantStatus(t, r, http.StatusCreated)
	return r.JSON(t)["id"].(string)
}

// formJSON fills formRecord in: location and apc are JSON values (null or
// a quoted id). The link's secret is the one the store keeps.
func (f formFixture) formJSON(e *env, id, location, apc, updated string) string {
	return record(formRecord, "ID", id, "CLIENT", e.a.Clients[0].ID, "LOCATION", location, "TEMPLATE", f.template,
		"APC", apc, "BASE", e.srv.URL, "SECRET", e.linkSecret(id), "UPDATED", updated)
}

// linkSecret is the secret of a form's hosted link, as the store keeps it.
func (e *env) linkSecret(id string) string {
	e.t.Helper()
	f, err := e.st.GetForm(context.Background(), e.a.Business.ID, id)
	if err != nil {
		e.t.Fatal(err)
	}
	if f.LinkSecret == "" {
		e.t.Fatal("form " + id + " has no link secret")
	}
	return f.LinkSecret
}

func TestFormCreateCopiesTheTemplateWithEveryAnswerNull(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	for _, tc := range []struct {
		name          string
		body          map[string]any
		location, apc string
	}{
		{"client alone", map[string]any{"form_template_id": fx.template, "client_id": e.a.Clients[0].ID}, "null", "null"},
		{"location and appointment client", map[string]any{"form_template_id": fx.template, "client_id": e.a.Clients[0].ID,
			"location_id": e.a.Sydney.ID, "appointment_client_id": fx.apc.ID}, `"` + e.a.Sydney.ID + `"`, `"` + fx.apc.ID + `"`},
		{"nulls", map[string]any{"form_template_id": fx.template, "client_id": e.a.Clients[0].ID,
			"location_id": nil, "appointment_client_id": nil}, "null", "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/v1/forms", e.a.Token, tc.body)
			id, _ := r.JSON(t)["id"].(string)
			if !tid.Valid(id, "for") {
				t.Fatalf("id %q is not a form id; body %s", id, r.Body)
			}
			want := fx.formJSON(e, id, tc.location, tc.apc, "2026-03-01T22:00:00Z")
			wantBody(t, r, http.StatusCreated, want)
			wantBody(t, e.do("GET", "/v1/forms/"+id, e.a.Token, nil), http.StatusOK, want)
		})
	}
}

func TestFormKeepsTheContentItWasMadeWithWhenTheTemplateChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	wantStatus(t, e.do("POST", "/v1/form_templates/"+fx.template, e.a.Token,
		`{"name":"Renamed","content":[{"sections":[{"questions":[{"id":"x","type":"date","label":"When?"}]}]}]}`), http.StatusOK)
	wantStatus(t, e.do("POST", "/v1/form_templates/"+fx.template+"/archive", e.a.Token, `{}`), http.StatusOK)
	wantBody(t, e.do("GET", "/v1/forms/"+id, e.a.Token, nil), http.StatusOK, fx.formJSON(e, id, "null", "null", "2026-03-01T22:00:00Z"))
}

func TestFormCreateReportsEveryFailingFieldAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	b := e.b
	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"required", `{}`, `{"message":"form_template_id is required (and 1 more error)","errors":{
			"form_template_id":["is required"],"client_id":["is required"]}}`},
		{"nulls", `{"form_template_id":null,"client_id":null}`, `{"message":"form_template_id is required and cannot be null (and 1 more error)","errors":{
			"form_template_id":["is required and cannot be null"],"client_id":["is required and cannot be null"]}}`},
		{"shapes", `{"form_template_id":12,"client_id":"` + e.a.Payer.ID + `","location_id":"loc_1","appointment_client_id":[],"status":"completed"}`,
			`{"message":"form_template_id must be an id string such as \"fte_01h455vb4pex5vsknk084sn02q\"; ids are prefixed strings, not numbers (and 4 more errors)","errors":{
			"form_template_id":["must be an id string such as \"fte_01h455vb4pex5vsknk084sn02q\"; ids are prefixed strings, not numbers"],
			"client_id":["must be an id starting with cli_"],"location_id":["must be an id starting with loc_"],
			"appointment_client_id":["must be a string, not an array"],"status":["is not a known field"]}}`},
		{"records of another business", map[string]any{"form_template_id": b.Template.ID, "client_id": b.Clients[0].ID,
			"location_id": b.Sydney.ID, "appointment_client_id": tid.New("apc")},
			`{"message":"form_template_id does not exist (and 3 more errors)","errors":{"form_template_id":["does not exist"],
			"client_id":["does not exist"],"location_id":["does not exist"],"appointment_client_id":["does not exist"]}}`},
		{"another client's appointment", map[string]any{"form_template_id": fx.template, "client_id": e.a.Clients[0].ID,
			"appointment_client_id": fx.benAPC.ID},
			`{"message":"appointment_client_id is another client's attendance (client ` + e.a.Clients[1].ID + `), not client_id's","errors":{
			"appointment_client_id":["is another client's attendance (client ` + e.a.Clients[1].ID + `), not client_id's"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantBody(t, e.do("POST", "/v1/forms", e.a.Token, tc.body), http.StatusUnprocessableEntity, tc.want)
		})
	}
	if n := len(e.listAll(t, "/v1/forms?include_archived=true", e.a.Token)); n != 0 {
		t.Errorf("%d forms after refused creates, want none", n)
	}
}

func TestFormOfAnotherBusinessOrMalformedIdIsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	notFound := `{"message":"Form not found."}`
	for _, other := range []string{tid.New("for"), "for_1", e.a.Clients[0].ID, fx.template} {
		path := "/v1/forms/" + other
		wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusNotFound, notFound)
		// send looks the form up before reading the body.
		wantBody(t, e.do("POST", path+"/send", e.a.Token, `{"bogus":1}`), http.StatusNotFound, notFound)
		for _, action := range []string{"/archive", "/unarchive"} {
			wantBody(t, e.do("POST", path+action, e.a.Token, `{}`), http.StatusNotFound, notFound)
		}
	}
	for _, action := range []string{"", "/send", "/archive", "/unarchive"} {
		method := "POST"
		if action == "" {
			method = "GET"
		}
		wantBody(t, e.do(method, "/v1/forms/"+id+action, e.b.Token, nil), http.StatusNotFound, notFound)
	}
	for _, path := range []string{"/v1/forms", "/v1/forms/" + id + "/send", "/v1/forms/" + id + "/archive"} {
		wantBody(t, e.do("POST", path, e.a.ReadOnlyToken, `{}`), http.StatusForbidden, `{"message":"This API key is read-only."}`)
	}
	// A form has no update endpoint: answers come through its page.
	r := e.do("POST", "/v1/forms/"+id, e.a.Token, `{}`)
	wantStatus(t, r, http.StatusMethodNotAllowed)
	if got := r.Header.Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow %q, want GET, HEAD", got)
	}
}

func TestFormSendMarksItSentOnceAndResendingKeepsTheFirstSending(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	sent := func(updated string) string {
		return record(fx.formJSON(e, id, "null", "null", updated), `"sent_status":"not_sent"`, `"sent_status":"sent"`,
			`"sent_at":null`, `"sent_at":"2026-03-01T23:00:00Z"`)
	}
	e.clock = testfix.Now.Add(time.Hour)
	wantBody(t, e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, nil), http.StatusOK, sent("2026-03-01T23:00:00Z"))
	e.clock = testfix.Now.Add(2 * time.Hour)
	wantBody(t, e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, `{}`), http.StatusOK, sent("2026-03-01T23:00:00Z"))
	wantBody(t, e.do("GET", "/v1/forms/"+id, e.a.Token, nil), http.StatusOK, sent("2026-03-01T23:00:00Z"))
	wantBody(t, e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, `{"channel":"sms"}`), http.StatusUnprocessableEntity,
		`{"message":"channel is not a known field","errors":{"channel":["is not a known field"]}}`)

	// A viewed form stays viewed when sent again.
	viewed := fx.createForm(t, e)
	wantStatus(t, e.do("GET", "/f/"+viewed+"?secret="+e.linkSecret(viewed), "", nil), http.StatusOK)
	r := e.do("POST", "/v1/forms/"+viewed+"/send", e.a.Token, `{}`)
	wantStatus(t, r, http.StatusOK)
	if got := r.JSON(t); got["sent_status"] != "viewed" || got["sent_at"] != nil || got["viewed_at"] != "2026-03-02T00:00:00Z" {
		t.Errorf("sending a viewed form: sent_status %v, sent_at %v, viewed_at %v", got["sent_status"], got["sent_at"], got["viewed_at"])
	}
}

func TestFormSendRefusesAnArchivedForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	wantStatus(t, e.do("POST", "/v1/forms/"+id+"/archive", e.a.Token, `{}`), http.StatusOK)
	wantBody(t, e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, `{}`), http.StatusUnprocessableEntity,
		`{"message":"sent_status cannot become sent: the form is archived; unarchive it first","errors":{
		"sent_status":["cannot become sent: the form is archived; unarchive it first"]}}`)
	if got := e.do("GET", "/v1/forms/"+id, e.a.Token, nil).JSON(t); got["sent_status"] != "not_sent" {
		t.Errorf("sent_status %v after a refused send", got["sent_status"])
	}
}

func TestFormArchiveHidesItFromTheListAndItsPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	other := fx.createForm(t, e)
	e.clock = testfix.Now.Add(time.Hour)
	archived := record(fx.formJSON(e, id, "null", "null", "2026-03-01T23:00:00Z"), `"archived_at":null`, `"archived_at":"2026-03-01T23:00:00Z"`)
	wantBody(t, e.do("POST", "/v1/forms/"+id+"/archive", e.a.Token, `{}`), http.StatusOK, archived)
	wantBody(t, e.do("GET", "/v1/forms/"+id, e.a.Token, nil), http.StatusOK, archived)

	ids := func(path string) string {
		var out []string
		for _, f := range e.listAll(t, path, e.a.Token) {
			out = append(out, f["id"].(string))
		}
		return strings.Join(out, ",")
	}
	if got := ids("/v1/forms"); got != other {
		t.Errorf("forms listed %s, want only %s", got, other)
	}
	if got := ids("/v1/forms?include_archived=true"); got != id+","+other {
		t.Errorf("forms listed with archived %s, want %s,%s", got, id, other)
	}
	wantStatus(t, e.do("GET", "/f/"+id+"?secret="+e.linkSecret(id), "", nil), http.StatusNotFound)

	e.clock = testfix.Now.Add(2 * time.Hour)
	wantBody(t, e.do("POST", "/v1/forms/"+id+"/unarchive", e.a.Token, nil), http.StatusOK,
		fx.formJSON(e, id, "null", "null", "2026-03-02T00:00:00Z"))
	wantStatus(t, e.do("GET", "/f/"+id+"?secret="+e.linkSecret(id), "", nil), http.StatusOK)
}

func TestFormListCarriesEveryAnswerKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	r := e.do("GET", "/v1/forms?filter[form_template_id]="+fx.template, e.a.Token, nil)
	wantBody(t, r, http.StatusOK, `{"data":[`+fx.formJSON(e, id, "null", "null", "2026-03-01T22:00:00Z")+`],"links":{"prev":null,"next":null}}`)
}

// The hosted page can rewrite the form's client, so its link is shown
// only to keys that can write: every way a read-only key reads a form
// (one, a list, the change feed) answers hosted_form_url "" and nowhere
// carries the link's secret.
func TestFormLinkIsShownOnlyToKeysThatCanWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fx := newFormFixture(t, e)
	id := fx.createForm(t, e)
	wantStatus(t, e.do("POST", "/v1/forms/"+id+"/send", e.a.Token, map[string]any{}), http.StatusOK)
	secret := e.linkSecret(id)
	link := e.srv.URL + "/f/" + id + "?secret=" + secret

	t.Run("read-write key", func(t *testing.T) {
		for _, path := range []string{"/v1/forms/" + id, "/v1/forms"} {
			r := e.do("GET", path, e.a.Token, nil)
			wantStatus(t, r, http.StatusOK)
			if !strings.Contains(string(r.Body), `"hosted_form_url":"`+link+`"`) {
				t.Errorf("GET %s: want the link %s in %s", path, link, r.Body)
			}
		}
	})
	t.Run("read-only key", func(t *testing.T) {
		for _, path := range []string{"/v1/forms/" + id, "/v1/forms", "/v1/events?record_type=form", "/v1/events?type=form.sent"} {
			r := e.do("GET", path, e.a.ReadOnlyToken, nil)
			wantStatus(t, r, http.StatusOK)
			body := string(r.Body)
			if strings.Contains(body, secret) || strings.Contains(body, "/f/") {
				t.Errorf("GET %s: a read-only key sees the form's link: %s", path, body)
			}
			if n := strings.Count(body, `"hosted_form_url":""`); n == 0 {
				t.Errorf("GET %s: want hosted_form_url \"\": %s", path, body)
			}
		}
		var got map[string]any
		r := e.do("GET", "/v1/forms/"+id, e.a.ReadOnlyToken, nil)
		got = r.JSON(t)
		if got["hosted_form_url"] != "" {
			t.Errorf("hosted_form_url %v", got["hosted_form_url"])
		}
	})
}
