package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/tid"
)

func TestCreateServiceAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ids := map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID}
	id, r := setupCreate(t, e, "services", withIDs(`{"name":"Hydrotherapy","description":"In the pool","duration":45,
		"price_cents":9500,"buffer_before":5,"buffer_after":15,"max_clients":6,"min_notice":120,"booking_horizon_days":30,
		"online_booking":true,"location_ids":["ADL","SYD"],"color":"#0A7BFF","reminder_minutes":120}`, ids))
	ids["ID"], ids["NOW"] = id, setupNow
	want := withIDs(`{"id":"ID","name":"Hydrotherapy","description":"In the pool","duration":45,"price_cents":9500,
		"buffer_before":5,"buffer_after":15,"max_clients":6,"min_notice":120,"booking_horizon_days":30,"online_booking":true,
		"location_ids":["SYD","ADL"],"color":"#0a7bff","reminder_minutes":120,"created_at":"NOW","updated_at":"NOW","archived_at":null}`, ids)
	wantBody(t, r, http.StatusCreated, want)
	wantBody(t, e.do("GET", "/v1/services/"+id, a.Token, nil), http.StatusOK, want)
}

func TestCreateServiceFillsTheDefaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, r := setupCreate(t, e, "services", `{"name":"Review","duration":20}`)
	wantBody(t, r, http.StatusCreated, withIDs(`{"id":"ID","name":"Review","description":"","duration":20,"price_cents":0,
		"buffer_before":0,"buffer_after":0,"max_clients":1,"min_notice":0,"booking_horizon_days":90,"online_booking":false,
		"location_ids":[],"color":"","reminder_minutes":1440,"created_at":"NOW","updated_at":"NOW","archived_at":null}`,
		map[string]string{"ID": id, "NOW": setupNow}))
}

func TestServiceRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	for _, tc := range []struct {
		name string
		body string
		want map[string][]string
	}{
		{"duration too short", `{"duration":4}`, oneError("duration", "must be between 5 and 480")},
		{"duration too long", `{"duration":481}`, oneError("duration", "must be between 5 and 480")},
		{"duration in whole minutes", `{"duration":30.5}`, oneError("duration", "must be a whole number, not a number")},
		{"duration a number", `{"duration":"30"}`, oneError("duration", "must be a whole number, not a string")},
		{"reminder within a year", `{"duration":30,"reminder_minutes":525601}`, oneError("reminder_minutes", "must be between 0 and 525600")},
		{"reminder not before the start", `{"duration":30,"reminder_minutes":-1}`, oneError("reminder_minutes", "must be between 0 and 525600")},
		{"every bound at once", `{"price_cents":-1,"buffer_before":241,"buffer_after":-5,"max_clients":0,"min_notice":-1,
			"booking_horizon_days":731,"online_booking":1,"color":"bleu","description":"` + strings.Repeat("d", 2001) + `"}`,
			map[string][]string{
				"price_cents":          {"must be between 0 and 100000000"},
				"buffer_before":        {"must be between 0 and 240"},
				"buffer_after":         {"must be between 0 and 240"},
				"max_clients":          {"must be between 1 and 100"},
				"min_notice":           {"must be between 0 and 525600"},
				"booking_horizon_days": {"must be between 1 and 730"},
				"online_booking":       {"must be a boolean, not a number"},
				"color":                {"must be a CSS color name such as teal, or a hex color such as #1a2b3c or #abc"},
				"description":          {"must be at most 2000 characters (it has 2001)"},
			}},
		{"the other ends of the bounds", `{"max_clients":101,"booking_horizon_days":0,"price_cents":100000001}`,
			map[string][]string{
				"max_clients":          {"must be between 1 and 100"},
				"booking_horizon_days": {"must be between 1 and 730"},
				"price_cents":          {"must be between 0 and 100000000"},
			}},
		{"locations must be the business's own", `{"location_ids":["SYD","B_LOC","` + tid.New("loc") + `"]}`,
			map[string][]string{
				"location_ids.1": {"does not exist"},
				"location_ids.2": {"does not exist"},
			}},
		{"practitioners are set on the practitioner", `{"practitioner_ids":[]}`,
			oneError("practitioner_ids", "is not a known field")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.NewReplacer("SYD", a.Sydney.ID, "B_LOC", e.b.Sydney.ID).Replace(tc.body)
			create := decodeJSON(t, body)
			for k, v := range map[string]any{"name": "Review", "duration": 20} {
				if _, ok := create[k]; !ok {
					create[k] = v
				}
			}
			wantInvalid(t, e.do("POST", "/v1/services", a.Token, create), tc.want, "")
			wantUpdateRefused(t, e, "/v1/services/"+a.Consult.ID, body, tc.want)
		})
	}
	wantRecordCount(t, e, "services", 2)
}

func TestServiceUpdateChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ids := map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID}
	base := withIDs(`{"name":"Hydrotherapy","description":"In the pool","duration":45,"price_cents":9500,"buffer_before":5,
		"buffer_after":15,"max_clients":6,"min_notice":120,"booking_horizon_days":30,"online_booking":true,
		"location_ids":["SYD"],"color":"#0a7bff"}`, ids)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"empty body", `{}`, `{}`},
		{"the length", `{"duration":60}`, `{"duration":60}`},
		{"null restores each default",
			`{"description":null,"price_cents":null,"buffer_before":null,"buffer_after":null,"max_clients":null,
			"min_notice":null,"booking_horizon_days":null,"online_booking":null,"location_ids":null,"color":null,"reminder_minutes":null}`,
			`{"description":"","price_cents":0,"buffer_before":0,"buffer_after":0,"max_clients":1,"min_notice":0,
			"booking_horizon_days":90,"online_booking":false,"location_ids":[],"color":"","reminder_minutes":1440}`},
		{"no reminder", `{"reminder_minutes":0}`, `{"reminder_minutes":0}`},
		{"locations are replaced whole", `{"location_ids":["ADL"]}`, `{"location_ids":["ADL"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantUpdateChanges(t, e, "services", base, time.Hour, withIDs(tc.body, ids), withIDs(tc.want, ids))
		})
	}
}

func TestServiceListFiltersByLocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	adl, _ := setupCreate(t, e, "services", `{"name":"Review","duration":20,"location_ids":["`+a.Adelaide.ID+`"]}`)
	none, _ := setupCreate(t, e, "services", `{"name":"Telehealth","duration":30}`)
	runFilterCases(t, e, "/v1/services", []filterCase{
		{"no filter", nil, []string{a.Consult.ID, a.Group.ID, adl, none}},
		{"Sydney", qv("location_id", a.Sydney.ID), []string{a.Consult.ID, a.Group.ID}},
		{"Adelaide", qv("location_id", a.Adelaide.ID), []string{a.Consult.ID, adl}},
		{"another business's location", qv("location_id", e.b.Adelaide.ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/services", []invalidQueryCase{
		{"location_id=nope", "location_id", "must be an id starting with loc_"},
	})
}
