package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// /v1/form_templates: create, read, partial update, archive, list.

const templateBody = `{"name":"Intake","color":"#2E86AB","completion_message":"Thanks!","prefill_client_fields":true,
	"content":[{"sections":[{"title":"About you","description":"So we can help","questions":[
		{"id":"email","type":"short_text","label":"E-mail","required":true,"client_field":"email"},
		{"id":"areas","type":"multiple_choice","label":"Where?","options":["Neck","Back"]}]}]}]}`

// templateRecord is templateBody as the API answers it; ID, CREATED and
// UPDATED stand for the record's values.
const templateRecord = `{"id":"ID","name":"Intake","color":"#2e86ab","completion_message":"Thanks!",
	"prefill_client_fields":true,"override_client_fields":false,
	"content":[{"sections":[{"title":"About you","description":"So we can help","questions":[
		{"id":"email","type":"short_text","label":"E-mail","required":true,"options":[],"client_field":"email"},
		{"id":"areas","type":"multiple_choice","label":"Where?","required":false,"options":["Neck","Back"],"client_field":null}]}]}],
	"created_at":"CREATED","updated_at":"UPDATED","archived_at":null}`

func record(text string, pairs ...string) string { return strings.NewReplacer(pairs...).Replace(text) }

// createTemplate creates templateBody in clinic A and returns its id.
func createTemplate(t *testing.T, e *env) string {
	t.Helper()
	r := e.do("POST", "/v1/form_templates", e.a.Token, templateBody)
	wantStatus(t, r, http.StatusCreated)
	return r.JSON(t)["id"].(string)
}

func TestFormTemplateCreateAnswers201WithTheWholeTemplate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("POST", "/v1/form_templates", e.a.Token, templateBody)
	id, _ := r.JSON(t)["id"].(string)
	if !tid.Valid(id, "fte") {
		t.Fatalf("id %q is not a form template id", id)
	}
	want := record(templateRecord, "ID", id, "CREATED", "2026-03-01T22:00:00Z", "UPDATED", "2026-03-01T22:00:00Z")
	wantBody(t, r, http.StatusCreated, want)
	wantBody(t, e.do("GET", "/v1/form_templates/"+id, e.a.Token, nil), http.StatusOK, want)
}

func TestFormTemplateCreateReportsEveryFailingFieldAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	q := "content.0.sections.0.questions."
	for _, tc := range []struct {
		name, body, want string
	}{
		{"required fields", `{}`,
			`{"message":"name is required (and 1 more error)","errors":{"name":["is required"],"content":["is required"]}}`},
		{"empty or null", `{"name":"  ","content":null}`,
			`{"message":"name must not be empty (and 1 more error)","errors":{"name":["must not be empty"],"content":["is required and cannot be null"]}}`},
		{"types", `{"name":5,"color":"bleu","prefill_client_fields":"yes","completion_message":[],"content":{},"bogus":1}`,
			`{"message":"name must be a string, not a number (and 5 more errors)","errors":{"name":["must be a string, not a number"],
			"color":["must be a CSS color name such as teal, or a hex color such as #1a2b3c or #abc"],"completion_message":["must be a string, not an array"],
			"prefill_client_fields":["must be a boolean, not a string"],"content":["must be an array, not an object"],"bogus":["is not a known field"]}}`},
		{"no question", `{"name":"X","content":[]}`,
			`{"message":"content must have at least one question","errors":{"content":["must have at least one question"]}}`},
		{"shape of the content", `{"name":"X","content":["page",{"sections":"x"},
			{"sections":[{"questions":[{"id":1,"type":"short_text"},"q"]}],"extra":1}]}`,
			`{"message":"content.0 must be an object, not a string (and 5 more errors)","errors":{
			"content.0":["must be an object, not a string"],"content.1.sections":["must be an array, not a string"],
			"content.2.sections.0.questions.0.id":["must be a string, not a number"],"content.2.sections.0.questions.0.label":["is required"],
			"content.2.sections.0.questions.1":["must be an object, not a string"],"content.2.extra":["is not a known field"]}}`},
		{"rules of the content", `{"name":"X","content":[{"sections":[{"title":"A","questions":[
			{"id":"q0","type":"short_text","label":"Zero","options":["x"]},
			{"id":"q0","type":"single_choice","label":"One"},
			{"id":"bad id!","type":"essay","label":" "},
			{"id":"q3","type":"multiple_choice","label":"Three","options":["a","a",""]},
			{"id":"q4","type":"yes_no","label":"Four","client_field":"email"},
			{"id":"q5","type":"short_text","label":"Five","client_field":"email"},
			{"id":"q6","type":"short_text","label":"Six","client_field":"email"},
			{"id":"q7","type":"short_text","label":"Seven","client_field":"ndis_number"},
			{"id":"q8","type":"short_text","label":"Eight","client_field":"date_of_birth"},
			{"id":"q9","type":"date","label":"Nine","client_field":"date_of_birth"}]}]},
			{"sections":[]}]}`,
			record(`{"message":"Q2.label must not be empty (and 12 more errors)","errors":{
			"Q0.options":["must be empty for a short_text question"],
			"Q1.id":["repeats the id of question Q0"],
			"Q1.options":["must list the choices of a single_choice question"],
			"Q2.id":["must be 1 to 64 letters, digits, _ or -"],
			"Q2.label":["must not be empty"],
			"Q2.type":["must be one of: short_text, long_text, single_choice, multiple_choice, date, yes_no, signature"],
			"Q3.options.1":["repeats a choice given earlier"],
			"Q3.options.2":["must not be empty"],
			"Q4.client_field":["can be email only on a short_text question"],
			"Q6.client_field":["is already filled by question q5"],
			"Q7.client_field":["must be one of: first_name, last_name, preferred_name, email, phone_number, date_of_birth, address.line1, address.line2, address.city, address.state, address.postal_code, address.country_code"],
			"Q8.client_field":["can be date_of_birth only on a date question"],
			"content.1.sections":["must have at least one section"]}}`,
				"Q0", q+"0", "Q1", q+"1", "Q2", q+"2", "Q3", q+"3", "Q4", q+"4", "Q6", q+"6", "Q7", q+"7", "Q8", q+"8")},
		{"lengths", `{"name":"` + strings.Repeat("n", 256) + `","completion_message":"` + strings.Repeat("m", 2001) + `",
			"content":[{"sections":[{"title":"T","questions":[{"id":"` + strings.Repeat("i", 65) + `","type":"short_text","label":"L"}]}]}]}`,
			`{"message":"name must be at most 255 characters (it has 256) (and 2 more errors)","errors":{
			"name":["must be at most 255 characters (it has 256)"],"completion_message":["must be at most 2000 characters (it has 2001)"],
			"content.0.sections.0.questions.0.id":["must be at most 64 characters (it has 65)"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantBody(t, e.do("POST", "/v1/form_templates", e.a.Token, tc.body), http.StatusUnprocessableEntity, tc.want)
		})
	}
	list := e.listAll(t, "/v1/form_templates?include_archived=true", e.a.Token)
	if len(list) != 1 {
		t.Errorf("%d templates after refused creates, want the fixture's one", len(list))
	}
}

func TestFormTemplateUpdateChangesOnlyTheFieldsSentAndReplacesContentWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name, body string
		// changed are the fields of templateRecord that change, as
		// replacer pairs; UPDATED is always the new clock.
		changed []string
	}{
		{"empty body", `{}`, nil},
		{"name", `{"name":"Registration"}`, []string{`"name":"Intake"`, `"name":"Registration"`}},
		{"nulls clear", `{"color":null,"completion_message":null,"prefill_client_fields":null}`,
			[]string{`"color":"#2e86ab"`, `"color":""`, `"completion_message":"Thanks!"`, `"completion_message":""`,
				`"prefill_client_fields":true`, `"prefill_client_fields":false`}},
		{"flags", `{"override_client_fields":true,"prefill_client_fields":false}`,
			[]string{`"prefill_client_fields":true,"override_client_fields":false`, `"prefill_client_fields":false,"override_client_fields":true`}},
		{"content", `{"content":[{"sections":[{"title":"New","questions":[{"id":"ok","type":"yes_no","label":"OK?","required":true}]}]}]}`,
			[]string{templateRecord[strings.Index(templateRecord, `"content"`):strings.Index(templateRecord, `"created_at"`)],
				`"content":[{"sections":[{"title":"New","description":"","questions":[{"id":"ok","type":"yes_no","label":"OK?","required":true,"options":[],"client_field":null}]}]}],`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := createTemplate(t, e)
			e.clock = testfix.Now.Add(time.Hour)
			defer func() { e.clock = testfix.Now }()
			want := record(record(templateRecord, tc.changed...), "ID", id, "CREATED", "2026-03-01T22:00:00Z", "UPDATED", "2026-03-01T23:00:00Z")
			wantBody(t, e.do("POST", "/v1/form_templates/"+id, e.a.Token, tc.body), http.StatusOK, want)
			wantBody(t, e.do("GET", "/v1/form_templates/"+id, e.a.Token, nil), http.StatusOK, want)
		})
	}
}

func TestFormTemplateUpdateRefusesToEmptyNameOrContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := createTemplate(t, e)
	for _, tc := range []struct{ body, want string }{
		{`{"name":null,"content":null}`, `{"message":"name is required and cannot be null (and 1 more error)","errors":{
			"name":["is required and cannot be null"],"content":["is required and cannot be null"]}}`},
		{`{"name":"","content":[],"answer":1}`, `{"message":"name must not be empty (and 2 more errors)","errors":{
			"name":["must not be empty"],"content":["must have at least one question"],"answer":["is not a known field"]}}`},
		{`{"content":[{"sections":[{"questions":[{"id":"a","type":"date","label":"When","answer":"2026-01-01"}]}]}]}`,
			`{"message":"content.0.sections.0.questions.0.answer is not a known field","errors":{"content.0.sections.0.questions.0.answer":["is not a known field"]}}`},
	} {
		wantBody(t, e.do("POST", "/v1/form_templates/"+id, e.a.Token, tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	want := record(templateRecord, "ID", id, "CREATED", "2026-03-01T22:00:00Z", "UPDATED", "2026-03-01T22:00:00Z")
	wantBody(t, e.do("GET", "/v1/form_templates/"+id, e.a.Token, nil), http.StatusOK, want)
}

func TestFormTemplateOfAnotherBusinessOrMalformedIdIsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := createTemplate(t, e)
	notFound := `{"message":"Form template not found."}`
	for _, path := range []string{"/v1/form_templates/" + e.b.Template.ID, "/v1/form_templates/" + tid.New("fte"),
		"/v1/form_templates/fte_1", "/v1/form_templates/" + e.a.Clients[0].ID} {
		wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusNotFound, notFound)
		// The id is looked up before the body is read.
		wantBody(t, e.do("POST", path, e.a.Token, `{"bogus":1}`), http.StatusNotFound, notFound)
		wantBody(t, e.do("POST", path+"/archive", e.a.Token, `{}`), http.StatusNotFound, notFound)
		wantBody(t, e.do("POST", path+"/unarchive", e.a.Token, `{}`), http.StatusNotFound, notFound)
	}
	wantBody(t, e.do("GET", "/v1/form_templates/"+id, e.b.Token, nil), http.StatusNotFound, notFound)
	for _, path := range []string{"/v1/form_templates", "/v1/form_templates/" + id, "/v1/form_templates/" + id + "/archive"} {
		wantBody(t, e.do("POST", path, e.a.ReadOnlyToken, `{}`), http.StatusForbidden, `{"message":"This API key is read-only."}`)
	}
}

func TestFormTemplateArchiveHidesItFromTheListUntilUnarchived(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := createTemplate(t, e)
	e.clock = testfix.Now.Add(time.Hour)
	archived := record(templateRecord, "ID", id, "CREATED", "2026-03-01T22:00:00Z", "UPDATED", "2026-03-01T23:00:00Z",
		`"archived_at":null`, `"archived_at":"2026-03-01T23:00:00Z"`)
	wantBody(t, e.do("POST", "/v1/form_templates/"+id+"/archive", e.a.Token, nil), http.StatusOK, archived)
	// Archiving again changes nothing.
	e.clock = testfix.Now.Add(2 * time.Hour)
	wantBody(t, e.do("POST", "/v1/form_templates/"+id+"/archive", e.a.Token, `{}`), http.StatusOK, archived)

	wantIDs := func(path string, want ...string) {
		t.Helper()
		var got []string
		for _, rec := range e.listAll(t, path, e.a.Token) {
			got = append(got, rec["id"].(string))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: ids %v, want %v", path, got, want)
		}
	}
	wantIDs("/v1/form_templates", e.a.Template.ID)
	wantIDs("/v1/form_templates?include_archived=true", e.a.Template.ID, id)
	wantIDs("/v1/form_templates?updated_since=2026-03-01T23:00:00Z&include_archived=true", id)

	wantBody(t, e.do("POST", "/v1/form_templates/"+id+"/unarchive", e.a.Token, `{}`), http.StatusOK,
		record(templateRecord, "ID", id, "CREATED", "2026-03-01T22:00:00Z", "UPDATED", "2026-03-02T00:00:00Z"))
	wantIDs("/v1/form_templates", e.a.Template.ID, id)
	wantBody(t, e.do("POST", "/v1/form_templates/"+id+"/archive", e.a.Token, `{"reason":"x"}`), http.StatusUnprocessableEntity,
		`{"message":"reason is not a known field","errors":{"reason":["is not a known field"]}}`)
}

func TestFormTemplateListShowsTheFixtureTemplateWithEmptyListsNotNull(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("GET", "/v1/form_templates", e.a.Token, nil)
	wantBody(t, r, http.StatusOK, record(`{"data":[{"id":"ID","name":"Intake","color":"","completion_message":"",
		"prefill_client_fields":false,"override_client_fields":false,"content":[{"sections":[{"title":"About you","description":"",
		"questions":[{"id":"email","type":"short_text","label":"E-mail","required":true,"options":[],"client_field":null}]}]}],
		"created_at":"2026-01-30T22:00:00Z","updated_at":"2026-01-30T22:00:00Z","archived_at":null}],"links":{"prev":null,"next":null}}`,
		"ID", e.a.Template.ID))
	wantBody(t, e.do("GET", "/v1/form_templates?limit=101&status=x", e.a.Token, nil), http.StatusUnprocessableEntity,
		`{"message":"limit must be between 1 and 100 (and 1 more error)","errors":{"limit":["must be between 1 and 100"],"status":["is not a known query parameter"]}}`)
}
