package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
	"github.com/practiced/practiced/bookable"
	"github.com/practiced/practiced/internal/hangup"
	"github.com/practiced/practiced/tid"
)

// BookingStore is what the booking page reads and writes.
type BookingStore interface {
	practiced.BookingStore
	practiced.ServiceStore
	practiced.PractitionerStore
	practiced.ScheduleStore
}

// Booking serves a location's online booking page, /book/{location_id}.
// The page has no API key and no session: each step is a GET whose query
// carries the choices so far (service, practitioner, from, slot), and the
// booking itself is a POST. Slots come from package bookable, the
// function the API lists them with, and the page offers and accepts only
// slots it lists (docs/availability.md, rule 7).
type Booking struct {
	store  BookingStore
	logger *slog.Logger
	now    func() time.Time
	csrf   *http.CrossOriginProtection
}

// NewBooking returns the booking page's handlers.
func NewBooking(store BookingStore, opt Options) *Booking {
	h := &Booking{store: store, logger: opt.Logger, now: opt.Now}
	if h.logger == nil {
		h.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if h.now == nil {
		h.now = time.Now
	}
	h.csrf = crossOriginProtection(opt.PublicURL, h.logger, "booking page", func(w http.ResponseWriter, r *http.Request) {
		h.render(w, r, http.StatusForbidden, "book-problem", bookingProblem{
			Title:   "This booking was refused",
			Message: "The booking came from another website, so nothing was booked. Open the clinic's booking page again to book.",
		})
	})
	return h
}

// Query and form fields of the page.
const (
	fieldService      = "service"
	fieldPractitioner = "practitioner" // a practitioner id, or anyPractitioner
	fieldFrom         = "from"         // the first local date of the week shown
	fieldDay          = "day"          // the local date whose times are shown
	fieldSlot         = "slot"         // slotValue
	fieldWeek         = "week"         // a POST's button that shows another week
	fieldShowDay      = "show_day"     // a POST's button that shows another day
	anyPractitioner   = "any"
	weekDays          = 7
)

// Show answers GET /book/{location_id}. With no service chosen it lists
// the services; with a service, the times of one day (`day`) of the week
// from `from`; with a slot too, the form for the person's details.
func (h *Booking) Show() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := h.begin(w, r)
		if !ok {
			return
		}
		q := r.URL.Query()
		if !q.Has(fieldService) {
			h.render(w, r, http.StatusOK, "book-services", c.servicesView(nil))
			return
		}
		if !c.chooseService(q.Get(fieldService)) {
			h.render(w, r, http.StatusUnprocessableEntity, "book-services", c.servicesView(map[string]string{fieldService: "Choose one of the services."}))
			return
		}
		if err := h.loadPractitioners(r.Context(), c); err != nil {
			h.fail(w, r, err)
			return
		}
		problems := map[string]string{}
		if !c.choosePractitioner(q.Get(fieldPractitioner)) {
			problems[fieldPractitioner] = "Choose one of the practitioners, or any practitioner."
		}
		c.chooseWeek(q.Get(fieldFrom))
		c.chooseDay(q.Get(fieldDay))
		// The times form sends step=details, so that sending it with no
		// time chosen is told apart from opening the week.
		if (q.Has(fieldSlot) || q.Get("step") == "details") && len(problems) == 0 {
			value := q.Get(fieldSlot)
			if value == "" {
				problems[fieldSlot] = "Choose a time."
			} else {
				sl, pra, listed, err := h.pick(r.Context(), c, value)
				if err != nil {
					h.fail(w, r, err)
					return
				}
				if listed {
					h.render(w, r, http.StatusOK, "book-details", c.detailsView(sl, pra, practiced.BookingDetails{}, nil))
					return
				}
				c.showDayOf(sl.Start)
				h.times(w, r, c, http.StatusConflict, timesOptions{taken: true})
				return
			}
		}
		status := http.StatusOK
		if len(problems) > 0 {
			status = http.StatusUnprocessableEntity
		}
		h.times(w, r, c, status, timesOptions{problems: problems})
	})
}

// Book answers POST /book/{location_id}, sent by the details form or by
// the form that offers other times after one was taken. It re-checks
// that the slot is still listed, then books it in one transaction that
// finds or creates the client (by e-mail address) and runs the
// booking's check after the practitioner's earlier bookings (see
// bookable.SlotCheck). With any practitioner, a time the slot's
// practitioner no longer has goes to the next practitioner free then
// (see bookingChoice.candidates). A slot taken meanwhile shows fresh
// times with the details kept. Requests from other websites are refused.
func (h *Booking) Book() http.Handler {
	return h.csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := h.begin(w, r)
		if !ok {
			return
		}
		if status, ok := parsePost(w, r); !ok {
			h.render(w, r, status, "book-problem", bookingProblem{Title: "The booking could not be read",
				Message: "Open the clinic's booking page again and book from the page.", site: c.site})
			return
		}
		f := r.PostForm
		if !c.chooseService(f.Get(fieldService)) {
			h.render(w, r, http.StatusUnprocessableEntity, "book-services", c.servicesView(map[string]string{fieldService: "Choose one of the services."}))
			return
		}
		if err := h.loadPractitioners(r.Context(), c); err != nil {
			h.fail(w, r, err)
			return
		}
		c.choosePractitioner(f.Get(fieldPractitioner)) // an unknown one is any
		c.chooseWeek(f.Get(fieldFrom))
		c.chooseDay(f.Get(fieldDay))
		details := practiced.BookingDetails{FirstName: f.Get("first_name"), LastName: f.Get("last_name"),
			Email: f.Get("email"), Phone: f.Get("phone"), Region: c.site.Location.Address.CountryCode}
		if f.Has(fieldWeek) {
			c.chooseWeek(f.Get(fieldWeek))
			c.chooseDay("")
			h.times(w, r, c, http.StatusOK, timesOptions{details: &details})
			return
		}
		if f.Has(fieldShowDay) {
			c.chooseDay(f.Get(fieldShowDay))
			h.times(w, r, c, http.StatusOK, timesOptions{details: &details})
			return
		}
		// Pages shown again keep what was typed; the booking gets the
		// details as checked (trimmed, the phone number as digits).
		typed := details
		problems := details.Check()
		value := f.Get(fieldSlot)
		if value == "" {
			if problems == nil {
				problems = map[string]string{}
			}
			problems[fieldSlot] = "Choose a time."
			h.times(w, r, c, http.StatusUnprocessableEntity, timesOptions{details: &typed, problems: problems})
			return
		}
		if problems != nil {
			sl, pra, listed, err := h.pick(r.Context(), c, value)
			if err != nil {
				h.fail(w, r, err)
				return
			}
			if listed {
				h.render(w, r, http.StatusUnprocessableEntity, "book-details", c.detailsView(sl, pra, typed, problems))
				return
			}
			c.showDayOf(sl.Start)
			h.times(w, r, c, http.StatusConflict, timesOptions{taken: true, details: &typed, problems: problems})
			return
		}
		// Each candidate is tried, listed or not: the booking's own check
		// refuses a slot no longer listed (ErrSlotTaken) unless this
		// person booked it already, say by sending the page twice, which
		// shows the confirmation.
		var last bookable.Slot
		for _, pra := range c.candidates(value) {
			sl, _, err := h.find(r.Context(), c, value, pra)
			if err != nil {
				h.fail(w, r, err)
				return
			}
			last = sl
			done, err := h.book(r.Context(), c, sl, pra, details)
			if errors.Is(err, practiced.ErrSlotTaken) {
				continue
			} else if errors.Is(err, practiced.ErrTooManyBookings) {
				h.render(w, r, http.StatusTooManyRequests, "book-problem", bookingProblem{Title: "No more online bookings today",
					Message: fmt.Sprintf("%s takes at most %d online bookings a day from one e-mail address, and this one has made them. %s",
						c.site.Location.Name, c.site.Location.OnlineBookingsPerEmailPerDay, c.bookContact()), site: c.site})
				return
			} else if err != nil {
				h.fail(w, r, err)
				return
			}
			h.render(w, r, http.StatusOK, "book-done", c.doneView(done, pra, details))
			return
		}
		c.showDayOf(last.Start)
		h.times(w, r, c, http.StatusConflict, timesOptions{taken: true, details: &typed})
	}))
}

// book books slot sl of pra for the person: a place in the slot's group
// appointment, or a new appointment checked, inside the transaction,
// to be a slot the page still lists.
func (h *Booking) book(ctx context.Context, c *bookingChoice, sl bookable.Slot, pra practiced.Practitioner, d practiced.BookingDetails) (practiced.BookedOnline, error) {
	now := practiced.NewTime(h.now())
	svc := c.service
	a := practiced.Appointment{
		ID:             tid.New(practiced.PrefixAppointment),
		LocationID:     c.site.Location.ID,
		PractitionerID: pra.ID,
		ServiceID:      &svc.ID,
		StartsAt:       practiced.NewTime(sl.Start),
		EndsAt:         practiced.NewTime(sl.Start.Add(time.Duration(svc.Duration) * time.Minute)),
		Duration:       svc.Duration,
		MaxClients:     max(svc.MaxClients, 1),
		CreatedAt:      now,
		UpdatedAt:      now,
	}
	b := practiced.OnlineBooking{
		Client:      d.NewClient(tid.New(practiced.PrefixClient), now),
		Appointment: a,
		MaxPerDay:   c.site.Location.OnlineBookingsPerEmailPerDay,
		Since:       practiced.NewTime(now.Add(-24 * time.Hour)),
		// The check lists the appointment's own date: no range is needed.
		Check: bookable.SlotCheck(c.request([]practiced.Practitioner{pra}, availability.Date{}, availability.Date{}), pra),
		Attendee: practiced.AppointmentClient{
			ID: tid.New(practiced.PrefixAppointmentClient), Status: practiced.StatusBooked, Note: d.Note(),
			CreatedAt: now, UpdatedAt: now,
		},
	}
	if sl.GroupAppointmentID != "" {
		b.JoinID = sl.GroupAppointmentID
		b.Join = func(g practiced.Appointment, attendees []practiced.AppointmentClient, joining practiced.AppointmentClient) error {
			// The place must still be the one listed: the same time, with
			// whom and where it was, and free.
			if g.ArchivedAt != nil || !g.StartsAt.Equal(a.StartsAt.Time) || g.PractitionerID != a.PractitionerID ||
				g.LocationID != a.LocationID || g.ServiceID == nil || *g.ServiceID != svc.ID {
				return practiced.ErrSlotTaken
			}
			if practiced.JoinAppointment(g, attendees, joining) != nil {
				return practiced.ErrSlotTaken
			}
			return nil
		}
	}
	// A booking from the page is always confirmed by e-mail, when the
	// server sends e-mail.
	return h.store.BookOnline(practiced.WithNotify(ctx), c.site.Location.BusinessID, b)
}

// bookingChoice is what the person has chosen so far, with what the
// choices are made among.
type bookingChoice struct {
	site        practiced.BookingSite
	zone        *time.Location
	now         time.Time
	today, last availability.Date // the dates the page offers (last: the service's horizon)
	services    []practiced.Service
	service     practiced.Service // zero until chosen
	// practitioners give the chosen service at the location, in id order.
	practitioners []practiced.Practitioner
	practitioner  *practiced.Practitioner // nil for any practitioner
	from          availability.Date
	day           availability.Date // the date asked for; zero for the first with times
}

// begin loads the location of the path and its bookable services. A
// malformed or unknown id, an archived location and one that takes no
// online bookings all get the same 404 page.
func (h *Booking) begin(w http.ResponseWriter, r *http.Request) (*bookingChoice, bool) {
	ctx := r.Context()
	id := r.PathValue("location_id")
	if !tid.Valid(id, practiced.PrefixLocation) {
		h.notFound(w, r)
		return nil, false
	}
	site, err := h.store.BookingSite(ctx, id)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND || err == nil && (site.Location.ArchivedAt != nil || !site.Location.OnlineAppointmentBooking) {
		h.notFound(w, r)
		return nil, false
	} else if err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	zone, err := time.LoadLocation(site.Location.Timezone)
	if err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	c := &bookingChoice{site: site, zone: zone, now: h.now()}
	c.today = bookable.DateOf(c.now.In(zone))
	c.from = c.today
	biz := site.Location.BusinessID
	err = eachPage(func(p practiced.PageRequest) ([]practiced.Service, practiced.PageInfo, error) {
		return h.store.ListServices(ctx, biz, practiced.ServiceFilter{LocationID: id}, p)
	}, func(s practiced.Service) string { return s.ID }, func(s practiced.Service) {
		if s.OnlineBooking && s.ArchivedAt == nil {
			c.services = append(c.services, s)
		}
	})
	if err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	return c, true
}

// loadPractitioners reads who gives the chosen service at the location.
func (h *Booking) loadPractitioners(ctx context.Context, c *bookingChoice) error {
	loc := c.site.Location
	return eachPage(func(p practiced.PageRequest) ([]practiced.Practitioner, practiced.PageInfo, error) {
		return h.store.ListPractitioners(ctx, loc.BusinessID, practiced.PractitionerFilter{LocationID: loc.ID}, p)
	}, func(p practiced.Practitioner) string { return p.ID }, func(p practiced.Practitioner) {
		if bookable.Offers(p, loc, c.service) {
			c.practitioners = append(c.practitioners, p)
		}
	})
}

// eachPage calls each with every record of a list, in id order, page by
// page.
func eachPage[T any](list func(practiced.PageRequest) ([]T, practiced.PageInfo, error), id func(T) string, each func(T)) error {
	p := practiced.PageRequest{Limit: 100}
	for {
		recs, info, err := list(p)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			each(rec)
		}
		if !info.HasNext || len(recs) == 0 {
			return nil
		}
		p.After = id(recs[len(recs)-1])
	}
}

// chooseService picks the bookable service with the id, reporting
// whether there is one.
func (c *bookingChoice) chooseService(id string) bool {
	i := slices.IndexFunc(c.services, func(s practiced.Service) bool { return s.ID == id })
	if i < 0 {
		return false
	}
	c.service = c.services[i]
	c.last = c.today.AddDays(bookable.HorizonDays(c.service))
	return true
}

// choosePractitioner picks the practitioner with the id among those who
// give the service; "" and "any" mean any of them. It reports whether
// the value named one of the choices.
func (c *bookingChoice) choosePractitioner(v string) bool {
	c.practitioner = nil
	if v == "" || v == anyPractitioner {
		return true
	}
	i := slices.IndexFunc(c.practitioners, func(p practiced.Practitioner) bool { return p.ID == v })
	if i < 0 {
		return false
	}
	c.practitioner = &c.practitioners[i]
	return true
}

// chooseDay shows the times of the local date v, when it is a date of
// the week shown that has times; otherwise the first such date is shown.
func (c *bookingChoice) chooseDay(v string) {
	c.day = availability.Date{}
	if d, err := availability.ParseDate(v); err == nil {
		c.day = d
	}
}

// showDayOf shows the times of the local date of start, when there is
// one: after a time was taken, the times beside it.
func (c *bookingChoice) showDayOf(start time.Time) {
	if !start.IsZero() {
		c.day = bookable.DateOf(start.In(c.zone))
	}
}

// chooseWeek starts the times shown at the date v, kept between today
// and the last bookable date; a value that is not a date is today.
func (c *bookingChoice) chooseWeek(v string) {
	d, err := availability.ParseDate(v)
	switch {
	case err != nil || d.Before(c.today):
		c.from = c.today
	case c.last.Before(d):
		c.from = c.last
	default:
		c.from = d
	}
}

// searched returns the practitioners whose times are shown: the one
// chosen, or all who give the service.
func (c *bookingChoice) searched() []practiced.Practitioner {
	if c.practitioner != nil {
		return []practiced.Practitioner{*c.practitioner}
	}
	return c.practitioners
}

// request is the availability question of the page for pras, from and
// to: the one GET /v1/availability_slots asks for the service.
func (c *bookingChoice) request(pras []practiced.Practitioner, from, to availability.Date) bookable.Request {
	return bookable.Request{
		Location: c.site.Location, Zone: c.zone, Service: c.service, Practitioners: pras,
		Duration: c.service.Duration, From: from, To: to, Now: c.now,
	}
}

// week returns the slots of the week shown, within the service's
// horizon.
func (h *Booking) week(ctx context.Context, c *bookingChoice) ([]bookable.Slot, availability.Date, error) {
	to := c.from.AddDays(weekDays - 1)
	if c.last.Before(to) {
		to = c.last
	}
	slots, err := bookable.Slots(ctx, h.store, c.site.Location.BusinessID, c.request(c.searched(), c.from, to))
	return slots, to, err
}

// nextFree returns the first slot after the date after, within the
// horizon, or false.
func (h *Booking) nextFree(ctx context.Context, c *bookingChoice, after availability.Date) (bookable.Slot, bool, error) {
	if !after.Before(c.last) {
		return bookable.Slot{}, false, nil
	}
	req := c.request(c.searched(), after.AddDays(1), c.last)
	req.FirstAvailable = true
	slots, err := bookable.Slots(ctx, h.store, c.site.Location.BusinessID, req)
	if err != nil || len(slots) == 0 {
		return bookable.Slot{}, false, err
	}
	return slots[0], true, nil
}

// candidates returns whom a slot value may be booked with, in the order
// tried: the practitioner it names, then, when the person chose any
// practitioner, the others who give the service in id order (the order
// the page offers them in). It returns none when the value names no
// practitioner the choice searches or no date the page offers.
func (c *bookingChoice) candidates(value string) []practiced.Practitioner {
	praID, start, ok := parseSlotValue(value)
	if !ok {
		return nil
	}
	searched := c.searched()
	i := slices.IndexFunc(searched, func(p practiced.Practitioner) bool { return p.ID == praID })
	day := bookable.DateOf(start.In(c.zone))
	if i < 0 || day.Before(c.today) || c.last.Before(day) {
		return nil
	}
	out := []practiced.Practitioner{searched[i]}
	if c.practitioner == nil {
		out = append(out, slices.Delete(slices.Clone(searched), i, i+1)...)
	}
	return out
}

// find reads the start of a slot value as a slot of pra. listed says
// whether the page lists it now; when it does, sl is the slot listed
// (with its group appointment), and otherwise the start and pra alone.
func (h *Booking) find(ctx context.Context, c *bookingChoice, value string, pra practiced.Practitioner) (sl bookable.Slot, listed bool, err error) {
	_, start, _ := parseSlotValue(value)
	day := bookable.DateOf(start.In(c.zone))
	slots, err := bookable.Slots(ctx, h.store, c.site.Location.BusinessID, c.request([]practiced.Practitioner{pra}, day, day))
	if err != nil {
		return sl, false, err
	}
	for _, found := range slots {
		if found.Start.Equal(start) {
			return found, true, nil
		}
	}
	sl.Start, sl.PractitionerID = start.UTC(), pra.ID
	return sl, false, nil
}

// pick finds the slot a value stands for now: the first candidate who
// has the slot listed. When none has, listed is false and sl is the
// value's start (zero for a value that names nothing the page offers).
func (h *Booking) pick(ctx context.Context, c *bookingChoice, value string) (sl bookable.Slot, pra practiced.Practitioner, listed bool, err error) {
	for i, p := range c.candidates(value) {
		found, ok, err := h.find(ctx, c, value, p)
		if err != nil || ok {
			return found, p, ok, err
		}
		if i == 0 {
			sl = found
		}
	}
	return sl, practiced.Practitioner{}, false, nil
}

// slotValue names a slot in the page's forms: its practitioner and its
// start, e.g. "pra_…@2026-03-02T09:30:00Z". The page books exactly that
// practitioner, also when the person asked for any.
func slotValue(sl bookable.Slot) string {
	return sl.PractitionerID + "@" + sl.Start.UTC().Format(time.RFC3339)
}

func parseSlotValue(v string) (string, time.Time, bool) {
	praID, at, ok := strings.Cut(v, "@")
	if !ok || !tid.Valid(praID, practiced.PrefixPractitioner) {
		return "", time.Time{}, false
	}
	start, err := time.Parse(time.RFC3339, at)
	return praID, start, err == nil
}

// timesOptions say how the week of times is shown: after a slot was
// taken, with the person's details (a form that books at once), and with
// what is wrong.
type timesOptions struct {
	taken    bool
	details  *practiced.BookingDetails
	problems map[string]string
}

// times shows the week of times.
func (h *Booking) times(w http.ResponseWriter, r *http.Request, c *bookingChoice, status int, opt timesOptions) {
	slots, to, err := h.week(r.Context(), c)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var next *bookable.Slot
	if len(slots) == 0 {
		sl, ok, err := h.nextFree(r.Context(), c, to)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if ok {
			next = &sl
		}
	}
	h.render(w, r, status, "book-times", c.timesView(slots, to, next, opt))
}

// fail answers an error of the store with a 500 page quoting the
// request id.
func (h *Booking) fail(w http.ResponseWriter, r *http.Request, err error) {
	if hangup.Answered(w, r, err) {
		return
	}
	reqID := w.Header().Get("X-Request-Id")
	h.logger.Error("booking page", "request_id", reqID, "method", r.Method, "error", err.Error())
	h.render(w, r, http.StatusInternalServerError, "book-problem", bookingProblem{Title: "Something went wrong",
		Message: "Nothing was booked. Please try again in a few minutes.", Reference: reqID})
}

func (h *Booking) notFound(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusNotFound, "book-problem", bookingProblem{Title: "This booking page is not available",
		Message: "The link may be mistyped, or the clinic does not take online bookings here. Please contact the clinic to book."})
}

func (h *Booking) render(w http.ResponseWriter, r *http.Request, status int, name string, data pageData) {
	renderPage(w, r, h.logger, "booking page", status, name, data)
}

// pageURL is a link to a step of the page: the query alone, so that it
// resolves against the page's own path wherever it is served.
func pageURL(params ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(params); i += 2 {
		if params[i+1] != "" {
			v.Set(params[i], params[i+1])
		}
	}
	return "?" + v.Encode()
}
