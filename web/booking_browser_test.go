package web_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBookingInARealBrowser books online in headless Chromium as a
// client would: a service, a time, then the details typed with the
// keyboard alone, a missing e-mail address pointed out and reached from
// the error summary's link, the confirmation; the API then shows the booking.
func TestBookingInARealBrowser(t *testing.T) {
	ctx := newBrowser(t)
	e := newBookingEnv(t)
	slot := slotValue(e.a.Alice.ID, at1000)

	err := chromedp.Do(ctx,
		chromedp.Navigate(e.srv.URL+e.bookPath()),
		chromedp.WaitVisible(chromedp.CSS(`#service-1`)),
	)
	if err != nil {
		t.Fatalf("opening the booking page: %v", err)
	}
	if title := run(t, ctx, chromedp.Title()); title != "Book an appointment – Adelaide – Clinic A" {
		t.Errorf("title %q", title)
	}
	if header := run(t, ctx, chromedp.Text(chromedp.CSS(`header`))); !strings.Contains(header, "Clinic A") || !strings.Contains(header, "Adelaide") {
		t.Errorf("header %q", header)
	}

	// The service and the time, chosen with the keyboard: Space ticks a
	// radio, Enter sends its form.
	err = chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`#service-1`)),
		chromedp.KeyEvent(" "),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#times-title`)),
		chromedp.Focus(chromedp.CSS(`input[name="slot"][value="`+slot+`"]`)),
		chromedp.KeyEvent(" "),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#first-name`)),
	)
	if err != nil {
		t.Fatalf("choosing the service and the time: %v", err)
	}
	if when := run(t, ctx, chromedp.Text(chromedp.CSS(`#summary`))); !strings.Contains(when, "Monday 2 March 2026 at 10:00 am ACDT (Australia/Adelaide)") {
		t.Errorf("summary %q", when)
	}

	// The details, typed field after field with Tab; the e-mail address
	// is left out, and Enter sends the form.
	err = chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`#first-name`)),
		chromedp.KeyEvent("Dana"),
		chromedp.KeyEvent("\t"),
		chromedp.KeyEvent("Diaz"),
		chromedp.KeyEvent("\t"),
		chromedp.KeyEvent("\t"),
		chromedp.KeyEvent("0412 345 678"),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#error-summary`)),
	)
	if err != nil {
		t.Fatalf("sending the details without an e-mail address: %v", err)
	}
	if problems := run(t, ctx, chromedp.Text(chromedp.CSS(`#error-summary`))); !strings.Contains(problems, "E-mail address: Enter your e-mail address.") {
		t.Errorf("error summary %q", problems)
	}
	if v := run(t, ctx, chromedp.Value(chromedp.CSS(`#first-name`))); v != "Dana" {
		t.Errorf("first name kept as %q", v)
	}
	// The summary's link takes the focus to the field. (It is clicked:
	// a synthetic Enter would go on to the field it focuses and send the
	// form again.)
	err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#error-summary a`)))
	if err != nil {
		t.Fatal(err)
	}
	if id := focused(t, ctx, "email"); id != "email" {
		t.Fatalf("the error summary's link focused %q, want email", id)
	}
	err = chromedp.Do(ctx,
		chromedp.KeyEvent("dana@example.org"),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#confirmation`)),
	)
	if err != nil {
		t.Fatalf("confirming: %v", err)
	}
	if title := run(t, ctx, chromedp.Title()); title != "Booking confirmed – Adelaide – Clinic A" {
		t.Errorf("title %q", title)
	}
	summary := run(t, ctx, chromedp.Text(chromedp.CSS(`#summary`)))
	for _, want := range []string{"Consultation, 30 minutes", "Alice Nguyen", "Monday 2 March 2026 at 10:00 am ACDT (Australia/Adelaide)", "Dana Diaz", "dana@example.org"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the confirmation lacks %q: %q", want, summary)
		}
	}

	apts := e.appointmentsAt(at1000)
	if len(apts) != 1 {
		t.Fatalf("%d appointments at 10:00, want 1", len(apts))
	}
	ac := e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+apts[0]["appointment_client_ids"].([]any)[0].(string), nil)
	c := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+ac["client_id"].(string), nil)
	wantField(t, c, "email", "dana@example.org")
	wantField(t, c, "phone_number", "+61412345678")
	wantField(t, c, "consent_method", "online_booking")
}

// focused waits up to five seconds for the element with the id to have
// the focus (following a link to a fragment moves it after the key
// event is handled), and returns the id of the element that has it.
func focused(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	var got string
	for range 250 {
		got, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`))
		if got == id {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return got
}

// TestBookingTheSameTimeInTwoBrowsersAtOnce has two people, each in a
// browser context of their own, choose the same time and confirm
// together: one is booked, the other is told the time was just taken and
// offered fresh times with the details kept; the API shows one
// appointment then.
func TestBookingTheSameTimeInTwoBrowsersAtOnce(t *testing.T) {
	first := newBrowser(t)
	e := newBookingEnv(t)
	slot := slotValue(e.a.Alice.ID, at1030)
	if err := chromedp.Do(first, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	second, cancel := chromedp.NewContext(first, chromedp.WithNewBrowserContext())
	defer cancel()

	people := []struct {
		ctx   context.Context
		email string
	}{{first, "first@example.org"}, {second, "second@example.org"}}
	for _, p := range people {
		err := chromedp.Do(p.ctx,
			chromedp.Navigate(e.srv.URL+e.times(e.a.Consult.ID, "", "")),
			chromedp.Click(chromedp.CSS(`input[name="slot"][value="`+slot+`"]`)),
			chromedp.Click(chromedp.CSS(`form[method="get"]:not(.filter) button.primary`)),
			chromedp.WaitVisible(chromedp.CSS(`#first-name`)),
			chromedp.SendKeys(chromedp.CSS(`#first-name`), "Pat"),
			chromedp.SendKeys(chromedp.CSS(`#last-name`), "Lee"),
			chromedp.SendKeys(chromedp.CSS(`#email`), p.email),
		)
		if err != nil {
			t.Fatalf("%s choosing the time: %v", p.email, err)
		}
	}

	outcome := make([]string, len(people))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, p := range people {
		wg.Go(func() {
			<-start
			err := chromedp.Do(p.ctx,
				chromedp.Click(chromedp.CSS(`button[value="book"]`)),
				chromedp.WaitVisible(chromedp.CSS(`#confirmation, #taken`)),
			)
			if err != nil {
				t.Errorf("%s confirming: %v", p.email, err)
				return
			}
			outcome[i], err = chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector("#confirmation") ? "booked" : "taken"`))
			if err != nil {
				t.Error(err)
			}
		})
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		return
	}
	if sorted := slices.Sorted(slices.Values(outcome)); !slices.Equal(sorted, []string{"booked", "taken"}) {
		t.Fatalf("outcomes %v, want one booked and one taken", outcome)
	}
	loser := people[slices.Index(outcome, "taken")]
	message := run(t, loser.ctx, chromedp.Text(chromedp.CSS(`#taken`)))
	if !strings.Contains(message, "that time was just taken") {
		t.Errorf("message %q", message)
	}
	offered, err := chromedp.Run(loser.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('input[name="slot"]')].map(i => i.value)`))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(offered, slot) || !slices.Contains(offered, slotValue(e.a.Alice.ID, at1100)) {
		t.Errorf("the fresh times are %v", offered)
	}
	if v := run(t, loser.ctx, chromedp.Value(chromedp.CSS(`#email`))); v != loser.email {
		t.Errorf("the e-mail address kept is %q, want %q", v, loser.email)
	}

	apts := e.appointmentsAt(at1030)
	if len(apts) != 1 || len(apts[0]["appointment_client_ids"].([]any)) != 1 {
		t.Fatalf("appointments at 10:30: %v", apts)
	}
	ac := e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+apts[0]["appointment_client_ids"].([]any)[0].(string), nil)
	c := e.mustAPI(http.StatusOK, "GET", "/v1/clients/"+ac["client_id"].(string), nil)
	if c["email"] == loser.email {
		t.Errorf("the appointment went to %v, who was told the time was taken", c["email"])
	}
}

// updateLayout rewrites the booking page's reference layouts in
// testdata from what Chromium lays out now.
var updateLayout = flag.Bool("update-layout", false, "rewrite web/testdata/booking-layout-*.json from the current layout")

// screens are the windows the booking page is laid out for: a phone and
// a laptop.
var screens = []struct {
	name          string
	width, height int64
	phone         bool
}{{"phone", 390, 844, true}, {"desktop", 1280, 800, false}}

// box is an element's place on the page, in CSS pixels from the top left
// of the document.
type box struct {
	X, Y, W, H int
}

// layout is what the layout test measures of a page of times.
type layout struct {
	ScrollWidth int            `json:"scroll_width"`
	InnerWidth  int            `json:"inner_width"`
	InnerHeight int            `json:"inner_height"`
	Height      int            `json:"height"`
	Button      box            `json:"button_in_viewport"`
	SlotColumns int            `json:"slot_columns"`
	DayRows     int            `json:"day_rows"`
	Days        int            `json:"days"`
	Boxes       map[string]box `json:"boxes"`
}

// measure reads the layout of the page shown, scrolled to the top.
const measure = `(() => {
	scrollTo(0, 0);
	const rect = e => { const r = e.getBoundingClientRect(); return {X: Math.round(r.x), Y: Math.round(r.y + scrollY), W: Math.round(r.width), H: Math.round(r.height)}; };
	const boxes = {};
	for (const s of ["header", "h1", "form.filter", "#times-title", "nav.days", ".slots", ".slots .option", "nav.weeks", "footer"]) {
		const e = document.querySelector(s);
		if (e) boxes[s] = rect(e);
	}
	const b = document.querySelector("button.primary").getBoundingClientRect();
	const distinct = (sel, f) => new Set([...document.querySelectorAll(sel)].map(e => Math.round(f(e.getBoundingClientRect())))).size;
	return {
		scroll_width: document.documentElement.scrollWidth, inner_width: innerWidth, inner_height: innerHeight,
		height: document.documentElement.scrollHeight,
		button_in_viewport: {X: Math.round(b.x), Y: Math.round(b.y), W: Math.round(b.width), H: Math.round(b.height)},
		slot_columns: distinct(".slots .option", r => r.x), day_rows: distinct(".days li", r => r.y),
		days: document.querySelectorAll(".days li").length, boxes,
	};
})()`

// TestBookingPageLayoutOnAPhoneAndADesktop opens a day of times in
// Chromium at 390 × 844 and 1280 × 800 and checks what a client sees:
// no sideways scrolling, the week's days in one row, the times in a
// grid, the button in view without scrolling, and on the phone a page
// under 2,000 px tall. The layout is compared with the reference in
// testdata (boxes rather than pixels, so that another font's metrics
// pass: see docs/booking.md); the screenshots are the test's artifacts
// (go test -artifacts). Then a time is booked through the page.
func TestBookingPageLayoutOnAPhoneAndADesktop(t *testing.T) {
	for _, s := range screens {
		t.Run(s.name, func(t *testing.T) {
			ctx := newBrowser(t)
			e := newBookingEnv(t)
			adl := e.a.Adelaide.ID
			e.mustAPI(http.StatusCreated, "POST", "/v1/practitioners", map[string]any{"first_name": "Carol", "last_name": "Chen",
				"location_ids": []string{adl}, "service_ids": []string{e.a.Consult.ID},
				"working_hours": []any{map[string]any{"location_id": adl, "day": "tuesday", "starts_at": "09:00", "ends_at": "17:00"}}})
			err := chromedp.Do(ctx,
				chromedp.EmulateViewport(s.width, s.height),
				chromedp.Navigate(e.srv.URL+e.times(e.a.Consult.ID, "", "")+"&day=2026-03-03"),
				chromedp.WaitVisible(chromedp.CSS(`#times-title`)),
			)
			if err != nil {
				t.Fatalf("opening the times: %v", err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measure))
			if err != nil {
				t.Fatal(err)
			}
			screenshot(t, ctx, "times")

			if got.ScrollWidth > got.InnerWidth {
				t.Errorf("the page scrolls sideways: %d px wide in a %d px window", got.ScrollWidth, got.InnerWidth)
			}
			if s.phone && got.Height >= 2000 {
				t.Errorf("a day of times is %d px tall, want under 2000", got.Height)
			}
			if b := got.Button; b.Y < 0 || b.Y+b.H > got.InnerHeight || b.W == 0 {
				t.Errorf("the Continue button is at %+v, outside the %d px high window", b, got.InnerHeight)
			}
			if got.Days != 7 || got.DayRows != 1 {
				t.Errorf("%d days in %d rows, want 7 in one", got.Days, got.DayRows)
			}
			if got.SlotColumns < 3 {
				t.Errorf("the times are in %d columns, want at least 3", got.SlotColumns)
			}
			compareLayout(t, "testdata/booking-layout-"+s.name+".json", got)

			bookThroughThePage(t, ctx, e)
		})
	}
}

// bookThroughThePage books Wednesday's first time from the times page
// shown, by clicking as a client would, and checks the confirmation.
func bookThroughThePage(t *testing.T, ctx context.Context, e *env) {
	t.Helper()
	const wed0800 = "2026-03-03T21:30:00Z"
	slot := slotValue(e.a.Alice.ID, wed0800)
	err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a.day-link[href*="day=2026-03-04"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#day-2026-03-04`)),
		// Scrolled to the middle of the window, as a person would, so
		// that the button kept in view does not cover it.
		chromedp.Evaluate[chromedp.Void](`document.getElementById("slot-1").scrollIntoView({block: "center"})`),
		chromedp.Click(chromedp.CSS(`#slot-1`)),
	)
	if err != nil {
		t.Fatalf("choosing Wednesday's first time: %v", err)
	}
	if v := run(t, ctx, chromedp.Evaluate[string](`document.querySelector('input[name="slot"]:checked').value`)); v != slot {
		t.Fatalf("the time chosen is %q, want %q", v, slot)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`#first-name`)),
		chromedp.SendKeys(chromedp.CSS(`#first-name`), "Dana"),
		chromedp.SendKeys(chromedp.CSS(`#last-name`), "Diaz"),
		chromedp.SendKeys(chromedp.CSS(`#email`), "dana@example.org"),
	)
	if err != nil {
		t.Fatalf("giving the details: %v", err)
	}
	screenshot(t, ctx, "details")
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button[value="book"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#confirmation`)),
	)
	if err != nil {
		t.Fatalf("confirming: %v", err)
	}
	screenshot(t, ctx, "confirmation")
	if when := run(t, ctx, chromedp.Text(chromedp.CSS(`#summary`))); !strings.Contains(when, "Wednesday 4 March 2026 at 8:00 am ACDT") {
		t.Errorf("summary %q", when)
	}
	if apts := e.appointmentsAt(wed0800); len(apts) != 1 || apts[0]["practitioner_id"] != e.a.Alice.ID {
		t.Errorf("appointments at 8:00 on Wednesday: %v", apts)
	}
}

// screenshot saves, among the test's artifacts, what the window shows
// (name-window.png) and the whole page (name-page.png, where a button
// kept in view is drawn where the window's bottom is).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for suffix, shot := range map[string]chromedp.Action[[]byte]{"-window": chromedp.CaptureScreenshot(), "-page": chromedp.FullScreenshot(100)} {
		png, err := chromedp.Run(ctx, shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name+suffix+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// compareLayout compares the boxes measured with the reference file,
// or with -update-layout rewrites it. Across the page, positions and
// widths may differ by 8 px, and tops and heights, which follow the
// lines of text above, by 8 px and a tenth: a font with other metrics
// passes, a rule of CSS that moves or resizes a part does not.
func compareLayout(t *testing.T, path string, got layout) {
	t.Helper()
	if *updateLayout {
		b, err := json.MarshalIndent(got, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-layout to write it)", err)
	}
	var want layout
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	near := func(got, want, slack int) bool { return got >= want-slack && got <= want+slack }
	for name, w := range want.Boxes {
		g, ok := got.Boxes[name]
		if !ok {
			t.Errorf("%s: missing, want %+v", name, w)
			continue
		}
		if !near(g.X, w.X, 8) || !near(g.W, w.W, 8) || !near(g.Y, w.Y, 8+w.Y/10) || !near(g.H, w.H, 8+w.H/10) {
			t.Errorf("%s is at %+v, want %+v as in %s", name, g, w, path)
		}
	}
	for name := range got.Boxes {
		if _, ok := want.Boxes[name]; !ok {
			t.Errorf("%s: not in %s", name, path)
		}
	}
	if got.SlotColumns != want.SlotColumns {
		t.Errorf("the times are in %d columns, want %d as in %s", got.SlotColumns, want.SlotColumns, path)
	}
}
