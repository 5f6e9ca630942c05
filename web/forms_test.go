package web_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// The hosted form, GET and POST /f/{form_id}: the form states of
// docs/states.md, driven through the page as a browser would, checked through the
// API.

const clock = "2026-03-01T22:00:00Z" // testfix.Now

func wantStatus(t *testing.T, r pageResponse, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body:\n%s", r.Status, status, r.Body)
	}
}

// wantInPage fails unless the page's body holds every snippet.
func wantInPage(t *testing.T, r pageResponse, snippets ...string) {
	t.Helper()
	for _, s := range snippets {
		if !strings.Contains(r.Body, s) {
			t.Errorf("the page lacks %q; body:\n%s", s, r.Body)
		}
	}
}

// wantNotInPage fails if the page's body holds any snippet.
func wantNotInPage(t *testing.T, r pageResponse, snippets ...string) {
	t.Helper()
	for _, s := range snippets {
		if strings.Contains(r.Body, s) {
			t.Errorf("the page holds %q; body:\n%s", s, r.Body)
		}
	}
}

func wantField(t *testing.T, rec map[string]any, field string, want any) {
	t.Helper()
	if got := rec[field]; !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", field, got, want)
	}
}

func TestHostedFormFirstOpeningMarksItViewedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	id := f["id"].(string)
	e.mustAPI(http.StatusOK, "POST", "/v1/forms/"+id+"/send", map[string]any{})

	// HEAD (a link checker) is not an opening.
	wantStatus(t, e.page("HEAD", formPath(f), nil, nil), http.StatusOK)
	got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+id, nil)
	wantField(t, got, "sent_status", "sent")
	wantField(t, got, "viewed_at", nil)

	wantStatus(t, e.page("GET", formPath(f), nil, nil), http.StatusOK)
	got = e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+id, nil)
	wantField(t, got, "sent_status", "viewed")
	wantField(t, got, "viewed_at", clock)
	wantField(t, got, "sent_at", clock)
	wantField(t, got, "status", "not_started")

	e.setClock(testfix.Now.Add(time.Hour))
	wantStatus(t, e.page("GET", formPath(f), nil, nil), http.StatusOK)
	got = e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+id, nil)
	wantField(t, got, "viewed_at", clock)
	wantField(t, got, "updated_at", clock)
}

func TestHostedFormOpenedWithoutBeingSentIsViewed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	wantStatus(t, e.page("GET", formPath(f), nil, nil), http.StatusOK)
	got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+f["id"].(string), nil)
	wantField(t, got, "sent_status", "viewed")
	wantField(t, got, "viewed_at", clock)
	wantField(t, got, "sent_at", nil)
}

func TestHostedFormShowsEveryQuestionWithItsLabelAndInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(false, false) // without prefill, every input is empty
	r := e.page("GET", formPath(f), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r,
		`<title>New client intake – Clinic A</title>`,
		`<header><p>Clinic A</p></header>`,
		`<h1>New client intake</h1>`,
		`.bar{height:.5rem;background:#2e86ab}`,
		`<h2>Part 1 of 2</h2>`, `<h3>About you</h3>`, `<p class="description">So we can reach you.</p>`,
		`<form method="post" novalidate>`,
		`<button type="submit" name="action" value="save">Save and finish later</button>`,
		`<button type="submit" name="action" value="submit" class="primary">Submit</button>`)
	for _, tc := range []struct {
		questionType string
		markup       []string
	}{
		{"short_text", []string{`<label class="question-label" for="q1">First name <span class="required">(required)</span></label>`,
			`<input type="text" id="q1" name="q_first_name" value="" autocomplete="given-name" aria-required="true">`}},
		{"short_text filling email", []string{`<input type="email" id="q2" name="q_email" value="" autocomplete="email" aria-required="true">`}},
		{"short_text filling phone_number", []string{`<label class="question-label" for="q3">Mobile number</label>`,
			`<input type="tel" id="q3" name="q_mobile" value="" autocomplete="tel">`}},
		{"date", []string{`<label class="question-label" for="q4">Date of birth <span class="required">(required)</span></label>`,
			`<input type="date" id="q4" name="q_dob" value="" autocomplete="bday" aria-required="true">`}},
		{"long_text", []string{`<label class="question-label" for="q6">What brings you in? <span class="required">(required)</span></label>`,
			`<textarea id="q6" name="q_reason" rows="6" aria-required="true"></textarea>`}},
		{"single_choice", []string{"<fieldset class=\"question\">\n<legend>How did you hear about us?</legend>",
			`<input type="radio" id="q7-1" name="q_heard" value="GP">` + "\n" + `<label for="q7-1">GP</label>`,
			`<input type="radio" id="q7-3" name="q_heard" value="Online">` + "\n" + `<label for="q7-3">Online</label>`}},
		{"multiple_choice", []string{`<fieldset class="question" aria-describedby="q8-hint">` + "\n" + `<legend>Which areas hurt? <span class="required">(required)</span></legend>`,
			`<p class="hint" id="q8-hint">Choose all that apply.</p>`,
			`<input type="checkbox" id="q8-2" name="q_areas" value="Back">` + "\n" + `<label for="q8-2">Back</label>`}},
		{"yes_no", []string{`<legend>I accept the privacy policy <span class="required">(required)</span></legend>`,
			`<input type="radio" id="q9-1" name="q_privacy" value="yes">` + "\n" + `<label for="q9-1">Yes</label>`,
			`<input type="radio" id="q9-2" name="q_privacy" value="no">` + "\n" + `<label for="q9-2">No</label>`}},
		{"signature", []string{`<p class="hint" id="q10-hint">Type your full name to sign.</p>`,
			`<input type="text" id="q10" name="q_signature" value="" autocomplete="name" aria-describedby="q10-hint" aria-required="true">`}},
	} {
		t.Run(tc.questionType, func(t *testing.T) { wantInPage(t, r, tc.markup...) })
	}
}

func TestHostedFormUsesTheFormsColorAsItsAccentWhetherANameOrHex(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		color string
		want  []string
	}{
		{"Teal", []string{`.bar{height:.5rem;background:teal}`, `button.primary{background:teal;border-color:teal;color:#ffffff}`}},
		{"lightgoldenrodyellow", []string{`button.primary{background:lightgoldenrodyellow;border-color:lightgoldenrodyellow;color:#000000}`}},
		{"#0F0", []string{`.bar{height:.5rem;background:#0f0}`, `button.primary{background:#0f0;border-color:#0f0;color:#000000}`}},
		{"#2E86AB", []string{`button.primary{background:#2e86ab;border-color:#2e86ab;color:#000000}`}},
		{"", []string{`button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#ffffff}`}},
	} {
		t.Run(tc.color, func(t *testing.T) {
			tpl := intakeTemplate(false, false)
			tpl["color"] = tc.color
			created := e.mustAPI(http.StatusCreated, "POST", "/v1/form_templates", tpl)
			f := e.mustAPI(http.StatusCreated, "POST", "/v1/forms", map[string]any{"form_template_id": created["id"], "client_id": e.a.Clients[0].ID})
			r := e.page("GET", formPath(f), nil, nil)
			wantStatus(t, r, http.StatusOK)
			wantInPage(t, r, tc.want...)
		})
	}
}

// profileTemplate asks for every client field, a question that fills
// none, and a date of birth the client has not given.
func profileTemplate(prefill bool) map[string]any {
	question := func(id, typ, field string) map[string]any {
		q := map[string]any{"id": id, "type": typ, "label": id}
		if field != "" {
			q["client_field"] = field
		}
		return q
	}
	return map[string]any{"name": "Your details", "prefill_client_fields": prefill, "override_client_fields": true,
		"content": []any{map[string]any{"sections": []any{map[string]any{"questions": []any{
			question("first", "short_text", "first_name"), question("last", "short_text", "last_name"),
			question("preferred", "short_text", "preferred_name"), question("email", "short_text", "email"),
			question("phone", "short_text", "phone_number"), question("dob", "date", "date_of_birth"),
			question("line1", "short_text", "address.line1"), question("line2", "short_text", "address.line2"),
			question("city", "short_text", "address.city"), question("state", "short_text", "address.state"),
			question("postcode", "short_text", "address.postal_code"), question("country", "short_text", "address.country_code"),
			question("goals", "long_text", ""),
		}}}}},
	}
}

// profileForm gives Ann a full record except a preferred name, and sends
// her a form of profileTemplate; it returns the form and her record as
// the API answers it.
func (e *env) profileForm(prefill bool) (map[string]any, map[string]any) {
	e.t.Helper()
	ann := e.mustAPI(http.StatusOK, "POST", "/v1/clients/"+e.a.Clients[0].ID, map[string]any{
		"phone_number": "0412 345 678", "date_of_birth": "1990-03-15",
		"address": map[string]any{"line1": `12 "Harbour" St`, "line2": "Unit 4", "city": "Glebe", "state": "NSW",
			"postal_code": "2037", "country_code": "AU"},
	})
	tpl := e.mustAPI(http.StatusCreated, "POST", "/v1/form_templates", profileTemplate(prefill))
	f := e.mustAPI(http.StatusCreated, "POST", "/v1/forms", map[string]any{"form_template_id": tpl["id"], "client_id": e.a.Clients[0].ID})
	return f, ann
}

func TestHostedFormPrefillsTheClientsKnownDetails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f, ann := e.profileForm(true)
	address := ann["address"].(map[string]any)
	r := e.page("GET", formPath(f), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r,
		`<input type="text" id="q1" name="q_first" value="Ann" autocomplete="given-name">`,
		`<input type="text" id="q2" name="q_last" value="Archer" autocomplete="family-name">`,
		`<input type="text" id="q3" name="q_preferred" value="" autocomplete="nickname">`,
		`<input type="email" id="q4" name="q_email" value="Ann@example.com" autocomplete="email">`,
		`<input type="tel" id="q5" name="q_phone" value="0412 345 678" autocomplete="tel">`,
		`<input type="date" id="q6" name="q_dob" value="1990-03-15" autocomplete="bday">`,
		`<input type="text" id="q7" name="q_line1" value="12 &#34;Harbour&#34; St" autocomplete="address-line1">`,
		`<input type="text" id="q8" name="q_line2" value="Unit 4" autocomplete="address-line2">`,
		`<input type="text" id="q9" name="q_city" value="Glebe" autocomplete="address-level2">`,
		`<input type="text" id="q10" name="q_state" value="NSW" autocomplete="address-level1">`,
		`<input type="text" id="q11" name="q_postcode" value="2037" autocomplete="postal-code">`,
		`<input type="text" id="q12" name="q_country" value="AU" autocomplete="country">`,
		`<textarea id="q13" name="q_goals" rows="6"></textarea>`)
	if address["line1"] != `12 "Harbour" St` {
		t.Fatalf("the client's address %v", address)
	}

	// Opening the page saves nothing: the form is not started until the
	// client saves or submits.
	got, answers := e.answers(f["id"].(string))
	wantField(t, got, "status", "not_started")
	for id, a := range answers {
		if a != nil {
			t.Errorf("answer %s = %v after opening the page, want null", id, a)
		}
	}

	// A saved answer wins over the client's record. The page a save
	// answers shows what was entered; a question saved blank has no
	// answer, so the page opened again fills it in from the record.
	values := url.Values{"action": {"save"}, "q_first": {"Annie"}, "q_email": {""}, "q_goals": {"Run again"}}
	r = e.page("POST", formPath(f), values, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `name="q_first" value="Annie"`, `name="q_email" value=""`, `name="q_city" value=""`)
	r = e.page("GET", formPath(f), nil, nil)
	wantInPage(t, r, `name="q_first" value="Annie"`, `name="q_last" value="Archer"`, `name="q_email" value="Ann@example.com"`,
		`name="q_city" value="Glebe"`, ">Run again</textarea>")
}

func TestHostedFormWithoutPrefillShowsNoneOfTheClientsDetails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f, _ := e.profileForm(false)
	r := e.page("GET", formPath(f), nil, nil)
	wantStatus(t, r, http.StatusOK)
	for _, id := range []string{"first", "last", "preferred", "email", "phone", "dob", "line1", "line2", "city", "state", "postcode", "country"} {
		wantInPage(t, r, `name="q_`+id+`" value=""`)
	}
	wantNotInPage(t, r, `value="Ann"`, "Archer", "Glebe", "1990-03-15", "NSW", `value="AU"`)
	wantInPage(t, r, `<textarea id="q13" name="q_goals" rows="6"></textarea>`)
}

// Submitted as opened, a prefilled form writes back what the client
// checked, as override_client_fields says: the record is unchanged.
func TestHostedFormSubmittedAsPrefilledLeavesTheClientAsItWas(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f, ann := e.profileForm(true)
	r := e.page("GET", formPath(f), nil, nil)
	values := url.Values{"action": {"submit"}}
	for _, m := range regexp.MustCompile(`name="(q_[a-z0-9]+)" value="([^"]*)"`).FindAllStringSubmatch(r.Body, -1) {
		values.Set(m[1], strings.ReplaceAll(m[2], "&#34;", `"`))
	}
	wantStatus(t, e.page("POST", formPath(f), values, nil), http.StatusOK)
	got, answers := e.answers(f["id"].(string))
	wantField(t, got, "status", "completed")
	wantField(t, answers, "dob", "1990-03-15")
	wantField(t, answers, "line1", `12 "Harbour" St`)
	wantField(t, answers, "preferred", nil)
	after := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+e.a.Clients[0].ID, nil)
	if !reflect.DeepEqual(after, ann) {
		t.Errorf("client after submitting the prefilled form:\n%v\nwant\n%v", after, ann)
	}
}

func TestHostedFormIsServedWithHeadersThatProtectIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	for _, tc := range []struct {
		name string
		r    pageResponse
	}{
		{"form", e.page("GET", formPath(f), nil, nil)},
		{"not found", e.page("GET", "/f/"+tid.New("for"), nil, nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			style := regexp.MustCompile(`(?s)<style>(.*)</style>`).FindStringSubmatch(tc.r.Body)
			if style == nil {
				t.Fatalf("no style element:\n%s", tc.r.Body)
			}
			sum := sha256.Sum256([]byte(style[1]))
			want := map[string]string{
				"Content-Type": "text/html; charset=utf-8",
				"Content-Security-Policy": "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
					"'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
				"X-Frame-Options":        "DENY",
				"X-Content-Type-Options": "nosniff",
				"Cache-Control":          "no-store",
				"Referrer-Policy":        "no-referrer",
				"X-Robots-Tag":           "noindex, nofollow",
			}
			for k, v := range want {
				if got := tc.r.Header.Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
			wantNotInPage(t, tc.r, "<script", " style=")
		})
	}
}

func TestHostedFormEscapesWhatTheClinicWrote(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tpl := intakeTemplate(false, false)
	tpl["name"] = `<script>alert(1)</script>`
	tpl["content"] = []any{map[string]any{"sections": []any{map[string]any{"title": `<b>Bold</b>`, "questions": []any{
		map[string]any{"id": "x", "type": "single_choice", "label": `"><img src=x>`, "options": []string{`a"b`, "<i>"}},
	}}}}}
	created := e.mustAPI(http.StatusCreated, "POST", "/v1/form_templates", tpl)
	f := e.mustAPI(http.StatusCreated, "POST", "/v1/forms", map[string]any{"form_template_id": created["id"], "client_id": e.a.Clients[0].ID})
	r := e.page("GET", formPath(f), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>`, `<h2>&lt;b&gt;Bold&lt;/b&gt;</h2>`,
		`<legend>&#34;&gt;&lt;img src=x&gt;</legend>`, `value="a&#34;b"`, `<label for="q1-2">&lt;i&gt;</label>`)
	wantNotInPage(t, r, "<script>", "<img", "<i>")
}

func TestHostedFormSaveKeepsTheAnswersAndStartsTheForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	id := f["id"].(string)
	r := e.page("POST", formPath(f), url.Values{"action": {"save"}, "q_first_name": {"  Annie "}, "q_mobile": {"0412 345 678"},
		"q_areas": {"Knee", "Neck"}, "q_privacy": {"no"}, "q_reason": {""}}, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `<div class="notice" role="status" id="notice"><p>Your answers are saved.`,
		`name="q_first_name" value="  Annie "`, `id="q8-1" name="q_areas" value="Neck" checked>`,
		`id="q8-3" name="q_areas" value="Knee" checked>`, `id="q9-2" name="q_privacy" value="no" checked>`)
	wantNotInPage(t, r, `id="error-summary"`, `value="Back" checked`)

	got, answers := e.answers(id)
	wantField(t, got, "status", "in_progress")
	wantField(t, got, "sent_status", "viewed") // posting the page is opening it
	wantField(t, got, "completed_at", nil)
	want := map[string]any{"first_name": "Annie", "email": nil, "mobile": "+61412345678", "dob": nil, "city": nil, "reason": nil,
		"heard": nil, "areas": []any{"Neck", "Knee"}, "privacy": false, "signature": nil}
	if !reflect.DeepEqual(answers, want) {
		t.Errorf("answers %v, want %v", answers, want)
	}

	// The page shows the saved answers when opened again.
	r = e.page("GET", formPath(f), nil, nil)
	wantInPage(t, r, `name="q_first_name" value="Annie"`, `name="q_mobile" value="0412 345 678"`, `value="Neck" checked>`)

	// A save with nothing entered leaves the form in progress.
	wantStatus(t, e.page("POST", formPath(f), url.Values{"action": {"save"}}, nil), http.StatusOK)
	got, answers = e.answers(id)
	wantField(t, got, "status", "in_progress")
	if answers["first_name"] != nil {
		t.Errorf("first_name %v after saving it blank, want null", answers["first_name"])
	}
}

func TestHostedFormSaveWithNothingEnteredDoesNotStartTheForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	wantStatus(t, e.page("POST", formPath(f), url.Values{"action": {"save"}, "q_city": {"   "}}, nil), http.StatusOK)
	got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+f["id"].(string), nil)
	wantField(t, got, "status", "not_started")
}

func TestHostedFormPointsOutInvalidAnswersNextToTheirQuestions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	for _, tc := range []struct {
		name   string
		values url.Values
		// markup the page must show: the entered value kept, the error
		// linked to the input and listed in the summary.
		markup []string
	}{
		{"e-mail", url.Values{"q_email": {"ann@"}}, []string{
			`<li><a href="#q2">E-mail: Enter an e-mail address such as name@example.com.</a></li>`,
			`<p class="error-message" id="q2-error"><span class="visually-hidden">Error:</span> Enter an e-mail address such as name@example.com.</p>`,
			`<input type="email" id="q2" name="q_email" value="ann@" autocomplete="email" aria-describedby="q2-error" aria-invalid="true" aria-required="true">`}},
		{"phone number", url.Values{"q_mobile": {"call me"}}, []string{
			`<li><a href="#q3">Mobile number: Enter a phone number such as 0412 345 678, or with its country code, such as &#43;61 412 345 678.</a></li>`,
			`value="call me" autocomplete="tel" aria-describedby="q3-error" aria-invalid="true">`}},
		{"date", url.Values{"q_dob": {"31/12/1990"}}, []string{`<li><a href="#q4">Date of birth: Enter a date such as 2026-03-02.</a></li>`}},
		{"date of birth in the future", url.Values{"q_dob": {"2026-03-04"}}, []string{`Date of birth: A date of birth cannot be in the future.`}},
		{"choice not offered", url.Values{"q_heard": {"Radio"}}, []string{
			`<li><a href="#q7-1">How did you hear about us?: Choose one of the options.</a></li>`,
			"<fieldset class=\"question invalid\" aria-describedby=\"q7-error\">\n<legend>How did you hear about us?</legend>"}},
		{"yes or no", url.Values{"q_privacy": {"maybe"}}, []string{`I accept the privacy policy: Choose yes or no.`}},
		{"too long", url.Values{"q_city": {strings.Repeat("x", 256)}}, []string{`City: Use at most 255 characters (this has 256).`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.values.Set("action", "save")
			tc.values.Set("q_reason", "Still saved")
			r := e.page("POST", formPath(f), tc.values, nil)
			wantStatus(t, r, http.StatusUnprocessableEntity)
			wantInPage(t, r, append(tc.markup, `<title>Error: New client intake – Clinic A</title>`,
				`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" id="error-summary">`)...)
			wantNotInPage(t, r, "Your answers are saved")
			_, answers := e.answers(f["id"].(string))
			if answers["reason"] != "Still saved" {
				t.Errorf("the valid answer beside the invalid one is %v, want it saved", answers["reason"])
			}
		})
	}
}

func TestHostedFormSubmitNeedsEveryRequiredAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	values := completeAnswers()
	for _, q := range []string{"q_first_name", "q_dob", "q_areas", "q_privacy", "q_signature"} {
		values.Del(q)
	}
	values.Set("q_email", "bad")
	r := e.page("POST", formPath(f), values, nil)
	wantStatus(t, r, http.StatusUnprocessableEntity)
	wantInPage(t, r,
		`<li><a href="#q1">First name: Answer this question.</a></li>`,
		`<li><a href="#q2">E-mail: Enter an e-mail address such as name@example.com.</a></li>`,
		`<li><a href="#q4">Date of birth: Enter a date.</a></li>`,
		`<li><a href="#q8-1">Which areas hurt?: Choose at least one option.</a></li>`,
		`<li><a href="#q9-1">I accept the privacy policy: Choose an answer.</a></li>`,
		`<li><a href="#q10">Signature: Type your full name to sign.</a></li>`,
		`<fieldset class="question invalid" aria-describedby="q8-hint q8-error">`,
		`aria-describedby="q10-hint q10-error" aria-invalid="true"`,
		// What was entered stays on the page.
		`name="q_email" value="bad"`, `name="q_city" value="Glebe"`, `value="Friend" checked>`,
		"<textarea id=\"q6\" name=\"q_reason\" rows=\"6\" aria-required=\"true\">Sore knee\r\nafter running</textarea>")
	if n := strings.Count(r.Body, "<li><a href="); n != 6 {
		t.Errorf("%d problems in the summary, want 6", n)
	}
	got, answers := e.answers(f["id"].(string))
	wantField(t, got, "status", "in_progress")
	wantField(t, got, "completed_at", nil)
	if answers["city"] != "Glebe" || answers["email"] != nil {
		t.Errorf("answers after a refused submission: city %v, email %v; want the valid ones saved", answers["city"], answers["email"])
	}
	client := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+e.a.Clients[0].ID, nil)
	wantField(t, client, "address", map[string]any{"line1": "", "line2": nil, "city": "", "state": "", "postal_code": "", "country_code": "",
		"latitude": nil, "longitude": nil, "formatted_address_geocoder_estimate": "", "place_id": ""})
}

func TestHostedFormSubmitCompletesTheFormAndFillsTheClientAsItsFlagsSay(t *testing.T) {
	t.Parallel()
	ann := map[string]any{"first_name": "Ann", "email": "Ann@example.com", "phone_number": "", "date_of_birth": nil, "city": ""}
	for _, tc := range []struct {
		name              string
		prefill, override bool
		want              map[string]any
		clientUpdated     bool
	}{
		{"prefill fills only empty fields", true, false,
			map[string]any{"first_name": "Ann", "email": "Ann@example.com", "phone_number": "+61412345678", "date_of_birth": "1990-03-15", "city": "Glebe"}, true},
		{"override overwrites every answered field", false, true,
			map[string]any{"first_name": "Annie", "email": "annie@example.com", "phone_number": "+61412345678", "date_of_birth": "1990-03-15", "city": "Glebe"}, true},
		{"override with prefill overwrites too", true, true,
			map[string]any{"first_name": "Annie", "email": "annie@example.com", "phone_number": "+61412345678", "date_of_birth": "1990-03-15", "city": "Glebe"}, true},
		{"neither flag leaves the client alone", false, false, ann, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			f := e.newIntakeForm(tc.prefill, tc.override)
			e.setClock(testfix.Now.Add(90 * time.Minute))
			r := e.page("POST", formPath(f), completeAnswers(), nil)
			wantStatus(t, r, http.StatusOK)
			wantInPage(t, r, `<div class="notice" id="completion"><p>Thank you! See you at your appointment.</p></div>`,
				"<dt>Which areas hurt?</dt>\n<dd><ul><li>Neck</li><li>Knee</li></ul></dd>",
				"<dt>Date of birth</dt>\n<dd>15 March 1990</dd>", "<dt>I accept the privacy policy</dt>\n<dd>Yes</dd>")
			wantNotInPage(t, r, "<input", "<form", "<textarea")

			got, answers := e.answers(f["id"].(string))
			wantField(t, got, "status", "completed")
			wantField(t, got, "completed_at", "2026-03-01T23:30:00Z")
			wantField(t, got, "viewed_at", "2026-03-01T23:30:00Z")
			wantAnswers := map[string]any{"first_name": "Annie", "email": "annie@example.com", "mobile": "+61412345678", "dob": "1990-03-15",
				"city": "Glebe", "reason": "Sore knee\nafter running", "heard": "Friend", "areas": []any{"Neck", "Knee"}, "privacy": true,
				"signature": "Ann Archer"}
			if !reflect.DeepEqual(answers, wantAnswers) {
				t.Errorf("answers %v, want %v", answers, wantAnswers)
			}

			c := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+e.a.Clients[0].ID, nil)
			gotClient := map[string]any{"first_name": c["first_name"], "email": c["email"], "phone_number": c["phone_number"],
				"date_of_birth": c["date_of_birth"], "city": c["address"].(map[string]any)["city"]}
			if !reflect.DeepEqual(gotClient, tc.want) {
				t.Errorf("client %v, want %v", gotClient, tc.want)
			}
			wantUpdated := e.a.Clients[0].UpdatedAt.String()
			if tc.clientUpdated {
				wantUpdated = "2026-03-01T23:30:00Z"
			}
			wantField(t, c, "updated_at", wantUpdated)
		})
	}
}

func TestHostedFormIsReadOnlyOnceCompleted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	wantStatus(t, e.page("POST", formPath(f), completeAnswers(), nil), http.StatusOK)
	_, before := e.answers(f["id"].(string))

	r := e.page("GET", formPath(f), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "Thank you! See you at your appointment.", "<dt>Signature</dt>\n<dd>Ann Archer</dd>")
	wantNotInPage(t, r, "<input", "<form", "already submitted")

	for _, action := range []string{"save", "submit"} {
		values := completeAnswers()
		values.Set("action", action)
		values.Set("q_signature", "Someone Else")
		r := e.page("POST", formPath(f), values, nil)
		wantStatus(t, r, http.StatusOK)
		wantInPage(t, r, "This form was already submitted, so nothing was changed.", "<dd>Ann Archer</dd>")
		wantNotInPage(t, r, "Someone Else", "<input")
	}
	got, after := e.answers(f["id"].(string))
	if !reflect.DeepEqual(after, before) {
		t.Errorf("answers changed after completion: %v, were %v", after, before)
	}
	wantField(t, got, "status", "completed")
}

func TestHostedFormOfNoFormOrAnArchivedFormIsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	archived := e.newIntakeForm(true, false)
	e.mustAPI(http.StatusOK, "POST", "/v1/forms/"+archived["id"].(string)+"/archive", map[string]any{})
	for _, path := range []string{
		formPath(archived),
		"/f/" + tid.New("for"),                        // no such form
		"/f/for_123",                                  // malformed
		"/f/" + e.a.Clients[0].ID,                     // another kind of record
		"/f/" + strings.ToUpper(f["id"].(string)[4:]), // the suffix alone
		"/f/" + f["id"].(string),                      // the id alone, which read-only keys see
		"/f/" + f["id"].(string) + "?secret=",         // an empty secret
		"/f/" + f["id"].(string) + "?secret=" + strings.TrimPrefix(formPath(archived), "/f/"+archived["id"].(string)+"?secret="), // another form's secret
	} {
		t.Run(path, func(t *testing.T) {
			for _, method := range []string{"GET", "POST"} {
				var values url.Values
				if method == "POST" {
					values = completeAnswers()
				}
				r := e.page(method, path, values, nil)
				wantStatus(t, r, http.StatusNotFound)
				wantInPage(t, r, "<title>This form is not available</title>", "<h1>This form is not available</h1>")
				wantNotInPage(t, r, "Clinic A", "New client intake", "<form")
			}
		})
	}
	got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+archived["id"].(string), nil)
	wantField(t, got, "status", "not_started")
	wantField(t, got, "viewed_at", nil)

	e.mustAPI(http.StatusOK, "POST", "/v1/forms/"+archived["id"].(string)+"/unarchive", map[string]any{})
	wantStatus(t, e.page("GET", formPath(archived), nil, nil), http.StatusOK)
}

func TestHostedFormRefusesAnswersPostedFromAnotherSite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	for _, h := range []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Origin": {"https://evil.example"}},
	} {
		r := e.page("POST", formPath(f), completeAnswers(), h)
		wantStatus(t, r, http.StatusForbidden)
		wantInPage(t, r, "<h1>This answer was refused</h1>")
	}
	got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+f["id"].(string), nil)
	wantField(t, got, "status", "not_started")

	// The page's own posts say they are same-origin.
	r := e.page("POST", formPath(f), completeAnswers(), http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {e.srv.URL}})
	wantStatus(t, r, http.StatusOK)
}

func TestHostedFormRefusesAPostWithoutAnAction(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	for _, action := range []string{"", "delete"} {
		values := completeAnswers()
		values.Set("action", action)
		r := e.page("POST", formPath(f), values, nil)
		wantStatus(t, r, http.StatusBadRequest)
		wantInPage(t, r, "<h1>The answers could not be read</h1>")
	}
	got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+f["id"].(string), nil)
	wantField(t, got, "status", "not_started")
}

func TestHostedFormsAreFoundByIdAloneWhateverTheBusiness(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A form of clinic B, seeded by the fixture's template.
	status, f := e.apiAs(e.b.Token, "POST", "/v1/forms", map[string]any{"form_template_id": e.b.Template.ID, "client_id": e.b.Clients[1].ID})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %v", status, f)
	}
	r := e.page("GET", formPath(f), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "<header><p>Clinic B</p></header>", `<label class="question-label" for="q1">E-mail <span class="required">(required)</span></label>`)
	wantNotInPage(t, r, "Clinic A", "Ben", "Baker")
}

func TestHostedFormAcceptsPostsFromThePublicURLBehindAProxy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.newIntakeForm(true, false)
	// The same store served as a proxy would reach it: under another
	// host than the public one.
	behind := httptest.NewServer(newServer(e.st, httpapi.Options{Now: e.now, PublicURL: "https://forms.clinic.example/"}))
	t.Cleanup(behind.Close)
	path := behind.URL + formPath(f)
	wantStatus(t, e.page("POST", path, completeAnswers(), http.Header{"Origin": {"https://evil.example"}}), http.StatusForbidden)
	r := e.page("POST", path, completeAnswers(), http.Header{"Origin": {"https://forms.clinic.example"}})
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "Thank you! See you at your appointment.")
}
