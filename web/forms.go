// Package web serves the pages a clinic's clients open in a browser: the
// hosted intake form at /f/{form_id} and online booking at
// /book/{location_id}. Pages are plain HTML forms, with no JavaScript,
// rendered with html/template from embedded files.
package web

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Forms serves the hosted form: GET shows it, POST saves or submits the
// answers. The page has no API key and no session: the form's
// unguessable id in the URL is the credential, so the page shows that
// one form and the clinic's name, and nothing else of the clinic.
type Forms struct {
	store     practiced.FormStore
	logger    *slog.Logger
	now       func() time.Time
	isCountry func(code string) bool
	csrf      *http.CrossOriginProtection
}

// Options configure Forms.
type Options struct {
	Logger *slog.Logger
	// Now tells the time; nil means time.Now.
	Now func() time.Time
	// IsCountry reports whether a code is an ISO 3166-1 alpha-2 country
	// code, for answers that fill a client's address.country_code.
	IsCountry func(code string) bool
	// PublicURL is the scheme and host clients reach the server at, if
	// configured. Posts from its origin are the page's own even when a
	// proxy gives the server another Host and the browser sends no
	// Sec-Fetch-Site.
	PublicURL string
}

// NewForms returns the hosted form's handlers.
func NewForms(store practiced.FormStore, opt Options) *Forms {
	h := &Forms{store: store, logger: opt.Logger, now: opt.Now, isCountry: opt.IsCountry}
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

// maxForm is the largest request body the page accepts.
const maxForm = 1 << 20

// Show answers GET /f/{form_id}: the form, or its answers once completed.
// The first opening marks the form viewed; HEAD changes nothing.
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
					return practiced.NotFound("Form")
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
		h.render(w, r, http.StatusOK, "form", newFormView(hf.BusinessName, f, storedValues(f.Content), nil, ""))
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
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			h.render(w, r, http.StatusBadRequest, "problem", problemView{Title: "The answers could not be read",
				Message: "Open the form's link again and send your answers from the page."})
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
		rules := practiced.AnswerRules{IsCountry: h.isCountry, Today: latestToday(now.Time)}
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

// load finds the form the path names. An id that is malformed or names no
// form, and an archived form, are all answered with the same 404 page.
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
	if hf.Form.ArchivedAt != nil {
		h.notFound(w, r)
		return hf, false
	}
	return hf, true
}

// fail answers an error of the store: a form gone meanwhile is a 404, a
// form completed meanwhile shows its answers, anything else is a 500.
func (h *Forms) fail(w http.ResponseWriter, r *http.Request, err error) {
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
