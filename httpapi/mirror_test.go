package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// mirror is what an integrator keeps by following the change feed alone:
// the last data of every record, by record type and id.
type mirror struct {
	records map[string]map[string]json.RawMessage
	applied map[string]bool // event ids
	last    string          // created_at of the last event applied
}

// apply applies one event: created, updated, archived and unarchived put
// the record's data in place, deleted takes the record away.
func (m *mirror) apply(t *testing.T, ev map[string]any) {
	t.Helper()
	id := ev["id"].(string)
	if m.applied[id] {
		return
	}
	m.applied[id] = true
	m.last = ev["created_at"].(string)
	kind, recID := ev["record_type"].(string), ev["record_id"].(string)
	if m.records[kind] == nil {
		m.records[kind] = map[string]json.RawMessage{}
	}
	data, _ := json.Marshal(ev["data"])
	switch ev["type"] {
	case kind + ".created", kind + ".updated", kind + ".archived", kind + ".unarchived":
		m.records[kind][recID] = data
	case kind + ".deleted":
		delete(m.records[kind], recID)
	default:
		t.Fatalf("event of unknown type %v", ev["type"])
	}
}

// follow walks the feed from its start, or with since, in pages of
// limit events, applying each event not applied yet.
func (m *mirror) follow(t *testing.T, e *env, token string, query url.Values) int {
	t.Helper()
	query.Set("limit", "7")
	next := e.srv.URL + "/v1/events?" + query.Encode()
	n := 0
	for pages := 0; next != ""; pages++ {
		if pages > 100 {
			t.Fatal("more than 100 pages of events")
		}
		p := e.do("GET", next, token, nil).page(t)
		for _, ev := range p.Data {
			m.apply(t, ev)
			n++
		}
		next = ""
		if p.Links.Next != nil {
			next = *p.Links.Next
		}
	}
	return n
}

// wantMirrors fails unless the mirror holds exactly the records the list
// shows with archived ones, each with exactly the same data.
func wantMirrors(t *testing.T, e *env, token string, m *mirror, kind, list string) {
	t.Helper()
	live := map[string]string{}
	for _, rec := range e.listAll(t, list+"?include_archived=true", token) {
		b, _ := json.Marshal(rec)
		live[rec["id"].(string)] = canonicalJSON(t, b)
	}
	mirrored := map[string]string{}
	for id, data := range m.records[kind] {
		mirrored[id] = canonicalJSON(t, data)
	}
	if len(live) == 0 {
		t.Fatalf("no %s records to compare", kind)
	}
	for id, want := range live {
		got, ok := mirrored[id]
		if !ok {
			t.Errorf("%s %s is listed but not in the mirror", kind, id)
		} else if got != want {
			t.Errorf("%s %s:\nmirror %s\nlisted %s", kind, id, got, want)
		}
	}
	for id := range mirrored {
		if _, ok := live[id]; !ok {
			t.Errorf("%s %s is in the mirror but not listed", kind, id)
		}
	}
}

// TestChangeFeedRebuildsTheClinic builds a small clinic through the API
// alone and rebuilds it from GET /v1/events alone, in two rounds the way
// an integrator follows the feed (the second resumes with since, a margin
// before the last event applied, and skips the events it has applied),
// then compares the mirror with the lists record by record.
func TestChangeFeedRebuildsTheClinic(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A business of its own, whose clients and busy times all come
	// through the API: seeded ones would have no events.
	biz, err := e.st.CreateBusiness(t.Context(), "Mirror clinic")
	if err != nil {
		t.Fatal(err)
	}
	token := testfix.Key(t, e.st, biz.ID, false)
	loc := practiced.Location{ID: tid.New("loc"), Name: "Sydney", Timezone: "Australia/Sydney", CreatedAt: seeded, UpdatedAt: seeded}
	pra := newPractitioner("Pat", loc)
	btt := practiced.Named{ID: tid.New("btt"), Name: "Admin", CreatedAt: seeded, UpdatedAt: seeded}
	if err := e.st.Seed(t.Context(), biz.ID, practiced.SeedData{Locations: []practiced.Location{loc},
		Practitioners: []practiced.Practitioner{pra}, BusyTimeTypes: []practiced.Named{btt}}); err != nil {
		t.Fatal(err)
	}
	do := func(method, path string, body any, status int) map[string]any {
		t.Helper()
		r := e.do(method, path, token, body)
		wantStatus(t, r, status)
		return r.JSON(t)
	}
	busy := func(starts, ends string, extra map[string]any) map[string]any {
		b := map[string]any{"location_id": loc.ID, "practitioner_id": pra.ID, "starts_at": starts, "ends_at": ends}
		for k, v := range extra {
			b[k] = v
		}
		return do("POST", "/v1/busy_times", b, http.StatusCreated)
	}
	seriesOf := func(first map[string]any) []string {
		var ids []string
		for _, b := range e.listAll(t, "/v1/busy_times?include_archived=true", token) {
			if b["repeat_id"] == first["repeat_id"] {
				ids = append(ids, b["id"].(string))
			}
		}
		return ids
	}

	// Round one.
	ann := do("POST", "/v1/clients", map[string]any{"first_name": "Ann", "last_name": "Archer", "email": "ann@example.com",
		"phone_numbers": []any{map[string]any{"number": "0412 345 678"}}}, http.StatusCreated)["id"].(string)
	ben := do("POST", "/v1/clients", map[string]any{"first_name": "Ben", "last_name": "Baker"}, http.StatusCreated)["id"].(string)
	cat := do("POST", "/v1/clients", map[string]any{"first_name": "Cat", "last_name": "Cole", "related_clients": []any{
		map[string]any{"related_client_id": ann}}}, http.StatusCreated)["id"].(string)
	do("POST", "/v1/clients/"+ann, map[string]any{"notes": "Prefers mornings", "privacy_policy_consent": "accepted",
		"address": map[string]any{"city": "Sydney", "country_code": "au"}}, http.StatusOK)
	do("POST", "/v1/clients/"+ben+"/archive", nil, http.StatusOK)
	single := busy("2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z", map[string]any{"name": "Lunch"})["id"].(string)
	series := seriesOf(busy("2026-03-23T22:00:00Z", "2026-03-23T23:00:00Z", map[string]any{"busy_time_type_id": btt.ID,
		"repeating_rule": map[string]any{"frequency": "weekly", "occurrences": 6}}))
	if len(series) != 6 {
		t.Fatalf("series of %d occurrences, want 6", len(series))
	}
	m := &mirror{records: map[string]map[string]json.RawMessage{}, applied: map[string]bool{}}
	if n := m.follow(t, e, token, url.Values{}); n != 3+2+1+6 {
		t.Fatalf("round one applied %d events, want 12", n)
	}

	// Round two.
	e.clock = testfix.Now.Add(time.Hour)
	do("POST", "/v1/clients/"+ann, map[string]any{"privacy_policy_consent": "rejected"}, http.StatusOK)
	do("POST", "/v1/clients/"+ben+"/unarchive", nil, http.StatusOK)
	do("POST", "/v1/clients/"+cat+"/archive", nil, http.StatusOK)
	do("POST", "/v1/busy_times/"+series[1], map[string]any{"note": "just this one"}, http.StatusOK)
	do("POST", "/v1/busy_times/"+series[2], map[string]any{"scope": "following", "starts_at": "2026-04-06T23:30:00Z",
		"ends_at": "2026-04-07T01:00:00Z", "name": "Moved"}, http.StatusOK)
	do("DELETE", "/v1/busy_times/"+series[4]+"?scope=following", nil, http.StatusOK)
	do("DELETE", "/v1/busy_times/"+single, nil, http.StatusOK)
	do("POST", "/v1/busy_times/"+series[0]+"/archive", nil, http.StatusOK)
	another := busy("2026-03-04T01:00:00Z", "2026-03-04T01:30:00Z", nil)["id"].(string)
	do("POST", "/v1/busy_times/"+another, map[string]any{"resource_ids": []string{"room-2"}}, http.StatusOK)

	// Resume a minute before the last event applied (docs/api.md);
	// events already applied are skipped.
	n := m.follow(t, e, token, url.Values{"since": {mustUTC(m.last).Add(-time.Minute).Format(time.RFC3339)}})
	if applied := len(m.applied); applied != 12+3+1+4+2+1+1+2 {
		t.Fatalf("%d events applied in all (%d read in round two), want 26", applied, n)
	}
	wantMirrors(t, e, token, m, "client", "/v1/clients")
	wantMirrors(t, e, token, m, "busy_time", "/v1/busy_times")
	kinds := []string{}
	for k := range m.records {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	if len(kinds) != 2 || kinds[0] != "busy_time" || kinds[1] != "client" {
		t.Fatalf("the feed holds records of %v, want busy_time and client", kinds)
	}
}
