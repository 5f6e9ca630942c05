package practiced_test

import (
	"encoding/json"
	"reflect"
	"testing"

	practiced "github.com/practiced/practiced"
)

// The rules of the clinic's set-up records that span fields, without a
// store or a server.

// failures runs a check and returns its failures, field → messages.
func failures(check func(*practiced.FieldErrors)) map[string][]string {
	var errs practiced.FieldErrors
	check(&errs)
	return errs.Map()
}

func TestParseClockReadsHHMMUpTo2400(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"00:00", 0, true}, {"09:30", 570, true}, {"23:59", 1439, true}, {"24:00", 1440, true},
		{"24:01", 0, false}, {"25:00", 0, false}, {"12:60", 0, false}, {"9:30", 0, false},
		{"09:30:00", 0, false}, {"0930", 0, false}, {"", 0, false}, {"ab:cd", 0, false}, {"-1:00", 0, false},
	} {
		got, ok := practiced.ParseClock(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseClock(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLocationOpeningHoursOpenBeforeTheyCloseAndActiveDaysHaveBoth(t *testing.T) {
	day := func(active bool, opens, closes string) practiced.DayHours {
		return practiced.DayHours{Active: active, OpensAt: opens, ClosesAt: closes}
	}
	for _, tc := range []struct {
		name string
		days map[int]practiced.DayHours // by time.Weekday
		want map[string][]string
	}{
		{"closed every day", nil, map[string][]string{}},
		{"open all day", map[int]practiced.DayHours{1: day(true, "00:00", "24:00")}, map[string][]string{}},
		{"closed but keeping its times", map[int]practiced.DayHours{2: day(false, "09:00", "17:00")}, map[string][]string{}},
		{"active without times", map[int]practiced.DayHours{1: day(true, "", ""), 0: day(true, "09:00", "")},
			map[string][]string{
				"opening_hours.mon_opens_at":  {"is required when mon_active is true"},
				"opening_hours.mon_closes_at": {"is required when mon_active is true"},
				"opening_hours.sun_closes_at": {"is required when sun_active is true"},
			}},
		{"closing before opening, active or not", map[int]practiced.DayHours{3: day(true, "17:00", "09:00"), 6: day(false, "10:00", "10:00")},
			map[string][]string{
				"opening_hours.wed_closes_at": {"must be after wed_opens_at (17:00)"},
				"opening_hours.sat_closes_at": {"must be after sat_opens_at (10:00)"},
			}},
		{"opening at the end of the day", map[int]practiced.DayHours{5: day(true, "24:00", "24:00")},
			map[string][]string{"opening_hours.fri_opens_at": {"must be before 24:00, which can only end a range"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l practiced.Location
			for wd, d := range tc.days {
				l.OpeningHours.Days[wd] = d
			}
			if got := failures(l.Check); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("failures %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPractitionerHoursStayAtTheirLocationsInOrderAndApart(t *testing.T) {
	const north, south, east = "loc_north", "loc_south", "loc_east"
	wh := func(loc, day, from, to string) practiced.WorkingHours {
		return practiced.WorkingHours{LocationID: loc, Day: day, StartsAt: from, EndsAt: to}
	}
	ex := func(date string, loc *string, ranges ...practiced.TimeRange) practiced.AvailabilityException {
		return practiced.AvailabilityException{Date: date, LocationID: loc, Ranges: ranges}
	}
	r := func(from, to string) practiced.TimeRange { return practiced.TimeRange{StartsAt: from, EndsAt: to} }
	loc := func(id string) *string { return &id }
	for _, tc := range []struct {
		name       string
		hours      []practiced.WorkingHours
		exceptions []practiced.AvailabilityException
		want       map[string][]string
	}{
		{"ranges that touch do not overlap", []practiced.WorkingHours{
			wh(north, "monday", "09:00", "12:00"), wh(north, "monday", "12:00", "24:00"), wh(south, "monday", "09:00", "12:00"),
			wh(north, "tuesday", "09:00", "12:00")}, nil, map[string][]string{}},
		{"overlaps at one location on one day", []practiced.WorkingHours{
			wh(north, "monday", "09:00", "12:00"), wh(north, "monday", "08:00", "09:01"), wh(north, "monday", "10:00", "11:00")}, nil,
			map[string][]string{
				"working_hours.1": {"overlaps working_hours.0 on monday at the same location"},
				"working_hours.2": {"overlaps working_hours.0 on monday at the same location"},
			}},
		{"a location the practitioner does not work at", []practiced.WorkingHours{wh(east, "friday", "09:00", "10:00")},
			[]practiced.AvailabilityException{ex("2026-03-09", loc(east))},
			map[string][]string{
				"working_hours.0.location_id": {"is not one of the practitioner's location_ids"},
				"exceptions.0.location_id":    {"is not one of the practitioner's location_ids"},
			}},
		{"ranges end after they start", []practiced.WorkingHours{wh(north, "monday", "12:00", "09:00"), wh(north, "monday", "24:00", "24:00")},
			[]practiced.AvailabilityException{ex("2026-03-09", nil, r("10:00", "10:00"))},
			map[string][]string{
				"working_hours.0.ends_at":       {"must be after starts_at (12:00)"},
				"working_hours.1.starts_at":     {"must be before 24:00, which can only end a range"},
				"exceptions.0.ranges.0.ends_at": {"must be after starts_at (10:00)"},
			}},
		{"one exception a date and location; every location is a place of its own", nil, []practiced.AvailabilityException{
			ex("2026-03-09", nil), ex("2026-03-09", loc(north)), ex("2026-03-09", loc(north)), ex("2026-03-09", nil), ex("2026-03-10", nil)},
			map[string][]string{
				"exceptions.2": {"repeats the date and location of exceptions.1"},
				"exceptions.3": {"repeats the date and location of exceptions.0"},
			}},
		{"an exception's ranges do not overlap", nil, []practiced.AvailabilityException{
			ex("2026-03-09", nil, r("09:00", "12:00"), r("12:00", "13:00"), r("11:59", "12:01"))},
			map[string][]string{"exceptions.0.ranges.2": {"overlaps exceptions.0.ranges.0"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := practiced.Practitioner{LocationIDs: []string{north, south}, WorkingHours: tc.hours, Exceptions: tc.exceptions}
			if got := failures(p.Check); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("failures %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClientPackageUsesNoMoreSessionsThanItHolds(t *testing.T) {
	for _, tc := range []struct {
		total, used int
		want        map[string][]string
	}{
		{5, 0, map[string][]string{}},
		{5, 5, map[string][]string{}},
		{5, 6, map[string][]string{"sessions_used": {"must not be more than sessions_total (5)"}}},
	} {
		p := practiced.ClientPackage{SessionsTotal: tc.total, SessionsUsed: tc.used}
		if got := failures(p.Check); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d of %d sessions used: failures %v, want %v", tc.used, tc.total, got, tc.want)
		}
	}
}

func TestNamedRecordsCarryAColorOnlyWhereTheirKindHasOne(t *testing.T) {
	for _, tc := range []struct {
		id, color string
		want      string
	}{
		{"tag_x", "", `{"id":"tag_x","name":"N","color":"","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
		{"btt_x", "#aabbcc", `{"id":"btt_x","name":"N","color":"#aabbcc","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
		{"ret_x", "#aabbcc", `{"id":"ret_x","name":"N","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
		{"cnr_x", "", `{"id":"cnr_x","name":"N","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
	} {
		b, err := json.Marshal(practiced.Named{ID: tc.id, Name: "N", Color: tc.color})
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.id, b, err, tc.want)
		}
	}
	for _, tc := range []struct {
		id   string
		want string
		ok   bool
	}{{"tag_01h455vb4pex5vsknk084sn02q", "tags", true}, {"busy_time_type_x", "", false}, {"btt", "", false}, {"cli_x", "", false}} {
		k, ok := practiced.NamedKindOf(tc.id)
		if k.Plural != tc.want || ok != tc.ok {
			t.Errorf("NamedKindOf(%q) = %q, %v; want %q, %v", tc.id, k.Plural, ok, tc.want, tc.ok)
		}
	}
}
