package practiced_test

import (
	"reflect"
	"testing"

	practiced "github.com/practiced/practiced"
)

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
