package httpapi_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// POST /v1/busy_times: the rules of docs/api.md.

// busyTimeOut is a busy time as the API returns it.
type busyTimeOut struct {
	ID             string  `json:"id"`
	LocationID     string  `json:"location_id"`
	PractitionerID string  `json:"practitioner_id"`
	StartsAt       string  `json:"starts_at"`
	EndsAt         string  `json:"ends_at"`
	Duration       int     `json:"duration"`
	Name           *string `json:"name"`
	Note           *string `json:"note"`
	RepeatID       *string `json:"repeat_id"`
}

// practitionerBusyTimes lists a practitioner's busy times through the API.
func practitionerBusyTimes(t *testing.T, e *env, praID string) []busyTimeOut {
	t.Helper()
	var out []busyTimeOut
	for _, m := range e.listAll(t, "/v1/busy_times?practitioner_id="+praID, e.a.Token) {
		b, _ := json.Marshal(m)
		var bt busyTimeOut
		if err := json.Unmarshal(b, &bt); err != nil {
			t.Fatal(err)
		}
		out = append(out, bt)
	}
	return out
}

// freshPractitioner seeds a practitioner working at both of A's
// locations, so each case lists back only its own busy times.
func freshPractitioner(t *testing.T, e *env) practiced.Practitioner {
	t.Helper()
	p := newPractitioner("Pat", e.a.Sydney, e.a.Adelaide)
	seedData(t, e, e.a, practiced.SeedData{Practitioners: []practiced.Practitioner{p}})
	return p
}

func busyBody(loc practiced.Location, pra practiced.Practitioner, starts, ends string, extra map[string]any) map[string]any {
	b := map[string]any{"location_id": loc.ID, "practitioner_id": pra.ID, "starts_at": starts, "ends_at": ends}
	maps.Copy(b, extra)
	return b
}

func TestCreateBusyTimeAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// created_at and updated_at are the server's clock.
	const now = "2026-03-01T22:00:00Z"
	for _, tc := range []struct {
		name  string
		extra map[string]any
		// starts, ends are sent; want is the expected record, in which
		// the practitioner's id is written PRA.
		starts, ends string
		want         string
	}{
		{"only the required fields: name and note are null", nil,
			"2026-03-03T01:00:00Z", "2026-03-03T02:30:00Z",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T02:30:00Z","duration":90,"name":null,"note":null,
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
		{"every optional field", map[string]any{"name": "Team meeting", "note": "Bring notes", "busy_time_type_id": "BTT",
			"room_id": "room-2", "vehicle_id": "van-1", "resource_ids": []string{"projector"}},
			"2026-03-03T01:00:00Z", "2026-03-03T01:45:00Z",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T01:45:00Z","duration":45,"name":"Team meeting","note":"Bring notes",
			  "busy_time_type_id":"BTT","room_id":"room-2","vehicle_id":"van-1","resource_ids":["projector"],"repeat_id":null}`},
		{"offsets are converted to UTC", nil,
			"2026-03-03T12:00:00+11:00", "2026-03-02T21:00:00-05:00",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T02:00:00Z","duration":60,"name":null,"note":null,
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
		{"duration counts whole minutes; fractions of seconds are dropped", nil,
			"2026-03-03T01:00:00.999Z", "2026-03-03T01:01:59.5Z",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T01:01:59Z","duration":1,"name":null,"note":null,
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
		{"a day and more", nil,
			"2026-03-03T00:00:00Z", "2026-03-04T01:15:00Z",
			`{"starts_at":"2026-03-03T00:00:00Z","ends_at":"2026-03-04T01:15:00Z","duration":1515,"name":null,"note":null,
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
		{"name of 255 two-byte characters", map[string]any{"name": strings.Repeat("é", 255)},
			"2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T02:00:00Z","duration":60,"name":"` + strings.Repeat("é", 255) + `","note":null,
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
		{"note of 2000 four-byte characters", map[string]any{"note": strings.Repeat("😀", 2000)},
			"2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T02:00:00Z","duration":60,"name":null,"note":"` + strings.Repeat("😀", 2000) + `",
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
		{"a null repeating rule is no rule", map[string]any{"repeating_rule": nil, "name": nil},
			"2026-03-03T01:00:00Z", "2026-03-03T02:00:00Z",
			`{"starts_at":"2026-03-03T01:00:00Z","ends_at":"2026-03-03T02:00:00Z","duration":60,"name":null,"note":null,
			  "busy_time_type_id":null,"room_id":null,"vehicle_id":null,"resource_ids":[],"repeat_id":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pra := freshPractitioner(t, e)
			extra := map[string]any{}
			for k, v := range tc.extra {
				if v == "BTT" {
					v = e.a.MeetingType.ID
				}
				extra[k] = v
			}
			r := e.do("POST", "/v1/busy_times", e.a.Token, busyBody(e.a.Sydney, pra, tc.starts, tc.ends, extra))
			wantStatus(t, r, http.StatusCreated)
			got := r.JSON(t)
			id, _ := got["id"].(string)
			if !tid.Valid(id, "bti") {
				t.Fatalf("id %q is not a bti_ id", id)
			}
			var want map[string]any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(tc.want, `"BTT"`, `"`+e.a.MeetingType.ID+`"`)), &want); err != nil {
				t.Fatal(err)
			}
			want["id"], want["location_id"], want["practitioner_id"] = id, e.a.Sydney.ID, pra.ID
			want["created_at"], want["updated_at"], want["archived_at"] = now, now, nil
			wantJSON, _ := json.Marshal(want)
			wantBody(t, r, http.StatusCreated, string(wantJSON))
			// The list shows the same record.
			list := e.listAll(t, "/v1/busy_times?practitioner_id="+pra.ID, e.a.Token)
			listed, _ := json.Marshal(list)
			if canonicalJSON(t, listed) != canonicalJSON(t, []byte("["+string(wantJSON)+"]")) {
				t.Fatalf("listed %s\nwant [%s]", listed, wantJSON)
			}
		})
	}
}

func TestCreateBusyTimeWithoutRuleIsCreatedOverOverlaps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pra := freshPractitioner(t, e)
	existing := newBusyTime(pra, e.a.Sydney, mustUTC("2026-03-03T01:00:00Z"), 60)
	apt := newAppointment(pra, e.a.Sydney, nil, mustUTC("2026-03-03T01:00:00Z"), 60)
	seedData(t, e, e.a, practiced.SeedData{BusyTimes: []practiced.BusyTime{existing}, Appointments: []practiced.Appointment{apt}})
	r := e.do("POST", "/v1/busy_times", e.a.Token, busyBody(e.a.Sydney, pra, "2026-03-03T01:30:00Z", "2026-03-03T02:00:00Z", nil))
	wantStatus(t, r, http.StatusCreated)
	if got := practitionerBusyTimes(t, e, pra.ID); len(got) != 2 {
		t.Fatalf("%d busy times, want the existing one and the new one", len(got))
	}
}

func TestCreateBusyTimeRefusesInvalidBodiesAndCreatesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	valid := func(extra map[string]any) map[string]any {
		b := validBusyTime(a)
		maps.Copy(b, extra)
		return b
	}
	without := func(keys ...string) map[string]any {
		b := validBusyTime(a)
		for _, k := range keys {
			delete(b, k)
		}
		return b
	}
	rule := func(r map[string]any) map[string]any { return valid(map[string]any{"repeating_rule": r}) }
	const weekdays = "must be one of: monday, tuesday, wednesday, thursday, friday, saturday, sunday"
	type errs = map[string][]string
	for _, tc := range []struct {
		name string
		body map[string]any
		want errs
	}{
		{"empty body", map[string]any{}, errs{"location_id": {"is required"}, "practitioner_id": {"is required"},
			"starts_at": {"is required"}, "ends_at": {"is required"}}},
		{"no location", without("location_id"), errs{"location_id": {"is required"}}},
		{"no practitioner", without("practitioner_id"), errs{"practitioner_id": {"is required"}}},
		{"no start", without("starts_at"), errs{"starts_at": {"is required"}}},
		{"no end", without("ends_at"), errs{"ends_at": {"is required"}}},
		{"nulls", map[string]any{"location_id": nil, "practitioner_id": nil, "starts_at": nil, "ends_at": nil},
			errs{"location_id": {"is required and cannot be null"}, "practitioner_id": {"is required and cannot be null"},
				"starts_at": {"is required and cannot be null"}, "ends_at": {"is required and cannot be null"}}},
		{"ends when it starts", valid(map[string]any{"ends_at": "2026-03-03T01:00:00Z"}), errs{"ends_at": {"must be at least one minute after starts_at"}}},
		{"ends 59 seconds after it starts", valid(map[string]any{"ends_at": "2026-03-03T01:00:59Z"}), errs{"ends_at": {"must be at least one minute after starts_at"}}},
		{"ends before it starts", valid(map[string]any{"ends_at": "2026-03-03T00:59:59Z"}), errs{"ends_at": {"must be at least one minute after starts_at"}}},
		{"ends before it starts, by offsets", valid(map[string]any{"ends_at": "2026-03-03T11:30:00+11:00"}), errs{"ends_at": {"must be at least one minute after starts_at"}}},
		{"date-only start", valid(map[string]any{"starts_at": "2026-03-03"}),
			errs{"starts_at": {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"}}},
		{"date-only start and end", valid(map[string]any{"starts_at": "2026-03-03", "ends_at": "2026-03-04"}),
			errs{"starts_at": {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
				"ends_at": {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"}}},
		{"start without offset", valid(map[string]any{"starts_at": "2026-03-03T01:00:00"}),
			errs{"starts_at": {"must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"}}},
		{"start as a number", valid(map[string]any{"starts_at": 1772499600}), errs{"starts_at": {"must be a string, not a number"}}},
		{"start in the year 1800", valid(map[string]any{"starts_at": "1800-03-03T01:00:00Z"}), errs{"starts_at": {"must be between the years 1900 and 2200"}}},
		{"name of 256 characters", valid(map[string]any{"name": strings.Repeat("n", 256)}), errs{"name": {"must be at most 255 characters (it has 256)"}}},
		{"name of 256 two-byte characters", valid(map[string]any{"name": strings.Repeat("é", 256)}), errs{"name": {"must be at most 255 characters (it has 256)"}}},
		{"name as a number", valid(map[string]any{"name": 5}), errs{"name": {"must be a string, not a number"}}},
		{"name with a NUL character", valid(map[string]any{"name": "a\u0000b"}), errs{"name": {"must not contain NUL characters"}}},
		{"note of 2001 characters", valid(map[string]any{"note": strings.Repeat("ü", 2001)}), errs{"note": {"must be at most 2000 characters (it has 2001)"}}},
		{"practitioner not working at the location", valid(map[string]any{"practitioner_id": a.Bob.ID, "location_id": a.Adelaide.ID}),
			errs{"practitioner_id": {"does not work at the location " + a.Adelaide.ID}}},
		{"location of another business", valid(map[string]any{"location_id": e.b.Sydney.ID}), errs{"location_id": {"does not exist"}}},
		{"practitioner of another business", valid(map[string]any{"practitioner_id": e.b.Alice.ID}), errs{"practitioner_id": {"does not exist"}}},
		{"location and practitioner of another business", valid(map[string]any{"location_id": e.b.Sydney.ID, "practitioner_id": e.b.Alice.ID}),
			errs{"location_id": {"does not exist"}, "practitioner_id": {"does not exist"}}},
		{"busy time type of another business", valid(map[string]any{"busy_time_type_id": e.b.MeetingType.ID}), errs{"busy_time_type_id": {"does not exist"}}},
		{"every reference of another business", valid(map[string]any{"location_id": e.b.Sydney.ID, "practitioner_id": e.b.Alice.ID, "busy_time_type_id": e.b.MeetingType.ID}),
			errs{"location_id": {"does not exist"}, "practitioner_id": {"does not exist"}, "busy_time_type_id": {"does not exist"}}},
		{"unknown location", valid(map[string]any{"location_id": tid.New("loc")}), errs{"location_id": {"does not exist"}}},
		{"location id of another kind", valid(map[string]any{"location_id": a.Alice.ID}), errs{"location_id": {"must be an id starting with loc_"}}},
		{"empty location id", valid(map[string]any{"location_id": ""}), errs{"location_id": {"must be an id starting with loc_"}}},
		{"busy time type id of another kind", valid(map[string]any{"busy_time_type_id": a.Tag.ID}), errs{"busy_time_type_id": {"must be an id starting with btt_"}}},
		{"rule not an object", valid(map[string]any{"repeating_rule": "weekly"}), errs{"repeating_rule": {"must be an object, not a string"}}},
		{"rule without frequency", rule(map[string]any{"occurrences": 2}), errs{"repeating_rule.frequency": {"is required"}}},
		{"rule without occurrences", rule(map[string]any{"frequency": "daily"}), errs{"repeating_rule.occurrences": {"is required"}}},
		{"yearly frequency", rule(map[string]any{"frequency": "yearly", "occurrences": 2}), errs{"repeating_rule.frequency": {"must be one of: daily, weekly, monthly"}}},
		{"capitalised frequency", rule(map[string]any{"frequency": "Daily", "occurrences": 2}), errs{"repeating_rule.frequency": {"must be one of: daily, weekly, monthly"}}},
		{"interval 0", rule(map[string]any{"frequency": "daily", "occurrences": 2, "interval": 0}), errs{"repeating_rule.interval": {"must be between 1 and 52"}}},
		{"interval 53", rule(map[string]any{"frequency": "weekly", "occurrences": 2, "interval": 53}), errs{"repeating_rule.interval": {"must be between 1 and 52"}}},
		{"interval 1.5", rule(map[string]any{"frequency": "daily", "occurrences": 2, "interval": 1.5}), errs{"repeating_rule.interval": {"must be a whole number, not a number"}}},
		{"interval as a string", rule(map[string]any{"frequency": "daily", "occurrences": 2, "interval": "2"}), errs{"repeating_rule.interval": {"must be a whole number, not a string"}}},
		{"occurrences 0", rule(map[string]any{"frequency": "daily", "occurrences": 0}), errs{"repeating_rule.occurrences": {"must be between 1 and 260"}}},
		{"occurrences 261", rule(map[string]any{"frequency": "daily", "occurrences": 261}), errs{"repeating_rule.occurrences": {"must be between 1 and 260"}}},
		{"unknown day", rule(map[string]any{"frequency": "weekly", "occurrences": 2, "days": []any{"tuesday", "funday"}}), errs{"repeating_rule.days.1": {weekdays}}},
		{"capitalised day", rule(map[string]any{"frequency": "weekly", "occurrences": 2, "days": []any{"Tuesday"}}), errs{"repeating_rule.days.0": {weekdays}}},
		{"day as a number", rule(map[string]any{"frequency": "weekly", "occurrences": 2, "days": []any{2}}), errs{"repeating_rule.days.0": {"must be a string, not a number"}}},
		{"repeated day", rule(map[string]any{"frequency": "weekly", "occurrences": 2, "days": []any{"tuesday", "tuesday"}}), errs{"repeating_rule.days.1": {"repeats a day given earlier"}}},
		{"days not an array", rule(map[string]any{"frequency": "weekly", "occurrences": 2, "days": "tuesday"}), errs{"repeating_rule.days": {"must be an array, not a string"}}},
		{"days on a daily rule", rule(map[string]any{"frequency": "daily", "occurrences": 2, "days": []any{"tuesday"}}), errs{"repeating_rule.days": {"is only allowed for a weekly rule"}}},
		{"days on a monthly rule", rule(map[string]any{"frequency": "monthly", "occurrences": 2, "days": []any{"tuesday"}}), errs{"repeating_rule.days": {"is only allowed for a weekly rule"}}},
		{"skip_conflicts as a string", rule(map[string]any{"frequency": "daily", "occurrences": 2, "skip_conflicts": "yes"}), errs{"repeating_rule.skip_conflicts": {"must be a boolean, not a string"}}},
		{"an occurrence wholly inside a DST gap",
			valid(map[string]any{"starts_at": "2026-10-02T16:00:00Z", "ends_at": "2026-10-02T16:30:00Z", // 02:00-02:30 Sydney
				"repeating_rule": map[string]any{"frequency": "daily", "occurrences": 2}}),
			errs{"repeating_rule": {"cannot be expanded: the occurrence on 2026-10-04 is empty in Australia/Sydney (its local times fall in a DST change)"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.busyTimeCount(t, a.Token)
			r := e.do("POST", "/v1/busy_times", a.Token, tc.body)
			wantInvalid(t, r, tc.want, "")
			if after := e.busyTimeCount(t, a.Token); after != before {
				t.Fatalf("%d busy times before, %d after a refused request", before, after)
			}
		})
	}
}

// utcSpan is an expected occurrence, in UTC.
type utcSpan struct{ starts, ends string }

func TestBusyTimeRepeatsAtTheSameLocalTimeInTheLocationZone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name         string
		adelaide     bool
		starts, ends string
		rule         map[string]any
		want         []utcSpan
	}{
		{"daily, 09:00-10:00 Sydney", false, "2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z",
			map[string]any{"frequency": "daily", "occurrences": 5},
			[]utcSpan{{"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z"}, {"2026-03-03T22:00:00Z", "2026-03-03T23:00:00Z"},
				{"2026-03-04T22:00:00Z", "2026-03-04T23:00:00Z"}, {"2026-03-05T22:00:00Z", "2026-03-05T23:00:00Z"},
				{"2026-03-06T22:00:00Z", "2026-03-06T23:00:00Z"}}},
		{"every other day", false, "2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z",
			map[string]any{"frequency": "daily", "interval": 2, "occurrences": 3},
			[]utcSpan{{"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z"}, {"2026-03-04T22:00:00Z", "2026-03-04T23:00:00Z"},
				{"2026-03-06T22:00:00Z", "2026-03-06T23:00:00Z"}}},
		{"weekly on Tuesday and Thursday from a Tuesday", false, "2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z",
			map[string]any{"frequency": "weekly", "occurrences": 4, "days": []string{"tuesday", "thursday"}},
			[]utcSpan{{"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z"}, {"2026-03-04T22:00:00Z", "2026-03-04T23:00:00Z"},
				{"2026-03-09T22:00:00Z", "2026-03-09T23:00:00Z"}, {"2026-03-11T22:00:00Z", "2026-03-11T23:00:00Z"}}},
		{"weekly without days repeats the start's weekday, every other week", false, "2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z",
			map[string]any{"frequency": "weekly", "interval": 2, "occurrences": 3},
			[]utcSpan{{"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z"}, {"2026-03-16T22:00:00Z", "2026-03-16T23:00:00Z"},
				{"2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z"}}},
		{"weekly on Thursday from a Tuesday keeps the Tuesday first", false, "2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z",
			map[string]any{"frequency": "weekly", "occurrences": 3, "days": []string{"thursday"}},
			[]utcSpan{{"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z"}, {"2026-03-04T22:00:00Z", "2026-03-04T23:00:00Z"},
				{"2026-03-11T22:00:00Z", "2026-03-11T23:00:00Z"}}},
		{"monthly on the 31st skips short months and crosses DST", false, "2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z",
			map[string]any{"frequency": "monthly", "occurrences": 3},
			[]utcSpan{{"2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z"}, {"2026-05-30T23:00:00Z", "2026-05-31T00:00:00Z"},
				{"2026-07-30T23:00:00Z", "2026-07-31T00:00:00Z"}}},
		{"weekly 09:00 Sydney across the end of DST on 5 April", false, "2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z",
			map[string]any{"frequency": "weekly", "occurrences": 3},
			[]utcSpan{{"2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z"}, {"2026-04-06T23:00:00Z", "2026-04-07T00:00:00Z"},
				{"2026-04-13T23:00:00Z", "2026-04-14T00:00:00Z"}}},
		{"daily 01:00-04:00 Sydney lasts four hours on the night DST ends", false, "2026-04-03T14:00:00Z", "2026-04-03T17:00:00Z",
			map[string]any{"frequency": "daily", "occurrences": 3},
			[]utcSpan{{"2026-04-03T14:00:00Z", "2026-04-03T17:00:00Z"}, {"2026-04-04T14:00:00Z", "2026-04-04T18:00:00Z"},
				{"2026-04-05T15:00:00Z", "2026-04-05T18:00:00Z"}}},
		{"weekly 09:00 Sydney across the start of DST on 4 October", false, "2026-10-02T23:00:00Z", "2026-10-03T00:00:00Z",
			map[string]any{"frequency": "weekly", "occurrences": 2},
			[]utcSpan{{"2026-10-02T23:00:00Z", "2026-10-03T00:00:00Z"}, {"2026-10-09T22:00:00Z", "2026-10-09T23:00:00Z"}}},
		{"02:30 Sydney moves to 03:00 on the day it does not exist", false, "2026-10-02T16:30:00Z", "2026-10-02T17:30:00Z",
			map[string]any{"frequency": "daily", "occurrences": 2},
			[]utcSpan{{"2026-10-02T16:30:00Z", "2026-10-02T17:30:00Z"}, {"2026-10-03T16:00:00Z", "2026-10-03T16:30:00Z"}}},
		{"weekly 09:00 Adelaide keeps Adelaide's local time", true, "2026-03-30T22:30:00Z", "2026-03-30T23:30:00Z",
			map[string]any{"frequency": "weekly", "occurrences": 2},
			[]utcSpan{{"2026-03-30T22:30:00Z", "2026-03-30T23:30:00Z"}, {"2026-04-06T23:30:00Z", "2026-04-07T00:30:00Z"}}},
		{"one occurrence", false, "2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z",
			map[string]any{"frequency": "monthly", "occurrences": 1},
			[]utcSpan{{"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pra := freshPractitioner(t, e)
			loc := e.a.Sydney
			if tc.adelaide {
				loc = e.a.Adelaide
			}
			r := e.do("POST", "/v1/busy_times", e.a.Token, busyBody(loc, pra, tc.starts, tc.ends,
				map[string]any{"name": "Admin", "repeating_rule": tc.rule}))
			wantStatus(t, r, http.StatusCreated)
			var first busyTimeOut
			json.Unmarshal(r.Body, &first)
			got := practitionerBusyTimes(t, e, pra.ID)
			wantOccurrences(t, got, tc.want)
			if jsonText(first) != jsonText(got[0]) {
				t.Fatalf("response %+v is not the first occurrence %+v", first, got[0])
			}
			for _, b := range got {
				if b.RepeatID == nil || !tid.Valid(*b.RepeatID, "rep") || *b.RepeatID != *first.RepeatID {
					t.Fatalf("occurrences do not share one rep_ repeat id: %+v", got)
				}
				if b.Name == nil || *b.Name != "Admin" || b.Note != nil || b.LocationID != loc.ID {
					t.Fatalf("occurrence %+v does not copy the request", b)
				}
			}
		})
	}
	t.Run("260 occurrences, the most allowed", func(t *testing.T) {
		pra := freshPractitioner(t, e)
		r := e.do("POST", "/v1/busy_times", e.a.Token, busyBody(e.a.Sydney, pra, "2026-03-02T22:00:00Z", "2026-03-02T22:15:00Z",
			map[string]any{"repeating_rule": map[string]any{"frequency": "daily", "occurrences": 260}}))
		wantStatus(t, r, http.StatusCreated)
		if n := len(practitionerBusyTimes(t, e, pra.ID)); n != 260 {
			t.Fatalf("%d occurrences, want 260", n)
		}
	})
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// wantOccurrences fails unless the busy times are exactly the spans, in
// order, each with its duration in minutes.
func wantOccurrences(t *testing.T, got []busyTimeOut, want []utcSpan) {
	t.Helper()
	var gotSpans []utcSpan
	for _, b := range got {
		gotSpans = append(gotSpans, utcSpan{b.StartsAt, b.EndsAt})
		if d := int(mustUTC(b.EndsAt).Sub(mustUTC(b.StartsAt)).Minutes()); b.Duration != d {
			t.Fatalf("busy time %s-%s has duration %d, want %d", b.StartsAt, b.EndsAt, b.Duration, d)
		}
	}
	if fmt.Sprint(gotSpans) != fmt.Sprint(want) {
		t.Fatalf("occurrences\n  %v\nwant\n  %v", gotSpans, want)
	}
}

func TestBusyTimeRepeatSkipConflicts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	// Occurrence k (1-based) of a daily 10:00-11:00 Sydney rule from
	// Tuesday 3 March 2026.
	occ := func(k int) time.Time { return mustUTC("2026-03-02T23:00:00Z").Add(time.Duration(k-1) * 24 * time.Hour) }
	occSpan := func(k int) utcSpan {
		return utcSpan{occ(k).Format(time.RFC3339), occ(k).Add(time.Hour).Format(time.RFC3339)}
	}
	// obstacles seeds, for the practitioner, something near each of
	// occurrences 2 to 8; those at 2, 4 and 8 conflict.
	obstacles := func(pra practiced.Practitioner) []string {
		cancelled := newAppointment(pra, a.Sydney, nil, occ(5), 60)
		cancelled.CancelledAt = &seeded
		archived := newBusyTime(pra, a.Sydney, occ(6), 60)
		archived.ArchivedAt = &seeded
		d := practiced.SeedData{
			BusyTimes: []practiced.BusyTime{
				newBusyTime(pra, a.Sydney, occ(2), 60),                 // the same hour
				newBusyTime(pra, a.Sydney, occ(3).Add(-time.Hour), 60), // ends as it starts: no conflict
				archived,                                 // archived: no conflict
				newBusyTime(a.Bob, a.Sydney, occ(7), 60), // another practitioner: no conflict
				newBusyTime(pra, a.Sydney, occ(8).Add(time.Hour), 15), // starts as it ends: no conflict
			},
			Appointments: []practiced.Appointment{
				newAppointment(pra, a.Sydney, nil, occ(4).Add(30*time.Minute), 60), // overlaps its second half
				cancelled, // cancelled: no conflict
				newAppointment(pra, a.Adelaide, nil, occ(8).Add(-15*time.Minute), 30), // at another location: conflicts
			},
		}
		seedData(t, e, a, d)
		return idsOf(d.BusyTimes, func(b practiced.BusyTime) string { return b.ID })
	}
	create := func(pra practiced.Practitioner, occurrences int, skip any) response {
		rule := map[string]any{"frequency": "daily", "occurrences": occurrences}
		if skip != nil {
			rule["skip_conflicts"] = skip
		}
		return e.do("POST", "/v1/busy_times", a.Token, busyBody(a.Sydney, pra, occSpan(1).starts, occSpan(1).ends,
			map[string]any{"repeating_rule": rule}))
	}
	// created lists the practitioner's busy times but the seeded ones.
	created := func(t *testing.T, pra practiced.Practitioner, seededIDs []string) []busyTimeOut {
		var out []busyTimeOut
		for _, b := range practitionerBusyTimes(t, e, pra.ID) {
			if !strings.Contains(strings.Join(seededIDs, " "), b.ID) {
				out = append(out, b)
			}
		}
		return out
	}
	t.Run("true skips occurrences overlapping busy times and appointments", func(t *testing.T) {
		pra := freshPractitioner(t, e)
		seededIDs := obstacles(pra)
		r := create(pra, 8, true)
		wantStatus(t, r, http.StatusCreated)
		wantOccurrences(t, created(t, pra, seededIDs), []utcSpan{occSpan(1), occSpan(3), occSpan(5), occSpan(6), occSpan(7)})
	})
	for _, skip := range []any{false, nil} {
		t.Run(fmt.Sprintf("skip_conflicts %v creates every occurrence", skip), func(t *testing.T) {
			pra := freshPractitioner(t, e)
			seededIDs := obstacles(pra)
			wantStatus(t, create(pra, 8, skip), http.StatusCreated)
			wantOccurrences(t, created(t, pra, seededIDs), []utcSpan{occSpan(1), occSpan(2), occSpan(3), occSpan(4),
				occSpan(5), occSpan(6), occSpan(7), occSpan(8)})
		})
	}
	t.Run("the response is the first created occurrence", func(t *testing.T) {
		pra := freshPractitioner(t, e)
		blocker := newBusyTime(pra, a.Sydney, occ(1), 60)
		seedData(t, e, a, practiced.SeedData{BusyTimes: []practiced.BusyTime{blocker}})
		r := create(pra, 3, true)
		wantStatus(t, r, http.StatusCreated)
		var first busyTimeOut
		json.Unmarshal(r.Body, &first)
		if (utcSpan{first.StartsAt, first.EndsAt}) != occSpan(2) {
			t.Fatalf("response %+v, want the second occurrence %v", first, occSpan(2))
		}
		wantOccurrences(t, created(t, pra, []string{blocker.ID}), []utcSpan{occSpan(2), occSpan(3)})
	})
	t.Run("every occurrence skipped is a 422 on starts_at", func(t *testing.T) {
		pra := freshPractitioner(t, e)
		seedData(t, e, a, practiced.SeedData{BusyTimes: []practiced.BusyTime{newBusyTime(pra, a.Sydney, occ(1), 3*24*60)}})
		before := e.busyTimeCount(t, a.Token)
		r := create(pra, 3, true)
		wantInvalid(t, r, oneError("starts_at", "conflicts with the practitioner's appointments or busy times at every occurrence"), "")
		if after := e.busyTimeCount(t, a.Token); after != before {
			t.Fatalf("%d busy times before, %d after", before, after)
		}
	})
	t.Run("an appointment whose every attendee is cancelled does not conflict", func(t *testing.T) {
		pra := freshPractitioner(t, e)
		apt := newAppointment(pra, a.Sydney, nil, occ(2), 60)
		ac := newAppointmentClient(apt, a.Clients[0].ID, practiced.StatusCancelled)
		ac.CancelledAt = &seeded
		seedData(t, e, a, practiced.SeedData{Appointments: []practiced.Appointment{apt}, AppointmentClients: []practiced.AppointmentClient{ac}})
		wantStatus(t, create(pra, 3, true), http.StatusCreated)
		wantOccurrences(t, created(t, pra, nil), []utcSpan{occSpan(1), occSpan(2), occSpan(3)})
	})
}
