// Package web serves the pages a clinic's clients open in a browser: the
// hosted intake form at /f/{form_id} and online booking at
// /book/{location_id}. Pages are plain HTML forms, with no JavaScript,
// rendered with html/template from embedded files.
package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/hangup"
	"github.com/practiced/practiced/tid"
)

// Forms serves the hosted form: GET shows it, POST saves or submits the
// answers. The page has no API key and no session: the form's
// unguessable id in the URL is the credential, so the page shows that
// one form and the clinic's name, and nothing else of the clinic.
type Forms struct {
	store  FormsStore
	logger *slog.Logger
	now    func() time.Time
	csrf   *http.CrossOriginProtection
}

// FormsStore is what the hosted form reads and writes: forms, and the
// client a form is for, whose known details it can fill in.
type FormsStore interface {
	practiced.FormStore
	GetClient(ctx context.Context, businessID, id string) (practiced.Client, error)
}

// Options configure Forms.
type Options struct {
	Logger *slog.Logger
	// Now tells the time; nil means time.Now.
	Now func() time.Time
	// PublicURL is the scheme and host clients reach the server at, if
	// configured. Posts from its origin are the page's own even when a
	// proxy gives the server another Host and the browser sends no
	// Sec-Fetch-Site.
	PublicURL string
}

// NewForms returns the hosted form's handlers.
func NewForms(store FormsStore, opt Options) *Forms {
	h := &Forms{store: store, logger: opt.Logger, now: opt.Now}
	if h.logger == nil {
		h.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if h.now == nil {
		h.now = time.Now
	}
	h.csrf = crossOriginProtection(opt.PublicURL, h.logger, "hosted form", func(w http.ResponseWriter, r *http.Request) {
		h.render(w, r, http.StatusForbidden, "problem", problemView{
			Title:   "This answer was refused",
			Message: "The answers came from another website, so they were not saved. Open the form's link again to answer it.",
		})
	})
	return h
}

// Show answers GET /f/{form_id}: the form, or its answers once completed.
// The first opening marks the form viewed; HEAD changes nothing. With
// prefill_client_fields, a question filling a client field that has no
// saved answer shows what the client's record holds.
func (h *Forms) Show() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hf, ok := h.load(w, r)
		if !ok {
			return
		}
		f := hf.Form
		if r.Method == http.MethodGet && f.ViewedAt == nil {
			now := practiced.NewTime(h.now())
			updated, err := h.store.UpdateForm(r.Context(), f.BusinessID, f.ID, func(f *practiced.Form) error {
				if f.ArchivedAt != nil {
					return practiced.NotFound(practiced.KindForm.Name)
				}
				practiced.ViewForm(f, now)
				f.UpdatedAt = now
				return nil
			})
			if err != nil {
				h.fail(w, r, err)
				return
			}
			f = updated
		}
		if f.Status == practiced.FormCompleted {
			h.render(w, r, http.StatusOK, "done", newDoneView(hf.BusinessName, f, false))
			return
		}
		values, err := h.openingValues(r.Context(), hf.Form.BusinessID, f)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.render(w, r, http.StatusOK, "form", newFormView(hf.BusinessName, f, values, nil, ""))
	})
}

// Answer answers POST /f/{form_id}, sent by the page's own form:
// action=save keeps the answers for later (every valid one is saved, the
// others are pointed out), action=submit checks every answer and that
// each required question is answered, then completes the form and fills
// the client's record as the form's flags say, in one transaction. The
// answers entered are shown again whenever something is pointed out.
// Requests from other websites are refused.
func (h *Forms) Answer() http.Handler {
	return h.csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hf, ok := h.load(w, r)
		if !ok {
			return
		}
		f := hf.Form
		if f.Status == practiced.FormCompleted {
			h.render(w, r, http.StatusOK, "done", newDoneView(hf.BusinessName, f, true))
			return
		}
		if status, ok := parsePost(w, r); !ok {
			msg := "Open the form's link again and send your answers from the page."
			if status == http.StatusRequestEntityTooLarge {
				msg = "The answers are longer than the form accepts. Go back, shorten the longest answers and send them again."
			}
			h.render(w, r, status, "problem", problemView{Title: "The answers could not be read", Message: msg})
			return
		}
		action := r.PostForm.Get("action")
		if action != "save" && action != "submit" {
			h.render(w, r, http.StatusBadRequest, "problem", problemView{Title: "The answers could not be read",
				Message: "Use the Save or Submit button of the form."})
			return
		}
		values := func(id string) []string { return r.PostForm[inputName(id)] }
		now := practiced.NewTime(h.now())
		// A phone number without a leading + is read as a number of the
		// client's country.
		c, err := h.store.GetClient(r.Context(), f.BusinessID, f.ClientID)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		rules := practiced.AnswerRules{IsCountry: practiced.IsCountry, Today: latestToday(now.Time), PhoneRegion: c.Address.CountryCode}
		answers, problems := practiced.ReadAnswers(f.Content, values, rules)
		if action == "submit" {
			practiced.RequireAnswers(f.Content, answers, problems)
		}
		if action == "save" || len(problems) > 0 {
			h.save(w, r, hf, answers, problems, values, now)
			return
		}
		done, err := h.store.CompleteForm(r.Context(), f.BusinessID, f.ID, func(f *practiced.Form, c *practiced.Client) error {
			practiced.ViewForm(f, now)
			changed, err := practiced.SubmitForm(f, c, answers, now)
			if err != nil {
				return err
			}
			if len(changed) > 0 {
				c.UpdatedAt = now
			}
			f.UpdatedAt = now
			return nil
		})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.render(w, r, http.StatusOK, "done", newDoneView(hf.BusinessName, done, false))
	}))
}

// openingValues gives the values the inputs of form f, of the business,
// open with: the saved answers, and what prefill_client_fields fills in
// from the client's record for the questions without one. A phone
// number, kept in E.164, opens as people write it (national digits for a
// number of the client's country).
func (h *Forms) openingValues(ctx context.Context, businessID string, f practiced.Form) (func(string) []string, error) {
	phones := map[string]bool{}
	for _, p := range f.Content {
		for _, s := range p.Sections {
			for _, q := range s.Questions {
				if q.ClientField != nil && *q.ClientField == "phone_number" {
					phones[q.ID] = true
				}
			}
		}
	}
	stored := storedValues(f.Content)
	if !f.PrefillClientFields && len(phones) == 0 {
		return stored, nil // nothing needs the client's record
	}
	c, err := h.store.GetClient(ctx, businessID, f.ClientID)
	if err != nil {
		return nil, err
	}
	region := practiced.PhoneRegion(c.Address.CountryCode)
	prefill := practiced.PrefillAnswers(f, c)
	return func(id string) []string {
		values := stored(id)
		if v, ok := prefill[id]; ok {
			values = []string{v}
		}
		if phones[id] && len(values) == 1 {
			return []string{practiced.PhoneForPeople(values[0], region)}
		}
		return values
	}, nil
}

// save keeps the valid answers and shows the form again with what is
// wrong with the others: 200 when nothing is, 422 otherwise.
func (h *Forms) save(w http.ResponseWriter, r *http.Request, hf practiced.HostedForm, answers map[string]json.RawMessage,
	problems map[string]string, values func(string) []string, now practiced.Time) {
	f, err := h.store.UpdateForm(r.Context(), hf.Form.BusinessID, hf.Form.ID, func(f *practiced.Form) error {
		practiced.ViewForm(f, now)
		if err := practiced.SaveAnswers(f, answers); err != nil {
			return err
		}
		f.UpdatedAt = now
		return nil
	})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if len(problems) == 0 {
		h.render(w, r, http.StatusOK, "form", newFormView(hf.BusinessName, f, values, nil,
			"Your answers are saved. You can close this page and come back to it with the same link to finish."))
		return
	}
	h.render(w, r, http.StatusUnprocessableEntity, "form", newFormView(hf.BusinessName, f, values, problems, ""))
}

// load finds the form the path names. The link's secret must match the
// form's: the id alone is known to every API key, read-only ones too. An
// id that is malformed or names no form, a wrong or missing secret and
// an archived form are all answered with the same 404 page.
func (h *Forms) load(w http.ResponseWriter, r *http.Request) (practiced.HostedForm, bool) {
	id := r.PathValue("form_id")
	if !tid.Valid(id, practiced.PrefixForm) {
		h.notFound(w, r)
		return practiced.HostedForm{}, false
	}
	hf, err := h.store.HostedForm(r.Context(), id)
	if err != nil {
		h.fail(w, r, err)
		return hf, false
	}
	secret := r.URL.Query().Get("secret")
	if hf.Form.ArchivedAt != nil || hf.Form.LinkSecret == "" ||
		subtle.ConstantTimeCompare([]byte(secret), []byte(hf.Form.LinkSecret)) != 1 {
		h.notFound(w, r)
		return hf, false
	}
	return hf, true
}

// fail answers an error of the store: a form gone meanwhile is a 404, a
// form completed meanwhile shows its answers, anything else is a 500.
func (h *Forms) fail(w http.ResponseWriter, r *http.Request, err error) {
	if hangup.Answered(w, r, err) {
		return
	}
	switch {
	case practiced.ErrorCode(err) == practiced.ENOTFOUND:
		h.notFound(w, r)
	case errors.Is(err, practiced.ErrFormCompleted):
		hf, err := h.store.HostedForm(r.Context(), r.PathValue("form_id"))
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.render(w, r, http.StatusOK, "done", newDoneView(hf.BusinessName, hf.Form, true))
	default:
		reqID := w.Header().Get("X-Request-Id")
		h.logger.Error("hosted form", "request_id", reqID, "method", r.Method, "error", err.Error())
		h.render(w, r, http.StatusInternalServerError, "problem", problemView{Title: "Something went wrong",
			Message: "Your answers could not be shown or saved just now. Please try again in a few minutes.", Reference: reqID})
	}
}

func (h *Forms) notFound(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusNotFound, "problem", problemView{Title: "This form is not available",
		Message: "The link may be mistyped, or the form is no longer available. Please contact the clinic that sent it."})
}

// render writes a page with the headers every page carries.
func (h *Forms) render(w http.ResponseWriter, r *http.Request, status int, name string, data pageData) {
	renderPage(w, r, h.logger, "hosted form", status, name, data)
}

// latestToday is today's date where the day is furthest ahead (UTC+14),
// as the API's rule for a date of birth has it.
func latestToday(now time.Time) string {
	return now.UTC().Add(14 * time.Hour).Format(time.DateOnly)
}
