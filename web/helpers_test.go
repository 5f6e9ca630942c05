package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/web"
)

// env is the whole server (API and pages) on a fresh store with two
// clinics, A and B, and a clock the test sets.
type env struct {
	t    *testing.T
	st   *sqlstore.Store
	srv  *httptest.Server
	a, b *testfix.Clinic

	mu    sync.Mutex
	clock time.Time
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, testfix.Store(t))
}

// newEnvOn is newEnv on the given store.
func newEnvOn(t *testing.T, st *sqlstore.Store) *env {
	t.Helper()
	e := &env{t: t, st: st, clock: testfix.Now}
	e.a = testfix.NewClinic(t, st, "Clinic A")
	e.b = testfix.NewClinic(t, st, "Clinic B")
	e.srv = httptest.NewServer(newServer(st, httpapi.Options{Now: e.now}))
	t.Cleanup(e.srv.Close)
	return e
}

// newServer is the API with the pages beside it, as the practiced binary
// serves them.
func newServer(st *sqlstore.Store, opt httpapi.Options) http.Handler {
	opt.Pages = web.Routes(st, web.Options{Logger: opt.Logger, Now: opt.Now, PublicURL: opt.PublicURL})
	return httpapi.NewServer(st, opt)
}

func (e *env) now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.clock
}

// setClock moves the server's clock.
func (e *env) setClock(t time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.clock = t
}

// api sends a JSON request with clinic A's key and decodes the answer.
func (e *env) api(method, path string, body any) (int, map[string]any) {
	e.t.Helper()
	return e.apiAs(e.a.Token, method, path, body)
}

// apiAs is api with the given key.
func (e *env) apiAs(token, method, path string, body any) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		e.t.Fatalf("%s %s: body is not a JSON object: %v", method, path, err)
	}
	return res.StatusCode, v
}

// mustAPI is api that fails the test unless the status is want.
func (e *env) mustAPI(want int, method, path string, body any) map[string]any {
	e.t.Helper()
	status, v := e.api(method, path, body)
	if status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %v", method, path, status, want, v)
	}
	return v
}

// pageResponse is an answer of the hosted page.
type pageResponse struct {
	Status int
	Header http.Header
	Body   string
}

// page requests a hosted page. A POST sends form as a browser does.
func (e *env) page(method, path string, form url.Values, header http.Header) pageResponse {
	e.t.Helper()
	var rd io.Reader
	if form != nil {
		rd = strings.NewReader(form.Encode())
	}
	u := path
	if !strings.HasPrefix(u, "http") {
		u = e.srv.URL + path
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return pageResponse{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

// intakeTemplate is a template of every question type, on two pages,
// with questions that fill client fields.
func intakeTemplate(prefill, override bool) map[string]any {
	return map[string]any{
		"name": "New client intake", "color": "#2E86AB", "completion_message": "Thank you! See you at your appointment.",
		"prefill_client_fields": prefill, "override_client_fields": override,
		"content": []any{
			map[string]any{"sections": []any{map[string]any{"title": "About you", "description": "So we can reach you.",
				"questions": []any{
					map[string]any{"id": "first_name", "type": "short_text", "label": "First name", "required": true, "client_field": "first_name"},
					map[string]any{"id": "email", "type": "short_text", "label": "E-mail", "required": true, "client_field": "email"},
					map[string]any{"id": "mobile", "type": "short_text", "label": "Mobile number", "client_field": "phone_number"},
					map[string]any{"id": "dob", "type": "date", "label": "Date of birth", "required": true, "client_field": "date_of_birth"},
					map[string]any{"id": "city", "type": "short_text", "label": "City", "client_field": "address.city"},
				}}}},
			map[string]any{"sections": []any{map[string]any{"title": "Your visit",
				"questions": []any{
					map[string]any{"id": "reason", "type": "long_text", "label": "What brings you in?", "required": true},
					map[string]any{"id": "heard", "type": "single_choice", "label": "How did you hear about us?", "options": []string{"GP", "Friend", "Online"}},
					map[string]any{"id": "areas", "type": "multiple_choice", "label": "Which areas hurt?", "required": true, "options": []string{"Neck", "Back", "Knee"}},
					map[string]any{"id": "privacy", "type": "yes_no", "label": "I accept the privacy policy", "required": true},
					map[string]any{"id": "signature", "type": "signature", "label": "Signature", "required": true},
				}}}},
		},
	}
}

// newIntakeForm creates the intake template and a form of it for clinic
// A's first client (Ann), and returns the form as the API answers it.
func (e *env) newIntakeForm(prefill, override bool) map[string]any {
	e.t.Helper()
	tpl := e.mustAPI(http.StatusCreated, "POST", "/v1/form_templates", intakeTemplate(prefill, override))
	return e.mustAPI(http.StatusCreated, "POST", "/v1/forms", map[string]any{
		"form_template_id": tpl["id"], "client_id": e.a.Clients[0].ID, "location_id": e.a.Sydney.ID})
}

// formPath is the path of a form's hosted page, with the secret its link
// carries, as the API answers it to a key that can write.
func formPath(form map[string]any) string {
	u, err := url.Parse(form["hosted_form_url"].(string))
	if err != nil {
		panic(err)
	}
	return u.RequestURI()
}

// answers reads the answers of a form from the API, by question id.
func (e *env) answers(formID string) (map[string]any, map[string]any) {
	e.t.Helper()
	f := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+formID, nil)
	out := map[string]any{}
	for _, p := range f["content"].([]any) {
		for _, s := range p.(map[string]any)["sections"].([]any) {
			for _, q := range s.(map[string]any)["questions"].([]any) {
				qm := q.(map[string]any)
				a, ok := qm["answer"]
				if !ok {
					e.t.Fatalf("question %v has no answer key", qm["id"])
				}
				out[qm["id"].(string)] = a
			}
		}
	}
	return f, out
}

// completeAnswers is a submission answering every question of the intake
// template.
func completeAnswers() url.Values {
	return url.Values{
		"action":       {"submit"},
		"q_first_name": {"Annie"}, "q_email": {"annie@example.com"}, "q_mobile": {"0412 345 678"},
		"q_dob": {"1990-03-15"}, "q_city": {"Glebe"},
		"q_reason": {"Sore knee\r\nafter running"}, "q_heard": {"Friend"}, "q_areas": {"Knee", "Neck"},
		"q_privacy": {"yes"}, "q_signature": {"Ann Archer"},
	}
}
