package practiced

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// FormTemplate is the blueprint forms are made from.
type FormTemplate struct {
	ID                   string `json:"id"`
	Name                 string `json:"name"`
	Color                string `json:"color"`
	CompletionMessage    string `json:"completion_message"`
	PrefillClientFields  bool   `json:"prefill_client_fields"`
	OverrideClientFields bool   `json:"override_client_fields"`
	Content              []Page `json:"content"`
	CreatedAt            Time   `json:"created_at"`
	UpdatedAt            Time   `json:"updated_at"`
	ArchivedAt           *Time  `json:"archived_at"`
}

// Form is a template sent to one client, with the client's answers.
type Form struct {
	ID                   string      `json:"id"`
	BusinessID           string      `json:"-"`
	ClientID             string      `json:"client_id"`
	LocationID           *string     `json:"location_id"`
	FormTemplateID       string      `json:"form_template_id"`
	AppointmentClientID  *string     `json:"appointment_client_id"`
	Name                 string      `json:"name"`
	Color                string      `json:"color"`
	CompletionMessage    string      `json:"completion_message"`
	PrefillClientFields  bool        `json:"prefill_client_fields"`
	OverrideClientFields bool        `json:"override_client_fields"`
	Status               string      `json:"status"`
	SentStatus           string      `json:"sent_status"`
	Content              FormContent `json:"content"`
	HostedFormURL        string      `json:"hosted_form_url"`
	LinkSecret           string      `json:"-"` // with the id, opens the hosted page; only keys that can write are shown it
	SentAt               *Time       `json:"sent_at"`
	ViewedAt             *Time       `json:"viewed_at"`
	CompletedAt          *Time       `json:"completed_at"`
	ArchivedAt           *Time       `json:"archived_at"`
	CreatedAt            Time        `json:"created_at"`
	UpdatedAt            Time        `json:"updated_at"`
}

// Form statuses and sent statuses.
const (
	FormNotStarted = "not_started"
	FormInProgress = "in_progress"
	FormCompleted  = "completed"
	SentNotSent    = "not_sent"
	SentQueued     = "queued" // its e-mail waits to be sent
	SentSent       = "sent"
	SentBounced    = "bounced" // the client's mail server refused the address
	SentFailed     = "failed"  // its e-mail could not be sent
	SentViewed     = "viewed"
)

// FormStatuses and SentStatuses list the values of a form's two states.
var (
	FormStatuses = []string{FormNotStarted, FormInProgress, FormCompleted}
	SentStatuses = []string{SentNotSent, SentQueued, SentSent, SentBounced, SentFailed, SentViewed}
)

// Question types of a form.
var QuestionTypes = []string{"short_text", "long_text", "single_choice", "multiple_choice", "date", "yes_no", "signature"}

// Question is one question of a form page section. Templates carry no
// answers, so Answer is left out of a template's JSON; a form's content
// (FormContent) always carries it, null until answered.
type Question struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Label       string          `json:"label"`
	Required    bool            `json:"required"`
	Options     []string        `json:"options"`
	ClientField *string         `json:"client_field"`
	Answer      json.RawMessage `json:"answer,omitempty"`
}

// Section is a titled group of questions.
type Section struct {
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Questions   []Question `json:"questions"`
}

// Page is one page of a form.
type Page struct {
	Sections []Section `json:"sections"`
}

// FormContent is a form's pages: its template's questions, each with the
// client's answer. Unlike a template's content it encodes every question's
// answer, as null until answered, so clients of the API see one shape.
type FormContent []Page

// MarshalJSON writes the pages with an answer key on every question.
func (c FormContent) MarshalJSON() ([]byte, error) {
	type answered struct {
		Question
		Answer json.RawMessage `json:"answer"` // hides Question's omitempty one
	}
	type section struct {
		Title       string     `json:"title"`
		Description string     `json:"description"`
		Questions   []answered `json:"questions"`
	}
	type page struct {
		Sections []section `json:"sections"`
	}
	out := make([]page, len(c))
	for i, p := range c {
		out[i].Sections = make([]section, len(p.Sections))
		for j, s := range p.Sections {
			qs := make([]answered, len(s.Questions))
			for k, q := range s.Questions {
				if q.Options == nil {
					q.Options = []string{}
				}
				qs[k] = answered{Question: q, Answer: q.Answer}
			}
			out[i].Sections[j] = section{Title: s.Title, Description: s.Description, Questions: qs}
		}
	}
	return json.Marshal(out)
}

// NormalizeContent makes every list in form content non-nil, so content
// always encodes lists as [] and never as null.
func NormalizeContent(pages []Page) []Page {
	if pages == nil {
		return []Page{}
	}
	for i := range pages {
		if pages[i].Sections == nil {
			pages[i].Sections = []Section{}
		}
		for j := range pages[i].Sections {
			s := &pages[i].Sections[j]
			if s.Questions == nil {
				s.Questions = []Question{}
			}
			for k := range s.Questions {
				q := &s.Questions[k]
				if q.Options == nil {
					q.Options = []string{}
				}
				// A stored null answer reads back as the JSON text "null";
				// unanswered is nil.
				if string(q.Answer) == "null" {
					q.Answer = nil
				}
			}
		}
	}
	return pages
}

// FormFilter filters the form list.
type FormFilter struct {
	ListFilter
	Status              string
	ClientID            string
	AppointmentClientID string
	LocationID          string
	FormTemplateID      string
	SentStatus          string
}

// FormTemplateStore keeps form templates.
type FormTemplateStore interface {
	ListFormTemplates(ctx context.Context, businessID string, f ListFilter, p PageRequest) ([]FormTemplate, PageInfo, error)
	// GetFormTemplate returns ENOTFOUND if the business has no such template.
	GetFormTemplate(ctx context.Context, businessID, id string) (FormTemplate, error)
	// CreateFormTemplate stores a new template; its ID must be set.
	CreateFormTemplate(ctx context.Context, businessID string, t *FormTemplate) error
	UpdateFormTemplate(ctx context.Context, businessID, id string, change func(*FormTemplate) error) (FormTemplate, error)
	ArchiveFormTemplate(ctx context.Context, businessID, id string, archived bool, now Time) (FormTemplate, error)
}

// FormStore keeps forms. The store leaves HostedFormURL empty: only the
// API layer knows the public address.
type FormStore interface {
	ListForms(ctx context.Context, businessID string, f FormFilter, p PageRequest) ([]Form, PageInfo, error)
	// GetForm returns ENOTFOUND if the business has no such form.
	GetForm(ctx context.Context, businessID, id string) (Form, error)
	// CreateForm stores a new form; its ID must be set. Returns EINVALID
	// on appointment_client_id when the appointment client does not exist
	// or attends for another client, and EINVALID when another reference
	// names no record of the business.
	CreateForm(ctx context.Context, businessID string, f *Form) error
	UpdateForm(ctx context.Context, businessID, id string, change func(*Form) error) (Form, error)
	// CompleteForm is UpdateForm for a submission, which may write to the
	// form's client too: change sees the form and its client, both read
	// under lock. The form is written, and the client when change altered
	// it (its UpdatedAt becomes the current time unless change set it),
	// each with its "updated" event, all in one transaction.
	CompleteForm(ctx context.Context, businessID, id string, change func(*Form, *Client) error) (Form, error)
	ArchiveForm(ctx context.Context, businessID, id string, archived bool, now Time) (Form, error)
	// HostedForm returns the form with the id, whatever its business, and
	// the name of that business; the form's BusinessID is set. It serves
	// the hosted page, which has no API key: there the form's unguessable
	// id is the credential. Archived forms are returned too. Returns
	// ENOTFOUND if no form has the id.
	HostedForm(ctx context.Context, id string) (HostedForm, error)
}

// HostedForm is what the hosted page shows: a form and the name of the
// clinic that sent it.
type HostedForm struct {
	Form         Form
	BusinessName string
}

// Question types by name.
const (
	QuestionShortText      = "short_text"
	QuestionLongText       = "long_text"
	QuestionSingleChoice   = "single_choice"
	QuestionMultipleChoice = "multiple_choice"
	QuestionDate           = "date"
	QuestionYesNo          = "yes_no"
	QuestionSignature      = "signature"
)

// ClientFields are the client fields an answer can fill, named as in the
// client record (address parts with a dot).
var ClientFields = []string{"first_name", "last_name", "preferred_name", "email", "phone_number", "date_of_birth",
	"address.line1", "address.line2", "address.city", "address.state", "address.postal_code", "address.country_code"}

// clientFieldType is the one question type that may fill each client
// field: a date of birth comes from a date question, the rest from short
// text, so an answer always has the shape of the field it fills.
func clientFieldType(field string) string {
	if field == "date_of_birth" {
		return QuestionDate
	}
	return QuestionShortText
}

// questionID is the shape of a question's key: it names the question in
// answers and in the hosted page's inputs.
var questionID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func isChoice(typ string) bool { return typ == QuestionSingleChoice || typ == QuestionMultipleChoice }

// CheckContent adds to errs every rule a template's content breaks, under
// dotted paths that start with path (e.g. "content.0.sections.1.questions.2.id"):
// at least one question; every page with a section; question ids of the
// right shape and unique in the content; a known type and a label; the
// choices of choice questions, and no choices on others; a known client
// field, filled from a question of its type by one question only. What
// errs already holds was found reading the content: a field already
// failed, or one inside or around a failed one, is not reported again.
func CheckContent(pages []Page, path string, errs *FieldErrors) {
	failed := map[string]bool{} // fields failed before
	around := map[string]bool{} // those fields and every object around them
	for _, f := range errs.Fields() {
		failed[f] = true
		for i := range f {
			if f[i] == '.' {
				around[f[:i]] = true
			}
		}
		around[f] = true
	}
	add := func(field, msg string) {
		if around[field] || errs.Has(field) {
			return
		}
		for i := range field {
			if field[i] == '.' && failed[field[:i]] {
				return
			}
		}
		errs.Add(field, msg)
	}
	seenID := map[string]string{}    // question id → path of its question
	seenField := map[string]string{} // client field → id of the question filling it
	questions := 0
	for i, p := range pages {
		pp := path + "." + strconv.Itoa(i)
		if len(p.Sections) == 0 {
			add(pp+".sections", "must have at least one section")
		}
		for j, s := range p.Sections {
			for k, q := range s.Questions {
				questions++
				qp := pp + ".sections." + strconv.Itoa(j) + ".questions." + strconv.Itoa(k)
				switch {
				case q.ID == "":
					add(qp+".id", "must not be empty")
				case !questionID.MatchString(q.ID):
					add(qp+".id", "must be 1 to 64 letters, digits, _ or -")
				case seenID[q.ID] != "":
					add(qp+".id", "repeats the id of question "+seenID[q.ID])
				default:
					seenID[q.ID] = qp
				}
				if strings.TrimSpace(q.Label) == "" {
					add(qp+".label", "must not be empty")
				}
				known := slices.Contains(QuestionTypes, q.Type)
				if !known {
					add(qp+".type", "must be one of: "+strings.Join(QuestionTypes, ", "))
				}
				checkOptions(q, qp+".options", known, add)
				if q.ClientField != nil {
					checkClientField(q, qp+".client_field", known, seenField, add)
				}
			}
		}
	}
	if questions == 0 {
		add(path, "must have at least one question")
	}
}

func checkOptions(q Question, path string, typeKnown bool, add func(field, msg string)) {
	if typeKnown && !isChoice(q.Type) {
		if len(q.Options) > 0 {
			add(path, "must be empty for a "+q.Type+" question")
		}
		return
	}
	if typeKnown && len(q.Options) == 0 {
		add(path, "must list the choices of a "+q.Type+" question")
	}
	var seen []string
	for n, o := range q.Options {
		switch {
		case strings.TrimSpace(o) == "":
			add(path+"."+strconv.Itoa(n), "must not be empty")
		case slices.Contains(seen, o):
			add(path+"."+strconv.Itoa(n), "repeats a choice given earlier")
		default:
			seen = append(seen, o)
		}
	}
}

func checkClientField(q Question, path string, typeKnown bool, seen map[string]string, add func(field, msg string)) {
	field := *q.ClientField
	switch {
	case !slices.Contains(ClientFields, field):
		add(path, "must be one of: "+strings.Join(ClientFields, ", "))
	case typeKnown && q.Type != clientFieldType(field):
		add(path, "can be "+field+" only on a "+clientFieldType(field)+" question")
	case seen[field] != "":
		add(path, "is already filled by question "+seen[field])
	default:
		seen[field] = q.ID
	}
}

// FormFromTemplate returns a new form of template t for a client: the
// template's name, colour, completion message, flags and content, every
// question unanswered; not started and not sent. The content is a copy,
// so later changes to the template leave the form as it was sent.
func FormFromTemplate(t FormTemplate, id, clientID string, now Time) Form {
	return Form{ID: id, ClientID: clientID, FormTemplateID: t.ID, Name: t.Name, Color: t.Color,
		CompletionMessage: t.CompletionMessage, PrefillClientFields: t.PrefillClientFields,
		OverrideClientFields: t.OverrideClientFields, Status: FormNotStarted, SentStatus: SentNotSent,
		Content: copyContent(t.Content), CreatedAt: now, UpdatedAt: now}
}

func copyContent(pages []Page) FormContent {
	out := make(FormContent, len(pages))
	for i, p := range pages {
		out[i].Sections = make([]Section, len(p.Sections))
		for j, s := range p.Sections {
			qs := make([]Question, len(s.Questions))
			for k, q := range s.Questions {
				q.Options = slices.Clone(q.Options)
				if q.Options == nil {
					q.Options = []string{}
				}
				if q.ClientField != nil {
					f := *q.ClientField
					q.ClientField = &f
				}
				q.Answer = nil
				qs[k] = q
			}
			out[i].Sections[j] = Section{Title: s.Title, Description: s.Description, Questions: qs}
		}
	}
	return out
}

// ErrFormCompleted is returned for a change to the answers of a
// completed form, which is read-only.
var ErrFormCompleted = Errorf(EINVALID, "The form is completed; its answers can no longer change.")

// SendForm records that f was sent at now: not_sent becomes sent with
// sent_at. A form sent or viewed before keeps its state and its first
// sent_at, so resending changes nothing; it reports whether f changed.
// An archived form cannot be sent: its page is no longer available.
func SendForm(f *Form, now Time) (bool, error) {
	if f.ArchivedAt != nil {
		return false, Invalid("sent_status", "cannot become sent: the form is archived; unarchive it first")
	}
	if f.SentStatus != SentNotSent {
		return false, nil
	}
	f.SentStatus, f.SentAt = SentSent, &now
	return true, nil
}

// ViewForm records that the hosted page was opened at now. The first
// opening sets viewed_at and makes sent_status viewed, whether or not the
// form was sent through the API (the link may reach the client another
// way); later openings change nothing. It reports whether f changed.
func ViewForm(f *Form, now Time) bool {
	if f.ViewedAt != nil {
		return false
	}
	f.SentStatus, f.ViewedAt = SentViewed, &now
	return true
}

// SaveAnswers gives each question named in answers that answer (nil
// clears it); the other questions keep theirs. The first answer saved
// moves a form from not_started to in_progress. A completed form is
// read-only (ErrFormCompleted); an archived one is no longer available
// (ENOTFOUND).
func SaveAnswers(f *Form, answers map[string]json.RawMessage) error {
	if f.ArchivedAt != nil {
		return NotFound(KindForm.Name)
	}
	if f.Status == FormCompleted {
		return ErrFormCompleted
	}
	answered := false
	eachQuestion(f.Content, func(q *Question) {
		if a, ok := answers[q.ID]; ok {
			q.Answer = a
		}
		answered = answered || q.Answer != nil
	})
	if answered && f.Status == FormNotStarted {
		f.Status = FormInProgress
	}
	return nil
}

// SubmitForm saves the answers (as SaveAnswers) and completes f at now,
// then fills the client c from the answers as FillClient does. Every
// required question must then be answered: otherwise nothing changes
// and the error is EINVALID on each unanswered question's id. It returns
// the client fields it changed.
func SubmitForm(f *Form, c *Client, answers map[string]json.RawMessage, now Time) ([]string, error) {
	saved := *f
	saved.Content = copyAnswers(f.Content)
	if err := SaveAnswers(&saved, answers); err != nil {
		return nil, err
	}
	var errs FieldErrors
	eachQuestion(saved.Content, func(q *Question) {
		if q.Required && q.Answer == nil {
			errs.Add(q.ID, "must be answered")
		}
	})
	if err := errs.Err(); err != nil {
		return nil, err
	}
	*f = saved
	f.Status, f.CompletedAt = FormCompleted, &now
	return FillClient(f, c), nil
}

// copyAnswers copies content deeply enough that setting answers on the
// copy leaves the original as it was.
func copyAnswers(content FormContent) FormContent {
	out := make(FormContent, len(content))
	for i, p := range content {
		out[i].Sections = make([]Section, len(p.Sections))
		for j, s := range p.Sections {
			s.Questions = slices.Clone(s.Questions)
			out[i].Sections[j] = s
		}
	}
	return out
}

func eachQuestion(content []Page, fn func(q *Question)) {
	for i := range content {
		for j := range content[i].Sections {
			s := &content[i].Sections[j]
			for k := range s.Questions {
				fn(&s.Questions[k])
			}
		}
	}
}

// clientField reads and writes one client field as text; "" is empty.
type clientField struct {
	get func(c *Client) string
	set func(c *Client, v string)
}

func textField(f func(c *Client) *string) clientField {
	return clientField{get: func(c *Client) string { return *f(c) }, set: func(c *Client, v string) { *f(c) = v }}
}

// nullableField is a field that is null when empty.
func nullableField(f func(c *Client) **string) clientField {
	return clientField{
		get: func(c *Client) string {
			if p := *f(c); p != nil {
				return *p
			}
			return ""
		},
		set: func(c *Client, v string) { *f(c) = &v },
	}
}

var clientFieldAccess = map[string]clientField{
	"first_name":           textField(func(c *Client) *string { return &c.FirstName }),
	"last_name":            textField(func(c *Client) *string { return &c.LastName }),
	"preferred_name":       textField(func(c *Client) *string { return &c.PreferredName }),
	"email":                textField(func(c *Client) *string { return &c.Email }),
	"phone_number":         textField(func(c *Client) *string { return &c.PhoneNumber }),
	"date_of_birth":        nullableField(func(c *Client) **string { return &c.DateOfBirth }),
	"address.line1":        textField(func(c *Client) *string { return &c.Address.Line1 }),
	"address.line2":        nullableField(func(c *Client) **string { return &c.Address.Line2 }),
	"address.city":         textField(func(c *Client) *string { return &c.Address.City }),
	"address.state":        textField(func(c *Client) *string { return &c.Address.State }),
	"address.postal_code":  textField(func(c *Client) *string { return &c.Address.PostalCode }),
	"address.country_code": textField(func(c *Client) *string { return &c.Address.CountryCode }),
}

// FillClient writes to c the answers of f's questions that name a client
// field, as f's flags say: with override_client_fields every answered
// field is overwritten; with only prefill_client_fields, only the fields
// c has empty are filled; with neither, nothing is written. Unanswered
// questions never clear a field. It returns the fields it changed, in
// question order.
func FillClient(f *Form, c *Client) []string {
	if !f.OverrideClientFields && !f.PrefillClientFields {
		return nil
	}
	var changed []string
	eachQuestion(f.Content, func(q *Question) {
		if q.ClientField == nil || q.Answer == nil {
			return
		}
		acc, ok := clientFieldAccess[*q.ClientField]
		var v string
		if !ok || json.Unmarshal(q.Answer, &v) != nil || v == "" {
			return // not a text answer: nothing a client field can hold
		}
		old := acc.get(c)
		if old == v || (old != "" && !f.OverrideClientFields) {
			return
		}
		acc.set(c, v)
		changed = append(changed, *q.ClientField)
	})
	return changed
}

// PrefillAnswers gives what the hosted page shows, by question id, for
// each question of f that names a client field and has no answer yet:
// the value c holds in that field, when f has prefill_client_fields and
// the value is not empty. The client checks and submits these as their
// answers, so the form does not ask again for what the clinic knows; an
// answer already saved wins, being what the client entered last.
func PrefillAnswers(f Form, c Client) map[string]string {
	out := map[string]string{}
	if !f.PrefillClientFields {
		return out
	}
	eachQuestion(f.Content, func(q *Question) {
		if q.ClientField == nil || q.Answer != nil {
			return
		}
		if acc, ok := clientFieldAccess[*q.ClientField]; ok {
			if v := acc.get(&c); v != "" {
				out[q.ID] = v
			}
		}
	})
	return out
}

// AnswerRules is what reading answers needs besides the questions: the
// set of country codes, the latest date anyone can call today (a date of
// birth may not pass it), and the country whose national phone numbers
// an answer without a leading + is read in (PhoneRegion; "" means
// DefaultPhoneRegion).
type AnswerRules struct {
	IsCountry   func(code string) bool
	Today       string // YYYY-MM-DD
	PhoneRegion string
}

// Longest answers, in characters.
const (
	MaxShortAnswer = 255
	MaxLongAnswer  = 5000
)

// ReadAnswers reads the answer to every question of content from the
// values entered for it (values returns them by question id). It returns
// the answers read by question id (nil for a question left blank) and,
// for the questions whose values are not a valid answer, what is wrong,
// in words for the person filling the form in.
func ReadAnswers(content []Page, values func(questionID string) []string, rules AnswerRules) (map[string]json.RawMessage, map[string]string) {
	answers := map[string]json.RawMessage{}
	problems := map[string]string{}
	// A country answered in the same form is the country the phone
	// numbers it fills are read in.
	eachQuestion(content, func(q *Question) {
		if q.ClientField != nil && *q.ClientField == "address.country_code" && len(values(q.ID)) > 0 {
			rules.PhoneRegion = PhoneRegion(values(q.ID)[0], rules.PhoneRegion)
		}
	})
	eachQuestion(content, func(q *Question) {
		a, problem := ReadAnswer(*q, values(q.ID), rules)
		if problem != "" {
			problems[q.ID] = problem
			return
		}
		answers[q.ID] = a
	})
	return answers, problems
}

// ReadAnswer turns the values entered for q into its answer, the JSON
// stored in the form: a string for text, a single choice, a date
// (YYYY-MM-DD) and a signature (the typed name), a list of the chosen
// options in their order for a multiple choice, true or false for yes/no.
// Text is trimmed; nothing entered is a nil answer. An answer filling a
// client field must suit the field, and is stored as the client record
// keeps it (a phone number in E.164, a country code in capitals).
func ReadAnswer(q Question, values []string, rules AnswerRules) (json.RawMessage, string) {
	first := ""
	if len(values) > 0 {
		first = strings.TrimSpace(strings.ReplaceAll(values[0], "\r\n", "\n"))
	}
	if first == "" && q.Type != QuestionMultipleChoice {
		return nil, ""
	}
	field := ""
	if q.ClientField != nil {
		field = *q.ClientField
	}
	switch q.Type {
	case QuestionShortText, QuestionSignature:
		if n := utf8.RuneCountInString(first); n > MaxShortAnswer {
			return nil, fmt.Sprintf("Use at most %d characters (this has %d).", MaxShortAnswer, n)
		}
		if strings.ContainsAny(first, "\n\x00") {
			return nil, "Use a single line of text."
		}
		v, problem := clientValue(field, first, rules)
		if problem != "" {
			return nil, problem
		}
		return marshal(v), ""
	case QuestionLongText:
		if n := utf8.RuneCountInString(first); n > MaxLongAnswer {
			return nil, fmt.Sprintf("Use at most %d characters (this has %d).", MaxLongAnswer, n)
		}
		if strings.ContainsRune(first, 0) {
			return nil, "Remove the NUL characters."
		}
		return marshal(first), ""
	case QuestionSingleChoice:
		if !slices.Contains(q.Options, first) {
			return nil, "Choose one of the options."
		}
		return marshal(first), ""
	case QuestionMultipleChoice:
		chosen := map[string]bool{}
		for _, v := range values {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if !slices.Contains(q.Options, v) {
				return nil, "Choose among the options."
			}
			chosen[v] = true
		}
		if len(chosen) == 0 {
			return nil, ""
		}
		var out []string
		for _, o := range q.Options {
			if chosen[o] {
				out = append(out, o)
			}
		}
		return marshal(out), ""
	case QuestionDate:
		d, err := time.Parse(time.DateOnly, first)
		if err != nil || d.Year() < 1900 || d.Year() > 2200 {
			return nil, "Enter a date such as 2026-03-02."
		}
		if field == "date_of_birth" && first > rules.Today {
			return nil, "A date of birth cannot be in the future."
		}
		return marshal(first), ""
	case QuestionYesNo:
		switch first {
		case "yes":
			return marshal(true), ""
		case "no":
			return marshal(false), ""
		}
		return nil, "Choose yes or no."
	}
	return nil, "This question cannot be answered."
}

// RequireAnswers adds a problem for each required question of content
// that has neither an answer nor a problem already, saying what it needs.
func RequireAnswers(content []Page, answers map[string]json.RawMessage, problems map[string]string) {
	eachQuestion(content, func(q *Question) {
		if !q.Required || answers[q.ID] != nil || problems[q.ID] != "" {
			return
		}
		switch q.Type {
		case QuestionSingleChoice, QuestionYesNo:
			problems[q.ID] = "Choose an answer."
		case QuestionMultipleChoice:
			problems[q.ID] = "Choose at least one option."
		case QuestionDate:
			problems[q.ID] = "Enter a date."
		case QuestionSignature:
			problems[q.ID] = "Type your full name to sign."
		default:
			problems[q.ID] = "Answer this question."
		}
	})
}

// clientValue checks text that fills a client field and returns it as
// the client record keeps it.
func clientValue(field, v string, rules AnswerRules) (string, string) {
	switch field {
	case "email":
		if !ValidEmail(v) {
			return "", "Enter an e-mail address such as name@example.com."
		}
	case "phone_number":
		region := PhoneRegion(rules.PhoneRegion)
		n, ok := NormalizePhone(v, region)
		if !ok {
			return "", PhoneProblem(region)
		}
		return n, ""
	case "address.country_code":
		up := strings.ToUpper(v)
		if len(up) != 2 || rules.IsCountry == nil || !rules.IsCountry(up) {
			return "", "Enter a two-letter country code such as AU."
		}
		return up, ""
	}
	return v, ""
}

func marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("practiced: encode answer: " + err.Error())
	}
	return b
}
