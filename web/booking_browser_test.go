package web_test

import (
	"context"
	"net/http"
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
	for _, want := range []string{"Consultation (30 minutes)", "Alice Nguyen", "Monday 2 March 2026 at 10:00 am ACDT (Australia/Adelaide)", "Dana Diaz", "dana@example.org"} {
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
	wantField(t, c, "phone_number", "0412345678")
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
