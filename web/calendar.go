package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/emersion/go-ical"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/hangup"
)

// CalendarStore is what a practitioner's calendar feed reads.
type CalendarStore interface {
	practiced.CalendarFeedStore
	practiced.ScheduleStore
	GetPractitioner(ctx context.Context, businessID, id string) (practiced.Practitioner, error)
	GetLocation(ctx context.Context, businessID, id string) (practiced.Location, error)
	GetService(ctx context.Context, businessID, id string) (practiced.Service, error)
	ListAppointmentClients(ctx context.Context, businessID string, f practiced.AppointmentClientFilter, p practiced.PageRequest) ([]practiced.AppointmentClient, practiced.PageInfo, error)
	GetClient(ctx context.Context, businessID, id string) (practiced.Client, error)
}

// The window a feed covers, around the time it is fetched.
const (
	feedBack  = 30 * 24 * time.Hour
	feedAhead = 180 * 24 * time.Hour
)

// Calendar serves practitioners' calendar feeds at /calendar/{secret}.ics:
// iCalendar that Google, Apple and Outlook calendars subscribe to. A feed
// holds the practitioner's appointments that are not cancelled and busy
// times from 30 days before the fetch to 180 days after, with only what
// the practitioner needs to see: the service, the clients' names, the
// location and a busy time's name. Never notes, contact details or
// anything clinical: a calendar is shared with other services.
type Calendar struct {
	store  CalendarStore
	logger *slog.Logger
	now    func() time.Time
}

// NewCalendar returns the feed handler's owner.
func NewCalendar(store CalendarStore, opt Options) *Calendar {
	c := &Calendar{store: store, logger: opt.Logger, now: opt.Now}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// Feed answers GET /calendar/{file}, where file is the feed's secret and
// ".ics". An unknown or replaced secret is a 404, as any unknown path.
func (c *Calendar) Feed() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
		if !ok || secret == "" {
			http.NotFound(w, r)
			return
		}
		biz, praID, err := c.store.CalendarFeed(r.Context(), practiced.HashToken(secret))
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			c.fail(w, r, err)
			return
		}
		body, err := c.build(r.Context(), biz, praID)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		sum := sha256.Sum256(body)
		etag := `"` + hex.EncodeToString(sum[:16]) + `"`
		h := w.Header()
		h.Set("ETag", etag)
		h.Set("Cache-Control", "private, max-age=300")
		h.Set("X-Robots-Tag", "noindex, nofollow")
		h.Set("Referrer-Policy", "no-referrer")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		h.Set("Content-Type", "text/calendar; charset=utf-8")
		h.Set("Content-Disposition", `inline; filename="calendar.ics"`)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

func (c *Calendar) fail(w http.ResponseWriter, r *http.Request, err error) {
	if hangup.Answered(w, r, err) {
		return
	}
	c.logger.Error("calendar feed", "request_id", w.Header().Get("X-Request-Id"), "error", err.Error())
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	io.WriteString(w, "The calendar could not be read. Try again later.\n")
}

// build writes the practitioner's feed.
func (c *Calendar) build(ctx context.Context, biz, praID string) ([]byte, error) {
	pra, err := c.store.GetPractitioner(ctx, biz, praID)
	if err != nil {
		return nil, err
	}
	now := c.now()
	sched, err := c.store.PractitionerSchedule(ctx, biz, praID, now.Add(-feedBack), now.Add(feedAhead))
	if err != nil {
		return nil, err
	}
	locations := map[string]string{}
	location := func(id string) (string, error) {
		if name, ok := locations[id]; ok {
			return name, nil
		}
		l, err := c.store.GetLocation(ctx, biz, id)
		if err != nil {
			return "", err
		}
		name := l.Name
		if a := l.Address; a.Line1 != "" {
			name += ", " + strings.Join(nonEmpty(a.Line1, a.City, a.State, a.PostalCode), ", ")
		}
		locations[id] = name
		return name, nil
	}
	services := map[string]string{}

	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropVersion, "2.0")
	cal.Props.SetText(ical.PropProductID, "-//practiced//calendar feed//EN")
	cal.Props.SetText(ical.PropMethod, "PUBLISH")
	cal.Props.SetText("X-WR-CALNAME", strings.TrimSpace(pra.FirstName+" "+pra.LastName))
	for _, a := range sched.Appointments {
		summary := "Appointment"
		if a.ServiceID != nil {
			name, ok := services[*a.ServiceID]
			if !ok {
				s, err := c.store.GetService(ctx, biz, *a.ServiceID)
				if err != nil {
					return nil, err
				}
				name, services[*a.ServiceID] = s.Name, s.Name
			}
			summary = name
		}
		var names []string
		attendees, _, err := c.store.ListAppointmentClients(ctx, biz, practiced.AppointmentClientFilter{AppointmentID: a.ID},
			practiced.PageRequest{Limit: maxAttendeesShown})
		if err != nil {
			return nil, err
		}
		for _, ac := range attendees {
			if ac.Status == practiced.StatusCancelled {
				continue
			}
			cl, err := c.store.GetClient(ctx, biz, ac.ClientID)
			if err != nil {
				return nil, err
			}
			names = append(names, strings.TrimSpace(cl.FirstName+" "+cl.LastName))
		}
		if len(names) > 0 {
			summary += ": " + strings.Join(names, ", ")
		}
		where, err := location(a.LocationID)
		if err != nil {
			return nil, err
		}
		cal.Children = append(cal.Children, event(a.ID, a.StartsAt.Time, a.EndsAt.Time, a.UpdatedAt.Time, summary, where, "appointment"))
	}
	for _, b := range sched.BusyTimes {
		summary := "Busy"
		if b.Name != nil && *b.Name != "" {
			summary = *b.Name
		}
		where, err := location(b.LocationID)
		if err != nil {
			return nil, err
		}
		cal.Children = append(cal.Children, event(b.ID, b.StartsAt.Time, b.EndsAt.Time, b.UpdatedAt.Time, summary, where, "busy time"))
	}
	if len(cal.Children) == 0 {
		// A calendar holds at least one component: an empty feed holds
		// the definition of UTC, which its events would use.
		cal.Children = append(cal.Children, utcZone())
	}
	var buf bytes.Buffer
	if err := ical.NewEncoder(&buf).Encode(cal); err != nil {
		return nil, fmt.Errorf("calendar feed: %w", err)
	}
	return buf.Bytes(), nil
}

// event is one VEVENT: its UID is the record's id, stable across fetches
// and changes, so calendars update the event in place.
func event(id string, start, end, updated time.Time, summary, where, category string) *ical.Component {
	ev := ical.NewEvent()
	ev.Props.SetText(ical.PropUID, id+"@practiced")
	ev.Props.SetDateTime(ical.PropDateTimeStamp, updated.UTC())
	ev.Props.SetDateTime(ical.PropLastModified, updated.UTC())
	ev.Props.SetDateTime(ical.PropDateTimeStart, start.UTC())
	ev.Props.SetDateTime(ical.PropDateTimeEnd, end.UTC())
	ev.Props.SetText(ical.PropSummary, summary)
	ev.Props.SetText(ical.PropLocation, where)
	ev.Props.SetText(ical.PropCategories, category)
	ev.Props.SetText(ical.PropTransparency, "OPAQUE")
	return ev.Component
}

// maxAttendeesShown is the most attendees of one appointment an event
// names.
const maxAttendeesShown = 100

// utcZone is the VTIMEZONE of UTC.
func utcZone() *ical.Component {
	std := ical.NewComponent(ical.CompTimezoneStandard)
	std.Props.SetText(ical.PropDateTimeStart, "19700101T000000")
	std.Props.SetText(ical.PropTimezoneOffsetFrom, "+0000")
	std.Props.SetText(ical.PropTimezoneOffsetTo, "+0000")
	tz := ical.NewComponent(ical.CompTimezone)
	tz.Props.SetText(ical.PropTimezoneID, "UTC")
	tz.Children = append(tz.Children, std)
	return tz
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
