package httpapi

import (
	"net/http"
	"strings"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

func formTemplateID(t practiced.FormTemplate) string { return t.ID }

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
	data, info, err := s.store.ListFormTemplates(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, formTemplateID)
}

// POST /v1/form_templates: name and content are required.
func (s *Server) createFormTemplate(w http.ResponseWriter, r *http.Request) error {
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	changes := readTemplateBody(o, true)
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	t := practiced.FormTemplate{ID: tid.New(practiced.PrefixFormTemplate), CreatedAt: now, UpdatedAt: now}
	for _, c := range changes {
		c(&t)
	}
	if err := s.store.CreateFormTemplate(r.Context(), businessID(r.Context()), &t); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, t)
	return nil
}

// POST /v1/form_templates/{id}: a partial update; content is replaced
// whole. Forms made from the template before keep the content they were
// made with.
func (s *Server) updateFormTemplate(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	id, _, err := loadRecord(r, practiced.PrefixFormTemplate, "Form template", s.store.GetFormTemplate)
	if err != nil {
		return err
	}
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	changes := readTemplateBody(o, false)
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	t, err := s.store.UpdateFormTemplate(ctx, biz, id, func(t *practiced.FormTemplate) error {
		for _, c := range changes {
			c(t)
		}
		t.UpdatedAt = now
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, t)
	return nil
}

// readTemplateBody reads a create (create is true) or update body of a
// form template and returns the changes it makes. name and content are
// required on create and can never be null or emptied; null clears the
// other fields (booleans become false).
func readTemplateBody(o *object, create bool) []func(*practiced.FormTemplate) {
	var changes []func(*practiced.FormTemplate)
	change := func(f func(*practiced.FormTemplate)) { changes = append(changes, f) }

	name := o.str("name", shortText)
	switch {
	case create && !name.Set:
		o.required("name", false, false)
	case name.Null:
		o.fail("name", "is required and cannot be null")
	case name.Set && strings.TrimSpace(name.V) == "":
		o.fail("name", "must not be empty")
	case name.Set:
		change(func(t *practiced.FormTemplate) { t.Name = name.V })
	}
	if v := o.hexColor("color"); v.Set {
		change(func(t *practiced.FormTemplate) { t.Color = v.V })
	}
	if v := o.str("completion_message", maxCompletionMessage); v.Set {
		change(func(t *practiced.FormTemplate) { t.CompletionMessage = v.V })
	}
	if v := o.boolean("prefill_client_fields"); v.Set {
		change(func(t *practiced.FormTemplate) { t.PrefillClientFields = v.V && !v.Null })
	}
	if v := o.boolean("override_client_fields"); v.Set {
		change(func(t *practiced.FormTemplate) { t.OverrideClientFields = v.V && !v.Null })
	}
	content, set, null := readContent(o)
	switch {
	case create && !set:
		o.required("content", false, false)
	case null:
		o.fail("content", "is required and cannot be null")
	case content != nil:
		practiced.CheckContent(content, "content", o.errs)
		change(func(t *practiced.FormTemplate) { t.Content = content })
	}
	o.finish()
	return changes
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
