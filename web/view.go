package web

import (
	"embed"
	"encoding/json"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
)

//go:embed templates/*.html
var templateFiles embed.FS

var pages = template.Must(template.New("").ParseFS(templateFiles, "templates/*.html"))

// pageData is what a page template shows; its accent colours the page.
type pageData interface {
	title() string
	accent() string
}

// pageFrame is what every page template gets: the page's title, its
// style sheet and its data.
type pageFrame struct {
	Title string
	Style template.CSS
	Data  pageData
}

// inputName is the name of the inputs of the question with the id; the
// prefix keeps question ids apart from the page's own fields (action).
func inputName(questionID string) string { return "q_" + questionID }

// formView is the form being answered.
type formView struct {
	Business string
	Name     string
	Color    string
	Notice   string        // a status message, such as "saved"
	Problems []problemLink // what to fix, in question order
	Parts    []partView
}

func (v formView) accent() string { return v.Color }

// title starts with "Error: " when something is to be fixed, so that a
// screen reader says so first.
func (v formView) title() string {
	t := v.Name + " – " + v.Business
	if len(v.Problems) > 0 {
		t = "Error: " + t
	}
	return t
}

// problemLink is one line of the error summary, linked to its question.
type problemLink struct{ Href, Label, Message string }

// partView is one page of the form's content. Every page is shown on one
// HTML page; with more than one, each has a heading.
type partView struct {
	Heading  string
	Sections []sectionView
}

type sectionView struct {
	Title       string
	Description string
	Level       int // heading level of the title: 2, or 3 under a part heading
	Questions   []questionView
}

// questionView is one question as the page shows it. Kind picks its
// markup: text, textarea, date, radios or checkboxes.
type questionView struct {
	Kind         string
	InputType    string // of a text input: text, email or tel
	InputID      string
	Name         string
	Label        string
	Required     bool
	Hint         string
	HintID       string
	Error        string
	ErrorID      string
	Value        string
	Options      []optionView
	Autocomplete string
}

// DescribedBy names the hint and the error message, for aria-describedby.
func (q questionView) DescribedBy() string {
	var ids []string
	if q.Hint != "" {
		ids = append(ids, q.HintID)
	}
	if q.Error != "" {
		ids = append(ids, q.ErrorID)
	}
	return strings.Join(ids, " ")
}

type optionView struct {
	ID      string
	Value   string
	Label   string
	Checked bool
}

// autocomplete tells browsers which of the person's details a question
// asks for, so they can offer to fill it in.
var autocomplete = map[string]string{
	"first_name": "given-name", "last_name": "family-name", "preferred_name": "nickname", "email": "email",
	"phone_number": "tel", "date_of_birth": "bday", "address.line1": "address-line1", "address.line2": "address-line2",
	"address.city": "address-level2", "address.state": "address-level1", "address.postal_code": "postal-code",
	"address.country_code": "country",
}

// newFormView shows form f with the values entered (values by question
// id), what is wrong with them (problems by question id) and a notice.
func newFormView(business string, f practiced.Form, values func(string) []string, problems map[string]string, notice string) formView {
	v := formView{Business: business, Name: f.Name, Color: f.Color, Notice: notice}
	n := 0
	for pi, p := range f.Content {
		part := partView{}
		level := 2
		if len(f.Content) > 1 {
			part.Heading = "Part " + strconv.Itoa(pi+1) + " of " + strconv.Itoa(len(f.Content))
			level = 3
		}
		for _, s := range p.Sections {
			sec := sectionView{Title: s.Title, Description: s.Description, Level: level}
			for _, q := range s.Questions {
				n++
				qv := newQuestionView(q, "q"+strconv.Itoa(n), values(q.ID), problems[q.ID])
				if qv.Error != "" {
					href := "#" + qv.InputID
					if len(qv.Options) > 0 {
						href = "#" + qv.Options[0].ID // a group is reached through its first option
					}
					v.Problems = append(v.Problems, problemLink{Href: href, Label: q.Label, Message: qv.Error})
				}
				sec.Questions = append(sec.Questions, qv)
			}
			part.Sections = append(part.Sections, sec)
		}
		v.Parts = append(v.Parts, part)
	}
	return v
}

func newQuestionView(q practiced.Question, id string, values []string, problem string) questionView {
	qv := questionView{InputID: id, Name: inputName(q.ID), Label: q.Label, Required: q.Required,
		HintID: id + "-hint", Error: problem, ErrorID: id + "-error", Kind: "text", InputType: "text"}
	if len(values) > 0 {
		qv.Value = values[0]
	}
	field := ""
	if q.ClientField != nil {
		field = *q.ClientField
		qv.Autocomplete = autocomplete[field]
	}
	switch field {
	case "email":
		qv.InputType = "email"
	case "phone_number":
		qv.InputType = "tel"
	}
	choose := func(options, labels []string) {
		for i, o := range options {
			qv.Options = append(qv.Options, optionView{ID: id + "-" + strconv.Itoa(i+1), Value: o, Label: labels[i],
				Checked: slices.Contains(values, o)})
		}
	}
	switch q.Type {
	case practiced.QuestionLongText:
		qv.Kind = "textarea"
	case practiced.QuestionDate:
		qv.Kind = "date"
	case practiced.QuestionSingleChoice:
		qv.Kind = "radios"
		choose(q.Options, q.Options)
	case practiced.QuestionMultipleChoice:
		qv.Kind = "checkboxes"
		qv.Hint = "Choose all that apply."
		choose(q.Options, q.Options)
	case practiced.QuestionYesNo:
		qv.Kind = "radios"
		choose([]string{"yes", "no"}, []string{"Yes", "No"})
	case practiced.QuestionSignature:
		qv.Hint = "Type your full name to sign."
		qv.Autocomplete = "name"
	}
	return qv
}

// storedValues gives the stored answers of content as the values of the
// page's inputs.
func storedValues(content practiced.FormContent) func(string) []string {
	byID := map[string][]string{}
	for _, p := range content {
		for _, s := range p.Sections {
			for _, q := range s.Questions {
				byID[q.ID] = answerValues(q.Answer)
			}
		}
	}
	return func(id string) []string { return byID[id] }
}

func answerValues(a json.RawMessage) []string {
	var s string
	var b bool
	var list []string
	switch {
	case a == nil:
		return nil
	case json.Unmarshal(a, &s) == nil:
		return []string{s}
	case json.Unmarshal(a, &b) == nil:
		if b {
			return []string{"yes"}
		}
		return []string{"no"}
	case json.Unmarshal(a, &list) == nil:
		return list
	}
	return nil
}

// doneView is a completed form: its completion message and its answers,
// read-only.
type doneView struct {
	Business string
	Name     string
	Color    string
	Message  string
	Already  bool // the person sent answers to a form already completed
	Answers  []answerView
}

func (v doneView) accent() string { return v.Color }

func (v doneView) title() string { return v.Name + " – " + v.Business }

type answerView struct {
	Label string
	Text  string   // a single answer, or "Not answered"
	List  []string // the options chosen, for a multiple choice
}

func newDoneView(business string, f practiced.Form, already bool) doneView {
	v := doneView{Business: business, Name: f.Name, Color: f.Color, Message: f.CompletionMessage, Already: already}
	if v.Message == "" {
		v.Message = "Thank you. Your answers have been sent to " + business + "."
	}
	for _, p := range f.Content {
		for _, s := range p.Sections {
			for _, q := range s.Questions {
				v.Answers = append(v.Answers, newAnswerView(q))
			}
		}
	}
	return v
}

func newAnswerView(q practiced.Question) answerView {
	a := answerView{Label: q.Label, Text: "Not answered"}
	values := answerValues(q.Answer)
	switch {
	case len(values) == 0:
	case q.Type == practiced.QuestionMultipleChoice:
		a.List, a.Text = values, ""
	case q.Type == practiced.QuestionYesNo:
		a.Text = map[string]string{"yes": "Yes", "no": "No"}[values[0]]
	case q.Type == practiced.QuestionDate:
		a.Text = values[0]
		if d, err := time.Parse(time.DateOnly, values[0]); err == nil {
			a.Text = d.Format("2 January 2006")
		}
	default:
		a.Text = values[0]
	}
	return a
}

// problemView is a page that says what went wrong: no such form, a
// refused request, a failure.
type problemView struct {
	Title     string
	Message   string
	Reference string // the request id, to quote to the clinic
}

func (problemView) accent() string { return "" }

func (v problemView) title() string { return v.Title }
