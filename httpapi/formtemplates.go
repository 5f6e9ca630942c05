package httpapi

import (
	"net/http"
	"strings"

	practiced "github.com/practiced/practiced"
)

// Limits of a form template's content.
const (
	maxPages             = 50
	maxSectionsPerPage   = 50
	maxQuestionsPerSect  = 100
	maxOptions           = 100
	maxCompletionMessage = 2000
	maxSectionText       = 2000
	maxLabel             = 500
)

// GET /v1/form_templates
func (s *Server) listFormTemplates(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "form_templates", 100)
	f := l.q.listFilter()
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListFormTemplateDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// formTemplates creates and updates form templates. name and content
// are required on create; an update changes only the fields sent, and
// replaces content whole. Forms made from the template before keep the
// content they were made with.
func (s *Server) formTemplates() *resource[practiced.FormTemplate] {
	return &resource[practiced.FormTemplate]{
		kind: practiced.KindFormTemplate,
		get:  s.store.GetFormTemplate, create: s.store.CreateFormTemplate, update: s.store.UpdateFormTemplate,
		fresh: func(id string, now practiced.Time) practiced.FormTemplate {
			return practiced.FormTemplate{ID: id, CreatedAt: now, UpdatedAt: now}
		},
		read:  readTemplate,
		touch: func(t *practiced.FormTemplate, now practiced.Time) { t.UpdatedAt = now },
	}
}

// readTemplate reads a create body (stored is nil) or an update body of
// a form template. name and content are required on create and can never
// be null or emptied; null clears the other fields (booleans become
// false).
func readTemplate(o *object, stored *practiced.FormTemplate) *patch[practiced.FormTemplate] {
	create := stored == nil
	p := &patch[practiced.FormTemplate]{}

	name := o.str("name", shortText)
	switch {
	case create && !name.Set:
		o.required("name", false, false)
	case name.Null:
		o.fail("name", "is required and cannot be null")
	case name.Set && strings.TrimSpace(name.V) == "":
		o.fail("name", "must not be empty")
	case name.Set:
		setText(p, name, func(t *practiced.FormTemplate) *string { return &t.Name })
	}
	setText(p, o.color("color"), func(t *practiced.FormTemplate) *string { return &t.Color })
	setText(p, o.str("completion_message", maxCompletionMessage), func(t *practiced.FormTemplate) *string { return &t.CompletionMessage })
	setBool(p, o.boolean("prefill_client_fields"), func(t *practiced.FormTemplate) *bool { return &t.PrefillClientFields })
	setBool(p, o.boolean("override_client_fields"), func(t *practiced.FormTemplate) *bool { return &t.OverrideClientFields })
	content, set, null := readContent(o)
	switch {
	case create && !set:
		o.required("content", false, false)
	case null:
		o.fail("content", "is required and cannot be null")
	case content != nil:
		practiced.CheckContent(content, "content", o.errs)
		p.change(func(t *practiced.FormTemplate) { t.Content = content })
	}
	o.finish()
	return p
}

// readContent reads content: pages of sections of questions. The shape
// and lengths are read here; practiced.CheckContent checks the rules of
// the content as a whole. Items keep their index even when an item before
// them fails, so later checks name the right path. content is nil when
// the field was not sent, was null or was not an array.
func readContent(o *object) (content []practiced.Page, set, null bool) {
	set, null = o.objects("content", maxPages, func(i int, page *object) {
		p := grow(&content, i)
		sectionsSet, _ := page.objects("sections", maxSectionsPerPage, func(j int, sec *object) {
			s := grow(&p.Sections, j)
			s.Title = sec.str("title", shortText).V
			s.Description = sec.str("description", maxSectionText).V
			sec.objects("questions", maxQuestionsPerSect, func(k int, q *object) {
				*grow(&s.Questions, k) = readQuestion(q)
			})
			sec.finish()
		})
		if !sectionsSet {
			page.required("sections", false, false)
		}
		page.finish()
	})
	if set && !null && !o.errs.Has("content") {
		content = practiced.NormalizeContent(content) // [] for an empty array
	}
	return content, set, null
}

// grow returns a pointer to item i of *s, lengthening *s as needed.
func grow[T any](s *[]T, i int) *T {
	for len(*s) <= i {
		var zero T
		*s = append(*s, zero)
	}
	return &(*s)[i]
}

func readQuestion(q *object) practiced.Question {
	id := q.requiredStr("id", 64)
	typ := q.str("type", 32)
	q.required("type", typ.Set, typ.Null)
	label := q.requiredStr("label", maxLabel)
	required := q.boolean("required")
	options := q.strings("options", maxOptions, shortText)
	field := q.str("client_field", 64)
	q.finish()
	out := practiced.Question{ID: id.V, Type: typ.V, Label: label.V, Required: required.V && !required.Null,
		Options: options.V, ClientField: optPtr(field)}
	if out.Options == nil {
		out.Options = []string{}
	}
	return out
}
