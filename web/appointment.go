package web

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/hangup"
	"github.com/practiced/practiced/mail"
	"github.com/practiced/practiced/tid"
)

// AppointmentStore is what the client's own page of an appointment reads
// and writes.
type AppointmentStore interface {
	AppointmentPage(ctx context.Context, appointmentClientID string) (practiced.AppointmentPage, error)
	UpdateAppointment(ctx context.Context, businessID, id string, now practiced.Time,
		change func(a *practiced.Appointment, attendees *[]practiced.AppointmentClient) error, check practiced.ScheduleCheck) (practiced.Appointment, []practiced.AppointmentClient, error)
}

// Appointments serves the page a client reaches from the link in their
// messages, /a/{token}: when and where, with whom, a calendar file, "I'll
// be there", and cancelling until the location's online cancellation
// notice. The token is the attendance's id and a secret only its
// messages carry; the page is gone once the appointment has ended.
type Appointments struct {
	store  AppointmentStore
	logger *slog.Logger
	now    func() time.Time
	csrf   *http.CrossOriginProtection
}

// NewAppointments returns the client's appointment page's handlers.
func NewAppointments(store AppointmentStore, opt Options) *Appointments {
	h := &Appointments{store: store, logger: opt.Logger, now: opt.Now}
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	h.csrf = crossOriginProtection(opt.PublicURL, h.logger, "appointment page", func(w http.ResponseWriter, r *http.Request) {
		h.render(w, r, http.StatusForbidden, "appointment-problem", appointmentProblem{Title: "This was refused",
			Message: "The request came from another website, so nothing was changed. Open the link in your e-mail again."})
	})
	return h
}

// appointmentView is the page.
type appointmentView struct {
	Business, ClientName       string
	When, With, Service, Where string
	Cancelled, Confirmed       bool
	CanCancel                  bool
	CancelBy                   string // when cancelling here ends
	Contact                    string // whom to call instead
	Notice                     string
	CalendarURL                string
}

func (appointmentView) accent() string { return "" }

func (v appointmentView) title() string { return "Your appointment – " + v.Business }

type appointmentProblem struct{ Title, Message, Reference string }

func (appointmentProblem) accent() string { return "" }

func (p appointmentProblem) title() string { return p.Title }

// Show answers GET /a/{token}.
func (h *Appointments) Show() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := h.load(w, r)
		if !ok {
			return
		}
		h.render(w, r, http.StatusOK, "appointment", h.view(p, ""))
	})
}

// Calendar answers GET /a/{token}/calendar.ics: the appointment as a
// file to add to a calendar.
func (h *Appointments) Calendar() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := h.load(w, r)
		if !ok {
			return
		}
		body, err := mail.CalendarFile(mail.Appointment{Business: p.Business, Location: p.Location, Practitioner: p.Practitioner,
			Service: p.Service, ClientName: p.ClientName, Appointment: p.Appointment, Attendance: p.Attendance})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		hd := w.Header()
		hd.Set("Content-Type", "text/calendar; charset=utf-8")
		hd.Set("Content-Disposition", `attachment; filename="appointment.ics"`)
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		w.Write([]byte(body))
	})
}

// Act answers POST /a/{token}: action=confirm says the client will be
// there; action=cancel cancels their attendance, with what they wrote
// in reason, while the cancellation notice allows it.
func (h *Appointments) Act() http.Handler {
	return h.csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status, ok := parsePost(w, r); !ok {
			h.render(w, r, status, "appointment-problem", appointmentProblem{Title: "This was refused",
				Message: "The request could not be read. Open the link in your e-mail again."})
			return
		}
		p, ok := h.load(w, r)
		if !ok {
			return
		}
		now := practiced.NewTime(h.now())
		var notice string
		var change func(*practiced.AppointmentClient) error
		ctx := r.Context()
		switch r.PostForm.Get("action") {
		case "confirm":
			notice = "Thank you: the clinic knows you'll be there."
			change = func(c *practiced.AppointmentClient) error {
				if c.Status != practiced.StatusBooked {
					return errNotBooked
				}
				practiced.ConfirmAppointmentClient(c, true, now)
				return nil
			}
		case "cancel":
			if !canCancel(p, now.Time) {
				h.render(w, r, http.StatusConflict, "appointment", h.view(p,
					"It is too late to cancel here. Please contact the clinic."))
				return
			}
			reason := strings.TrimSpace(r.PostForm.Get("reason"))
			if len(reason) > 400 {
				reason = reason[:400]
			}
			note := "Cancelled by the client on their appointment page"
			if reason != "" {
				note += ": " + reason
			}
			notice = "Your appointment is cancelled."
			ctx = practiced.WithNotify(ctx)
			change = func(c *practiced.AppointmentClient) error {
				if c.Status != practiced.StatusBooked {
					return errNotBooked
				}
				c.CancellationNote = note
				return practiced.TransitionAppointmentClient(c, practiced.StatusCancelled, now)
			}
		default:
			h.render(w, r, http.StatusBadRequest, "appointment", h.view(p, "Choose what to do with the buttons below."))
			return
		}
		_, _, err := h.store.UpdateAppointment(ctx, p.BusinessID, p.Appointment.ID, now,
			func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				i := slices.IndexFunc(*acs, func(c practiced.AppointmentClient) bool { return c.ID == p.Attendance.ID })
				if i < 0 {
					return practiced.NotFound(practiced.KindAppointmentClient.Name)
				}
				return change(&(*acs)[i])
			}, nil)
		if err == errNotBooked {
			notice = "Nothing was changed: this appointment is no longer booked."
		} else if err != nil {
			h.fail(w, r, err)
			return
		}
		if p, ok = h.load(w, r); ok {
			h.render(w, r, http.StatusOK, "appointment", h.view(p, notice))
		}
	}))
}

var errNotBooked = practiced.Errorf(practiced.ECONFLICT, "The appointment is no longer booked.")

// canCancel reports whether the client may still cancel here at now.
func canCancel(p practiced.AppointmentPage, now time.Time) bool {
	by := p.Appointment.StartsAt.Add(-time.Duration(p.Location.OnlineCancellationHours) * time.Hour)
	return p.Attendance.Status == practiced.StatusBooked && p.Appointment.CancelledAt == nil && now.Before(by)
}

// load reads the page of the token, answering a problem page and false
// for a token that names no page, and 410 once the appointment ended.
func (h *Appointments) load(w http.ResponseWriter, r *http.Request) (practiced.AppointmentPage, bool) {
	id, secret, _ := strings.Cut(r.PathValue("token"), ".")
	if !tid.Valid(id, practiced.PrefixAppointmentClient) || secret == "" {
		h.notFound(w, r)
		return practiced.AppointmentPage{}, false
	}
	p, err := h.store.AppointmentPage(r.Context(), id)
	if err != nil {
		h.fail(w, r, err)
		return p, false
	}
	if p.Secret == "" || subtle.ConstantTimeCompare([]byte(secret), []byte(p.Secret)) != 1 || p.Attendance.ArchivedAt != nil {
		h.notFound(w, r)
		return p, false
	}
	if !h.now().Before(p.Appointment.EndsAt.Time) {
		h.render(w, r, http.StatusGone, "appointment-problem", appointmentProblem{Title: "This appointment has passed",
			Message: "The link worked until the end of the appointment. To book another, please contact " + p.Business + "."})
		return p, false
	}
	return p, true
}

// view is the page of p with a notice.
func (h *Appointments) view(p practiced.AppointmentPage, notice string) appointmentView {
	zone, err := time.LoadLocation(p.Location.Timezone)
	if err != nil {
		zone = time.UTC
	}
	country := p.Location.Address.CountryCode
	start := p.Appointment.StartsAt.In(zone)
	v := appointmentView{Business: p.Business, ClientName: p.ClientName, When: mail.WhenText(start, country),
		With: p.Practitioner, Service: p.Service, Where: mail.Where(p.Location),
		Cancelled: p.Attendance.Status == practiced.StatusCancelled || p.Appointment.CancelledAt != nil,
		Confirmed: p.Attendance.Confirmed, CanCancel: canCancel(p, h.now()), Notice: notice,
		CalendarURL: "/a/" + practiced.AppointmentToken(p.Attendance.ID, p.Secret) + "/calendar.ics"}
	v.CancelBy = mail.WhenText(start.Add(-time.Duration(p.Location.OnlineCancellationHours)*time.Hour), country)
	var contact []string
	if p.Location.Phone != "" {
		contact = append(contact, practiced.PhoneForPeople(p.Location.Phone, country))
	}
	if p.Location.Email != "" {
		contact = append(contact, p.Location.Email)
	}
	v.Contact = p.Business
	if len(contact) > 0 {
		v.Contact += " (" + strings.Join(contact, ", ") + ")"
	}
	return v
}

func (h *Appointments) notFound(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusNotFound, "appointment-problem", appointmentProblem{Title: "This page is not available",
		Message: "The link may be mistyped or out of date. Please contact the clinic that sent it."})
}

func (h *Appointments) fail(w http.ResponseWriter, r *http.Request, err error) {
	if hangup.Answered(w, r, err) {
		return
	}
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		h.notFound(w, r)
		return
	}
	reqID := w.Header().Get("X-Request-Id")
	h.logger.Error("appointment page", "request_id", reqID, "method", r.Method, "error", err.Error())
	h.render(w, r, http.StatusInternalServerError, "appointment-problem", appointmentProblem{Title: "Something went wrong",
		Message: "Please try again in a few minutes.", Reference: reqID})
}

func (h *Appointments) render(w http.ResponseWriter, r *http.Request, status int, name string, data pageData) {
	renderPage(w, r, h.logger, "appointment page", status, name, data)
}
