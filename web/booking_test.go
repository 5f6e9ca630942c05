package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// The online booking page, GET and POST /book/{location_id}: rule 7 of
// docs/availability.md, driven through the page as a browser would and
// checked through the API. The clock is Monday 2 March 2026, 08:30 in
// Adelaide (ACDT, UTC+10:30), whose location is open every day
// 08:00–18:00 and takes online bookings; Alice works there.

// Slots of Monday 2 March in Adelaide, as the page names them.
const (
	at1000 = "2026-03-01T23:30:00Z"
	at1030 = "2026-03-02T00:00:00Z"
	at1100 = "2026-03-02T00:30:00Z"
)

// newBookingEnv is newEnv with clinic A's consultation bookable online.
func newBookingEnv(t *testing.T) *env {
	t.Helper()
	return bookingEnvOf(t, newEnv(t))
}

func bookingEnvOf(t *testing.T, e *env) *env {
	t.Helper()
	e.mustAPI(http.StatusOK, "POST", "/v1/services/"+e.a.Consult.ID, map[string]any{"online_booking": true, "description": "A first visit."})
	return e
}

// bookPath is the booking page of clinic A's Adelaide location.
func (e *env) bookPath() string { return "/book/" + e.a.Adelaide.ID }

// times is the path of the week of times of a service from a date.
func (e *env) times(serviceID, practitioner, from string) string {
	v := url.Values{"service": {serviceID}}
	if practitioner != "" {
		v.Set("practitioner", practitioner)
	}
	if from != "" {
		v.Set("from", from)
	}
	return e.bookPath() + "?" + v.Encode()
}

// slotValue names a slot as the page's forms do.
func slotValue(praID, utc string) string { return praID + "@" + utc }

// booking is the details form of the consultation at the slot, as the
// page sends it.
func (e *env) booking(slot, email string) url.Values {
	return url.Values{"service": {e.a.Consult.ID}, "practitioner": {"any"}, "from": {"2026-03-02"}, "slot": {slot},
		"first_name": {"Dana"}, "last_name": {"Diaz"}, "email": {email}, "phone": {"0412 345 678"}, "action": {"book"}}
}

var slotInput = regexp.MustCompile(`name="slot" value="([^"]+)"`)

var dayLinkHref = regexp.MustCompile(`<a class="day-link" href="([^"]+)"`)

// weekOnPage lists the slot values the page offers for the week of path,
// day by day, following each of its day links in turn.
func (e *env) weekOnPage(t *testing.T, path string) []string {
	t.Helper()
	r := e.page("GET", path, nil, nil)
	wantStatus(t, r, http.StatusOK)
	var out []string
	for _, m := range dayLinkHref.FindAllStringSubmatch(r.Body, -1) {
		day := e.page("GET", e.bookPath()+strings.ReplaceAll(m[1], "&amp;", "&"), nil, nil)
		wantStatus(t, day, http.StatusOK)
		out = append(out, slotsOnPage(day.Body)...)
	}
	return out
}

// slotsOnPage lists the slot values a page offers, in page order.
func slotsOnPage(body string) []string {
	var out []string
	for _, m := range slotInput.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// appointmentsAt lists clinic A's appointments at Adelaide, optionally
// only those starting at the instant.
func (e *env) appointmentsAt(startUTC string) []map[string]any {
	e.t.Helper()
	path := "/v1/appointments?limit=100&location_id=" + e.a.Adelaide.ID
	if startUTC != "" {
		path += "&starts_after=" + startUTC + "&starts_before=" + url.QueryEscape(strings.Replace(startUTC, ":00Z", ":01Z", 1))
	}
	var out []map[string]any
	for _, a := range e.mustAPI(http.StatusOK, "GET", path, nil)["data"].([]any) {
		out = append(out, a.(map[string]any))
	}
	return out
}

// clientsMatching lists clinic A's clients whose name, e-mail or phone
// holds q.
func (e *env) clientsMatching(q string) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, c := range e.mustAPI(http.StatusOK, "GET", "/v1/clients?limit=100&include_archived=true&q="+url.QueryEscape(q), nil)["data"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

// wantPageHeaders checks the headers every page of package web carries.
func wantPageHeaders(t *testing.T, r pageResponse) {
	t.Helper()
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.HasPrefix(csp, "default-src 'none'; style-src 'sha256-") ||
		!strings.HasSuffix(csp, "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	for k, v := range map[string]string{"Content-Type": "text/html; charset=utf-8", "X-Frame-Options": "DENY",
		"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
		"X-Robots-Tag": "noindex, nofollow"} {
		if got := r.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if strings.Contains(r.Body, "<script") {
		t.Errorf("the page has a script")
	}
}

func TestBookingPageIsNotFoundUnlessTheLocationTakesOnlineBookings(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	archived := e.mustAPI(http.StatusCreated, "POST", "/v1/locations", map[string]any{"name": "Old rooms", "timezone": "Australia/Adelaide",
		"online_appointment_booking": true})
	e.mustAPI(http.StatusOK, "POST", "/v1/locations/"+archived["id"].(string)+"/archive", nil)
	for _, tc := range []struct{ name, id string }{
		{"a malformed id", "loc_nope"},
		{"not a location id", e.a.Clients[0].ID},
		{"no such location", tid.New("loc")},
		{"a location without online booking (Sydney)", e.a.Sydney.ID},
		{"an archived location", archived["id"].(string)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, method := range []string{"GET", "POST"} {
				var form url.Values
				if method == "POST" {
					form = e.booking(slotValue(e.a.Alice.ID, at1000), "dana@example.com")
				}
				r := e.page(method, "/book/"+tc.id, form, nil)
				wantStatus(t, r, http.StatusNotFound)
				wantInPage(t, r, "<h1>This booking page is not available</h1>")
				wantNotInPage(t, r, "Clinic A")
				wantPageHeaders(t, r)
			}
		})
	}
	if n := len(e.appointmentsAt("")); n != 0 {
		t.Errorf("%d appointments booked", n)
	}
}

func TestBookingPageListsTheServicesBookableOnlineAtTheLocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Nothing is bookable online yet.
	r := e.page("GET", e.bookPath(), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `<p id="no-services">Nothing can be booked online here at the moment.`)

	bookingEnvOf(t, e)
	for _, s := range []map[string]any{
		{"name": "Offline massage", "duration": 60, "location_ids": []string{e.a.Adelaide.ID}},
		{"name": "Sydney only", "duration": 60, "online_booking": true, "location_ids": []string{e.a.Sydney.ID}},
		{"name": "Retired", "duration": 45, "online_booking": true, "location_ids": []string{e.a.Adelaide.ID}, "archive": true},
	} {
		archive := s["archive"] != nil
		delete(s, "archive")
		created := e.mustAPI(http.StatusCreated, "POST", "/v1/services", s)
		if archive {
			e.mustAPI(http.StatusOK, "POST", "/v1/services/"+created["id"].(string)+"/archive", nil)
		}
	}
	r = e.page("GET", e.bookPath(), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantPageHeaders(t, r)
	wantInPage(t, r,
		`<title>Book an appointment – Adelaide – Clinic A</title>`,
		`<header><p>Clinic A</p><p class="place">Adelaide</p></header>`,
		`<p class="step">Step 1 of 3</p>`, `<h1>Book an appointment</h1>`,
		`<form method="get" novalidate>`, `<legend>Choose a service</legend>`,
		`<input type="radio" id="service-1" name="service" value="`+e.a.Consult.ID+`" aria-describedby="service-1-hint">`,
		`<label for="service-1">Consultation, 30 minutes</label>`,
		`<p class="hint option-hint" id="service-1-hint">A first visit.</p>`,
		`<button type="submit" class="primary">Continue</button>`)
	wantNotInPage(t, r, "Offline massage", "Sydney only", "Retired", "Pilates", `id="service-2"`)

	// Clinic B's page shows clinic B.
	r = e.page("GET", "/book/"+e.b.Adelaide.ID, nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `<header><p>Clinic B</p>`)
	wantNotInPage(t, r, "Clinic A")

	// Continuing without a service, or with one not bookable here, is
	// pointed out.
	for _, service := range []string{"", e.a.Group.ID, e.b.Consult.ID, "nonsense"} {
		r = e.page("GET", e.bookPath()+"?service="+service, nil, nil)
		wantStatus(t, r, http.StatusUnprocessableEntity)
		wantInPage(t, r, `<title>Error: Book an appointment – Adelaide – Clinic A</title>`,
			`<li><a href="#service-1">Service: Choose one of the services.</a></li>`,
			`<fieldset class="question invalid" aria-describedby="service-error">`,
			`<p class="error-message" id="service-error"><span class="visually-hidden">Error:</span> Choose one of the services.</p>`)
	}
}

// The page lists what GET /v1/availability_slots answers for the same
// question, week by week: each time once for any practitioner (with the
// first practitioner free then), or the chosen practitioner's times.
func TestBookingPageTimesAreTheAPIsSlots(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	adl := e.a.Adelaide.ID
	e.mustAPI(http.StatusOK, "POST", "/v1/services/"+e.a.Consult.ID, map[string]any{"min_notice": 90})
	carol := e.mustAPI(http.StatusCreated, "POST", "/v1/practitioners", map[string]any{"first_name": "Carol", "last_name": "Chen",
		"location_ids": []string{adl}, "service_ids": []string{e.a.Consult.ID},
		"working_hours": []any{map[string]any{"location_id": adl, "day": "monday", "starts_at": "12:00", "ends_at": "15:00"},
			map[string]any{"location_id": adl, "day": "tuesday", "starts_at": "09:00", "ends_at": "11:00"}}})
	carolID := carol["id"].(string)
	e.mustAPI(http.StatusCreated, "POST", "/v1/busy_times", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": adl,
		"starts_at": "2026-03-03T09:00:00+10:30", "ends_at": "2026-03-03T10:00:00+10:30"})
	e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": adl,
		"service_id": e.a.Consult.ID, "starts_at": "2026-03-02T12:00:00+10:30", "clients": []any{map[string]any{"client_id": e.a.Clients[0].ID}}})

	for _, tc := range []struct{ practitioner, from, to string }{
		{"any", "", ""}, {"any", "2026-03-09", "2026-03-15"},
		{e.a.Alice.ID, "", ""}, {carolID, "", ""}, {carolID, "2026-03-05", "2026-03-11"},
	} {
		from, to := tc.from, tc.to
		if from == "" {
			from, to = "2026-03-02", "2026-03-08"
		}
		t.Run(tc.practitioner+" from "+from, func(t *testing.T) {
			q := "/v1/availability_slots?location_id=" + adl + "&service_id=" + e.a.Consult.ID + "&from=" + from + "&to=" + to
			if tc.practitioner != "any" {
				q += "&practitioner_id=" + tc.practitioner
			}
			var want []string
			for _, s := range e.mustAPI(http.StatusOK, "GET", q, nil)["data"].([]any) {
				s := s.(map[string]any)
				pra, _ := s["practitioner_id"].(string)
				if pra == "" {
					pra = tc.practitioner
				}
				v := slotValue(pra, s["start_datetime_utc"].(string))
				if tc.practitioner == "any" && len(want) > 0 && strings.HasSuffix(want[len(want)-1], "@"+s["start_datetime_utc"].(string)) {
					continue // the page shows each time once
				}
				want = append(want, v)
			}
			got := e.weekOnPage(t, e.times(e.a.Consult.ID, tc.practitioner, tc.from))
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("page slots (%d):\n%v\nAPI slots (%d):\n%v", len(got), got, len(want), want)
			}
		})
	}

	// The page's particulars: the first time is now + 90 minutes' notice
	// (10:00), Carol's times name her when any practitioner will do, and
	// Alice's 12:00 appointment leaves 12:00 to Carol.
	r := e.page("GET", e.times(e.a.Consult.ID, "", ""), nil, nil)
	wantInPage(t, r, `<title>Choose a time – Adelaide – Clinic A</title>`, `<p class="step">Step 2 of 3</p>`,
		`<p class="chosen">Service: Consultation, 30 minutes <a href="?">Change service</a></p>`,
		`<legend>Practitioner</legend>`,
		`<input type="radio" id="practitioner-0" name="practitioner" value="any" checked>`,
		`<label for="practitioner-1">Alice Nguyen</label>`, `<p class="hint option-hint" id="practitioner-1-hint">Physiotherapist</p>`,
		`<label for="practitioner-2">Carol Chen</label>`,
		`<legend><h2 id="times-title">Times from Monday 2 March to Sunday 8 March 2026</h2></legend>`,
		`<p class="hint" id="times-zone">Times are in Adelaide time (Australia/Adelaide).</p>`,
		`<fieldset class="day" id="day-2026-03-02">`, `<legend>Monday 2 March 2026</legend>`,
		`<input type="radio" id="slot-1" name="slot" value="`+slotValue(e.a.Alice.ID, at1000)+`">`,
		`<label for="slot-1">10:00 am</label>`,
		`value="`+slotValue(carolID, "2026-03-02T01:30:00Z")+`">`, // 12:00 with Carol
		`<input type="hidden" name="step" value="details">`,
		`<button type="submit" class="primary">Continue</button>`)
	wantNotInPage(t, r, slotValue(e.a.Alice.ID, "2026-03-01T23:00:00Z"), slotValue(e.a.Alice.ID, "2026-03-02T01:30:00Z"))
	// One practitioner chosen: the times do not repeat her name.
	r = e.page("GET", e.times(e.a.Consult.ID, e.a.Alice.ID, ""), nil, nil)
	wantInPage(t, r, `<h1>Choose a time with Alice Nguyen</h1>`, `<label for="slot-1">10:00 am</label>`,
		`<input type="radio" id="practitioner-1" name="practitioner" value="`+e.a.Alice.ID+`" checked aria-describedby="practitioner-1-hint">`)
}

func TestBookingPageWeeksStayWithinTheHorizon(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	nav := func(r pageResponse) []string {
		var out []string
		for _, m := range regexp.MustCompile(`<a href="\?([^"]*)">([^<]*)</a>`).FindAllStringSubmatch(r.Body, -1) {
			if m[2] != "Change service" {
				v, _ := url.ParseQuery(strings.ReplaceAll(m[1], "&amp;", "&"))
				out = append(out, m[2]+" "+v.Get("from"))
			}
		}
		return out
	}
	for _, tc := range []struct {
		from, heading string
		nav           []string
	}{
		{"", "Monday 2 March to Sunday 8 March 2026", []string{"Next week 2026-03-09"}},
		{"2026-03-09", "Monday 9 March to Sunday 15 March 2026", []string{"Earlier times 2026-03-02", "Next week 2026-03-16"}},
		{"2026-03-05", "Thursday 5 March to Wednesday 11 March 2026", []string{"Earlier times 2026-03-02", "Next week 2026-03-12"}},
		{"2020-01-01", "Monday 2 March to Sunday 8 March 2026", []string{"Next week 2026-03-09"}},
		{"not a date", "Monday 2 March to Sunday 8 March 2026", []string{"Next week 2026-03-09"}},
		// 90 days ahead is 31 May, the last day offered.
		{"2026-05-28", "Thursday 28 May to Sunday 31 May 2026", []string{"Earlier times 2026-05-21"}},
		{"2027-01-01", "Sunday 31 May to Sunday 31 May 2026", []string{"Earlier times 2026-05-24"}},
	} {
		r := e.page("GET", e.times(e.a.Consult.ID, "", tc.from), nil, nil)
		wantStatus(t, r, http.StatusOK)
		wantInPage(t, r, "Times from "+tc.heading+"</h2>")
		if got := nav(r); !slices.Equal(got, tc.nav) {
			t.Errorf("from %q: links %v, want %v", tc.from, got, tc.nav)
		}
	}
	// A three-day horizon offers four days: today and three more.
	e.mustAPI(http.StatusOK, "POST", "/v1/services/"+e.a.Consult.ID, map[string]any{"booking_horizon_days": 3})
	r := e.page("GET", e.times(e.a.Consult.ID, "", ""), nil, nil)
	wantInPage(t, r, "Times from Monday 2 March to Thursday 5 March 2026</h2>", `<a class="day-link" href="?day=2026-03-05&amp;`)
	wantNotInPage(t, r, `id="day-2026-03-06"`, "2026-03-06", "Next week")

	// A week with no free time says so and links to the next free time.
	e.mustAPI(http.StatusOK, "POST", "/v1/services/"+e.a.Consult.ID, map[string]any{"booking_horizon_days": 90})
	e.mustAPI(http.StatusCreated, "POST", "/v1/busy_times", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": e.a.Adelaide.ID,
		"starts_at": "2026-03-02T00:00:00+10:30", "ends_at": "2026-03-10T11:00:00+10:30"})
	r = e.page("GET", e.times(e.a.Consult.ID, "", ""), nil, nil)
	wantInPage(t, r, `<p id="no-times">There are no free times this week.</p>`)
	wantNotInPage(t, r, `name="slot"`, "Continue</button>")
	if got := nav(r); !slices.Equal(got, []string{"Next free time: Tuesday 10 March 2026 2026-03-10", "Next week 2026-03-09"}) {
		t.Errorf("links %v", got)
	}
}

func TestBookingPageAsksForAChoiceItCanMake(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	// A practitioner who does not give the service here.
	for _, pra := range []string{e.a.Bob.ID, e.b.Alice.ID, "nobody"} {
		r := e.page("GET", e.times(e.a.Consult.ID, pra, ""), nil, nil)
		wantStatus(t, r, http.StatusUnprocessableEntity)
		wantInPage(t, r, `<title>Error: Choose a time – Adelaide – Clinic A</title>`,
			`<li><a href="#practitioner-0">Practitioner: Choose one of the practitioners, or any practitioner.</a></li>`,
			`<input type="radio" id="practitioner-0" name="practitioner" value="any" checked>`)
	}
	// Continuing without a time.
	r := e.page("GET", e.times(e.a.Consult.ID, "any", "")+"&step=details", nil, nil)
	wantStatus(t, r, http.StatusUnprocessableEntity)
	wantInPage(t, r, `<li><a href="#slot-1">Time: Choose a time.</a></li>`,
		`<fieldset class="question times invalid" aria-describedby="times-zone slot-error">`,
		`<p class="error-message" id="slot-error"><span class="visually-hidden">Error:</span> Choose a time.</p>`)
}

func TestBookingPageShowsTheChosenTimeAndAsksForDetails(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	slot := slotValue(e.a.Alice.ID, at1000)
	r := e.page("GET", e.times(e.a.Consult.ID, "any", "")+"&step=details&slot="+url.QueryEscape(slot), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantPageHeaders(t, r)
	wantInPage(t, r, `<title>Your details – Adelaide – Clinic A</title>`, `<p class="step">Step 3 of 3</p>`,
		"<dt>Service</dt>\n<dd>Consultation, 30 minutes</dd>", "<dt>With</dt>\n<dd>Alice Nguyen</dd>",
		"<dt>When</dt>\n<dd>Monday 2 March 2026 at 10:00 am ACDT (Australia/Adelaide)</dd>",
		"<dt>Where</dt>\n<dd>Adelaide</dd>",
		`<a href="?day=2026-03-02&amp;from=2026-03-02&amp;practitioner=any&amp;service=`+e.a.Consult.ID+`">Choose another time</a>`,
		`<form method="post" novalidate>`,
		`<input type="hidden" name="slot" value="`+slot+`">`,
		`<label class="question-label" for="first-name">First name <span class="required">(required)</span></label>`,
		`<input type="text" id="first-name" name="first_name" value="" autocomplete="given-name" aria-required="true">`,
		`<input type="text" id="last-name" name="last_name" value="" autocomplete="family-name" aria-required="true">`,
		`<input type="email" id="email" name="email" value="" autocomplete="email" aria-describedby="email-hint" aria-required="true">`,
		`<label class="question-label" for="phone">Phone number</label>`,
		`<input type="tel" id="phone" name="phone" value="" autocomplete="tel" aria-describedby="phone-hint">`,
		`<button type="submit" name="action" value="book" class="primary">Confirm booking</button>`)

	// A time the page does not list is not offered: it shows the week
	// again, saying the time was taken.
	for _, bad := range []string{slotValue(e.a.Alice.ID, "2026-03-01T23:40:00Z"), "nonsense"} {
		r = e.page("GET", e.times(e.a.Consult.ID, "any", "")+"&slot="+url.QueryEscape(bad), nil, nil)
		wantStatus(t, r, http.StatusConflict)
		wantInPage(t, r, `<div class="notice taken" role="alert" id="taken"><p><strong>Sorry, that time was just taken.</strong>`,
			`<form method="get" novalidate>`)
	}
}

func TestBookingCreatesTheClientTheAppointmentAndItsAttendee(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	slot := slotValue(e.a.Alice.ID, at1000)
	r := e.page("POST", e.bookPath(), e.booking(slot, "Dana.Diaz@Example.org"), nil)
	wantStatus(t, r, http.StatusOK)
	wantPageHeaders(t, r)
	wantInPage(t, r, `<title>Booking confirmed – Adelaide – Clinic A</title>`, `<h1>Booking confirmed</h1>`,
		`<div class="notice" role="status" id="confirmation"><p>Your appointment is booked.</p></div>`,
		"<dt>Service</dt>\n<dd>Consultation, 30 minutes</dd>", "<dt>With</dt>\n<dd>Alice Nguyen</dd>",
		"<dt>When</dt>\n<dd>Monday 2 March 2026 at 10:00 am ACDT (Australia/Adelaide)</dd>",
		"<dt>Name</dt>\n<dd>Dana Diaz</dd>", "<dt>E-mail address</dt>\n<dd>Dana.Diaz@Example.org</dd>",
		"<p>To change or cancel this booking, contact Clinic A.</p>")

	apts := e.appointmentsAt("")
	if len(apts) != 1 {
		t.Fatalf("%d appointments, want 1", len(apts))
	}
	a := apts[0]
	for k, v := range map[string]any{"location_id": e.a.Adelaide.ID, "practitioner_id": e.a.Alice.ID, "service_id": e.a.Consult.ID,
		"starts_at": at1000, "ends_at": at1030, "duration": float64(30), "max_clients": float64(1), "notes": "",
		"cancelled_at": nil, "created_at": clock} {
		wantField(t, a, k, v)
	}
	ids := a["appointment_client_ids"].([]any)
	if len(ids) != 1 {
		t.Fatalf("appointment_client_ids %v", ids)
	}
	ac := e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+ids[0].(string), nil)
	wantField(t, ac, "appointment_id", a["id"])
	wantField(t, ac, "status", "booked")
	wantField(t, ac, "starts_at", at1000)
	wantField(t, ac, "note", "Booked online by Dana Diaz <Dana.Diaz@Example.org>, phone +61412345678.")
	c := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+ac["client_id"].(string), nil)
	for k, v := range map[string]any{"first_name": "Dana", "last_name": "Diaz", "email": "Dana.Diaz@Example.org",
		"phone_number": "+61412345678", "consent_method": "online_booking", "privacy_policy_consent": nil, "created_at": clock} {
		wantField(t, c, k, v)
	}
	// The change feed has every record, in the order written.
	var types []string
	for _, ev := range e.mustAPI(http.StatusOK, "GET", "/v1/events?limit=100&since="+clock, nil)["data"].([]any) {
		types = append(types, ev.(map[string]any)["type"].(string))
	}
	if want := []string{"client.created", "appointment.created", "appointment.booked", "appointment_client.created"}; !slices.Equal(types[len(types)-4:], want) {
		t.Errorf("events %v, want them to end with %v", types, want)
	}
	// The time is gone from the page.
	r = e.page("GET", e.times(e.a.Consult.ID, "", ""), nil, nil)
	if slices.Contains(slotsOnPage(r.Body), slot) {
		t.Errorf("the booked time is still offered")
	}
}

func TestBookingFindsTheClientByEmailIgnoringCase(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	ann, ben := e.a.Clients[0], e.a.Clients[1]
	e.mustAPI(http.StatusOK, "POST", "/v1/clients/"+ben.ID+"/archive", nil)
	before := len(e.clientsMatching("@example.com"))

	form := e.booking(slotValue(e.a.Alice.ID, at1000), "  ANN@EXAMPLE.COM ")
	form.Set("first_name", "Annabel")
	wantStatus(t, e.page("POST", e.bookPath(), form, nil), http.StatusOK)
	ac := e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+e.appointmentsAt(at1000)[0]["appointment_client_ids"].([]any)[0].(string), nil)
	wantField(t, ac, "client_id", ann.ID)
	wantField(t, ac, "note", "Booked online by Annabel Diaz <ANN@EXAMPLE.COM>, phone +61412345678.")
	// The page never changes an existing client's record.
	got := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+ann.ID, nil)
	for k, v := range map[string]any{"first_name": "Ann", "last_name": "Archer", "email": "Ann@example.com", "phone_number": "",
		"consent_method": nil, "updated_at": ann.UpdatedAt.Format("2006-01-02T15:04:05Z")} {
		wantField(t, got, k, v)
	}
	// An archived client is not found: the booking makes a new client.
	wantStatus(t, e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1030), "ben@example.com"), nil), http.StatusOK)
	ac = e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+e.appointmentsAt(at1030)[0]["appointment_client_ids"].([]any)[0].(string), nil)
	if ac["client_id"] == ben.ID {
		t.Errorf("the booking went to the archived client")
	}
	if after := len(e.clientsMatching("@example.com")); after != before+1 {
		t.Errorf("%d clients with the domain, want %d", after, before+1)
	}
}

func TestBookingDetailsAreCheckedAndKept(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	slot := slotValue(e.a.Alice.ID, at1000)
	for _, tc := range []struct {
		name   string
		change map[string]string
		want   []string
	}{
		{"nothing entered", map[string]string{"first_name": "", "last_name": " ", "email": "", "phone": ""}, []string{
			`<li><a href="#first-name">First name: Enter your first name.</a></li>`,
			`<li><a href="#last-name">Last name: Enter your last name.</a></li>`,
			`<li><a href="#email">E-mail address: Enter your e-mail address.</a></li>`,
			`<input type="text" id="first-name" name="first_name" value="" autocomplete="given-name" aria-describedby="first-name-error" aria-invalid="true" aria-required="true">`,
			`<p class="error-message" id="first-name-error"><span class="visually-hidden">Error:</span> Enter your first name.</p>`,
			`<input type="email" id="email" name="email" value="" autocomplete="email" aria-describedby="email-hint email-error" aria-invalid="true" aria-required="true">`,
		}},
		{"not an e-mail address", map[string]string{"email": "dana@"}, []string{
			`<li><a href="#email">E-mail address: Enter an e-mail address such as name@example.com.</a></li>`,
			`value="dana@"`, `value="Dana"`, `value="Diaz"`, `value="0412 345 678"`,
		}},
		{"not a phone number", map[string]string{"phone": "call me"}, []string{
			`<li><a href="#phone">Phone number: Enter a phone number such as 0412 345 678, or with its country code, such as &#43;61 412 345 678, or leave it empty.</a></li>`,
			`<input type="tel" id="phone" name="phone" value="call me" autocomplete="tel" aria-describedby="phone-hint phone-error" aria-invalid="true">`,
		}},
		{"too long", map[string]string{"last_name": strings.Repeat("é", 256)}, []string{
			`<li><a href="#last-name">Last name: Use at most 255 characters for your last name (this has 256).</a></li>`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := e.booking(slot, "dana@example.org")
			for k, v := range tc.change {
				form.Set(k, v)
			}
			r := e.page("POST", e.bookPath(), form, nil)
			wantStatus(t, r, http.StatusUnprocessableEntity)
			wantInPage(t, r, append(tc.want, `<title>Error: Your details – Adelaide – Clinic A</title>`,
				`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" id="error-summary">`,
				`<input type="hidden" name="slot" value="`+slot+`">`)...)
		})
	}
	if n := len(e.appointmentsAt("")); n != 0 {
		t.Errorf("%d appointments booked", n)
	}
}

// A time booked by someone else between showing the details form and
// sending it: the page says so, offers the fresh times and keeps the
// details, and the practitioner is not double-booked.
func TestBookingATimeTakenMeanwhileOffersOtherTimesKeepingTheDetails(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	slot := slotValue(e.a.Alice.ID, at1000)
	wantStatus(t, e.page("GET", e.times(e.a.Consult.ID, "any", "")+"&slot="+url.QueryEscape(slot), nil, nil), http.StatusOK)
	e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": e.a.Adelaide.ID,
		"service_id": e.a.Consult.ID, "starts_at": at1000, "clients": []any{map[string]any{"client_id": e.a.Clients[1].ID}}})

	form := e.booking(slot, "dana@example.org")
	r := e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusConflict)
	wantInPage(t, r, `<title>Choose another time – Adelaide – Clinic A</title>`,
		`<div class="notice taken" role="alert" id="taken"><p><strong>Sorry, that time was just taken.</strong> Someone else booked it a moment ago. Please choose another time; your details are kept.</p></div>`,
		`<form method="post" novalidate>`,
		`<legend><h2>Your details</h2></legend>`,
		`name="first_name" value="Dana"`, `name="last_name" value="Diaz"`, `name="email" value="dana@example.org"`, `name="phone" value="0412 345 678"`,
		`<button type="submit" name="action" value="book" class="primary">Confirm booking</button>`,
		`<button type="submit" name="week" value="2026-03-09">Next week</button>`)
	offered := slotsOnPage(r.Body)
	if slices.Contains(offered, slot) || !slices.Contains(offered, slotValue(e.a.Alice.ID, at1030)) {
		t.Errorf("offered %v", offered)
	}
	if apts := e.appointmentsAt(at1000); len(apts) != 1 {
		t.Errorf("%d appointments at 10:00, want 1", len(apts))
	}
	if c := e.clientsMatching("dana@example.org"); len(c) != 0 {
		t.Errorf("a client was created: %v", c)
	}

	// Another week, then another time, from the same form.
	form.Set("week", "2026-03-09")
	r = e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "Times from Monday 9 March to Sunday 15 March 2026</h2>", `name="email" value="dana@example.org"`,
		`<button type="submit" name="week" value="2026-03-02">Earlier times</button>`)
	wantNotInPage(t, r, `id="taken"`)
	form.Del("week")
	form.Set("slot", "")
	r = e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusUnprocessableEntity)
	wantInPage(t, r, `<li><a href="#slot-1">Time: Choose a time.</a></li>`, `name="email" value="dana@example.org"`)
	form.Set("slot", slotValue(e.a.Alice.ID, at1030))
	r = e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "<dd>Monday 2 March 2026 at 10:30 am ACDT (Australia/Adelaide)</dd>")
}

func TestBookingSentTwiceBooksOnce(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	form := e.booking(slotValue(e.a.Alice.ID, at1000), "dana@example.org")
	wantStatus(t, e.page("POST", e.bookPath(), form, nil), http.StatusOK)
	r := e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `<p>You had already booked this time, so nothing was changed.</p>`,
		"<dd>Monday 2 March 2026 at 10:00 am ACDT (Australia/Adelaide)</dd>")
	if n := len(e.appointmentsAt("")); n != 1 {
		t.Errorf("%d appointments, want 1", n)
	}
	if n := len(e.clientsMatching("dana@example.org")); n != 1 {
		t.Errorf("%d clients, want 1", n)
	}
	// Someone else sending the same time is refused.
	r = e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1000), "eve@example.org"), nil)
	wantStatus(t, r, http.StatusConflict)
}

// The page accepts only the times it lists (rule 7); staff may book
// anything through the API, the page may not.
func TestBookingAcceptsOnlyListedTimes(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	e.mustAPI(http.StatusOK, "POST", "/v1/services/"+e.a.Consult.ID, map[string]any{"booking_horizon_days": 30})
	for _, tc := range []struct{ name, slot string }{
		{"off the grid (10:10)", slotValue(e.a.Alice.ID, "2026-03-01T23:40:00Z")},
		{"after closing (18:00)", slotValue(e.a.Alice.ID, "2026-03-02T07:30:00Z")},
		{"ending after closing (17:45)", slotValue(e.a.Alice.ID, "2026-03-02T07:15:00Z")},
		{"in the past (8:00 today)", slotValue(e.a.Alice.ID, "2026-03-01T21:30:00Z")},
		{"yesterday", slotValue(e.a.Alice.ID, "2026-02-28T23:30:00Z")},
		{"beyond the 30-day horizon", slotValue(e.a.Alice.ID, "2026-04-02T23:30:00Z")},
		{"a practitioner who does not work here", slotValue(e.a.Bob.ID, at1000)},
		{"another clinic's practitioner", slotValue(e.b.Alice.ID, at1000)},
		{"not a time", e.a.Alice.ID + "@tomorrow"},
		{"not a slot", "nonsense"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.page("POST", e.bookPath(), e.booking(tc.slot, "dana@example.org"), nil)
			wantStatus(t, r, http.StatusConflict)
			wantInPage(t, r, `id="taken"`)
		})
	}
	if n := len(e.appointmentsAt("")); n != 0 {
		t.Errorf("%d appointments booked", n)
	}
	if n := len(e.clientsMatching("dana@example.org")); n != 0 {
		t.Errorf("%d clients created", n)
	}
	// The last day of the horizon is offered.
	wantStatus(t, e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, "2026-04-01T00:00:00Z"), "dana@example.org"), nil), http.StatusOK)
}

func TestBookingRefusesPostsFromOtherSites(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	form := e.booking(slotValue(e.a.Alice.ID, at1000), "dana@example.org")
	for _, h := range []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Sec-Fetch-Site": {"same-site"}},
		{"Origin": {"https://evil.example"}},
	} {
		r := e.page("POST", e.bookPath(), form, h)
		wantStatus(t, r, http.StatusForbidden)
		wantInPage(t, r, "<h1>This booking was refused</h1>", "nothing was booked")
		wantPageHeaders(t, r)
	}
	if n := len(e.appointmentsAt("")); n != 0 {
		t.Errorf("%d appointments booked", n)
	}
	r := e.page("POST", e.bookPath(), form, http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {e.srv.URL}})
	wantStatus(t, r, http.StatusOK)
}

// A group place is booked by joining its appointment; a full group is
// no longer offered.
func TestBookingAGroupPlaceJoinsTheAppointment(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	adl := e.a.Adelaide.ID
	e.mustAPI(http.StatusOK, "POST", "/v1/services/"+e.a.Group.ID, map[string]any{"online_booking": true,
		"location_ids": []string{e.a.Sydney.ID, adl}})
	const at1010 = "2026-03-01T23:40:00Z"
	group := e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": adl,
		"service_id": e.a.Group.ID, "starts_at": at1010, "clients": []any{map[string]any{"client_id": e.a.Clients[0].ID}}})
	slot := slotValue(e.a.Alice.ID, at1010)
	r := e.page("GET", e.times(e.a.Group.ID, "", ""), nil, nil)
	if !slices.Contains(slotsOnPage(r.Body), slot) {
		t.Fatalf("the group place is not offered: %v", slotsOnPage(r.Body))
	}
	form := e.booking(slot, "dana@example.org")
	form.Set("service", e.a.Group.ID)
	r = e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "<dd>Pilates class, 1 hour</dd>", "<dd>Monday 2 March 2026 at 10:10 am ACDT (Australia/Adelaide)</dd>")
	apts := e.appointmentsAt("")
	if len(apts) != 1 || apts[0]["id"] != group["id"] || len(apts[0]["appointment_client_ids"].([]any)) != 2 {
		t.Fatalf("appointments %v", apts)
	}
	// Two more fill the four places; the time is then gone.
	for _, email := range []string{"ben@example.com", "cat@example.com"} {
		form.Set("email", email)
		wantStatus(t, e.page("POST", e.bookPath(), form, nil), http.StatusOK)
	}
	r = e.page("GET", e.times(e.a.Group.ID, "", ""), nil, nil)
	if slices.Contains(slotsOnPage(r.Body), slot) {
		t.Errorf("the full group is offered")
	}
	form.Set("email", "eve@example.org")
	wantStatus(t, e.page("POST", e.bookPath(), form, nil), http.StatusConflict)
	if n := len(e.mustAPI(http.StatusOK, "GET", "/v1/appointments/"+group["id"].(string), nil)["appointment_client_ids"].([]any)); n != 4 {
		t.Errorf("%d attendees, want 4", n)
	}
}

// Ten people sending the same time at once: one is booked, nine are told
// it was taken, on either store.
func TestBookingOneTimeSentTenTimesAtOnceBooksOnce(t *testing.T) {
	t.Parallel()
	for _, store := range []struct {
		name string
		open func(testing.TB) *sqlstore.Store
	}{{"sqlite", testfix.SQLiteStore}, {"postgres", testfix.PostgresStore}} {
		t.Run(store.name, func(t *testing.T) {
			t.Parallel()
			e := bookingEnvOf(t, newEnvOn(t, store.open(t)))
			slot := slotValue(e.a.Alice.ID, at1100)
			statuses := make([]int, 10)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range statuses {
				wg.Go(func() {
					<-start
					statuses[i] = e.page("POST", e.bookPath(), e.booking(slot, fmt.Sprintf("racer%d@example.org", i)), nil).Status
				})
			}
			close(start)
			wg.Wait()
			counts := map[int]int{}
			for _, s := range statuses {
				counts[s]++
			}
			if counts[http.StatusOK] != 1 || counts[http.StatusConflict] != 9 {
				t.Errorf("statuses %v, want one 200 and nine 409", counts)
			}
			apts := e.appointmentsAt(at1100)
			if len(apts) != 1 || len(apts[0]["appointment_client_ids"].([]any)) != 1 {
				t.Errorf("appointments at 11:00: %v", apts)
			}
			if n := len(e.clientsMatching("racer")); n != 1 {
				t.Errorf("%d clients created, want 1", n)
			}
		})
	}
}

// The times page shows one day of the week: a row of the week's days,
// each with its number of times, opening on the first day with times;
// a day link shows another day, and a day without times is not a link.
func TestBookingPageShowsOneDayAtATime(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	e.mustAPI(http.StatusCreated, "POST", "/v1/busy_times", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": e.a.Adelaide.ID,
		"starts_at": "2026-03-02T00:00:00+10:30", "ends_at": "2026-03-04T00:00:00+10:30"})
	r := e.page("GET", e.times(e.a.Consult.ID, "", ""), nil, nil)
	wantStatus(t, r, http.StatusOK)
	link := func(day, weekday, date, count string, current bool) string {
		attr := ""
		if current {
			attr = ` aria-current="true"`
		}
		return `<a class="day-link" href="?day=` + day + `&amp;from=2026-03-02&amp;practitioner=any&amp;service=` + e.a.Consult.ID +
			`#times-title"` + attr + `><span class="weekday">` + weekday + `</span> <span class="date">` + date +
			`</span> <span class="count">` + count + `<span class="unit"> times</span></span></a>`
	}
	wantInPage(t, r, `<nav class="days" aria-label="Days of the week">`,
		`<span class="day-link none"><span class="weekday">Mon</span> <span class="date">2 Mar</span> <span class="count">none</span></span>`,
		`<span class="day-link none"><span class="weekday">Tue</span> <span class="date">3 Mar</span> <span class="count">none</span></span>`,
		link("2026-03-04", "Wed", "4 Mar", "20", true), link("2026-03-08", "Sun", "8 Mar", "20", false),
		`<fieldset class="day" id="day-2026-03-04">`, `<legend>Wednesday 4 March 2026</legend>`,
		`<input type="hidden" name="day" value="2026-03-04">`,
		`<label for="slot-1">8:00 am</label>`, `<label for="slot-20">5:30 pm</label>`)
	wantNotInPage(t, r, `id="day-2026-03-05"`, `id="slot-21"`)

	r = e.page("GET", e.times(e.a.Consult.ID, "", "")+"&day=2026-03-05", nil, nil)
	wantInPage(t, r, `<fieldset class="day" id="day-2026-03-05">`, `<input type="hidden" name="day" value="2026-03-05">`,
		link("2026-03-04", "Wed", "4 Mar", "20", false), link("2026-03-05", "Thu", "5 Mar", "20", true))
	// A day without times, or outside the week, opens the first with times.
	for _, day := range []string{"2026-03-02", "2026-03-09", "not a date"} {
		r = e.page("GET", e.times(e.a.Consult.ID, "", "")+"&day="+url.QueryEscape(day), nil, nil)
		wantInPage(t, r, `<fieldset class="day" id="day-2026-03-04">`)
	}
	// Continuing without a time keeps the day.
	r = e.page("GET", e.times(e.a.Consult.ID, "", "")+"&day=2026-03-06&step=details", nil, nil)
	wantStatus(t, r, http.StatusUnprocessableEntity)
	wantInPage(t, r, `<fieldset class="day" id="day-2026-03-06">`, `<li><a href="#slot-1">Time: Choose a time.</a></li>`)
}

// With any practitioner, a time whose practitioner is taken meanwhile
// goes to the next practitioner free then, in id order; with a
// practitioner chosen, or with nobody free, it is taken.
func TestBookingAnyPractitionerGoesToTheNextOneFree(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	adl := e.a.Adelaide.ID
	carol := e.mustAPI(http.StatusCreated, "POST", "/v1/practitioners", map[string]any{"first_name": "Carol", "last_name": "Chen",
		"location_ids": []string{adl}, "service_ids": []string{e.a.Consult.ID},
		"working_hours": []any{map[string]any{"location_id": adl, "day": "monday", "starts_at": "12:00", "ends_at": "15:00"}}})
	const at1300 = "2026-03-02T02:30:00Z"
	slot := slotValue(e.a.Alice.ID, at1300)
	r := e.page("GET", e.times(e.a.Consult.ID, "", ""), nil, nil)
	if offered := slotsOnPage(r.Body); !slices.Contains(offered, slot) {
		t.Fatalf("1:00 pm is not offered as Alice's: %v", offered)
	}
	e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"practitioner_id": e.a.Alice.ID, "location_id": adl,
		"service_id": e.a.Consult.ID, "starts_at": at1300, "clients": []any{map[string]any{"client_id": e.a.Clients[0].ID}}})

	// Alice chosen: the time is taken.
	form := e.booking(slot, "dana@example.org")
	form.Set("practitioner", e.a.Alice.ID)
	wantStatus(t, e.page("POST", e.bookPath(), form, nil), http.StatusConflict)
	// The details step, then the booking, go to Carol.
	r = e.page("GET", e.times(e.a.Consult.ID, "any", "")+"&step=details&slot="+url.QueryEscape(slot), nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "<dt>With</dt>\n<dd>Carol Chen</dd>", `<input type="hidden" name="slot" value="`+slotValue(carol["id"].(string), at1300)+`">`)
	r = e.page("POST", e.bookPath(), e.booking(slot, "dana@example.org"), nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "<dt>With</dt>\n<dd>Carol Chen</dd>", "<dd>Monday 2 March 2026 at 1:00 pm ACDT (Australia/Adelaide)</dd>")
	// Sent again, it is the same booking.
	r = e.page("POST", e.bookPath(), e.booking(slot, "dana@example.org"), nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "You had already booked this time", "<dt>With</dt>\n<dd>Carol Chen</dd>")
	// Nobody is free then: the time is taken.
	r = e.page("POST", e.bookPath(), e.booking(slot, "eve@example.org"), nil)
	wantStatus(t, r, http.StatusConflict)
	wantInPage(t, r, `id="taken"`, `<fieldset class="day" id="day-2026-03-02">`)
	apts := e.appointmentsAt(at1300)
	if len(apts) != 2 {
		t.Fatalf("%d appointments at 1:00 pm, want 2", len(apts))
	}
	for _, a := range apts {
		if a["practitioner_id"] != e.a.Alice.ID && a["practitioner_id"] != carol["id"] {
			t.Errorf("appointment of %v", a["practitioner_id"])
		}
	}
}

// The confirmation names the location to contact, by its phone and
// e-mail address, in a sentence.
func TestBookingConfirmationSaysWhomToContact(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	loc := e.mustAPI(http.StatusOK, "POST", "/v1/locations/"+e.a.Adelaide.ID, map[string]any{"phone": "08 5550 0140", "email": "adelaide@example.com"})
	r := e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1000), "dana@example.org"), nil)
	wantStatus(t, r, http.StatusOK)
	if loc["phone"] != "+61855500140" {
		t.Fatalf("the location's phone is stored as %v, want +61855500140", loc["phone"])
	}
	wantInPage(t, r, "<p>To change or cancel this booking, call Adelaide on (08) 5550 0140 or e-mail adelaide@example.com.</p>")
	e.mustAPI(http.StatusOK, "POST", "/v1/locations/"+e.a.Adelaide.ID, map[string]any{"phone": nil})
	r = e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1030), "dana@example.org"), nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, "<p>To change or cancel this booking, e-mail Adelaide at adelaide@example.com.</p>")
}

// In the form that keeps the details, the days are buttons after
// Confirm booking (so that Enter in a field books), and keep the details.
func TestBookingTakenTimeFormShowsAnotherDay(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	form := e.booking(slotValue(e.a.Alice.ID, "2026-03-01T23:40:00Z"), "dana@example.org")
	r := e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusConflict)
	confirm := strings.Index(r.Body, `value="book"`)
	day := strings.Index(r.Body, `<button type="submit" class="day-link" name="show_day" value="2026-03-04">`)
	if confirm < 0 || day < confirm {
		t.Errorf("Confirm booking at %d, the day button at %d", confirm, day)
	}
	form.Set("show_day", "2026-03-04")
	r = e.page("POST", e.bookPath(), form, nil)
	wantStatus(t, r, http.StatusOK)
	wantInPage(t, r, `<fieldset class="day" id="day-2026-03-04">`, `<input type="hidden" name="day" value="2026-03-04">`,
		`name="email" value="dana@example.org"`)
	wantNotInPage(t, r, `id="taken"`)
}

// TestBookingOneAddressIsCappedPerDay books up to the location's cap
// from one e-mail address; the next is refused and books nothing, while
// another address still books, and a cancelled booking frees its place.
func TestBookingOneAddressIsCappedPerDay(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	e.mustAPI(http.StatusOK, "POST", "/v1/locations/"+e.a.Adelaide.ID, map[string]any{"online_bookings_per_email_per_day": 2, "phone": "08 5550 0100"})
	for _, at := range []string{at1000, at1030} {
		wantStatus(t, e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at), "eve@example.org"), nil), http.StatusOK)
	}
	r := e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1100), "EVE@example.org"), nil)
	wantStatus(t, r, http.StatusTooManyRequests)
	wantInPage(t, r, "<h1>No more online bookings today</h1>",
		"Adelaide takes at most 2 online bookings a day from one e-mail address, and this one has made them. To book another appointment, call Adelaide on (08) 5550 0100.")
	if n := len(e.appointmentsAt(at1100)); n != 0 {
		t.Fatalf("the refused booking made %d appointments", n)
	}
	wantStatus(t, e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1100), "fay@example.org"), nil), http.StatusOK)

	// A booking cancelled no longer counts.
	first := e.appointmentsAt(at1000)[0]["appointment_client_ids"].([]any)[0].(string)
	e.mustAPI(http.StatusOK, "POST", "/v1/appointment_clients/"+first, map[string]any{"status": "cancelled", "cancellation_note": "Booked twice"})
	wantStatus(t, e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1000), "eve@example.org"), nil), http.StatusOK)
}

// TestBookingIsConfirmedByEmail books through the page on a server that
// e-mails clients: the booking's confirmation is queued at once, without
// the page asking. The time is an hour and a half away, so no reminder
// a day before it can be sent.
func TestBookingIsConfirmedByEmail(t *testing.T) {
	t.Parallel()
	st := testfix.Store(t)
	var e *env
	st.EnableMessages("https://clinic.example.org", func() time.Time { return e.now() })
	e = bookingEnvOf(t, newEnvOn(t, st))
	r := e.page("POST", e.bookPath(), e.booking(slotValue(e.a.Alice.ID, at1000), "dana@example.org"), nil)
	wantStatus(t, r, http.StatusOK)
	var got []string
	for _, m := range e.mustAPI(http.StatusOK, "GET", "/v1/messages?limit=100", nil)["data"].([]any) {
		m := m.(map[string]any)
		got = append(got, fmt.Sprintf("%s to %s at %s", m["kind"], m["to"], m["send_after"]))
	}
	want := []string{"confirmation to dana@example.org at " + clock}
	if !slices.Equal(got, want) {
		t.Errorf("messages %q, want %q", got, want)
	}
}
