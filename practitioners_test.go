package practiced_test

import (
	"reflect"
	"testing"

	practiced "github.com/practiced/practiced"
)

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
