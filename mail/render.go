// Package mail renders the e-mails a clinic sends its clients and sends
// them over SMTP: confirmations, reminders, change and cancellation
// notices of appointments, each with a calendar attachment, and the
// links of forms.
package mail

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/emersion/go-ical"

	practiced "github.com/practiced/practiced"
)

//go:embed templates
var files embed.FS

// builtin are the templates the server comes with.
var builtin = mustBuild(builtinSources())

// set is one complete set of templates: a text template of each kind
// ("confirmation.txt", …) and the HTML part, "message.html", with the
// sources they were parsed from (an executed html/template cannot be
// cloned, so a set is made anew from sources).
type set struct {
	sources map[string]string
	texts   *texttemplate.Template
	html    *htmltemplate.Template
}

func builtinSources() map[string]string {
	out := map[string]string{}
	for _, name := range TemplateFiles {
		b, err := files.ReadFile("templates/" + name)
		if err != nil {
			panic(err)
		}
		out[name] = string(b)
	}
	return out
}

// buildSet parses a set of sources, one of each of TemplateFiles.
func buildSet(sources map[string]string) (*set, error) {
	s := &set{sources: sources, texts: texttemplate.New(""), html: htmltemplate.New("")}
	for _, name := range TemplateFiles {
		var err error
		if strings.HasSuffix(name, ".html") {
			_, err = s.html.New(name).Parse(sources[name])
		} else {
			_, err = s.texts.New(name).Parse(sources[name])
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return s, nil
}

func mustBuild(sources map[string]string) *set {
	s, err := buildSet(sources)
	if err != nil {
		panic(err)
	}
	return s
}

// Appointment is what an appointment message says.
type Appointment struct {
	Business     string // the business's name, the message's sender name
	Location     practiced.Location
	Practitioner string // as the client knows them
	Service      string // empty without a service
	Color        string // the service's colour, for the HTML part's header; empty for the default
	ClientName   string // the client's preferred or first name
	Appointment  practiced.Appointment
	Attendance   practiced.AppointmentClient
	// PageURL is the client's own page of the appointment (/a/…).
	PageURL string
	// Sequence is the calendar attachment's SEQUENCE: it grows with
	// every message of the attendance, so a calendar takes the latest.
	Sequence int
}

// Form is what a form link message says.
type Form struct {
	Business   string
	ClientName string
	FormName   string
	URL        string
	Color      string
}

// Rendered is a message ready to send.
type Rendered struct {
	Subject, Text, HTML, ICS string
}

// view is what the templates read.
type view struct {
	Kind, Business, ClientName, When, Where, Practitioner, Service, PageURL, Color string
	CancelBy                                                                       string
	FormName, FormURL                                                              string
}

// RenderAppointment renders an appointment message of kind (confirmation,
// reminder, change or cancellation) with the business's templates, in
// the location's time zone and its country's way of writing dates. A nil
// t renders with the built-in templates.
func (t *Templates) RenderAppointment(businessID, kind string, a Appointment) (Rendered, error) {
	zone, err := time.LoadLocation(a.Location.Timezone)
	if err != nil {
		zone = time.UTC
	}
	start := a.Appointment.StartsAt.In(zone)
	country := a.Location.Address.CountryCode
	v := view{Kind: kind, Business: a.Business, ClientName: a.ClientName, When: WhenText(start, country),
		Where: Where(a.Location), Practitioner: a.Practitioner, Service: a.Service, PageURL: a.PageURL, Color: cmp.Or(a.Color, defaultColor)}
	if kind != practiced.MessageCancellation {
		by := start.Add(-time.Duration(a.Location.OnlineCancellationHours) * time.Hour)
		v.CancelBy = WhenText(by, country)
	}
	subjects := map[string]string{
		practiced.MessageConfirmation: "Your appointment on " + DateText(start, country) + " is booked",
		practiced.MessageReminder:     "Reminder: your appointment on " + DateText(start, country),
		practiced.MessageChange:       "Your appointment has moved to " + DateText(start, country),
		practiced.MessageCancellation: "Your appointment on " + DateText(start, country) + " is cancelled",
	}
	out := Rendered{Subject: subjects[kind] + " — " + a.Business}
	if out.Text, out.HTML, err = t.of(businessID).render(kind, v); err != nil {
		return Rendered{}, err
	}
	method, status := "REQUEST", "CONFIRMED"
	if kind == practiced.MessageCancellation {
		method, status = "CANCEL", "CANCELLED"
	}
	out.ICS, err = calendar(method, status, a)
	return out, err
}

// defaultColor heads a message whose service or form has no colour.
const defaultColor = "#0a7b83"

// RenderForm renders the message of a form's link with the business's
// templates; a nil t renders with the built-in ones.
func (t *Templates) RenderForm(businessID string, f Form) (Rendered, error) {
	v := view{Kind: practiced.MessageFormLink, Business: f.Business, ClientName: f.ClientName, FormName: f.FormName,
		FormURL: f.URL, Color: cmp.Or(f.Color, defaultColor)}
	text, html, err := t.of(businessID).render(practiced.MessageFormLink, v)
	return Rendered{Subject: "Please fill in: " + f.FormName + " — " + f.Business, Text: text, HTML: html}, err
}

func (s *set) render(kind string, v view) (string, string, error) {
	var t, h bytes.Buffer
	if err := s.texts.ExecuteTemplate(&t, kind+".txt", v); err != nil {
		return "", "", err
	}
	if err := s.html.ExecuteTemplate(&h, "message.html", v); err != nil {
		return "", "", err
	}
	return t.String(), h.String(), nil
}

// monthFirst are the countries that write the month before the day.
var monthFirst = map[string]bool{"US": true, "CA": true, "PH": true}

// DateText writes a day as people of the country read it: "Tuesday
// 1 December 2026", or "Tuesday, December 1, 2026" in the United States.
func DateText(t time.Time, country string) string {
	if monthFirst[strings.ToUpper(country)] {
		return t.Format("Monday, January 2, 2006")
	}
	return t.Format("Monday 2 January 2006")
}

// WhenText writes a day and a time of day: "Tuesday 1 December 2026 at
// 9:30 am".
func WhenText(t time.Time, country string) string {
	clock := t.Format("3:04 pm")
	if monthFirst[strings.ToUpper(country)] {
		clock = t.Format("3:04 PM")
	}
	return DateText(t, country) + " at " + clock
}

// Where is the location's name and address on one line.
func Where(l practiced.Location) string {
	parts := []string{l.Name}
	ad := l.Address
	for _, p := range []string{ad.Line1, ptrText(ad.Line2), strings.TrimSpace(ad.City + " " + ad.State + " " + ad.PostalCode)} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

func ptrText(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// CalendarFile is the appointment as an iCalendar file to add to a
// calendar (METHOD:PUBLISH), with the UID its invitations have.
func CalendarFile(a Appointment) (string, error) {
	return calendar("PUBLISH", "CONFIRMED", a)
}

// calendar is the appointment as an iCalendar object of the method (an
// invitation is REQUEST, or CANCEL for a cancellation): one event whose
// UID is the attendance's, so a calendar replaces the event it holds.
func calendar(method, status string, a Appointment) (string, error) {
	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropVersion, "2.0")
	cal.Props.SetText(ical.PropProductID, "-//practiced//appointment//EN")
	cal.Props.SetText(ical.PropMethod, method)
	ev := ical.NewEvent()
	ev.Props.SetText(ical.PropUID, a.Attendance.ID+"@practiced")
	ev.Props.SetDateTime(ical.PropDateTimeStamp, a.Appointment.UpdatedAt.UTC())
	ev.Props.SetDateTime(ical.PropDateTimeStart, a.Appointment.StartsAt.UTC())
	ev.Props.SetDateTime(ical.PropDateTimeEnd, a.Appointment.EndsAt.UTC())
	summary := a.Business
	if a.Service != "" {
		summary = a.Service + " — " + a.Business
	}
	ev.Props.SetText(ical.PropSummary, summary)
	ev.Props.SetText(ical.PropLocation, Where(a.Location))
	desc := "With " + a.Practitioner + "."
	if a.PageURL != "" {
		desc += " Your appointment: " + a.PageURL
	}
	ev.Props.SetText(ical.PropDescription, desc)
	ev.Props.SetText(ical.PropStatus, status)
	seq := ical.NewProp(ical.PropSequence)
	seq.Value = strconv.Itoa(a.Sequence)
	ev.Props.Set(seq)
	if a.Location.Email != "" {
		org := ical.NewProp(ical.PropOrganizer)
		org.Value = "mailto:" + a.Location.Email
		org.Params.Set(ical.ParamCommonName, a.Business)
		ev.Props.Set(org)
	}
	cal.Children = append(cal.Children, ev.Component)
	var buf bytes.Buffer
	if err := ical.NewEncoder(&buf).Encode(cal); err != nil {
		return "", err
	}
	return buf.String(), nil
}
