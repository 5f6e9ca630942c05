package mail

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Templates are the message templates of every business: the built-in
// ones, with any of them replaced by the files of a directory (serve
// --mail-templates DIR) for every business, and by the files of its
// subdirectory named by a business's id (DIR/biz_…/) for that business
// alone. A file is named by what it renders: confirmation.txt,
// reminder.txt, change.txt, cancellation.txt and form_link.txt are the
// text parts; message.html is the HTML part of every kind.
type Templates struct {
	all        *set
	businesses map[string]*set
}

// TemplateFiles are the names of the files a template directory may hold.
var TemplateFiles = []string{"confirmation.txt", "reminder.txt", "change.txt", "cancellation.txt", "form_link.txt", "message.html"}

// LoadTemplates reads a template directory. Every template is tried on a
// sample message of each kind, so that a mistake (an unknown field, a
// parse error, an unknown file) stops the server at its start, naming
// the file, rather than a message later.
func LoadTemplates(dir string) (*Templates, error) {
	t := &Templates{businesses: map[string]*set{}}
	var err error
	if t.all, err = builtin.with(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("mail templates: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir() && tid.Valid(name, practiced.PrefixBusiness):
			if t.businesses[name], err = t.all.with(filepath.Join(dir, name)); err != nil {
				return nil, err
			}
		case e.IsDir():
			return nil, fmt.Errorf("mail templates: %s: a subdirectory is named by a business's id (biz_…)", filepath.Join(dir, name))
		}
	}
	return t, nil
}

// of returns the templates of a business.
func (t *Templates) of(businessID string) *set {
	if t == nil {
		return builtin
	}
	if s, ok := t.businesses[businessID]; ok {
		return s
	}
	return t.all
}

// with returns s with the template files of dir in place of its own.
func (s *set) with(dir string) (*set, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("mail templates: %w", err)
	}
	sources := maps.Clone(s.sources)
	for _, e := range entries {
		name, path := e.Name(), filepath.Join(dir, e.Name())
		if e.IsDir() {
			continue
		}
		if !slices.Contains(TemplateFiles, name) {
			return nil, fmt.Errorf("mail templates: %s: not a template file; they are %s", path, strings.Join(TemplateFiles, ", "))
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("mail templates: %w", err)
		}
		sources[name] = string(body)
	}
	out, err := buildSet(sources)
	if err != nil {
		return nil, fmt.Errorf("mail templates in %s: %w", dir, err)
	}
	return out, out.check(dir)
}

// check renders a sample message of every kind.
func (s *set) check(dir string) error {
	sample := view{Business: "Harbour Physio", ClientName: "Ann", When: WhenText(time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC), "AU"),
		Where: "Harbour St, Sydney NSW 2000", Practitioner: "Dr Alice Nguyen", Service: "Consultation",
		PageURL: "https://clinic.example.org/a/token", Color: defaultColor, CancelBy: "Tuesday 3 March 2026 at 9:30 am",
		FormName: "Intake", FormURL: "https://clinic.example.org/f/form"}
	var errs []error
	for _, kind := range practiced.MessageKinds {
		v := sample
		v.Kind = kind
		if _, _, err := s.render(kind, v); err != nil {
			errs = append(errs, fmt.Errorf("mail templates in %s, a %s message: %w", dir, kind, err))
		}
	}
	return errors.Join(errs...)
}
