package httpapi_test

import (
	"testing"
)

func TestSmokeEveryOperation(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/v1/busy_times", "/v1/forms", "/v1/appointment_clients", "/v1/clients", "/v1/locations", "/v1/contacts"} {
		r := e.do("GET", p, e.a.Token, nil)
		wantStatus(t, r, 200)
		t.Logf("%s: %s", p, r.Body)
	}
	r := e.do("POST", "/v1/busy_times", e.a.Token, map[string]any{
		"location_id": e.a.Sydney.ID, "practitioner_id": e.a.Alice.ID,
		"starts_at": "2026-03-03T01:00:00Z", "ends_at": "2026-03-03T02:00:00Z", "name": "Meeting",
		"repeating_rule": map[string]any{"frequency": "weekly", "occurrences": 3, "days": []string{"tuesday", "thursday"}},
	})
	t.Logf("%d %s", r.Status, r.Body)
	r = e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, map[string]any{
		"first_name": "Annie", "address": map[string]any{"country_code": "au", "line1": "2 Pitt St"},
		"phone_numbers": []any{map[string]any{"number": "0412 345 678", "code": "+61"}}, "tag_ids": []string{e.a.Tag.ID},
	})
	t.Logf("%d %s", r.Status, r.Body)
	r = e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, map[string]any{
		"first_name": 5, "email": "nope", "tag_ids": []string{e.b.Tag.ID}, "bogus": 1, "emergency_contact_id": 12,
	})
	t.Logf("%d %s", r.Status, r.Body)
	r = e.do("GET", "/v1/availability_slots?location_id="+e.a.Sydney.ID+"&practitioner_id="+e.a.Alice.ID+"&duration=60&from=2026-03-03&to=2026-03-03", e.a.Token, nil)
	t.Logf("%d %s", r.Status, r.Body)
	r = e.do("GET", "/v1/busy_times?limit=1", e.a.Token, nil)
	t.Logf("%d %s", r.Status, r.Body)
	r = e.do("DELETE", "/v1/busy_times", e.a.Token, nil)
	t.Logf("%d %v %s", r.Status, r.Header.Get("Allow"), r.Body)
}
