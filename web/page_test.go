package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestPagesAnswerAnOversizedPostWith413(t *testing.T) {
	t.Parallel()
	e := newBookingEnv(t)
	f := e.newIntakeForm(true, false)
	// The values, padded to one byte over the 1 MiB a page accepts.
	big := func(values url.Values) url.Values {
		n := 1<<20 + 1 - len(values.Encode()+"&padding=")
		values.Set("padding", strings.Repeat("x", n))
		if len(values.Encode()) != 1<<20+1 {
			t.Fatalf("the post has %d bytes", len(values.Encode()))
		}
		return values
	}
	t.Run("the hosted form", func(t *testing.T) {
		r := e.page("POST", formPath(f), big(completeAnswers()), nil)
		wantStatus(t, r, http.StatusRequestEntityTooLarge)
		wantInPage(t, r, "<h1>The answers could not be read</h1>", "shorten the longest answers")
		wantPageHeaders(t, r)
		got := e.mustAPI(http.StatusOK, "GET", "/v1/forms/"+f["id"].(string), nil)
		wantField(t, got, "status", "not_started")
	})
	t.Run("the booking page", func(t *testing.T) {
		r := e.page("POST", e.bookPath(), big(e.booking(slotValue(e.a.Alice.ID, at1000), "dana@example.org")), nil)
		wantStatus(t, r, http.StatusRequestEntityTooLarge)
		wantInPage(t, r, "<h1>The booking could not be read</h1>")
		wantPageHeaders(t, r)
		if n := len(e.appointmentsAt("")); n != 0 {
			t.Errorf("%d appointments booked", n)
		}
	})
	t.Run("a post of 1 MiB is read", func(t *testing.T) {
		values := completeAnswers()
		values.Set("action", "save")
		values = big(values)
		values.Set("padding", values.Get("padding")[1:])
		wantStatus(t, e.page("POST", formPath(f), values, nil), http.StatusOK)
	})
}
