package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// GET /v1/availability_slots: docs/api.md and docs/availability.md, against the
// fixture: Sydney is open Monday to Friday 09:00-17:00, Adelaide every
// day 08:00-18:00, and the clock reads Monday 2 March 2026, 09:00 in
// Sydney (22:00 UTC on 1 March).

type slotOut struct {
	StartTimeLocal   string `json:"start_time_local"`
	StartDateLocal   string `json:"start_date_local"`
	LocalTimezone    string `json:"local_timezone"`
	StartDatetimeUTC string `json:"start_datetime_utc"`
}

// slot writes an expected slot as "<local date> <local time> = <UTC>".
func slot(date, clock, utc string) string { return date + " " + clock + " = " + utc }

// fixed writes the slot at a local date and time in a zone whose UTC
// offset that day is offset hours (e.g. 11 for Sydney in summer), so the
// expectation does not come from the time zone database under test.
func fixed(offset float64, date, clock string) string {
	local, err := time.Parse("2006-01-02 15:04", date+" "+clock)
	if err != nil {
		panic(err)
	}
	utc := local.Add(-time.Duration(offset * float64(time.Hour)))
	return slot(date, clock, utc.Format("2006-01-02T15:04:05Z"))
}

// aedt is a Sydney slot while daylight saving is on (UTC+11).
func aedt(date, clock string) string { return fixed(11, date, clock) }

// hourly lists the AEDT slots of a date from the first to the last hour.
func hourly(date string, first, last int) []string {
	var out []string
	for h := first; h <= last; h++ {
		out = append(out, aedt(date, fmt.Sprintf("%02d:00", h)))
	}
	return out
}

// getSlots fetches slots, requiring a body of data alone, every slot in
// zone, and returns them as slot strings.
func getSlots(t *testing.T, e *env, zone string, query url.Values) []string {
	t.Helper()
	r := e.do("GET", "/v1/availability_slots?"+query.Encode(), e.a.Token, nil)
	wantStatus(t, r, http.StatusOK)
	var body map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &body); err != nil || len(body) != 1 || body["data"] == nil {
		t.Fatalf("body is not {data: [...]}: %s", r.Body)
	}
	var slots []slotOut
	if err := json.Unmarshal(body["data"], &slots); err != nil || slots == nil {
		t.Fatalf("data is not an array of slots: %s", r.Body)
	}
	out := []string{}
	for _, s := range slots {
		if s.LocalTimezone != zone {
			t.Fatalf("slot %+v: local_timezone, want %s", s, zone)
		}
		out = append(out, slot(s.StartDateLocal, s.StartTimeLocal, s.StartDatetimeUTC))
	}
	return out
}

// slotQuery is the query for practitioner pra at loc, plus kv pairs.
func slotQuery(loc practiced.Location, pra practiced.Practitioner, kv ...string) url.Values {
	v := url.Values{"location_id": {loc.ID}, "practitioner_id": {pra.ID}}
	for i := 0; i < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

type slotCase struct {
	name  string
	query url.Values
	zone  string
	want  []string
}

func runSlotCases(t *testing.T, e *env, cases []slotCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			zone := tc.zone
			if zone == "" {
				zone = "Australia/Sydney"
			}
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := getSlots(t, e, zone, tc.query); !reflect.DeepEqual(got, want) {
				t.Fatalf("slots\n  %v\nwant\n  %v", got, want)
			}
		})
	}
}

func TestAvailabilitySlotsResponseIsExactlyData(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("GET", "/v1/availability_slots?"+slotQuery(e.a.Sydney, e.a.Alice, "duration", "240", "from", "2026-03-02", "to", "2026-03-02").Encode(), e.a.Token, nil)
	wantBody(t, r, http.StatusOK, `{"data":[
		{"start_time_local":"09:00","start_date_local":"2026-03-02","local_timezone":"Australia/Sydney","start_datetime_utc":"2026-03-01T22:00:00Z"},
		{"start_time_local":"13:00","start_date_local":"2026-03-02","local_timezone":"Australia/Sydney","start_datetime_utc":"2026-03-02T02:00:00Z"}]}`)
	// The answer is written whole, with its length, as a list's page is.
	if got, want := r.Header.Get("Content-Length"), strconv.Itoa(len(r.Body)); got != want {
		t.Fatalf("Content-Length %q, want %q", got, want)
	}
	r = e.do("GET", "/v1/availability_slots?"+slotQuery(e.a.Sydney, e.a.Alice, "duration", "60", "from", "2026-03-07", "to", "2026-03-08").Encode(), e.a.Token, nil)
	wantBody(t, r, http.StatusOK, `{"data":[]}`)
}

func TestAvailabilitySlotsForTheFixtureClinic(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	var month []string // every weekday of 2 March to 1 April at 09:00
	for d := mustUTC("2026-03-02T00:00:00Z"); !d.After(mustUTC("2026-04-01T00:00:00Z")); d = d.AddDate(0, 0, 1) {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			month = append(month, aedt(d.Format(time.DateOnly), "09:00"))
		}
	}
	runSlotCases(t, e, []slotCase{
		{"Monday, 60 minutes: 09:00 is now, so it is offered",
			slotQuery(a.Sydney, a.Alice, "duration", "60", "from", "2026-03-02", "to", "2026-03-02"), "", hourly("2026-03-02", 9, 16)},
		{"Tuesday with the 30-minute service",
			slotQuery(a.Sydney, a.Alice, "service_id", a.Consult.ID, "from", "2026-03-03", "to", "2026-03-03"), "",
			[]string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "09:30"), aedt("2026-03-03", "10:00"), aedt("2026-03-03", "10:30"),
				aedt("2026-03-03", "11:00"), aedt("2026-03-03", "11:30"), aedt("2026-03-03", "12:00"), aedt("2026-03-03", "12:30"),
				aedt("2026-03-03", "13:00"), aedt("2026-03-03", "13:30"), aedt("2026-03-03", "14:00"), aedt("2026-03-03", "14:30"),
				aedt("2026-03-03", "15:00"), aedt("2026-03-03", "15:30"), aedt("2026-03-03", "16:00"), aedt("2026-03-03", "16:30")}},
		{"duration overrides the service's",
			slotQuery(a.Sydney, a.Alice, "service_id", a.Consult.ID, "duration", "240", "from", "2026-03-03", "to", "2026-03-03"), "",
			[]string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "13:00")}},
		{"interval 30 with 60 minutes",
			slotQuery(a.Sydney, a.Alice, "duration", "60", "interval", "30", "from", "2026-03-03", "to", "2026-03-03"), "",
			[]string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "09:30"), aedt("2026-03-03", "10:00"), aedt("2026-03-03", "10:30"),
				aedt("2026-03-03", "11:00"), aedt("2026-03-03", "11:30"), aedt("2026-03-03", "12:00"), aedt("2026-03-03", "12:30"),
				aedt("2026-03-03", "13:00"), aedt("2026-03-03", "13:30"), aedt("2026-03-03", "14:00"), aedt("2026-03-03", "14:30"),
				aedt("2026-03-03", "15:00"), aedt("2026-03-03", "15:30"), aedt("2026-03-03", "16:00")}},
		{"interval 120 with 30 minutes",
			slotQuery(a.Sydney, a.Alice, "duration", "30", "interval", "120", "from", "2026-03-03", "to", "2026-03-03"), "",
			[]string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "11:00"), aedt("2026-03-03", "13:00"), aedt("2026-03-03", "15:00")}},
		{"a slot must end by closing time",
			slotQuery(a.Sydney, a.Alice, "duration", "300", "interval", "60", "from", "2026-03-03", "to", "2026-03-03"), "",
			[]string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "10:00"), aedt("2026-03-03", "11:00"), aedt("2026-03-03", "12:00")}},
		{"480 minutes fill the day",
			slotQuery(a.Sydney, a.Alice, "duration", "480", "from", "2026-03-03", "to", "2026-03-03"), "", []string{aedt("2026-03-03", "09:00")}},
		{"weekend closed", slotQuery(a.Sydney, a.Alice, "duration", "60", "from", "2026-03-07", "to", "2026-03-08"), "", nil},
		{"dates before today have no slots", slotQuery(a.Sydney, a.Alice, "duration", "60", "from", "2026-02-23", "to", "2026-02-27"), "", nil},
		{"from defaults to today in Sydney (yesterday in UTC), to to six days later",
			slotQuery(a.Sydney, a.Alice, "duration", "480"), "",
			[]string{aedt("2026-03-02", "09:00"), aedt("2026-03-03", "09:00"), aedt("2026-03-04", "09:00"), aedt("2026-03-05", "09:00"), aedt("2026-03-06", "09:00")}},
		{"to defaults to six days after from",
			slotQuery(a.Sydney, a.Alice, "duration", "480", "from", "2026-03-10"), "",
			[]string{aedt("2026-03-10", "09:00"), aedt("2026-03-11", "09:00"), aedt("2026-03-12", "09:00"), aedt("2026-03-13", "09:00"), aedt("2026-03-16", "09:00")}},
		{"from defaults to today when only to is given",
			slotQuery(a.Sydney, a.Alice, "duration", "480", "to", "2026-03-03"), "",
			[]string{aedt("2026-03-02", "09:00"), aedt("2026-03-03", "09:00")}},
		{"31 days, the most allowed", slotQuery(a.Sydney, a.Alice, "duration", "480", "from", "2026-03-02", "to", "2026-04-01"), "", month},
		{"Adelaide is open on Saturday, in its own zone (UTC+10:30)",
			slotQuery(a.Adelaide, a.Alice, "duration", "480", "interval", "240", "from", "2026-03-07", "to", "2026-03-07"), "Australia/Adelaide",
			[]string{fixed(10.5, "2026-03-07", "08:00")}},
		{"Bob at Sydney", slotQuery(a.Sydney, a.Bob, "duration", "480", "from", "2026-03-04", "to", "2026-03-04"), "", []string{aedt("2026-03-04", "09:00")}},
	})
	t.Run("slots before now are left out", func(t *testing.T) {
		e.clock = mustUTC("2026-03-01T23:30:00Z") // 10:30 in Sydney
		defer func() { e.clock = testfix.Now }()
		runSlotCases(t, e, []slotCase{
			{"on the grid", slotQuery(a.Sydney, a.Alice, "duration", "60", "from", "2026-03-02", "to", "2026-03-02"), "", hourly("2026-03-02", 11, 16)},
			{"every 15 minutes, 10:30 is now",
				slotQuery(a.Sydney, a.Alice, "duration", "360", "interval", "15", "from", "2026-03-02", "to", "2026-03-02"), "",
				[]string{aedt("2026-03-02", "10:30"), aedt("2026-03-02", "10:45"), aedt("2026-03-02", "11:00")}},
		})
	})
	t.Run("a service's minimum notice", func(t *testing.T) {
		notice := practiced.Service{ID: tid.New("ser"), Name: "Assessment", Duration: 60, MaxClients: 1, MinNotice: 150,
			BookingHorizonDays: 90, LocationIDs: []string{a.Sydney.ID}, CreatedAt: seeded, UpdatedAt: seeded}
		seedData(t, e, a, practiced.SeedData{Services: []practiced.Service{notice}})
		runSlotCases(t, e, []slotCase{
			{"150 minutes from 09:00", slotQuery(a.Sydney, a.Alice, "service_id", notice.ID, "from", "2026-03-02", "to", "2026-03-02"), "", hourly("2026-03-02", 12, 16)},
		})
	})
}

func TestAvailabilitySlotsQueryValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	base := func(kv ...string) string {
		return slotQuery(a.Sydney, a.Alice, append([]string{"duration", "60"}, kv...)...).Encode()
	}
	type errs = map[string][]string
	for _, tc := range []struct {
		name, query string
		want        errs
		message     string
	}{
		{"nothing", "", errs{"location_id": {"is required"}, "duration": {"is required when service_id is not given"}},
			"location_id is required (and 1 more error)"},
		{"no location", "practitioner_id=" + a.Alice.ID + "&duration=60", errs{"location_id": {"is required"}}, ""},
		{"neither service nor duration", slotQuery(a.Sydney, a.Alice).Encode(), errs{"duration": {"is required when service_id is not given"}}, ""},
		{"duration 4", base("duration", "4"), errs{"duration": {"must be between 5 and 480"}}, ""},
		{"duration 481", base("duration", "481"), errs{"duration": {"must be between 5 and 480"}}, ""},
		{"duration abc", base("duration", "abc"), errs{"duration": {"must be a whole number"}}, ""},
		{"duration 30.5", base("duration", "30.5"), errs{"duration": {"must be a whole number"}}, ""},
		{"interval 4", base("interval", "4"), errs{"interval": {"must be between 5 and 240"}}, ""},
		{"interval 241", base("interval", "241"), errs{"interval": {"must be between 5 and 240"}}, ""},
		{"from not a date", base("from", "2026-02-30"), errs{"from": {"must be a date such as 2026-03-02"}}, ""},
		{"from day first", base("from", "03/03/2026"), errs{"from": {"must be a date such as 2026-03-02"}}, ""},
		{"from as a timestamp", base("from", "2026-03-03T00:00:00Z"), errs{"from": {"must be a date such as 2026-03-02"}}, ""},
		{"to not a date", base("to", "2026-3-3"), errs{"to": {"must be a date such as 2026-03-08"}}, ""},
		{"to before from", base("from", "2026-03-05", "to", "2026-03-04"), errs{"to": {"must not be before from"}}, ""},
		{"to before today, from defaulted", base("to", "2026-03-01"), errs{"to": {"must not be before from"}}, ""},
		{"32 days", base("from", "2026-03-02", "to", "2026-04-02"), errs{"to": {"must be at most 30 days after from (inclusive)"}}, ""},
		{"practitioner not working at the location", slotQuery(a.Adelaide, a.Bob, "duration", "60").Encode(),
			errs{"practitioner_id": {"does not work at the location " + a.Adelaide.ID}}, ""},
		{"location of another business", slotQuery(e.b.Sydney, a.Alice, "duration", "60").Encode(), errs{"location_id": {"does not exist"}}, ""},
		{"practitioner of another business", slotQuery(a.Sydney, e.b.Alice, "duration", "60").Encode(), errs{"practitioner_id": {"does not exist"}}, ""},
		{"service of another business", slotQuery(a.Sydney, a.Alice, "service_id", e.b.Consult.ID).Encode(), errs{"service_id": {"does not exist"}}, ""},
		{"everything of another business", slotQuery(e.b.Sydney, e.b.Alice, "service_id", e.b.Consult.ID).Encode(),
			errs{"location_id": {"does not exist"}, "practitioner_id": {"does not exist"}, "service_id": {"does not exist"}}, ""},
		{"unknown location", slotQuery(practiced.Location{ID: tid.New("loc")}, a.Alice, "duration", "60").Encode(), errs{"location_id": {"does not exist"}}, ""},
		{"location id of another kind", slotQuery(practiced.Location{ID: a.Alice.ID}, a.Alice, "duration", "60").Encode(), errs{"location_id": {"must be an id starting with loc_"}}, ""},
		{"practitioner id of another kind", slotQuery(a.Sydney, practiced.Practitioner{ID: a.Sydney.ID}, "duration", "60").Encode(), errs{"practitioner_id": {"must be an id starting with pra_"}}, ""},
		{"empty service id", slotQuery(a.Sydney, a.Alice, "service_id", "").Encode(), errs{"service_id": {"must be an id starting with ser_"}}, ""},
		{"duration twice", base() + "&duration=30", errs{"duration": {"must be given once"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do("GET", "/v1/availability_slots?"+tc.query, a.Token, nil), tc.want, tc.message)
		})
	}
}

func TestAvailabilitySlotsAvoidBusyTimesAndAppointments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	// Sydney local time on 3 March (UTC+11) as an instant.
	at := func(clock string) time.Time { return mustUTC("2026-03-03T" + clock + ":00+11:00") }
	archived := newBusyTime(a.Alice, a.Sydney, at("09:00"), 60)
	archived.ArchivedAt = &seeded
	cancelled := newAppointment(a.Alice, a.Sydney, nil, at("15:00"), 60)
	cancelled.CancelledAt = &seeded
	allCancelled := newAppointment(a.Alice, a.Sydney, nil, at("16:00"), 60)
	gone := newAppointmentClient(allCancelled, a.Clients[0].ID, practiced.StatusCancelled)
	gone.CancelledAt = &seeded
	seedData(t, e, a, practiced.SeedData{
		BusyTimes: []practiced.BusyTime{
			archived, // archived: frees 09:00
			newBusyTime(a.Alice, a.Sydney, at("10:00"), 60),   // takes 10:00
			newBusyTime(a.Bob, a.Sydney, at("11:00"), 60),     // Bob's: not Alice's 11:00
			newBusyTime(a.Alice, a.Adelaide, at("12:15"), 30), // at another location: takes 12:00
		},
		Appointments: []practiced.Appointment{
			newAppointment(a.Alice, a.Sydney, nil, at("14:30"), 30), // takes 14:00, not 15:00
			cancelled,    // frees 15:00
			allCancelled, // every attendee cancelled: frees 16:00
		},
		AppointmentClients: []practiced.AppointmentClient{gone},
	})
	seedData(t, e, e.b, practiced.SeedData{BusyTimes: []practiced.BusyTime{newBusyTime(e.b.Alice, e.b.Sydney, at("09:00"), 480)}})
	day := func(pra practiced.Practitioner, kv ...string) url.Values {
		return slotQuery(a.Sydney, pra, append([]string{"duration", "60", "from", "2026-03-03", "to", "2026-03-03"}, kv...)...)
	}
	runSlotCases(t, e, []slotCase{
		{"Alice", day(a.Alice), "", []string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "11:00"), aedt("2026-03-03", "13:00"),
			aedt("2026-03-03", "15:00"), aedt("2026-03-03", "16:00")}},
		{"Alice every 15 minutes, 45 minutes long", day(a.Alice, "duration", "45", "interval", "15"), "",
			[]string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "09:15"), aedt("2026-03-03", "11:00"), aedt("2026-03-03", "11:15"),
				aedt("2026-03-03", "11:30"), aedt("2026-03-03", "12:45"), aedt("2026-03-03", "13:00"), aedt("2026-03-03", "13:15"),
				aedt("2026-03-03", "13:30"), aedt("2026-03-03", "13:45"), aedt("2026-03-03", "15:00"), aedt("2026-03-03", "15:15"),
				aedt("2026-03-03", "15:30"), aedt("2026-03-03", "15:45"), aedt("2026-03-03", "16:00"), aedt("2026-03-03", "16:15")}},
		{"Bob", day(a.Bob), "", []string{aedt("2026-03-03", "09:00"), aedt("2026-03-03", "10:00"), aedt("2026-03-03", "12:00"),
			aedt("2026-03-03", "13:00"), aedt("2026-03-03", "14:00"), aedt("2026-03-03", "15:00"), aedt("2026-03-03", "16:00")}},
	})
}

func TestAvailabilitySlotsKeepServiceBuffers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	local := func(date, clock string) time.Time { return mustUTC(date + "T" + clock + ":00+11:00") }
	// Wednesday: a busy time 12:00-12:30. Thursday: a full group class
	// 12:00-13:00 (10-minute buffers). Friday: a group class 09:30-10:30
	// with one of four places taken.
	full := newAppointment(a.Alice, a.Sydney, &a.Group, local("2026-03-05", "12:00"), 60)
	open := newAppointment(a.Alice, a.Sydney, &a.Group, local("2026-03-06", "09:30"), 60)
	var attendees []practiced.AppointmentClient
	for _, c := range a.Clients {
		attendees = append(attendees, newAppointmentClient(full, c.ID, practiced.StatusBooked))
	}
	extra := newClient("Dan", "Dunn", "")
	attendees = append(attendees, newAppointmentClient(full, extra.ID, practiced.StatusArrived),
		newAppointmentClient(open, a.Clients[0].ID, practiced.StatusBooked))
	seedData(t, e, a, practiced.SeedData{
		Clients:            []practiced.Client{extra},
		BusyTimes:          []practiced.BusyTime{newBusyTime(a.Alice, a.Sydney, local("2026-03-04", "12:00"), 30)},
		Appointments:       []practiced.Appointment{full, open},
		AppointmentClients: attendees,
	})
	on := func(date string, kv ...string) url.Values {
		return slotQuery(a.Sydney, a.Alice, append([]string{"from", date, "to", date}, kv...)...)
	}
	hours := func(date string, hs ...int) []string {
		var out []string
		for _, h := range hs {
			out = append(out, aedt(date, fmt.Sprintf("%02d:00", h)))
		}
		return out
	}
	runSlotCases(t, e, []slotCase{
		{"a bare duration has no buffers", on("2026-03-04", "duration", "60"), "", hours("2026-03-04", 9, 10, 11, 13, 14, 15, 16)},
		{"the service's buffers keep 10 minutes from a busy time", on("2026-03-04", "service_id", a.Group.ID), "", hours("2026-03-04", 9, 10, 13, 14, 15, 16)},
		{"an appointment keeps its own buffers from a bare duration", on("2026-03-05", "duration", "60"), "", hours("2026-03-05", 9, 10, 14, 15, 16)},
		{"a full group class offers no place", on("2026-03-05", "service_id", a.Group.ID), "", hours("2026-03-05", 9, 10, 14, 15, 16)},
		{"a group class with places is offered at its own start", on("2026-03-06", "service_id", a.Group.ID), "",
			append([]string{aedt("2026-03-06", "09:30")}, hours("2026-03-06", 11, 12, 13, 14, 15, 16)...)},
		{"another service keeps clear of the class and its buffers", on("2026-03-06", "service_id", a.Consult.ID), "",
			[]string{aedt("2026-03-06", "11:00"), aedt("2026-03-06", "11:30"), aedt("2026-03-06", "12:00"), aedt("2026-03-06", "12:30"),
				aedt("2026-03-06", "13:00"), aedt("2026-03-06", "13:30"), aedt("2026-03-06", "14:00"), aedt("2026-03-06", "14:30"),
				aedt("2026-03-06", "15:00"), aedt("2026-03-06", "15:30"), aedt("2026-03-06", "16:00"), aedt("2026-03-06", "16:30")}},
	})
}

func TestAvailabilitySlotsFollowWorkingHoursAndExceptions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	wen := newPractitioner("Wen", a.Sydney)
	wen.WorkingHours = []practiced.WorkingHours{
		{LocationID: a.Sydney.ID, Day: "tuesday", StartsAt: "13:00", EndsAt: "15:00"},
		{LocationID: a.Sydney.ID, Day: "wednesday", StartsAt: "08:00", EndsAt: "10:00"}, // opens at 09:00
		{LocationID: a.Sydney.ID, Day: "thursday", StartsAt: "09:00", EndsAt: "11:00"},
		{LocationID: a.Adelaide.ID, Day: "monday", StartsAt: "09:00", EndsAt: "17:00"}, // another location: ignored
	}
	wen.Exceptions = []practiced.AvailabilityException{
		{Date: "2026-03-05", LocationID: &a.Sydney.ID, Ranges: []practiced.TimeRange{}},                                       // Thursday off
		{Date: "2026-03-07", Ranges: []practiced.TimeRange{{StartsAt: "10:00", EndsAt: "12:00"}}},                             // Saturday on
		{Date: "2026-03-06", LocationID: &a.Adelaide.ID, Ranges: []practiced.TimeRange{{StartsAt: "09:00", EndsAt: "17:00"}}}, // elsewhere
	}
	seedData(t, e, a, practiced.SeedData{Practitioners: []practiced.Practitioner{wen}})
	runSlotCases(t, e, []slotCase{
		{"Wen's week", slotQuery(a.Sydney, wen, "duration", "60", "from", "2026-03-02", "to", "2026-03-08"), "",
			[]string{aedt("2026-03-03", "13:00"), aedt("2026-03-03", "14:00"), aedt("2026-03-04", "09:00"),
				aedt("2026-03-07", "10:00"), aedt("2026-03-07", "11:00")}},
	})
}

func TestAvailabilitySlotsAcrossDaylightSavingChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	allDay := practiced.OpeningHours{}
	for wd := range allDay.Days {
		allDay.Days[wd] = practiced.DayHours{Active: true, OpensAt: "00:00", ClosesAt: "24:00"}
	}
	roundTheClock := newLocation("Sydney 24h", "Australia/Sydney", allDay)
	nia := newPractitioner("Nia", roundTheClock)
	// Ora works only the first hours of the two days DST changes.
	ora := newPractitioner("Ora", roundTheClock)
	ora.Exceptions = []practiced.AvailabilityException{
		{Date: "2026-04-05", Ranges: []practiced.TimeRange{{StartsAt: "00:00", EndsAt: "03:00"}}}, // 4 real hours
		{Date: "2026-10-04", Ranges: []practiced.TimeRange{{StartsAt: "00:00", EndsAt: "04:00"}}}, // 3 real hours
	}
	seedData(t, e, a, practiced.SeedData{Locations: []practiced.Location{roundTheClock}, Practitioners: []practiced.Practitioner{nia, ora}})

	// On 5 April 2026 Sydney's clocks go back from 03:00 (UTC+11) to
	// 02:00 (UTC+10): the day has 25 hours and 02:00-03:00 happens twice.
	var endOfDST []string
	for h := 0; h < 24; h++ {
		offset := 10.0
		if h < 3 {
			offset = 11
		}
		endOfDST = append(endOfDST, fixed(offset, "2026-04-05", fmt.Sprintf("%02d:00", h)))
	}
	// On 4 October 2026 they go forward from 02:00 (UTC+10) to 03:00
	// (UTC+11): 02:00-03:00 does not exist.
	var startOfDST []string
	for h := 0; h < 24; h++ {
		switch {
		case h < 2:
			startOfDST = append(startOfDST, fixed(10, "2026-10-04", fmt.Sprintf("%02d:00", h)))
		case h > 2:
			startOfDST = append(startOfDST, fixed(11, "2026-10-04", fmt.Sprintf("%02d:00", h)))
		}
	}
	runSlotCases(t, e, []slotCase{
		{"Sydney's 09:00 moves from 22:00 to 23:00 UTC over the weekend DST ends",
			slotQuery(a.Sydney, a.Alice, "duration", "480", "from", "2026-04-03", "to", "2026-04-06"), "",
			[]string{fixed(11, "2026-04-03", "09:00"), fixed(10, "2026-04-06", "09:00")}},
		{"the 25-hour day offers each local hour once, the repeated one at its first instant",
			slotQuery(roundTheClock, nia, "duration", "60", "from", "2026-04-05", "to", "2026-04-05"), "", endOfDST},
		{"the 23-hour day skips the local hour that does not exist",
			slotQuery(roundTheClock, nia, "duration", "60", "from", "2026-10-04", "to", "2026-10-04"), "", startOfDST},
		{"a 180-minute slot from 01:00 fits before 03:00 on the 25-hour day",
			slotQuery(roundTheClock, ora, "duration", "180", "interval", "60", "from", "2026-04-05", "to", "2026-04-05"), "",
			endOfDST[:2]},
		{"the repeated hour is offered once, at its first instant",
			slotQuery(roundTheClock, ora, "duration", "60", "from", "2026-04-05", "to", "2026-04-05"), "",
			endOfDST[:3]},
		{"a 180-minute slot from 01:00 does not fit before 04:00 on the 23-hour day",
			slotQuery(roundTheClock, ora, "duration", "180", "interval", "60", "from", "2026-10-04", "to", "2026-10-04"), "",
			startOfDST[:1]},
		{"Adelaide's 08:00 on the day DST ends there too",
			slotQuery(a.Adelaide, a.Alice, "duration", "480", "interval", "240", "from", "2026-04-04", "to", "2026-04-05"), "Australia/Adelaide",
			[]string{fixed(10.5, "2026-04-04", "08:00"), fixed(9.5, "2026-04-05", "08:00")}},
	})
}
