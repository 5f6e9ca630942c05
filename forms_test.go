package practiced_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

func strp(s string) *string { return &s }

func question(id, typ string, opts ...func(*practiced.Question)) practiced.Question {
	q := practiced.Question{ID: id, Type: typ, Label: "Q" + strings.ToUpper(id), Options: []string{}}
	for _, o := range opts {
		o(&q)
	}
	return q
}

func options(o ...string) func(*practiced.Question) {
	return func(q *practiced.Question) { q.Options = o }
}
func fills(field string) func(*practiced.Question) {
	return func(q *practiced.Question) { q.ClientField = strp(field) }
}
func required(q *practiced.Question) { q.Required = true }
func answer(a string) func(*practiced.Question) {
	return func(q *practiced.Question) { q.Answer = json.RawMessage(a) }
}

func onePage(qs ...practiced.Question) []practiced.Page {
	return []practiced.Page{{Sections: []practiced.Section{{Title: "S", Questions: qs}}}}
}

func TestCheckContentRules(t *testing.T) {
	const q = "content.0.sections.0.questions."
	for _, tc := range []struct {
		name  string
		pages []practiced.Page
		prior []string // fields failed before the check
		want  map[string][]string
	}{
		{"a question of every type is valid", onePage(
			question("a", "short_text", fills("email")), question("b", "long_text"),
			question("c", "single_choice", options("x", "y")), question("d", "multiple_choice", options("x")),
			question("e", "date", fills("date_of_birth")), question("f", "yes_no"), question("g-1_Z", "signature")), nil, map[string][]string{}},
		{"content needs a question", nil, nil, map[string][]string{"content": {"must have at least one question"}}},
		{"a section may hold text alone, but a page needs a section",
			[]practiced.Page{{Sections: []practiced.Section{{Title: "Privacy", Description: "We keep your data safe.", Questions: []practiced.Question{}}}},
				{Sections: []practiced.Section{}}, onePage(question("a", "yes_no"))[0]},
			nil, map[string][]string{"content.1.sections": {"must have at least one section"}}},
		{"question ids are keys unique in the whole content",
			append(onePage(question("a", "yes_no"), question("", "yes_no"), question("a b", "yes_no")), onePage(question("a", "date"))...),
			nil, map[string][]string{q + "1.id": {"must not be empty"}, q + "2.id": {"must be 1 to 64 letters, digits, _ or -"},
				"content.1.sections.0.questions.0.id": {"repeats the id of question " + q + "0"}}},
		{"a label and a known type", onePage(question("a", "essay", func(q *practiced.Question) { q.Label = "  " })), nil,
			map[string][]string{q + "0.label": {"must not be empty"},
				q + "0.type": {"must be one of: short_text, long_text, single_choice, multiple_choice, date, yes_no, signature"}}},
		{"choice questions list distinct, non-empty choices; others none", onePage(
			question("a", "single_choice"), question("b", "multiple_choice", options("x", " ", "x")), question("c", "yes_no", options("y"))),
			nil, map[string][]string{q + "0.options": {"must list the choices of a single_choice question"},
				q + "1.options.1": {"must not be empty"}, q + "1.options.2": {"repeats a choice given earlier"},
				q + "2.options": {"must be empty for a yes_no question"}}},
		{"a client field is known, suits the question's type and is filled once", onePage(
			question("a", "short_text", fills("email")), question("b", "short_text", fills("email")),
			question("c", "long_text", fills("address.line1")), question("d", "short_text", fills("date_of_birth")),
			question("e", "date", fills("first_name")), question("f", "short_text", fills("tags")),
			question("g", "single_choice", options("NSW"), fills("address.state"))),
			nil, map[string][]string{q + "1.client_field": {"is already filled by question a"},
				q + "2.client_field": {"can be address.line1 only on a short_text question"},
				q + "3.client_field": {"can be date_of_birth only on a date question"},
				q + "4.client_field": {"can be first_name only on a short_text question"},
				q + "5.client_field": {"must be one of: " + strings.Join(practiced.ClientFields, ", ")},
				q + "6.client_field": {"can be address.state only on a short_text question"}}},
		{"what failed before is not reported again, nor what is inside or around it", onePage(
			question("", "", fills("nope")), question("", "single_choice"), question("b", "short_text")),
			[]string{q + "0", q + "1.options.0", q + "2.label"},
			map[string][]string{q + "0": {"prior"}, q + "1.id": {"must not be empty"}, q + "1.options.0": {"prior"}, q + "2.label": {"prior"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs practiced.FieldErrors
			for _, f := range tc.prior {
				errs.Add(f, "prior")
			}
			practiced.CheckContent(tc.pages, "content", &errs)
			if got := errs.Map(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors\n%v\nwant\n%v", got, tc.want)
			}
		})
	}
}

func TestReadAnswerTurnsWhatWasEnteredIntoTheStoredAnswer(t *testing.T) {
	rules := practiced.AnswerRules{Today: "2026-03-02", IsCountry: func(c string) bool { return c == "AU" || c == "NZ" }}
	choice := question("c", "single_choice", options("GP", "Friend"))
	many := question("m", "multiple_choice", options("Neck", "Back", "Knee"))
	for _, tc := range []struct {
		name    string
		q       practiced.Question
		values  []string
		want    string // the answer's JSON; "" for none
		problem string
	}{
		{"nothing entered is no answer", question("a", "short_text"), nil, "", ""},
		{"blank text is no answer", question("a", "short_text"), []string{"   "}, "", ""},
		{"short text is trimmed", question("a", "short_text"), []string{"  Ann "}, `"Ann"`, ""},
		{"short text has one line", question("a", "short_text"), []string{"a\nb"}, "", "Use a single line of text."},
		{"short text has at most 255 characters", question("a", "short_text"), []string{strings.Repeat("é", 256)}, "",
			"Use at most 255 characters (this has 256)."},
		{"long text keeps its lines", question("a", "long_text"), []string{"one\r\ntwo\n"}, `"one\ntwo"`, ""},
		{"long text has at most 5000 characters", question("a", "long_text"), []string{strings.Repeat("x", 5001)}, "",
			"Use at most 5000 characters (this has 5001)."},
		{"a single choice is one of the options", choice, []string{"Friend"}, `"Friend"`, ""},
		{"a single choice not offered", choice, []string{"friend"}, "", "Choose one of the options."},
		{"multiple choices keep the options' order, once each", many, []string{"Knee", "Neck", "Knee", ""}, `["Neck","Knee"]`, ""},
		{"no choice is no answer", many, []string{""}, "", ""},
		{"a multiple choice not offered", many, []string{"Neck", "Hip"}, "", "Choose among the options."},
		{"a date", question("a", "date"), []string{"2026-02-29"}, "", "Enter a date such as 2026-03-02."},
		{"a leap day", question("a", "date"), []string{"2028-02-29"}, `"2028-02-29"`, ""},
		{"a date in another format", question("a", "date"), []string{"02/03/2026"}, "", "Enter a date such as 2026-03-02."},
		{"an absurd year", question("a", "date"), []string{"1899-12-31"}, "", "Enter a date such as 2026-03-02."},
		{"a future date is fine", question("a", "date"), []string{"2027-01-01"}, `"2027-01-01"`, ""},
		{"a date of birth may be today", question("a", "date", fills("date_of_birth")), []string{"2026-03-02"}, `"2026-03-02"`, ""},
		{"a date of birth is not in the future", question("a", "date", fills("date_of_birth")), []string{"2026-03-03"}, "",
			"A date of birth cannot be in the future."},
		{"yes", question("a", "yes_no"), []string{"yes"}, `true`, ""},
		{"no", question("a", "yes_no"), []string{"no"}, `false`, ""},
		{"neither yes nor no", question("a", "yes_no"), []string{"true"}, "", "Choose yes or no."},
		{"a signature is the typed name", question("a", "signature"), []string{" Ann Archer "}, `"Ann Archer"`, ""},
		{"an e-mail address", question("a", "short_text", fills("email")), []string{"ann@example.com"}, `"ann@example.com"`, ""},
		{"not an e-mail address", question("a", "short_text", fills("email")), []string{"Ann <ann@example.com>"}, "",
			"Enter an e-mail address such as name@example.com."},
		{"a phone number is kept as digits", question("a", "short_text", fills("phone_number")), []string{"+61 (2) 9876-5432"},
			`"+61298765432"`, ""},
		{"not a phone number", question("a", "short_text", fills("phone_number")), []string{"12"}, "",
			"Enter a phone number such as 0412 345 678, or with its country code, such as +61 412 345 678."},
		{"a country code in capitals", question("a", "short_text", fills("address.country_code")), []string{"nz"}, `"NZ"`, ""},
		{"not a country code", question("a", "short_text", fills("address.country_code")), []string{"UK"}, "",
			"Enter a two-letter country code such as AU."},
		{"a question of no known type", question("a", "essay"), []string{"x"}, "", "This question cannot be answered."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problem := practiced.ReadAnswer(tc.q, tc.values, rules)
			if string(got) != tc.want || problem != tc.problem {
				t.Errorf("ReadAnswer(%s %q) = %s, %q; want %s, %q", tc.q.Type, tc.values, got, problem, tc.want, tc.problem)
			}
		})
	}
}

func TestReadAnswersAndRequireAnswersCoverEveryQuestion(t *testing.T) {
	content := append(onePage(question("name", "short_text", required), question("email", "short_text", fills("email"), required)),
		onePage(question("areas", "multiple_choice", options("Neck"), required), question("ok", "yes_no", required),
			question("when", "date", required), question("pick", "single_choice", options("a"), required),
			question("sign", "signature", required), question("notes", "long_text"))...)
	values := map[string][]string{"email": {"nope"}, "notes": {"fine"}}
	answers, problems := practiced.ReadAnswers(content, func(id string) []string { return values[id] }, practiced.AnswerRules{})
	wantAnswers := map[string]json.RawMessage{"name": nil, "areas": nil, "ok": nil, "when": nil, "pick": nil, "sign": nil, "notes": json.RawMessage(`"fine"`)}
	if !reflect.DeepEqual(answers, wantAnswers) {
		t.Errorf("answers %s, want %s", answers, wantAnswers)
	}
	practiced.RequireAnswers(content, answers, problems)
	want := map[string]string{
		"name":  "Answer this question.",
		"email": "Enter an e-mail address such as name@example.com.", // the first problem stays
		"areas": "Choose at least one option.",
		"ok":    "Choose an answer.",
		"when":  "Enter a date.",
		"pick":  "Choose an answer.",
		"sign":  "Type your full name to sign.",
	}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems %v, want %v", problems, want)
	}
}

func TestFillClientHonoursPrefillAndOverride(t *testing.T) {
	filled := func() practiced.Client {
		return practiced.Client{FirstName: "Ann", LastName: "Archer", Email: "ann@example.com", DateOfBirth: strp("1980-01-01"),
			Address: practiced.Address{City: "Sydney", Line2: strp("Unit 1")}}
	}
	content := onePage(
		question("first", "short_text", fills("first_name"), answer(`"Annie"`)),
		question("email", "short_text", fills("email"), answer(`"annie@example.com"`)),
		question("phone", "short_text", fills("phone_number"), answer(`"0412345678"`)),
		question("dob", "date", fills("date_of_birth"), answer(`"1990-03-15"`)),
		question("line2", "short_text", fills("address.line2"), answer(`"Unit 2"`)),
		question("city", "short_text", fills("address.city")), // unanswered: never clears
		question("country", "short_text", fills("address.country_code"), answer(`"AU"`)),
		question("pref", "short_text", fills("preferred_name"), answer(`"Ann"`)),
		question("notes", "long_text", answer(`"no field"`)),
	)
	for _, tc := range []struct {
		name              string
		prefill, override bool
		client            practiced.Client
		wantChanged       []string
		want              func(c *practiced.Client)
	}{
		{"neither flag writes nothing", false, false, filled(), nil, func(c *practiced.Client) {}},
		{"prefill fills only the empty fields", true, false, filled(),
			[]string{"phone_number", "address.country_code", "preferred_name"},
			func(c *practiced.Client) {
				c.PhoneNumber, c.Address.CountryCode, c.PreferredName = "0412345678", "AU", "Ann"
			}},
		{"prefill fills an empty nullable field", true, false, practiced.Client{FirstName: "Ann"},
			[]string{"email", "phone_number", "date_of_birth", "address.line2", "address.country_code", "preferred_name"},
			func(c *practiced.Client) {
				c.Email, c.PhoneNumber, c.DateOfBirth, c.Address.Line2 = "annie@example.com", "0412345678", strp("1990-03-15"), strp("Unit 2")
				c.Address.CountryCode, c.PreferredName = "AU", "Ann"
			}},
		{"override overwrites every answered field", false, true, filled(),
			[]string{"first_name", "email", "phone_number", "date_of_birth", "address.line2", "address.country_code", "preferred_name"},
			func(c *practiced.Client) {
				c.FirstName, c.Email, c.PhoneNumber, c.DateOfBirth = "Annie", "annie@example.com", "0412345678", strp("1990-03-15")
				c.Address.Line2, c.Address.CountryCode, c.PreferredName = strp("Unit 2"), "AU", "Ann"
			}},
		{"an answer equal to the field is no change", false, true,
			practiced.Client{FirstName: "Annie", Email: "annie@example.com", PhoneNumber: "0412345678", DateOfBirth: strp("1990-03-15"),
				PreferredName: "Ann", Address: practiced.Address{Line2: strp("Unit 2"), CountryCode: "AU"}},
			nil, func(c *practiced.Client) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := practiced.Form{PrefillClientFields: tc.prefill, OverrideClientFields: tc.override, Content: content}
			got := tc.client
			changed := practiced.FillClient(&f, &got)
			want := tc.client
			tc.want(&want)
			if !reflect.DeepEqual(changed, tc.wantChanged) {
				t.Errorf("changed %v, want %v", changed, tc.wantChanged)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("client\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestPrefillAnswersGivesTheClientsValuesForUnansweredMappedQuestions(t *testing.T) {
	ann := practiced.Client{FirstName: "Ann", LastName: "Archer", Email: "ann@example.com", DateOfBirth: strp("1980-01-01"),
		Address: practiced.Address{City: "Sydney", CountryCode: "AU"}}
	content := onePage(
		question("first", "short_text", fills("first_name"), answer(`"Annie"`)), // saved: the answer wins
		question("last", "short_text", fills("last_name")),
		question("email", "short_text", fills("email")),
		question("phone", "short_text", fills("phone_number")), // empty on the record
		question("dob", "date", fills("date_of_birth")),
		question("line2", "short_text", fills("address.line2")), // null on the record
		question("city", "short_text", fills("address.city")),
		question("country", "short_text", fills("address.country_code")),
		question("notes", "long_text"),
	)
	got := practiced.PrefillAnswers(practiced.Form{PrefillClientFields: true, Content: content}, ann)
	want := map[string]string{"last": "Archer", "email": "ann@example.com", "dob": "1980-01-01", "city": "Sydney", "country": "AU"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("prefill %v, want %v", got, want)
	}
	if got := practiced.PrefillAnswers(practiced.Form{OverrideClientFields: true, Content: content}, ann); len(got) != 0 {
		t.Errorf("without prefill_client_fields: %v, want nothing", got)
	}
}

var (
	t1 = practiced.NewTime(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	t2 = practiced.NewTime(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
)

func TestSendFormMovesNotSentToSentAndKeepsTheFirstSending(t *testing.T) {
	for _, tc := range []struct {
		name        string
		form        practiced.Form
		wantChanged bool
		wantStatus  string
		wantSentAt  *practiced.Time
		wantErr     bool
	}{
		{"not sent becomes sent", practiced.Form{SentStatus: practiced.SentNotSent}, true, practiced.SentSent, &t2, false},
		{"sent again keeps the first sent_at", practiced.Form{SentStatus: practiced.SentSent, SentAt: &t1}, false, practiced.SentSent, &t1, false},
		{"a viewed form stays viewed", practiced.Form{SentStatus: practiced.SentViewed, ViewedAt: &t1}, false, practiced.SentViewed, nil, false},
		{"an archived form cannot be sent", practiced.Form{SentStatus: practiced.SentNotSent, ArchivedAt: &t1}, false, practiced.SentNotSent, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.form
			changed, err := practiced.SendForm(&f, t2)
			if (err != nil) != tc.wantErr || changed != tc.wantChanged || f.SentStatus != tc.wantStatus || !reflect.DeepEqual(f.SentAt, tc.wantSentAt) {
				t.Errorf("SendForm = %v, %v; sent_status %s, sent_at %v", changed, err, f.SentStatus, f.SentAt)
			}
			if tc.wantErr && practiced.ErrorCode(err) != practiced.EINVALID {
				t.Errorf("error %v, want EINVALID", err)
			}
		})
	}
}

func TestViewFormRecordsOnlyTheFirstOpening(t *testing.T) {
	f := practiced.Form{SentStatus: practiced.SentNotSent}
	if !practiced.ViewForm(&f, t1) || f.SentStatus != practiced.SentViewed || *f.ViewedAt != t1 {
		t.Fatalf("first opening: sent_status %s, viewed_at %v", f.SentStatus, f.ViewedAt)
	}
	if practiced.ViewForm(&f, t2) || *f.ViewedAt != t1 {
		t.Errorf("second opening changed viewed_at to %v", f.ViewedAt)
	}
}

func TestSaveAnswersStartsTheFormWithTheFirstAnswer(t *testing.T) {
	content := func() practiced.FormContent {
		return practiced.FormContent(onePage(question("a", "short_text"), question("b", "yes_no", answer(`true`))))
	}
	for _, tc := range []struct {
		name       string
		status     string
		answers    map[string]json.RawMessage
		wantStatus string
		wantA      string
		wantB      string
	}{
		{"an answer starts the form", practiced.FormNotStarted, map[string]json.RawMessage{"a": json.RawMessage(`"x"`)},
			practiced.FormInProgress, `"x"`, `true`},
		{"questions left out keep their answers; nil clears", practiced.FormNotStarted, map[string]json.RawMessage{"b": nil},
			practiced.FormNotStarted, ``, ``},
		{"a form in progress stays so when its answers are cleared", practiced.FormInProgress,
			map[string]json.RawMessage{"a": nil, "b": nil}, practiced.FormInProgress, ``, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := practiced.Form{Status: tc.status, Content: content()}
			if err := practiced.SaveAnswers(&f, tc.answers); err != nil {
				t.Fatal(err)
			}
			qs := f.Content[0].Sections[0].Questions
			if f.Status != tc.wantStatus || string(qs[0].Answer) != tc.wantA || string(qs[1].Answer) != tc.wantB {
				t.Errorf("status %s, answers %s %s; want %s, %s %s", f.Status, qs[0].Answer, qs[1].Answer, tc.wantStatus, tc.wantA, tc.wantB)
			}
		})
	}
	completed := practiced.Form{Status: practiced.FormCompleted, Content: content()}
	if err := practiced.SaveAnswers(&completed, map[string]json.RawMessage{"a": json.RawMessage(`"x"`)}); !errors.Is(err, practiced.ErrFormCompleted) {
		t.Errorf("saving a completed form: %v, want ErrFormCompleted", err)
	}
	archived := practiced.Form{Status: practiced.FormInProgress, ArchivedAt: &t1, Content: content()}
	if err := practiced.SaveAnswers(&archived, nil); practiced.ErrorCode(err) != practiced.ENOTFOUND {
		t.Errorf("saving an archived form: %v, want ENOTFOUND", err)
	}
}

func TestSubmitFormCompletesOnlyWithEveryRequiredAnswer(t *testing.T) {
	newForm := func() practiced.Form {
		return practiced.Form{Status: practiced.FormInProgress, OverrideClientFields: true, Content: practiced.FormContent(onePage(
			question("email", "short_text", fills("email"), required), question("ok", "yes_no", required), question("notes", "long_text")))}
	}
	f := newForm()
	c := practiced.Client{Email: "old@example.com"}
	_, err := practiced.SubmitForm(&f, &c, map[string]json.RawMessage{"email": json.RawMessage(`"new@example.com"`), "ok": nil}, t2)
	var e *practiced.Error
	if !errors.As(err, &e) || e.Fields == nil || !reflect.DeepEqual(e.Fields.Map(), map[string][]string{"ok": {"must be answered"}}) {
		t.Fatalf("submitting without a required answer: %v, want EINVALID on ok", err)
	}
	if !reflect.DeepEqual(f, newForm()) || c.Email != "old@example.com" {
		t.Errorf("a refused submission changed the form (%+v) or the client (%s)", f, c.Email)
	}

	changed, err := practiced.SubmitForm(&f, &c, map[string]json.RawMessage{"email": json.RawMessage(`"new@example.com"`), "ok": json.RawMessage(`false`)}, t2)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != practiced.FormCompleted || *f.CompletedAt != t2 || c.Email != "new@example.com" || !reflect.DeepEqual(changed, []string{"email"}) {
		t.Errorf("submitted: status %s, completed_at %v, client email %s, changed %v", f.Status, f.CompletedAt, c.Email, changed)
	}
	if _, err := practiced.SubmitForm(&f, &c, nil, t2); !errors.Is(err, practiced.ErrFormCompleted) {
		t.Errorf("submitting a completed form: %v, want ErrFormCompleted", err)
	}
}

func TestFormFromTemplateCopiesTheTemplateUnanswered(t *testing.T) {
	tpl := practiced.FormTemplate{ID: "fte_x", Name: "Intake", Color: "#123456", CompletionMessage: "Thanks", PrefillClientFields: true,
		Content: onePage(question("a", "single_choice", options("x", "y"), fills("email"), answer(`"x"`)))}
	f := practiced.FormFromTemplate(tpl, "for_x", "cli_x", t1)
	want := practiced.Form{ID: "for_x", ClientID: "cli_x", FormTemplateID: "fte_x", Name: "Intake", Color: "#123456",
		CompletionMessage: "Thanks", PrefillClientFields: true, Status: practiced.FormNotStarted, SentStatus: practiced.SentNotSent,
		Content:   practiced.FormContent(onePage(question("a", "single_choice", options("x", "y"), fills("email")))),
		CreatedAt: t1, UpdatedAt: t1}
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("form\n%+v\nwant\n%+v", f, want)
	}
	// The copy shares nothing with the template.
	f.Content[0].Sections[0].Questions[0].Options[0] = "changed"
	*f.Content[0].Sections[0].Questions[0].ClientField = "changed"
	if q := tpl.Content[0].Sections[0].Questions[0]; q.Options[0] != "x" || *q.ClientField != "email" {
		t.Errorf("changing the form changed the template: %+v", q)
	}
}

func TestFormContentEncodesEveryAnswerAndTemplatesNone(t *testing.T) {
	pages := onePage(question("a", "yes_no"), question("b", "short_text", answer(`"x"`)))
	form, err := json.Marshal(practiced.FormContent(pages))
	if err != nil {
		t.Fatal(err)
	}
	const wantForm = `[{"sections":[{"title":"S","description":"","questions":[` +
		`{"id":"a","type":"yes_no","label":"QA","required":false,"options":[],"client_field":null,"answer":null},` +
		`{"id":"b","type":"short_text","label":"QB","required":false,"options":[],"client_field":null,"answer":"x"}]}]}]`
	if string(form) != wantForm {
		t.Errorf("form content\n%s\nwant\n%s", form, wantForm)
	}
	template, err := json.Marshal(onePage(question("a", "yes_no")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(template), "answer") {
		t.Errorf("template content carries an answer: %s", template)
	}

	// Read back, a stored null is unanswered.
	var back practiced.FormContent
	if err := json.Unmarshal(form, &back); err != nil {
		t.Fatal(err)
	}
	back = practiced.NormalizeContent(back)
	if a := back[0].Sections[0].Questions[0].Answer; a != nil {
		t.Errorf("a null answer reads back as %q, want nil", a)
	}
}
