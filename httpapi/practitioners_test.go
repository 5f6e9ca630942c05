package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

func TestCreatePractitionerAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	// Ids sent in any order are answered in id order, as they are stored.
	body := withIDs(`{"title":"Dr","first_name":"Dana","last_name":"Park","display_name":"Dr Dana","designation":"Podiatrist",
		"email":"dana@example.com","phone":"+61 400 111 222","location_ids":["ADL","SYD"],"service_ids":["GROUP","CONSULT"],
		"working_hours":[{"location_id":"SYD","day":"monday","starts_at":"09:00","ends_at":"12:00"},
			{"location_id":"SYD","day":"monday","starts_at":"13:00","ends_at":"17:00"},
			{"location_id":"ADL","day":"sunday","starts_at":"20:00","ends_at":"24:00"}],
		"exceptions":[{"date":"2026-03-09","location_id":"SYD","ranges":[{"starts_at":"10:00","ends_at":"11:00"}]},
			{"date":"2026-03-10"},{"date":"2026-03-11","location_id":null,"ranges":[]}]}`,
		map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID, "CONSULT": a.Consult.ID, "GROUP": a.Group.ID})
	id, r := setupCreate(t, e, "practitioners", body)
	want := withIDs(`{"id":"ID","title":"Dr","first_name":"Dana","last_name":"Park","display_name":"Dr Dana",
		"designation":"Podiatrist","email":"dana@example.com","phone":"+61400111222","location_ids":["SYD","ADL"],
		"service_ids":["CONSULT","GROUP"],
		"working_hours":[{"location_id":"SYD","day":"monday","starts_at":"09:00","ends_at":"12:00"},
			{"location_id":"SYD","day":"monday","starts_at":"13:00","ends_at":"17:00"},
			{"location_id":"ADL","day":"sunday","starts_at":"20:00","ends_at":"24:00"}],
		"exceptions":[{"date":"2026-03-09","location_id":"SYD","ranges":[{"starts_at":"10:00","ends_at":"11:00"}]},
			{"date":"2026-03-10","location_id":null,"ranges":[]},{"date":"2026-03-11","location_id":null,"ranges":[]}],
		"created_at":"NOW","updated_at":"NOW","archived_at":null}`,
		map[string]string{"ID": id, "SYD": a.Sydney.ID, "ADL": a.Adelaide.ID, "CONSULT": a.Consult.ID, "GROUP": a.Group.ID, "NOW": setupNow})
	wantBody(t, r, http.StatusCreated, want)
	wantBody(t, e.do("GET", "/v1/practitioners/"+id, a.Token, nil), http.StatusOK, want)
}

func TestPractitionerRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.a, e.b
	ids := map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID, "CONSULT": a.Consult.ID, "B_LOC": b.Sydney.ID,
		"B_SER": b.Consult.ID, "NEW_LOC": tid.New("loc")}
	for _, tc := range []struct {
		name string
		body string
		want map[string][]string
	}{
		{"plain fields", `{"first_name":"","last_name":"Park","email":"x","phone":"12","title":false}`,
			map[string][]string{
				"first_name": {"must not be empty"},
				"email":      {"must be an e-mail address such as name@example.com"},
				"phone":      {"must be a phone number in international format, such as +61 412 345 678, or in the national format of AU (the record's address.country_code, else AU), such as 0412 345 678"},
				"title":      {"must be a string, not a boolean"},
			}},
		{"locations and services must be the business's own", `{"location_ids":["SYD","B_LOC","NEW_LOC"],"service_ids":["B_SER","CONSULT"]}`,
			map[string][]string{
				"location_ids.1": {"does not exist"},
				"location_ids.2": {"does not exist"},
				"service_ids.0":  {"does not exist"},
			}},
		{"ids of the wrong kind", `{"location_ids":["CONSULT"],"service_ids":["SYD"]}`,
			map[string][]string{
				"location_ids.0": {"must be an id starting with loc_"},
				"service_ids.0":  {"must be an id starting with ser_"},
			}},
		{"working hours items", `{"location_ids":["SYD"],"working_hours":[{},
			{"location_id":"SYD","day":"mon","starts_at":"9am","ends_at":"25:00"},
			{"location_id":"B_LOC","day":"friday","starts_at":"09:00","ends_at":"10:00","note":"x"}, 5]}`,
			map[string][]string{
				"working_hours.0.location_id": {"is required"},
				"working_hours.0.day":         {"is required"},
				"working_hours.0.starts_at":   {"is required"},
				"working_hours.0.ends_at":     {"is required"},
				"working_hours.1.day":         {"must be one of: monday, tuesday, wednesday, thursday, friday, saturday, sunday"},
				"working_hours.1.starts_at":   {"must be a time of day such as 09:30, from 00:00 to 24:00"},
				"working_hours.1.ends_at":     {"must be a time of day such as 09:30, from 00:00 to 24:00"},
				"working_hours.2.location_id": {"does not exist"},
				"working_hours.2.note":        {"is not a known field"},
				"working_hours.3":             {"must be an object, not a number"},
			}},
		{"working hours lie at the practitioner's locations, in order and apart", `{"location_ids":["SYD"],"working_hours":[
			{"location_id":"SYD","day":"monday","starts_at":"09:00","ends_at":"12:00"},
			{"location_id":"SYD","day":"monday","starts_at":"11:00","ends_at":"13:00"},
			{"location_id":"SYD","day":"tuesday","starts_at":"11:00","ends_at":"13:00"},
			{"location_id":"ADL","day":"monday","starts_at":"09:00","ends_at":"12:00"},
			{"location_id":"SYD","day":"friday","starts_at":"17:00","ends_at":"17:00"},
			{"location_id":"SYD","day":"saturday","starts_at":"24:00","ends_at":"24:00"}]}`,
			map[string][]string{
				"working_hours.1":             {"overlaps working_hours.0 on monday at the same location"},
				"working_hours.3.location_id": {"is not one of the practitioner's location_ids"},
				"working_hours.4.ends_at":     {"must be after starts_at (17:00)"},
				"working_hours.5.starts_at":   {"must be before 24:00, which can only end a range"},
			}},
		{"exception items", `{"location_ids":["SYD"],"exceptions":[{"location_id":"SYD"},{"date":"2026-02-30"},
			{"date":"2026-03-09T00:00:00Z","ranges":[{"starts_at":"10:00"}]},{"date":"2026-03-10","ranges":{}}]}`,
			map[string][]string{
				"exceptions.0.date":             {"is required"},
				"exceptions.1.date":             {"must be a date such as 1990-05-31"},
				"exceptions.2.date":             {"must be a date such as 1990-05-31"},
				"exceptions.2.ranges.0.ends_at": {"is required"},
				"exceptions.3.ranges":           {"must be an array, not an object"},
			}},
		{"exceptions are at the practitioner's locations, once a date, with ranges apart", `{"location_ids":["SYD"],"exceptions":[
			{"date":"2026-03-09","location_id":"SYD"},
			{"date":"2026-03-09","location_id":"ADL"},
			{"date":"2026-03-09","location_id":"SYD","ranges":[]},
			{"date":"2026-03-09"},
			{"date":"2026-03-10","ranges":[{"starts_at":"09:00","ends_at":"12:00"},{"starts_at":"08:00","ends_at":"09:30"},
				{"starts_at":"12:00","ends_at":"11:00"}]}]}`,
			map[string][]string{
				"exceptions.1.location_id":      {"is not one of the practitioner's location_ids"},
				"exceptions.2":                  {"repeats the date and location of exceptions.0"},
				"exceptions.4.ranges.1":         {"overlaps exceptions.4.ranges.0"},
				"exceptions.4.ranges.2.ends_at": {"must be after starts_at (12:00)"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := withIDs(tc.body, ids)
			create := decodeJSON(t, body)
			for k, v := range map[string]any{"first_name": "Dana", "last_name": "Park"} {
				if _, ok := create[k]; !ok {
					create[k] = v
				}
			}
			wantInvalid(t, e.do("POST", "/v1/practitioners", a.Token, create), tc.want, "")
			wantUpdateRefused(t, e, "/v1/practitioners/"+a.Alice.ID, body, tc.want)
		})
	}
	wantRecordCount(t, e, "practitioners", 2)
}

// The rules between fields hold for the practitioner as an update leaves
// it, whichever side of the rule the update changes.
func TestPractitionerUpdateKeepsHoursAtThePractitionersLocations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	id, created := setupCreate(t, e, "practitioners", withIDs(`{"first_name":"Dana","last_name":"Park","location_ids":["SYD","ADL"],
		"working_hours":[{"location_id":"ADL","day":"monday","starts_at":"09:00","ends_at":"12:00"}],
		"exceptions":[{"date":"2026-03-09","location_id":"SYD"}]}`, map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID}))
	wantInvalid(t, e.do("POST", "/v1/practitioners/"+id, a.Token, `{"location_ids":[]}`), map[string][]string{
		"working_hours.0.location_id": {"is not one of the practitioner's location_ids"},
		"exceptions.0.location_id":    {"is not one of the practitioner's location_ids"},
	}, "")
	wantInvalid(t, e.do("POST", "/v1/practitioners/"+id, a.Token,
		`{"working_hours":[{"location_id":"`+a.Adelaide.ID+`","day":"monday","starts_at":"11:00","ends_at":"12:30"},
		{"location_id":"`+a.Adelaide.ID+`","day":"monday","starts_at":"08:00","ends_at":"11:30"}]}`),
		oneError("working_hours.1", "overlaps working_hours.0 on monday at the same location"), "")
	wantBody(t, e.do("GET", "/v1/practitioners/"+id, a.Token, nil), http.StatusOK, string(created.Body))

	// Leaving a location together with its hours is one valid update.
	e.clock = testfix.Now.Add(time.Hour)
	r := e.do("POST", "/v1/practitioners/"+id, a.Token, `{"location_ids":["`+a.Sydney.ID+`"],"working_hours":null}`)
	want := created.JSON(t)
	want["location_ids"], want["working_hours"], want["updated_at"] = []string{a.Sydney.ID}, []any{}, "2026-03-01T23:00:00Z"
	wantBody(t, r, http.StatusOK, jsonText(want))
}

func TestPractitionerUpdateChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ids := map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID, "CONSULT": a.Consult.ID, "GROUP": a.Group.ID}
	base := withIDs(`{"title":"Dr","first_name":"Dana","last_name":"Park","display_name":"Dr Dana","designation":"Podiatrist",
		"email":"dana@example.com","phone":"0400111222","location_ids":["SYD"],"service_ids":["CONSULT"],
		"working_hours":[{"location_id":"SYD","day":"monday","starts_at":"09:00","ends_at":"12:00"}],
		"exceptions":[{"date":"2026-03-09"}]}`, ids)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"empty body", `{}`, `{}`},
		{"names", `{"first_name":"Danielle","display_name":"Dani"}`, `{"first_name":"Danielle","display_name":"Dani"}`},
		{"null clears text", `{"title":null,"display_name":null,"designation":null,"email":null,"phone":null}`,
			`{"title":"","display_name":"","designation":"","email":"","phone":""}`},
		{"null empties lists", `{"service_ids":null,"working_hours":null,"exceptions":null}`,
			`{"service_ids":[],"working_hours":[],"exceptions":[]}`},
		{"lists are replaced whole", `{"location_ids":["ADL","SYD"],"service_ids":["GROUP"],
			"working_hours":[{"location_id":"ADL","day":"friday","starts_at":"07:00","ends_at":"09:00"}],
			"exceptions":[{"date":"2026-04-01","location_id":"ADL","ranges":[{"starts_at":"08:00","ends_at":"09:00"}]}]}`,
			`{"location_ids":["SYD","ADL"],"service_ids":["GROUP"],
			"working_hours":[{"location_id":"ADL","day":"friday","starts_at":"07:00","ends_at":"09:00"}],
			"exceptions":[{"date":"2026-04-01","location_id":"ADL","ranges":[{"starts_at":"08:00","ends_at":"09:00"}]}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantUpdateChanges(t, e, "practitioners", base, time.Hour, withIDs(tc.body, ids), withIDs(tc.want, ids))
		})
	}
}

func TestPractitionerListFiltersByLocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	adl, _ := setupCreate(t, e, "practitioners", `{"first_name":"Ada","last_name":"Lowe","location_ids":["`+a.Adelaide.ID+`"]}`)
	none, _ := setupCreate(t, e, "practitioners", `{"first_name":"Nan","last_name":"One"}`)
	runFilterCases(t, e, "/v1/practitioners", []filterCase{
		{"no filter", nil, []string{a.Alice.ID, a.Bob.ID, adl, none}},
		{"Sydney", qv("location_id", a.Sydney.ID), []string{a.Alice.ID, a.Bob.ID}},
		{"Adelaide", qv("location_id", a.Adelaide.ID), []string{a.Alice.ID, adl}},
		{"another business's location", qv("location_id", e.b.Sydney.ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/practitioners", []invalidQueryCase{
		{"location_id=" + a.Alice.ID, "location_id", "must be an id starting with loc_"},
		{"service_id=" + a.Consult.ID, "service_id", "is not a known query parameter"},
	})
}

// Hours written through the API are the hours availability follows.
func TestPractitionerHoursWrittenThroughTheAPIShapeAvailability(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	id, _ := setupCreate(t, e, "practitioners", withIDs(`{"first_name":"Dana","last_name":"Park","location_ids":["SYD"],
		"working_hours":[{"location_id":"SYD","day":"monday","starts_at":"10:00","ends_at":"11:00"},
			{"location_id":"SYD","day":"tuesday","starts_at":"16:00","ends_at":"18:00"}],
		"exceptions":[{"date":"2026-03-03","location_id":"SYD","ranges":[{"starts_at":"09:00","ends_at":"09:30"}]}]}`,
		map[string]string{"SYD": a.Sydney.ID}))
	r := e.do("GET", "/v1/availability_slots?location_id="+a.Sydney.ID+"&practitioner_id="+id+
		"&duration=30&from=2026-03-02&to=2026-03-04", a.Token, nil)
	wantStatus(t, r, http.StatusOK)
	var got []string
	for _, s := range r.JSON(t)["data"].([]any) {
		slot := s.(map[string]any)
		got = append(got, slot["start_date_local"].(string)+" "+slot["start_time_local"].(string))
	}
	want := []string{"2026-03-02 10:00", "2026-03-02 10:30", "2026-03-03 09:00"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("slots %v, want %v", got, want)
	}
}
