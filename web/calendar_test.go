package web_test

import (
	"net/http"
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"
)

// feedEvents parses a feed with an iCalendar library of its own and
// returns its events as UID → property → value.
func feedEvents(t *testing.T, body string) map[string]map[string]string {
	t.Helper()
	cal, err := ics.ParseCalendar(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the feed does not parse: %v\n%s", err, body)
	}
	out := map[string]map[string]string{}
	for _, ev := range cal.Events() {
		props := map[string]string{}
		for _, p := range []ics.ComponentProperty{ics.ComponentPropertySummary, ics.ComponentPropertyLocation,
			ics.ComponentPropertyDtStart, ics.ComponentPropertyDtEnd, ics.ComponentPropertyDescription} {
			if v := ev.GetProperty(p); v != nil {
				props[string(p)] = v.Value
			}
		}
		out[ev.Id()] = props
	}
	return out
}

func TestCalendarFeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.a.Alice.ID
	apt := e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"location_id": e.a.Sydney.ID, "practitioner_id": alice,
		"service_id": e.a.Consult.ID, "starts_at": "2026-03-02T23:00:00Z", "notes": "Reports chest pain",
		"clients": []any{map[string]any{"client_id": e.a.Clients[0].ID}}})
	gone := e.mustAPI(http.StatusCreated, "POST", "/v1/appointments", map[string]any{"location_id": e.a.Sydney.ID, "practitioner_id": alice,
		"service_id": e.a.Consult.ID, "starts_at": "2026-03-03T23:00:00Z", "clients": []any{map[string]any{"client_id": e.a.Clients[1].ID}}})
	e.mustAPI(http.StatusOK, "POST", "/v1/appointments/"+gone["id"].(string)+"/cancel", map[string]any{"cancellation_note": "Unwell"})
	busy := e.mustAPI(http.StatusCreated, "POST", "/v1/busy_times", map[string]any{"location_id": e.a.Sydney.ID, "practitioner_id": alice,
		"starts_at": "2026-03-04T01:00:00Z", "ends_at": "2026-03-04T02:00:00Z", "name": "Team meeting", "note": "Pay review for Ann"})

	feedURL := e.mustAPI(http.StatusOK, "POST", "/v1/practitioners/"+alice+"/calendar_feed/rotate", nil)["calendar_feed_url"].(string)
	r := e.page("GET", feedURL, nil, nil)
	wantStatus(t, r, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	events := feedEvents(t, r.Body)
	want := map[string]map[string]string{
		apt["id"].(string) + "@practiced": {"SUMMARY": "Consultation: Ann Archer", "LOCATION": "Sydney CBD, 1 George St, Sydney, NSW, 2000",
			"DTSTART": "20260302T230000Z", "DTEND": "20260302T233000Z"},
		busy["id"].(string) + "@practiced": {"SUMMARY": "Team meeting", "LOCATION": "Sydney CBD, 1 George St, Sydney, NSW, 2000",
			"DTSTART": "20260304T010000Z", "DTEND": "20260304T020000Z"},
	}
	if len(events) != len(want) {
		t.Fatalf("%d events, want %d (the cancelled appointment left out): %v", len(events), len(want), events)
	}
	for uid, props := range want {
		for k, v := range props {
			if events[uid][k] != v {
				t.Errorf("event %s: %s = %q, want %q", uid, k, events[uid][k], v)
			}
		}
	}
	for _, private := range []string{"chest pain", "Pay review", "Ann@example.com", "Unwell"} {
		if strings.Contains(r.Body, private) {
			t.Errorf("the feed shows %q", private)
		}
	}

	// A calendar that polls with the ETag gets a 304.
	etag := r.Header.Get("ETag")
	if r := e.page("GET", feedURL, nil, http.Header{"If-None-Match": {etag}}); r.Status != http.StatusNotModified || r.Body != "" {
		t.Errorf("a fetch with the ETag: %d %q", r.Status, r.Body)
	}

	// A new URL replaces the old one at once.
	newURL := e.mustAPI(http.StatusOK, "POST", "/v1/practitioners/"+alice+"/calendar_feed/rotate", nil)["calendar_feed_url"].(string)
	if newURL == feedURL {
		t.Fatal("rotating gave the same URL")
	}
	wantStatus(t, e.page("GET", feedURL, nil, nil), http.StatusNotFound)
	wantStatus(t, e.page("GET", newURL, nil, nil), http.StatusOK)
	for _, bad := range []string{"/calendar/nope.ics", "/calendar/" + strings.TrimSuffix(strings.TrimPrefix(newURL, e.srv.URL+"/calendar/"), ".ics"), "/calendar/.ics"} {
		wantStatus(t, e.page("GET", bad, nil, nil), http.StatusNotFound)
	}
	// Bob's feed is his own.
	bobURL := e.mustAPI(http.StatusOK, "POST", "/v1/practitioners/"+e.a.Bob.ID+"/calendar_feed/rotate", nil)["calendar_feed_url"].(string)
	if bobURL == newURL {
		t.Fatal("two practitioners got one URL")
	}
	if got := feedEvents(t, e.page("GET", bobURL, nil, nil).Body); len(got) != 0 {
		t.Errorf("Bob's feed has %d events, want none", len(got))
	}
}
