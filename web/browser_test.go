package web_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium or Chrome binary, or returns "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts headless Chromium for the test and returns the
// context of its first tab, ended with the test (90 seconds at most).
// Without a Chromium binary the test is skipped, unless CI=true, where
// that is a failure.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium()
	if exe == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no chromium binary was found on PATH (chromium, chromium-browser, google-chrome): install Debian's chromium package")
		}
		t.Skip("no chromium binary on PATH (chromium, chromium-browser, google-chrome): skipping the real-browser test; install Debian's chromium package to run it")
	}
	alloc, cancel := chromedp.NewExecAllocator(t.Context(),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestHostedFormInARealBrowser fills in and submits a hosted form in
// headless Chromium, as a client would: every question type, a refused
// first submission, the keyboard for one answer, then the completion
// message; the API then shows the form completed and the client filled.
func TestHostedFormInARealBrowser(t *testing.T) {
	ctx := newBrowser(t)
	e := newEnv(t)
	// Without prefill, so that the page opens empty.
	f := e.newIntakeForm(false, true)
	hosted := f["hosted_form_url"].(string)
	if !strings.HasPrefix(hosted, e.srv.URL+"/f/for_") {
		t.Fatalf("hosted_form_url %q", hosted)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(hosted)); err != nil {
		t.Fatalf("opening the form: %v", err)
	}
	title := run(t, ctx, chromedp.Title())
	heading := run(t, ctx, chromedp.Text(chromedp.CSS("h1")))
	if title != "New client intake – Clinic A" || heading != "New client intake" {
		t.Errorf("title %q, heading %q", title, heading)
	}
	// Submitting nothing points out every required question.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button[value="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#error-summary`)),
	); err != nil {
		t.Fatalf("submitting the empty form: %v", err)
	}
	problems := run(t, ctx, chromedp.Text(chromedp.CSS(`#error-summary`)))
	for _, want := range []string{"First name: Answer this question.", "E-mail: Answer this question.", "Date of birth: Enter a date.",
		"Which areas hurt?: Choose at least one option.", "I accept the privacy policy: Choose an answer.", "Signature: Type your full name to sign."} {
		if !strings.Contains(problems, want) {
			t.Errorf("the error summary lacks %q: %q", want, problems)
		}
	}

	err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="q_first_name"]`), "Annie"),
		chromedp.SendKeys(chromedp.CSS(`input[name="q_email"]`), "annie@example.com"),
		chromedp.SendKeys(chromedp.CSS(`input[name="q_mobile"]`), "0412 345 678"),
		chromedp.SetValue(chromedp.CSS(`input[name="q_dob"]`), "1990-03-15"),
		chromedp.SendKeys(chromedp.CSS(`input[name="q_city"]`), "Glebe"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="q_reason"]`), "Sore knee after running"),
		chromedp.Click(chromedp.CSS(`input[name="q_heard"][value="Friend"]`)),
		chromedp.Click(chromedp.CSS(`input[name="q_areas"][value="Knee"]`)),
		// The keyboard alone ticks a checkbox.
		chromedp.Focus(chromedp.CSS(`input[name="q_areas"][value="Neck"]`)),
		chromedp.KeyEvent(" "),
		chromedp.Click(chromedp.CSS(`input[name="q_privacy"][value="yes"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="q_signature"]`), "Ann Archer"),
		chromedp.Click(chromedp.CSS(`button[value="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#completion`)),
	)
	if err != nil {
		t.Fatalf("filling in and submitting the form: %v", err)
	}
	completion := run(t, ctx, chromedp.Text(chromedp.CSS(`#completion`)))
	if completion != "Thank you! See you at your appointment." {
		t.Errorf("completion message %q", completion)
	}

	got, answers := e.answers(f["id"].(string))
	wantField(t, got, "status", "completed")
	wantField(t, got, "completed_at", clock)
	wantField(t, got, "sent_status", "viewed")
	want := map[string]any{"first_name": "Annie", "email": "annie@example.com", "mobile": "+61412345678", "dob": "1990-03-15",
		"city": "Glebe", "reason": "Sore knee after running", "heard": "Friend", "areas": []any{"Neck", "Knee"}, "privacy": true,
		"signature": "Ann Archer"}
	for id, w := range want {
		if a := answers[id]; !equalJSON(a, w) {
			t.Errorf("answer %s = %#v, want %#v", id, a, w)
		}
	}

	// The template overrides client fields: every mapped answer is written.
	var ann map[string]any
	list := e.mustAPI(http.StatusOK, "GET", "/v1/clients?limit=100", nil)
	for _, c := range list["data"].([]any) {
		if c := c.(map[string]any); c["id"] == e.a.Clients[0].ID {
			ann = c
		}
	}
	if ann == nil {
		t.Fatal("the client is not listed")
	}
	wantField(t, ann, "first_name", "Annie")
	wantField(t, ann, "email", "annie@example.com")
	wantField(t, ann, "phone_number", "+61412345678")
	wantField(t, ann, "date_of_birth", "1990-03-15")
	wantField(t, ann, "updated_at", clock)
	if city := ann["address"].(map[string]any)["city"]; city != "Glebe" {
		t.Errorf("address.city = %v, want Glebe", city)
	}
}

// run runs an action that reads a text from the page.
func run(t *testing.T, ctx context.Context, a chromedp.Action[string]) string {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func equalJSON(a, b any) bool {
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok {
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if as[i] != bs[i] {
				return false
			}
		}
		return true
	}
	return a == b
}
