package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/practiced/practiced/internal/testfix"
)

// TestAppointmentPageOnAPhone opens the link of a confirmation e-mail in
// headless Chromium the size of a phone, without JavaScript in the page:
// the appointment shows without sideways scrolling, "I'll be there"
// confirms it, and the cancel button cancels it with a reason.
func TestAppointmentPageOnAPhone(t *testing.T) {
	ctx := newBrowser(t)
	st := testfix.Store(t)
	var e *env
	st.EnableMessages("https://clinic.example.org", func() time.Time { return e.now() })
	e = newEnvOn(t, st)
	a := e.a
	apt := e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"location_id": a.Sydney.ID,
		"practitioner_id": a.Alice.ID, "starts_at": "2026-03-04T01:00:00Z", "duration": 30, "notify": true,
		"clients": []any{map[string]any{"client_id": a.Clients[0].ID}}})
	apc := apt["appointment_client_ids"].([]any)[0].(string)
	list := e.mustAPI(http.StatusOK, "GET", "/v1/messages?kind=confirmation&appointment_client_id="+apc, nil)
	text := list["data"].([]any)[0].(map[string]any)["text"].(string)
	link := regexp.MustCompile(`https://clinic\.example\.org(/a/\S+)`).FindStringSubmatch(text)
	if link == nil {
		t.Fatalf("no page link in %q", text)
	}

	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(3)),
		chromedp.Navigate(e.srv.URL+link[1]),
		chromedp.WaitVisible(chromedp.CSS(`#confirm`)),
	)
	if err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	summary := run(t, ctx, chromedp.Text(chromedp.CSS(`#summary`)))
	for _, want := range []string{"Wednesday 4 March 2026 at 12:00 pm", "Alice Nguyen", "Sydney CBD"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %q: %q", want, summary)
		}
	}
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
	if err != nil || wide {
		t.Errorf("the page scrolls sideways on a phone (%v)", err)
	}

	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#confirm`)),
		chromedp.WaitVisible(chromedp.CSS(`#notice`)),
	)
	if err != nil {
		t.Fatalf("confirming: %v", err)
	}
	if got := run(t, ctx, chromedp.Text(chromedp.CSS(`#notice`))); got != "Thank you: the clinic knows you'll be there." {
		t.Errorf("after confirming: %q", got)
	}
	ac := e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+apc, nil)
	if ac["confirmed"] != true || ac["confirmed_at"] != "2026-03-01T22:00:00Z" {
		t.Errorf("after confirming: %v", ac)
	}

	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#reason`), "Away for work"),
		chromedp.Click(chromedp.CSS(`#cancel`)),
		chromedp.WaitVisible(chromedp.CSS(`#cancelled`)),
	)
	if err != nil {
		t.Fatalf("cancelling: %v", err)
	}
	if got := run(t, ctx, chromedp.Text(chromedp.CSS(`#notice`))); got != "Your appointment is cancelled." {
		t.Errorf("after cancelling: %q", got)
	}
	ac = e.mustAPI(http.StatusOK, "GET", "/v1/appointment_clients/"+apc, nil)
	if ac["status"] != "cancelled" || ac["cancellation_note"] != "Cancelled by the client on their appointment page: Away for work" {
		t.Errorf("after cancelling: %v", ac)
	}
}
