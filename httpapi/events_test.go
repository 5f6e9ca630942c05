package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// GET /v1/events and GET /v1/events/{id}: the change feed of
// docs/api.md.

// feedEntry is an event as the feed lists it, without its data.
type feedEntry struct{ typ, recordID string }

// feed walks GET /v1/events with the query and returns every event.
func (e *env) feed(t *testing.T, query url.Values) []map[string]any {
	t.Helper()
	path := "/v1/events"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	return e.listAll(t, path, e.a.Token)
}

func entries(events []map[string]any) []feedEntry {
	out := []feedEntry{}
	for _, ev := range events {
		out = append(out, feedEntry{ev["type"].(string), ev["record_id"].(string)})
	}
	return out
}

// wantRecordEvents fails unless the record's events are exactly of the
// types, in order, each with the matching record of want as its data.
func wantRecordEvents(t *testing.T, e *env, recordID string, types []string, want []string) {
	t.Helper()
	events := e.feed(t, url.Values{"record_id": {recordID}})
	var got []string
	for _, ev := range events {
		got = append(got, ev["type"].(string))
	}
	if !reflect.DeepEqual(got, types) {
		t.Fatalf("events of %s: %v, want %v", recordID, got, types)
	}
	for i, ev := range events {
		recordType, _, _ := strings.Cut(types[i], ".")
		if ev["record_type"] != recordType || !tid.Valid(ev["id"].(string), "evt") || len(ev) != 6 {
			t.Fatalf("event %v is not {id, type, record_type: %s, record_id, data, created_at}", ev, recordType)
		}
		data, _ := json.Marshal(ev["data"])
		if canonicalJSON(t, data) != canonicalJSON(t, []byte(want[i])) {
			t.Fatalf("data of %s:\n%s\nwant\n%s", types[i], data, want[i])
		}
	}
}

// feedFixture makes a few changes through the API and returns the ids of
// the records they changed.
func feedFixture(t *testing.T, e *env) (client, busy1, busy2 string) {
	t.Helper()
	r := e.do("POST", "/v1/clients", e.a.Token, map[string]any{"first_name": "Zoe", "last_name": "Zed"})
	wantStatus(t, r, http.StatusCreated)
	client = r.JSON(t)["id"].(string)
	wantStatus(t, e.do("POST", "/v1/clients/"+client, e.a.Token, map[string]any{"notes": "first visit"}), http.StatusOK)
	r = e.do("POST", "/v1/busy_times", e.a.Token, busyBody(e.a.Sydney, e.a.Alice, "2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z",
		map[string]any{"repeating_rule": map[string]any{"frequency": "daily", "occurrences": 2}}))
	wantStatus(t, r, http.StatusCreated)
	busy1 = r.JSON(t)["id"].(string)
	all := e.listAll(t, "/v1/busy_times?practitioner_id="+e.a.Alice.ID, e.a.Token)
	busy2 = all[1]["id"].(string)
	wantStatus(t, e.do("DELETE", "/v1/busy_times/"+busy2, e.a.Token, nil), http.StatusOK)
	wantStatus(t, e.do("POST", "/v1/clients/"+client+"/archive", e.a.Token, nil), http.StatusOK)
	return client, busy1, busy2
}

func TestEventListFiltersByTypeRecordTypeRecordIDAndSince(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client, busy1, busy2 := feedFixture(t, e)
	// Clinic B's changes never show in A's feed.
	wantStatus(t, e.do("POST", "/v1/clients/"+e.b.Clients[0].ID, e.b.Token, map[string]any{"notes": "b"}), http.StatusOK)

	all := e.feed(t, nil)
	every := []feedEntry{{"client.created", client}, {"client.updated", client}, {"busy_time.created", busy1},
		{"busy_time.created", busy2}, {"busy_time.deleted", busy2}, {"client.archived", client}}
	if got := entries(all); !reflect.DeepEqual(got, every) {
		t.Fatalf("feed %v\nwant %v", got, every)
	}
	first, last := all[0]["created_at"].(string), all[len(all)-1]["created_at"].(string)
	var sinceLast []feedEntry
	for _, ev := range all {
		if ev["created_at"].(string) >= last {
			sinceLast = append(sinceLast, feedEntry{ev["type"].(string), ev["record_id"].(string)})
		}
	}
	for _, tc := range []struct {
		name  string
		query url.Values
		want  []feedEntry
	}{
		{"no filter", nil, every},
		{"one type", qv("type", "client.updated"), []feedEntry{{"client.updated", client}}},
		{"types repeated", qv("type", "client.archived", "type", "busy_time.created"),
			[]feedEntry{{"busy_time.created", busy1}, {"busy_time.created", busy2}, {"client.archived", client}}},
		{"a type given twice", qv("type", "client.archived", "type", "client.archived"), []feedEntry{{"client.archived", client}}},
		{"a type no change made", qv("type", "form.created"), []feedEntry{}},
		{"record type", qv("record_type", "busy_time"), every[2:5]},
		{"record id", qv("record_id", busy2), []feedEntry{{"busy_time.created", busy2}, {"busy_time.deleted", busy2}}},
		{"record id of a deleted busy time and a type", qv("record_id", busy2, "type", "busy_time.deleted"), []feedEntry{{"busy_time.deleted", busy2}}},
		{"record id of another business", qv("record_id", e.b.Clients[0].ID), []feedEntry{}},
		{"since the first event", qv("since", first), every},
		{"since the last event's second", qv("since", last), sinceLast},
		{"since, in another offset", qv("since", mustUTC(first).In(time.FixedZone("AEDT", 11*60*60)).Format(time.RFC3339)), every},
		{"since tomorrow", qv("since", "2199-01-01T00:00:00Z"), []feedEntry{}},
		{"every filter", qv("type", "client.updated", "type", "client.created", "record_type", "client", "record_id", client, "since", first),
			[]feedEntry{{"client.created", client}, {"client.updated", client}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := entries(e.feed(t, tc.query)); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestEventListTakesTheIDOfEveryKindOfRecord checks that record_id takes
// the id of a record of every kind the feed describes; an id no record
// has finds no event.
func TestEventListTakesTheIDOfEveryKindOfRecord(t *testing.T) {
	e := newEnv(t)
	for _, k := range practiced.Kinds {
		if got := entries(e.feed(t, url.Values{"record_id": {tid.New(k.Prefix)}})); len(got) != 0 {
			t.Errorf("record_id of a %s: %v, want no event", k.Type, got)
		}
	}
}

func TestEventListRefusesInvalidQueries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	badType := func(v string) string {
		return `"` + v + `" is not an event type: an event type is <record_type>.<action>, such as client.updated, ` +
			"with an action among created, updated, archived, unarchived, deleted"
	}
	unknown := "is not a known query parameter"
	runInvalidQueryCases(t, e, "/v1/events", []invalidQueryCase{
		{"type=client.update", "type", badType("client.update")},
		{"type=clients.updated", "type", badType("clients.updated")},
		{"type=client", "type", badType("client")},
		{"type=", "type", badType("")},
		{"type=Client.Updated", "type", badType("Client.Updated")},
		{"record_type=clients", "record_type", "must be one of: " + strings.Join(practiced.RecordTypes, ", ")},
		{"record_type=client&record_type=busy_time", "record_type", "must be given once"},
		{"record_id=123", "record_id", "must be a record id such as cli_01h455vb4pex5vsknk084sn02q"},
		{"record_id=cli_123", "record_id", "must be a record id such as cli_01h455vb4pex5vsknk084sn02q"},
		{"record_id=" + tid.New("evt"), "record_id", "must be a record id such as cli_01h455vb4pex5vsknk084sn02q"},
		{"since=2026-03-01", "since", "must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
		{"since=yesterday", "since", "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"},
		{"include_archived=true", "include_archived", unknown},
		{"updated_since=2026-03-01T00:00:00Z", "updated_since", unknown + "; use since"},
		{"limit=0", "limit", "must be between 1 and 100"},
		{"limit=101", "limit", "must be between 1 and 100"},
		{"cursor=nope", "cursor", "is not a valid cursor; use the links of a previous page unchanged"},
	})
	t.Run("every failing parameter at once", func(t *testing.T) {
		r := e.do("GET", "/v1/events?type=client.updated&type=x&record_type=y&since=z&bogus=1", e.a.Token, nil)
		wantInvalid(t, r, map[string][]string{"type": {badType("x")}, "record_type": {"must be one of: " + strings.Join(practiced.RecordTypes, ", ")},
			"since": {"must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"}, "bogus": {unknown}}, "")
	})
}

func TestEventPagesRepeatEveryTypeAndRefuseCursorsOfOtherFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client, busy1, busy2 := feedFixture(t, e)
	query := "/v1/events?type=busy_time.created&type=client.archived&limit=1"
	var got []feedEntry
	next := query
	var second string
	for i := 0; next != ""; i++ {
		p := e.do("GET", next, e.a.Token, nil).page(t)
		got = append(got, entries(p.Data)...)
		if (i == 0) != (p.Links.Prev == nil) {
			t.Fatalf("page %d: prev %v", i, p.Links.Prev)
		}
		next = ""
		if p.Links.Next != nil {
			next = *p.Links.Next
			u, _ := url.Parse(next)
			if ts := u.Query()["type"]; !reflect.DeepEqual(ts, []string{"busy_time.created", "client.archived"}) {
				t.Fatalf("next link %s carries types %v", next, ts)
			}
			if i == 0 {
				second = next
			}
		}
	}
	want := []feedEntry{{"busy_time.created", busy1}, {"busy_time.created", busy2}, {"client.archived", client}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("walked %v\nwant %v", got, want)
	}
	// The cursor of the second page, under other types.
	u, _ := url.Parse(second)
	q := u.Query()
	q.Set("type", "client.created")
	r := e.do("GET", "/v1/events?"+q.Encode(), e.a.Token, nil)
	wantInvalid(t, r, oneError("cursor", "was made for another list or other filters; use the links of a previous page unchanged"), "")
}

func TestGetEventAnswersTheEventOfTheFeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client, _, _ := feedFixture(t, e)
	for _, ev := range e.feed(t, nil) {
		b, _ := json.Marshal(ev)
		wantBody(t, e.do("GET", "/v1/events/"+ev["id"].(string), e.a.Token, nil), http.StatusOK, string(b))
		wantBody(t, e.do("GET", "/v1/events/"+ev["id"].(string), e.a.ReadOnlyToken, nil), http.StatusOK, string(b))
		// Another business sees nothing of it.
		wantBody(t, e.do("GET", "/v1/events/"+ev["id"].(string), e.b.Token, nil), http.StatusNotFound, messageJSON("Event not found."))
	}
	for _, id := range []string{tid.New("evt"), client, "evt_123", "12345"} {
		wantBody(t, e.do("GET", "/v1/events/"+id, e.a.Token, nil), http.StatusNotFound, messageJSON("Event not found."))
	}
}

// eventData returns the data of each event of a record as the feed
// writes it, byte for byte, in feed order.
func eventData(t *testing.T, e *env, recordID string) []string {
	t.Helper()
	r := e.do("GET", "/v1/events?record_id="+recordID, e.a.Token, nil)
	wantStatus(t, r, http.StatusOK)
	var page struct {
		Data []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &page); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range page.Data {
		out = append(out, ev.Type+" "+string(ev.Data))
	}
	return out
}

// An event's data is the very bytes GET answers for the record, "&", "<"
// and ">" included, for a record created alone, created as one of a
// series, updated alone and as one of a series, deleted, touched by a
// change of another record, and carrying a domain event beside its own.
func TestEventDataIsTheBytesGETAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A record's answer ends with a line feed, which is not part of it.
	get := func(path string) string {
		t.Helper()
		r := e.do("GET", path, e.a.Token, nil)
		wantStatus(t, r, http.StatusOK)
		return strings.TrimSuffix(string(r.Body), "\n")
	}

	r := e.do("POST", "/v1/clients", e.a.Token, map[string]any{"first_name": "Zoe", "last_name": "Zed", "notes": "Tom & Jerry <b>"})
	wantStatus(t, r, http.StatusCreated)
	client := r.JSON(t)["id"].(string)
	created := get("/v1/clients/" + client)
	if !strings.Contains(created, `"notes":"Tom & Jerry <b>"`) {
		t.Fatalf("GET answers %s", created)
	}
	wantStatus(t, e.do("POST", "/v1/clients/"+client, e.a.Token, map[string]any{"alert": "x > y"}), http.StatusOK)
	updated := get("/v1/clients/" + client)
	if got, want := eventData(t, e, client), []string{"client.created " + created, "client.updated " + updated}; !reflect.DeepEqual(got, want) {
		t.Errorf("events of the client:\n%q\nwant\n%q", got, want)
	}

	// A series: its occurrences created in one statement, updated from
	// the first on, and the last deleted.
	r = e.do("POST", "/v1/busy_times", e.a.Token, busyBody(e.a.Sydney, e.a.Alice, "2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z",
		map[string]any{"note": "<lunch> & rest", "repeating_rule": map[string]any{"frequency": "daily", "occurrences": 2}}))
	wantStatus(t, r, http.StatusCreated)
	var busy []string
	createdBusy := map[string]string{}
	for _, b := range e.listAll(t, "/v1/busy_times?practitioner_id="+e.a.Alice.ID, e.a.Token) {
		id := b["id"].(string)
		busy = append(busy, id)
		createdBusy[id] = get("/v1/busy_times/" + id)
	}
	wantStatus(t, e.do("POST", "/v1/busy_times/"+busy[0], e.a.Token, map[string]any{"scope": "following", "note": "<dinner> & rest"}), http.StatusOK)
	last := get("/v1/busy_times/" + busy[1])
	wantStatus(t, e.do("DELETE", "/v1/busy_times/"+busy[1], e.a.Token, nil), http.StatusOK)
	for i, id := range busy {
		want := []string{"busy_time.created " + createdBusy[id]}
		if i == 0 {
			want = append(want, "busy_time.updated "+get("/v1/busy_times/"+id))
		} else {
			want = append(want, "busy_time.updated "+last, "busy_time.deleted "+last)
		}
		if got := eventData(t, e, id); !reflect.DeepEqual(got, want) {
			t.Errorf("events of busy time %s:\n%q\nwant\n%q", id, got, want)
		}
	}

	// A location touched by a practitioner who comes to work there.
	r = e.do("POST", "/v1/locations", e.a.Token, map[string]any{"name": "Smith & Co <North>", "timezone": "Australia/Sydney"})
	wantStatus(t, r, http.StatusCreated)
	loc := r.JSON(t)["id"].(string)
	locCreated := get("/v1/locations/" + loc)
	wantStatus(t, e.do("POST", "/v1/practitioners/"+e.a.Bob.ID, e.a.Token, map[string]any{"location_ids": []string{loc, e.a.Sydney.ID}}), http.StatusOK)
	if got, want := eventData(t, e, loc), []string{"location.created " + locCreated, "location.updated " + get("/v1/locations/"+loc)}; !reflect.DeepEqual(got, want) {
		t.Errorf("events of the location:\n%q\nwant\n%q", got, want)
	}

	a := e.booked(t, book(e.a.Sydney, e.a.Alice, "2026-03-05T01:00:00Z", client, map[string]any{"service_id": e.a.Consult.ID, "notes": "A & B <c>"}))
	id := a["id"].(string)
	doc := get("/v1/appointments/" + id)
	if got, want := eventData(t, e, id), []string{"appointment.created " + doc, "appointment.booked " + doc}; !reflect.DeepEqual(got, want) {
		t.Errorf("events of the appointment:\n%q\nwant\n%q", got, want)
	}
}
