package storetest

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Form templates and forms: FormTemplateStore and FormStore.

// formEventTypes returns the types of a record's events, oldest first.
func formEventTypes(t *testing.T, st practiced.Store, biz, recordID string) ([]string, []practiced.Event) {
	t.Helper()
	evs, _, err := st.ListEvents(ctx(t), biz, practiced.EventFilter{RecordID: recordID}, allOnPage)
	must(t, err)
	return eventTypes(evs), evs
}

// wantLastEventData fails unless the last event carries rec as its data.
func wantLastEventData(t *testing.T, evs []practiced.Event, rec any) {
	t.Helper()
	b, err := json.Marshal(rec)
	must(t, err)
	if len(evs) == 0 || string(evs[len(evs)-1].Data) != string(b) {
		var got string
		if len(evs) > 0 {
			got = string(evs[len(evs)-1].Data)
		}
		t.Errorf("last event data\n%s\nwant\n%s", got, b)
	}
}

// formClinic is a business with a client, a template and a form of it.
type formClinic struct {
	biz  string
	cli  practiced.Client
	fte  practiced.FormTemplate
	form practiced.Form
}

func newFormClinic(t *testing.T, st practiced.Store) formClinic {
	t.Helper()
	c := formClinic{biz: newBusiness(t, st)}
	c.cli = newClient(c.biz, "Ann", "Archer")
	c.fte = newFormTemplate(c.biz, "Intake")
	c.fte.Content[0].Sections[0].Questions[0].ClientField = ptr("email")
	c.fte.OverrideClientFields = true
	seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{c.cli}, FormTemplates: []practiced.FormTemplate{c.fte}})
	c.form = practiced.FormFromTemplate(c.fte, tid.New(practiced.PrefixForm), c.cli.ID, created)
	c.form.BusinessID = c.biz
	must(t, st.CreateForm(ctx(t), c.biz, &c.form))
	return c
}

// answerEmail is a change that completes a form with an e-mail answer.
func answerEmail(email string) func(f *practiced.Form, c *practiced.Client) error {
	return func(f *practiced.Form, c *practiced.Client) error {
		_, err := practiced.SubmitForm(f, c, map[string]json.RawMessage{"email": json.RawMessage(`"` + email + `"`)}, at(hm(9, 0)))
		return err
	}
}

var formRules = []rule{
	{"form templates round-trip through create, get and list, and creation is an event", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		fte := newFormTemplate(biz, "Intake")
		fte.Color, fte.CompletionMessage, fte.PrefillClientFields = "#123456", "Thanks", true
		fte.Content = append(fte.Content, practiced.Page{Sections: []practiced.Section{{Title: "More", Questions: []practiced.Question{
			{ID: "areas", Type: "multiple_choice", Label: "Where?", Options: []string{"Neck", "Back"}},
			{ID: "dob", Type: "date", Label: "Born", Required: true, Options: []string{}, ClientField: ptr("date_of_birth")}}}}})
		must(t, st.CreateFormTemplate(ctx(t), biz, &fte))
		got, err := st.GetFormTemplate(ctx(t), biz, fte.ID)
		must(t, err)
		wantEqual(t, "GetFormTemplate", got, fte)
		list, _, err := st.ListFormTemplates(ctx(t), biz, practiced.ListFilter{}, allOnPage)
		must(t, err)
		wantEqual(t, "ListFormTemplates", list, []practiced.FormTemplate{fte})
		types, evs := formEventTypes(t, st, biz, fte.ID)
		wantIDs(t, "events", types, []string{"form_template.created"})
		wantLastEventData(t, evs, fte)
	}},
	{"UpdateFormTemplate writes what change leaves, and an error from change writes nothing", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		got, err := st.UpdateFormTemplate(ctx(t), c.biz, c.fte.ID, func(f *practiced.FormTemplate) error {
			f.Name = "Registration"
			f.Content[0].Sections[0].Questions[0].Label = "Your e-mail"
			return nil
		})
		must(t, err)
		want := c.fte
		want.Name = "Registration"
		want.Content = newFormTemplate(c.biz, "x").Content
		want.Content[0].Sections[0].Questions[0].Label = "Your e-mail"
		want.Content[0].Sections[0].Questions[0].ClientField = ptr("email")
		want.UpdatedAt = got.UpdatedAt
		wantEqual(t, "UpdateFormTemplate", got, want)
		if !got.UpdatedAt.After(c.fte.UpdatedAt.Time) {
			t.Errorf("updated_at %s not moved on from %s", got.UpdatedAt, c.fte.UpdatedAt)
		}
		refused := errors.New("refused")
		if _, err := st.UpdateFormTemplate(ctx(t), c.biz, c.fte.ID, func(f *practiced.FormTemplate) error { f.Name = "x"; return refused }); err != refused {
			t.Errorf("error %v, want the error change returned", err)
		}
		stored, err := st.GetFormTemplate(ctx(t), c.biz, c.fte.ID)
		must(t, err)
		wantEqual(t, "after a refused change", stored, want)
		// The form made before keeps the content it was made with.
		form, err := st.GetForm(ctx(t), c.biz, c.form.ID)
		must(t, err)
		wantEqual(t, "form of the template", form, c.form)
		types, evs := formEventTypes(t, st, c.biz, c.fte.ID)
		wantIDs(t, "events", types, []string{"form_template.updated"})
		wantLastEventData(t, evs, want)
	}},
	{"archiving hides templates and forms from their lists unless include_archived, and each change is an event", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		now := at(hm(10, 0))
		fte, err := st.ArchiveFormTemplate(ctx(t), c.biz, c.fte.ID, true, now)
		must(t, err)
		form, err := st.ArchiveForm(ctx(t), c.biz, c.form.ID, true, now)
		must(t, err)
		if fte.ArchivedAt == nil || *fte.ArchivedAt != now || form.ArchivedAt == nil || *form.ArchivedAt != now {
			t.Fatalf("archived_at %v and %v, want %s", fte.ArchivedAt, form.ArchivedAt, now)
		}
		live, _, err := st.ListFormTemplates(ctx(t), c.biz, practiced.ListFilter{}, allOnPage)
		must(t, err)
		all, _, err := st.ListFormTemplates(ctx(t), c.biz, everything, allOnPage)
		must(t, err)
		wantIDs(t, "live templates", idsOf(live), nil)
		wantIDs(t, "all templates", idsOf(all), []string{c.fte.ID})
		forms, _, err := st.ListForms(ctx(t), c.biz, practiced.FormFilter{}, allOnPage)
		must(t, err)
		wantIDs(t, "live forms", idsOf(forms), nil)

		_, err = st.ArchiveForm(ctx(t), c.biz, c.form.ID, false, at(hm(11, 0)))
		must(t, err)
		forms, _, err = st.ListForms(ctx(t), c.biz, practiced.FormFilter{}, allOnPage)
		must(t, err)
		wantIDs(t, "forms after unarchiving", idsOf(forms), []string{c.form.ID})
		types, _ := formEventTypes(t, st, c.biz, c.form.ID)
		wantIDs(t, "form events", types, []string{"form.created", "form.archived", "form.unarchived"})
		types, _ = formEventTypes(t, st, c.biz, c.fte.ID)
		wantIDs(t, "template events", types, []string{"form_template.archived"})
	}},
	{"forms round-trip through CreateForm, GetForm and ListForms with every question unanswered", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		got, err := st.GetForm(ctx(t), c.biz, c.form.ID)
		must(t, err)
		wantEqual(t, "GetForm", got, c.form)
		if got.Content[0].Sections[0].Questions[0].Answer != nil {
			t.Errorf("answer %s, want none", got.Content[0].Sections[0].Questions[0].Answer)
		}
		list, _, err := st.ListForms(ctx(t), c.biz, practiced.FormFilter{ClientID: c.cli.ID}, allOnPage)
		must(t, err)
		wantEqual(t, "ListForms", list, []practiced.Form{c.form})
		types, evs := formEventTypes(t, st, c.biz, c.form.ID)
		wantIDs(t, "events", types, []string{"form.created"})
		wantLastEventData(t, evs, c.form)
	}},
	{"CreateForm refuses an appointment client that is another client's or none, on appointment_client_id", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		cl := newClinic(t, st)
		ben := newClient(cl.biz, "Ben", "Baker")
		ann := newClient(cl.biz, "Ann", "Archer")
		fte := newFormTemplate(cl.biz, "Intake")
		apt := newAppointment(cl.biz, cl.loc1.ID, cl.pra1.ID, nil, hm(9, 0), hm(10, 0))
		apc := newAppointmentClient(cl.biz, apt, ben.ID, practiced.StatusBooked)
		seed(t, st, cl.biz, practiced.SeedData{Clients: []practiced.Client{ben, ann}, FormTemplates: []practiced.FormTemplate{fte},
			Appointments: []practiced.Appointment{apt}, AppointmentClients: []practiced.AppointmentClient{apc}})
		for _, tc := range []struct {
			name string
			apc  string
		}{{"another client's", apc.ID}, {"none", tid.New(practiced.PrefixAppointmentClient)}, {"another business's", c.form.ID}} {
			f := practiced.FormFromTemplate(fte, tid.New(practiced.PrefixForm), ann.ID, created)
			f.AppointmentClientID = ptr(tc.apc)
			wantInvalidField(t, st.CreateForm(ctx(t), cl.biz, &f), "appointment_client_id")
			_, err := st.GetForm(ctx(t), cl.biz, f.ID)
			wantCode(t, err, practiced.ENOTFOUND)
		}
		f := practiced.FormFromTemplate(fte, tid.New(practiced.PrefixForm), ben.ID, created)
		f.AppointmentClientID, f.LocationID = ptr(apc.ID), ptr(cl.loc1.ID)
		must(t, st.CreateForm(ctx(t), cl.biz, &f))
		got, err := st.GetForm(ctx(t), cl.biz, f.ID)
		must(t, err)
		wantEqual(t, "form of Ben's appointment", got, f)
	}},
	{"CreateForm refuses a template or client of another business", func(t *testing.T, st practiced.Store) {
		a, b := newFormClinic(t, st), newFormClinic(t, st)
		for _, f := range []practiced.Form{
			practiced.FormFromTemplate(b.fte, tid.New(practiced.PrefixForm), a.cli.ID, created),
			practiced.FormFromTemplate(a.fte, tid.New(practiced.PrefixForm), b.cli.ID, created),
		} {
			wantCode(t, st.CreateForm(ctx(t), a.biz, &f), practiced.EINVALID)
		}
	}},
	{"UpdateForm writes what change leaves, and an error from change writes nothing", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		now := at(hm(9, 0))
		got, err := st.UpdateForm(ctx(t), c.biz, c.form.ID, func(f *practiced.Form) error {
			practiced.ViewForm(f, now)
			return practiced.SaveAnswers(f, map[string]json.RawMessage{"email": json.RawMessage(`"ann@example.com"`)})
		})
		must(t, err)
		want := c.form
		want.SentStatus, want.ViewedAt, want.Status = practiced.SentViewed, &now, practiced.FormInProgress
		want.Content = practiced.FormContent(newFormTemplate(c.biz, "x").Content)
		want.Content[0].Sections[0].Questions[0].ClientField = ptr("email")
		want.Content[0].Sections[0].Questions[0].Answer = json.RawMessage(`"ann@example.com"`)
		want.UpdatedAt = got.UpdatedAt
		wantEqual(t, "UpdateForm", got, want)
		stored, err := st.GetForm(ctx(t), c.biz, c.form.ID)
		must(t, err)
		wantEqual(t, "GetForm", stored, want)

		_, err = st.UpdateForm(ctx(t), c.biz, c.form.ID, func(f *practiced.Form) error {
			f.Status = practiced.FormCompleted
			return practiced.ErrFormCompleted
		})
		if !errors.Is(err, practiced.ErrFormCompleted) {
			t.Errorf("error %v, want the error change returned", err)
		}
		stored, err = st.GetForm(ctx(t), c.biz, c.form.ID)
		must(t, err)
		wantEqual(t, "after a refused change", stored, want)
		types, evs := formEventTypes(t, st, c.biz, c.form.ID)
		wantIDs(t, "events", types, []string{"form.created", "form.updated", "form.viewed"})
		wantLastEventData(t, evs, want)
	}},
	{"CompleteForm writes the form and the client it filled in one transaction, each with an updated event", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		var seenClient practiced.Client
		got, err := st.CompleteForm(ctx(t), c.biz, c.form.ID, func(f *practiced.Form, cl *practiced.Client) error {
			seenClient = *cl
			return answerEmail("annie@example.com")(f, cl)
		})
		must(t, err)
		wantEqual(t, "client passed to change", seenClient, c.cli)
		if got.Status != practiced.FormCompleted || got.CompletedAt == nil || *got.CompletedAt != at(hm(9, 0)) {
			t.Errorf("status %s, completed_at %v", got.Status, got.CompletedAt)
		}
		stored, err := st.GetForm(ctx(t), c.biz, c.form.ID)
		must(t, err)
		wantEqual(t, "GetForm", stored, got)
		cli, err := st.GetClient(ctx(t), c.biz, c.cli.ID)
		must(t, err)
		want := c.cli
		want.Email, want.UpdatedAt = "annie@example.com", cli.UpdatedAt
		wantEqual(t, "client", cli, want)
		if !cli.UpdatedAt.After(c.cli.UpdatedAt.Time) {
			t.Errorf("client updated_at %s not moved on from %s", cli.UpdatedAt, c.cli.UpdatedAt)
		}
		types, evs := formEventTypes(t, st, c.biz, c.form.ID)
		wantIDs(t, "form events", types, []string{"form.created", "form.updated", "form.completed"})
		wantLastEventData(t, evs, got)
		types, evs = formEventTypes(t, st, c.biz, c.cli.ID)
		wantIDs(t, "client events", types, []string{"client.updated"})
		wantLastEventData(t, evs, cli)
	}},
	{"CompleteForm leaves the client alone when change does not alter it", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		_, err := st.CompleteForm(ctx(t), c.biz, c.form.ID, answerEmail(c.cli.Email)) // the e-mail it has
		must(t, err)
		cli, err := st.GetClient(ctx(t), c.biz, c.cli.ID)
		must(t, err)
		wantEqual(t, "client", cli, c.cli)
		types, _ := formEventTypes(t, st, c.biz, c.cli.ID)
		wantIDs(t, "client events", types, nil)
	}},
	{"CompleteForm writes nothing when change fails", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		refused := errors.New("refused")
		_, err := st.CompleteForm(ctx(t), c.biz, c.form.ID, func(f *practiced.Form, cl *practiced.Client) error {
			if err := answerEmail("annie@example.com")(f, cl); err != nil {
				return err
			}
			return refused
		})
		if err != refused {
			t.Fatalf("error %v, want the error change returned", err)
		}
		form, err := st.GetForm(ctx(t), c.biz, c.form.ID)
		must(t, err)
		wantEqual(t, "form", form, c.form)
		cli, err := st.GetClient(ctx(t), c.biz, c.cli.ID)
		must(t, err)
		wantEqual(t, "client", cli, c.cli)
		for _, id := range []string{c.form.ID, c.cli.ID} {
			types, _ := formEventTypes(t, st, c.biz, id)
			if len(types) > 1 || len(types) == 1 && types[0] != "form.created" {
				t.Errorf("events of %s: %v", id, types)
			}
		}
	}},
	{"submissions at once complete a form once", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		const n = 4
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				_, errs[i] = st.CompleteForm(ctx(t), c.biz, c.form.ID, answerEmail("annie@example.com"))
			})
		}
		wg.Wait()
		done := 0
		for _, err := range errs {
			switch {
			case err == nil:
				done++
			case !errors.Is(err, practiced.ErrFormCompleted):
				t.Errorf("error %v, want ErrFormCompleted for the later submissions", err)
			}
		}
		if done != 1 {
			t.Errorf("%d submissions succeeded, want 1", done)
		}
		types, _ := formEventTypes(t, st, c.biz, c.cli.ID)
		wantIDs(t, "client events", types, []string{"client.updated"})
	}},
	{"HostedForm finds a form by its id alone with its business's name, archived ones too", func(t *testing.T, st practiced.Store) {
		c := newFormClinic(t, st)
		newFormClinic(t, st) // another business's form is not found instead
		h, err := st.HostedForm(ctx(t), c.form.ID)
		must(t, err)
		biz, err := st.BusinessByName(ctx(t), h.BusinessName)
		must(t, err)
		if biz.ID != c.biz || h.Form.BusinessID != c.biz {
			t.Errorf("business %q (%s), form's business %s; want %s", h.BusinessName, biz.ID, h.Form.BusinessID, c.biz)
		}
		want := c.form
		wantEqual(t, "form", h.Form, want)

		archived, err := st.ArchiveForm(ctx(t), c.biz, c.form.ID, true, at(hm(9, 0)))
		must(t, err)
		h, err = st.HostedForm(ctx(t), c.form.ID)
		must(t, err)
		archived.BusinessID = c.biz
		wantEqual(t, "archived form", h.Form, archived)

		for _, id := range []string{tid.New(practiced.PrefixForm), c.fte.ID, ""} {
			_, err := st.HostedForm(ctx(t), id)
			wantCode(t, err, practiced.ENOTFOUND)
		}
	}},
	{"forms and templates of another business are ENOTFOUND, and change is not called", func(t *testing.T, st practiced.Store) {
		a, b := newFormClinic(t, st), newFormClinic(t, st)
		called := false
		_, err := st.GetForm(ctx(t), a.biz, b.form.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetFormTemplate(ctx(t), a.biz, b.fte.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.UpdateForm(ctx(t), a.biz, b.form.ID, func(*practiced.Form) error { called = true; return nil })
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.CompleteForm(ctx(t), a.biz, b.form.ID, func(*practiced.Form, *practiced.Client) error { called = true; return nil })
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.UpdateFormTemplate(ctx(t), a.biz, b.fte.ID, func(*practiced.FormTemplate) error { called = true; return nil })
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.ArchiveForm(ctx(t), a.biz, b.form.ID, true, at(0))
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.ArchiveFormTemplate(ctx(t), a.biz, b.fte.ID, true, at(0))
		wantCode(t, err, practiced.ENOTFOUND)
		if called {
			t.Error("change was called for another business's record")
		}
		list, _, err := st.ListFormTemplates(ctx(t), a.biz, everything, allOnPage)
		must(t, err)
		wantIDs(t, "templates", idsOf(list), []string{a.fte.ID})
	}},
}
