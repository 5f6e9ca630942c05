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
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// GET, POST and DELETE /v1/busy_times/{id}, archive and unarchive:
// the rules of docs/api.md.

// weeklySeries creates, through the API, a weekly 09:00-10:00 Sydney busy
// time of the practitioner with n occurrences from Tuesday 24 March 2026
// (DST ends on 5 April, between the second and the third), and returns
// the occurrences as the API shows them, in order.
func weeklySeries(t *testing.T, e *env, pra practiced.Practitioner, n int) []map[string]any {
	t.Helper()
	r := e.do("POST", "/v1/busy_times", e.a.Token, busyBody(e.a.Sydney, pra, "2026-03-23T22:00:00Z", "2026-03-23T23:00:00Z",
		map[string]any{"name": "Admin", "note": "weekly", "busy_time_type_id": e.a.MeetingType.ID, "room_id": "room-1",
			"vehicle_id": "van-1", "resource_ids": []string{"desk"}, "repeating_rule": map[string]any{"frequency": "weekly", "occurrences": n}}))
	wantStatus(t, r, http.StatusCreated)
	return e.listAll(t, "/v1/busy_times?include_archived=true&practitioner_id="+pra.ID, e.a.Token)
}

// recordJSON encodes a record as the API shows it, with fields set over it.
func recordJSON(t *testing.T, rec map[string]any, fields map[string]any) string {
	t.Helper()
	out := map[string]any{}
	for k, v := range rec {
		out[k] = v
	}
	for k, v := range fields {
		out[k] = v
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantBusyTimes fails unless the practitioner's busy times, archived ones
// included, are exactly want, in id order.
func wantBusyTimes(t *testing.T, e *env, pra practiced.Practitioner, want []string) {
	t.Helper()
	listed := e.listAll(t, "/v1/busy_times?include_archived=true&practitioner_id="+pra.ID, e.a.Token)
	if listed == nil {
		listed = []map[string]any{}
	}
	got, _ := json.Marshal(listed)
	if canonicalJSON(t, got) != canonicalJSON(t, []byte("["+strings.Join(want, ",")+"]")) {
		t.Fatalf("busy times:\n%s\nwant:\n[%s]", got, strings.Join(want, ","))
	}
}

func TestGetBusyTimeAnswersTheListedRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	occ := weeklySeries(t, e, freshPractitioner(t, e), 2)
	for _, o := range occ {
		wantSameRecord(t, e, "/v1/busy_times/"+idOf(o), "/v1/busy_times", recordJSON(t, o, nil))
	}
	for _, id := range []string{tid.New("bti"), e.a.Clients[0].ID, "bti_123", strings.TrimPrefix(idOf(occ[0]), "bti_")} {
		wantBody(t, e.do("GET", "/v1/busy_times/"+id, e.a.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))
	}
	wantBody(t, e.do("GET", "/v1/busy_times/"+idOf(occ[0]), e.b.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))
}

func TestUpdateBusyTimeChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	for _, tc := range []struct {
		name string
		body map[string]any
		// want holds the fields that change besides updated_at; ADL is
		// Adelaide's id, BOB Bob's.
		want map[string]any
	}{
		{"empty body", map[string]any{}, map[string]any{}},
		{"name", map[string]any{"name": "Supervision"}, map[string]any{"name": "Supervision"}},
		{"null clears the optional fields",
			map[string]any{"name": nil, "note": nil, "busy_time_type_id": nil, "room_id": nil, "vehicle_id": nil, "resource_ids": nil},
			map[string]any{"name": nil, "note": nil, "busy_time_type_id": nil, "room_id": nil, "vehicle_id": nil, "resource_ids": []any{}}},
		{"resource ids are replaced whole", map[string]any{"resource_ids": []string{"projector", "screen"}},
			map[string]any{"resource_ids": []any{"projector", "screen"}}},
		{"both times, with offsets", map[string]any{"starts_at": "2026-03-24T10:15:00+11:00", "ends_at": "2026-03-24T01:45:00+02:00"},
			map[string]any{"starts_at": "2026-03-23T23:15:00Z", "ends_at": "2026-03-23T23:45:00Z", "duration": 30.0}},
		{"the start alone", map[string]any{"starts_at": "2026-03-23T21:00:00Z"},
			map[string]any{"starts_at": "2026-03-23T21:00:00Z", "duration": 120.0}},
		{"the end alone", map[string]any{"ends_at": "2026-03-23T22:01:00Z"}, map[string]any{"ends_at": "2026-03-23T22:01:00Z", "duration": 1.0}},
		{"another location of the practitioner", map[string]any{"location_id": "ADL"}, map[string]any{"location_id": "ADL"}},
		{"another practitioner of the location", map[string]any{"practitioner_id": "BOB"}, map[string]any{"practitioner_id": "BOB"}},
		{"scope this", map[string]any{"scope": "this", "note": "once"}, map[string]any{"note": "once"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pra := freshPractitioner(t, e)
			occ := weeklySeries(t, e, pra, 2)
			e.clock = testfix.Now.Add(time.Hour) // updated_at is the server's clock
			defer func() { e.clock = testfix.Now }()
			body, _ := json.Marshal(tc.body)
			r := e.do("POST", "/v1/busy_times/"+idOf(occ[0]), a.Token, strings.NewReplacer(`"ADL"`, `"`+a.Adelaide.ID+`"`, `"BOB"`, `"`+a.Bob.ID+`"`).Replace(string(body)))
			fields := map[string]any{"updated_at": "2026-03-01T23:00:00Z"}
			for k, v := range tc.want {
				switch v {
				case "ADL":
					v = a.Adelaide.ID
				case "BOB":
					v = a.Bob.ID
				}
				fields[k] = v
			}
			want := recordJSON(t, occ[0], fields)
			wantBody(t, r, http.StatusOK, want)
			wantSameRecord(t, e, "/v1/busy_times/"+idOf(occ[0]), "/v1/busy_times", want)
			// The other occurrence is left as it was; both stay in the series.
			wantBody(t, e.do("GET", "/v1/busy_times/"+idOf(occ[1]), a.Token, nil), http.StatusOK, recordJSON(t, occ[1], nil))
			wantRecordEvents(t, e, idOf(occ[0]), []string{"busy_time.created", "busy_time.updated"}, []string{recordJSON(t, occ[0], nil), want})
		})
	}
}

func TestUpdateBusyTimeRefusesInvalidBodiesAndChangesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	occ := weeklySeries(t, e, pra, 3)
	// A busy time of Bob's, who works at Sydney only.
	r := e.do("POST", "/v1/busy_times", a.Token, busyBody(a.Sydney, a.Bob, "2026-03-23T22:00:00Z", "2026-03-23T23:00:00Z", nil))
	wantStatus(t, r, http.StatusCreated)
	bobs := r.JSON(t)["id"].(string)
	// The third occurrence, shortened to ten minutes, so that moving the
	// series' ends earlier would leave it ending before it starts.
	wantStatus(t, e.do("POST", "/v1/busy_times/"+idOf(occ[2]), a.Token, map[string]any{"ends_at": "2026-04-06T23:10:00Z"}), http.StatusOK)

	type errs = map[string][]string
	const null = "cannot be null"
	for _, tc := range []struct {
		name  string
		id    string
		query string
		body  any
		want  errs
	}{
		{"nulls", idOf(occ[0]), "", map[string]any{"starts_at": nil, "ends_at": nil, "location_id": nil, "practitioner_id": nil, "scope": nil},
			errs{"starts_at": {null}, "ends_at": {null}, "location_id": {null}, "practitioner_id": {null}, "scope": {null}}},
		{"ends before it starts", idOf(occ[0]), "", map[string]any{"starts_at": "2026-03-23T22:00:00Z", "ends_at": "2026-03-23T21:00:00Z"},
			errs{"ends_at": {"must be at least one minute after starts_at"}}},
		{"a start after the stored end", idOf(occ[0]), "", map[string]any{"starts_at": "2026-03-23T23:00:00Z"},
			errs{"ends_at": {"must be at least one minute after starts_at (2026-03-23T23:00:00Z)"}}},
		{"an end before the stored start", idOf(occ[0]), "", map[string]any{"ends_at": "2026-03-23T21:59:30Z"},
			errs{"ends_at": {"must be at least one minute after starts_at (2026-03-23T22:00:00Z)"}}},
		{"a later occurrence left ending before it starts", idOf(occ[1]), "", map[string]any{"scope": "following", "ends_at": "2026-03-30T22:30:00Z"},
			errs{"ends_at": {"would end less than a minute after it starts on the later occurrence " + idOf(occ[2]) +
				" (2026-04-06T23:00:00Z to 2026-04-06T22:40:00Z)"}}},
		{"references of another business", idOf(occ[0]), "", map[string]any{"location_id": e.b.Sydney.ID, "practitioner_id": e.b.Alice.ID,
			"busy_time_type_id": e.b.MeetingType.ID}, errs{"location_id": {"does not exist"}, "practitioner_id": {"does not exist"}, "busy_time_type_id": {"does not exist"}}},
		{"ids of another kind", idOf(occ[0]), "", map[string]any{"location_id": a.Alice.ID, "busy_time_type_id": 12},
			errs{"location_id": {"must be an id starting with loc_"},
				"busy_time_type_id": {`must be an id string such as "btt_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`}}},
		{"a practitioner who does not work at the location sent", idOf(occ[0]), "", map[string]any{"practitioner_id": a.Bob.ID, "location_id": a.Adelaide.ID},
			errs{"practitioner_id": {"does not work at the location " + a.Adelaide.ID}}},
		{"a location where the stored practitioner does not work", bobs, "", map[string]any{"location_id": a.Adelaide.ID},
			errs{"location_id": {"is not a location where the practitioner " + a.Bob.ID + " works"}}},
		{"a practitioner who does not work at the stored location", idOf(occ[0]), "", map[string]any{"practitioner_id": a.Bob.ID, "location_id": a.Adelaide.ID, "name": "x"},
			errs{"practitioner_id": {"does not work at the location " + a.Adelaide.ID}}},
		{"a repeating rule", idOf(occ[0]), "", map[string]any{"repeating_rule": map[string]any{"frequency": "daily", "occurrences": 2}},
			errs{"repeating_rule": {"is not a known field"}}},
		{"an unknown scope", idOf(occ[0]), "", map[string]any{"scope": "all"}, errs{"scope": {"must be one of: this, following"}}},
		{"the scope in the query", idOf(occ[0]), "scope=following", map[string]any{"name": "x"}, errs{"scope": {"is not a known query parameter"}}},
		{"a name too long and a note as a number", idOf(occ[0]), "", map[string]any{"name": strings.Repeat("é", 256), "note": 5},
			errs{"name": {"must be at most 255 characters (it has 256)"}, "note": {"must be a string, not a number"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.listAll(t, "/v1/busy_times?include_archived=true", a.Token)
			events := len(e.feed(t, nil))
			path := "/v1/busy_times/" + tc.id
			if tc.query != "" {
				path += "?" + tc.query
			}
			wantInvalid(t, e.do("POST", path, a.Token, tc.body), tc.want, "")
			if after := e.listAll(t, "/v1/busy_times?include_archived=true", a.Token); !reflect.DeepEqual(before, after) {
				t.Fatal("a refused update changed the busy times")
			}
			if n := len(e.feed(t, nil)); n != events {
				t.Fatalf("a refused update recorded %d events", n-events)
			}
		})
	}
	t.Run("an unknown busy time is a 404 before the body is read", func(t *testing.T) {
		wantBody(t, e.do("POST", "/v1/busy_times/"+tid.New("bti"), a.Token, map[string]any{"bogus": 1}), http.StatusNotFound, messageJSON("Busy time not found."))
		wantBody(t, e.do("POST", "/v1/busy_times/"+idOf(occ[0]), e.b.Token, "{oops"), http.StatusNotFound, messageJSON("Busy time not found."))
	})
}

func TestUpdateBusyTimeFollowingChangesEveryLaterOccurrenceOfTheSeries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	// Series are created at testfix.Now and changed an hour later.
	const now = "2026-03-01T23:00:00Z"
	series := func(t *testing.T, n int) (practiced.Practitioner, []map[string]any) {
		e.clock = testfix.Now
		pra := freshPractitioner(t, e)
		occ := weeklySeries(t, e, pra, n)
		e.clock = testfix.Now.Add(time.Hour)
		return pra, occ
	}
	// Occurrences: 24 and 31 March at 09:00 AEDT (22:00Z), 7, 14 and 21
	// April at 09:00 AEST (23:00Z).
	t.Run("a move of the times keeps each later occurrence at the same new local times, across DST", func(t *testing.T) {
		pra, occ := series(t, 5)
		r := e.do("POST", "/v1/busy_times/"+idOf(occ[1]), a.Token, map[string]any{"scope": "following",
			"starts_at": "2026-03-30T22:30:00Z", "ends_at": "2026-03-31T00:00:00Z", "name": "Moved"}) // 09:30-11:00 AEDT
		moved := func(o map[string]any, starts, ends string) string {
			return recordJSON(t, o, map[string]any{"starts_at": starts, "ends_at": ends, "duration": 90, "name": "Moved", "updated_at": now})
		}
		want := []string{recordJSON(t, occ[0], nil),
			moved(occ[1], "2026-03-30T22:30:00Z", "2026-03-31T00:00:00Z"),
			moved(occ[2], "2026-04-06T23:30:00Z", "2026-04-07T01:00:00Z"), // 09:30-11:00 AEST
			moved(occ[3], "2026-04-13T23:30:00Z", "2026-04-14T01:00:00Z"),
			moved(occ[4], "2026-04-20T23:30:00Z", "2026-04-21T01:00:00Z")}
		wantBody(t, r, http.StatusOK, want[1])
		wantBusyTimes(t, e, pra, want)
		for i, o := range occ[1:] {
			wantRecordEvents(t, e, idOf(o), []string{"busy_time.created", "busy_time.updated"}, []string{recordJSON(t, o, nil), want[i+1]})
		}
	})
	t.Run("scope this changes the occurrence alone, which stays in the series", func(t *testing.T) {
		pra, occ := series(t, 3)
		r := e.do("POST", "/v1/busy_times/"+idOf(occ[1]), a.Token, map[string]any{"starts_at": "2026-03-30T21:00:00Z"})
		want := recordJSON(t, occ[1], map[string]any{"starts_at": "2026-03-30T21:00:00Z", "duration": 120, "updated_at": now})
		wantBody(t, r, http.StatusOK, want)
		wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], nil), want, recordJSON(t, occ[2], nil)})
	})
	t.Run("a change of location or practitioner alone keeps the instants", func(t *testing.T) {
		pra, occ := series(t, 3)
		wantStatus(t, e.do("POST", "/v1/busy_times/"+idOf(occ[1]), a.Token, map[string]any{"scope": "following", "location_id": a.Adelaide.ID}), http.StatusOK)
		at := func(o map[string]any) string {
			return recordJSON(t, o, map[string]any{"location_id": a.Adelaide.ID, "updated_at": now})
		}
		wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], nil), at(occ[1]), at(occ[2])})
	})
	t.Run("a move after a change of location keeps the times local to the new location", func(t *testing.T) {
		pra, occ := series(t, 3)
		// 09:00 Adelaide (ACDT, +10:30) on 31 March, then 09:00 ACST (+09:30).
		wantStatus(t, e.do("POST", "/v1/busy_times/"+idOf(occ[1]), a.Token, map[string]any{"scope": "following", "location_id": a.Adelaide.ID,
			"starts_at": "2026-03-31T09:00:00+10:30", "ends_at": "2026-03-31T10:00:00+10:30"}), http.StatusOK)
		at := func(o map[string]any, starts, ends string) string {
			return recordJSON(t, o, map[string]any{"location_id": a.Adelaide.ID, "starts_at": starts, "ends_at": ends, "updated_at": now})
		}
		wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], nil),
			at(occ[1], "2026-03-30T22:30:00Z", "2026-03-30T23:30:00Z"), at(occ[2], "2026-04-06T23:30:00Z", "2026-04-07T00:30:00Z")})
	})
	t.Run("archived occurrences change too and stay archived", func(t *testing.T) {
		pra, occ := series(t, 3)
		e.clock = testfix.Now // archived before the change
		r := e.do("POST", "/v1/busy_times/"+idOf(occ[2])+"/archive", a.Token, nil)
		wantStatus(t, r, http.StatusOK)
		archived := r.JSON(t)
		e.clock = testfix.Now.Add(time.Hour)
		wantStatus(t, e.do("POST", "/v1/busy_times/"+idOf(occ[0]), a.Token, map[string]any{"scope": "following", "note": nil}), http.StatusOK)
		wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], map[string]any{"note": nil, "updated_at": now}),
			recordJSON(t, occ[1], map[string]any{"note": nil, "updated_at": now}), recordJSON(t, archived, map[string]any{"note": nil, "updated_at": now})})
	})
	t.Run("later means starting at or after it, whatever the order of creation", func(t *testing.T) {
		pra, occ := series(t, 4)
		// The last occurrence, moved on its own to before the second.
		r := e.do("POST", "/v1/busy_times/"+idOf(occ[3]), a.Token, map[string]any{"starts_at": "2026-03-25T22:00:00Z", "ends_at": "2026-03-25T23:00:00Z"})
		wantStatus(t, r, http.StatusOK)
		early := r.JSON(t)
		wantStatus(t, e.do("POST", "/v1/busy_times/"+idOf(occ[1]), a.Token, map[string]any{"scope": "following", "room_id": "room-9"}), http.StatusOK)
		room := map[string]any{"room_id": "room-9", "updated_at": now}
		wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], nil), recordJSON(t, occ[1], room), recordJSON(t, occ[2], room), recordJSON(t, early, nil)})
	})
	t.Run("following on a busy time of no series changes it alone", func(t *testing.T) {
		e.clock = testfix.Now
		r := e.do("POST", "/v1/busy_times", a.Token, busyBody(a.Sydney, freshPractitioner(t, e), "2026-03-23T22:00:00Z", "2026-03-23T23:00:00Z", nil))
		wantStatus(t, r, http.StatusCreated)
		single := r.JSON(t)
		e.clock = testfix.Now.Add(time.Hour)
		wantBody(t, e.do("POST", "/v1/busy_times/"+idOf(single), a.Token, map[string]any{"scope": "following", "ends_at": "2026-03-24T00:00:00Z"}),
			http.StatusOK, recordJSON(t, single, map[string]any{"ends_at": "2026-03-24T00:00:00Z", "duration": 120, "updated_at": now}))
	})
}

func TestDeleteBusyTimeRemovesItOrItAndTheLaterOccurrences(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	occ := weeklySeries(t, e, pra, 5)

	r := e.do("DELETE", "/v1/busy_times/"+idOf(occ[3]), a.Token, nil)
	wantBody(t, r, http.StatusOK, recordJSON(t, occ[3], nil))
	wantBody(t, e.do("GET", "/v1/busy_times/"+idOf(occ[3]), a.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))
	wantBody(t, e.do("DELETE", "/v1/busy_times/"+idOf(occ[3]), a.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))

	r = e.do("DELETE", "/v1/busy_times/"+idOf(occ[1])+"?scope=following", a.Token, nil)
	wantBody(t, r, http.StatusOK, recordJSON(t, occ[1], nil))
	wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], nil)})
	for _, i := range []int{1, 2, 3, 4} {
		wantRecordEvents(t, e, idOf(occ[i]), []string{"busy_time.created", "busy_time.deleted"}, []string{recordJSON(t, occ[i], nil), recordJSON(t, occ[i], nil)})
	}
	r = e.do("DELETE", "/v1/busy_times/"+idOf(occ[0])+"?scope=this", a.Token, nil)
	wantBody(t, r, http.StatusOK, recordJSON(t, occ[0], nil))
	wantBusyTimes(t, e, pra, nil)
}

func TestDeleteBusyTimeRefusesInvalidRequestsAndDeletesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	occ := weeklySeries(t, e, pra, 2)
	path := "/v1/busy_times/" + idOf(occ[0])
	for _, tc := range []struct {
		name  string
		query url.Values
		body  any
		want  map[string][]string
	}{
		{"an unknown scope", qv("scope", "all"), nil, oneError("scope", "must be one of: this, following")},
		{"scope twice", qv("scope", "this", "scope", "following"), nil, oneError("scope", "must be given once")},
		{"an unknown parameter", qv("cascade", "true"), nil, oneError("cascade", "is not a known query parameter")},
		{"the scope in a body", nil, map[string]any{"scope": "following"}, oneError("scope", "is not a known field")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := path
			if len(tc.query) > 0 {
				p += "?" + tc.query.Encode()
			}
			wantInvalid(t, e.do("DELETE", p, a.Token, tc.body), tc.want, "")
		})
	}
	wantBody(t, e.do("DELETE", path, a.ReadOnlyToken, nil), http.StatusForbidden, messageJSON("This API key is read-only."))
	wantBody(t, e.do("DELETE", path, e.b.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))
	wantBody(t, e.do("DELETE", "/v1/busy_times/bti_1?scope=bogus", a.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))
	wantBusyTimes(t, e, pra, []string{recordJSON(t, occ[0], nil), recordJSON(t, occ[1], nil)})
}

func TestArchiveBusyTimeHidesItFromTheListUntilUnarchived(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	occ := weeklySeries(t, e, pra, 2)
	path := "/v1/busy_times/" + idOf(occ[0])
	e.clock = testfix.Now.Add(2 * time.Hour)
	archived := recordJSON(t, occ[0], map[string]any{"archived_at": "2026-03-02T00:00:00Z", "updated_at": "2026-03-02T00:00:00Z"})
	wantBody(t, e.do("POST", path+"/archive", a.Token, nil), http.StatusOK, archived)
	wantBody(t, e.do("POST", path+"/archive", a.Token, nil), http.StatusOK, archived)
	if got := pageIDs(e.do("GET", "/v1/busy_times?practitioner_id="+pra.ID, a.Token, nil).page(t)); !reflect.DeepEqual(got, []string{idOf(occ[1])}) {
		t.Fatalf("live busy times %v, want the second alone", got)
	}
	e.clock = testfix.Now.Add(3 * time.Hour)
	unarchived := recordJSON(t, occ[0], map[string]any{"updated_at": "2026-03-02T01:00:00Z"})
	wantBody(t, e.do("POST", path+"/unarchive", a.Token, nil), http.StatusOK, unarchived)
	wantBusyTimes(t, e, pra, []string{unarchived, recordJSON(t, occ[1], nil)})
	wantRecordEvents(t, e, idOf(occ[0]), []string{"busy_time.created", "busy_time.archived", "busy_time.unarchived"},
		[]string{recordJSON(t, occ[0], nil), archived, unarchived})
	wantBody(t, e.do("POST", path+"/archive", e.b.Token, nil), http.StatusNotFound, messageJSON("Busy time not found."))
	wantBody(t, e.do("POST", path+"/archive", a.ReadOnlyToken, nil), http.StatusForbidden, messageJSON("This API key is read-only."))
}
