package wallclock

import (
	"testing"
	"time"
)

func TestInstantTakesTheFirstInstantOrTheEndOfTheGap(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	lordHowe, _ := time.LoadLocation("Australia/Lord_Howe")
	floating := func(s string) time.Time { v, _ := time.Parse("2006-01-02 15:04", s); return v }
	for _, c := range []struct {
		name  string
		zone  *time.Location
		wall  string
		want  string
		exact bool
	}{
		{"an ordinary time", ny, "2026-06-01 09:00", "2026-06-01T13:00:00Z", true},
		{"a time the spring-forward gap skips", ny, "2026-03-08 02:30", "2026-03-08T07:00:00Z", false},
		{"the first of a time that occurs twice", ny, "2026-11-01 01:30", "2026-11-01T05:30:00Z", true},
		{"a half-hour gap", lordHowe, "2026-10-04 02:15", "2026-10-03T15:30:00Z", false},
	} {
		got, exact := Instant(floating(c.wall), c.zone)
		if got.Format(time.RFC3339) != c.want || exact != c.exact {
			t.Errorf("%s: %s, %v; want %s, %v", c.name, got.Format(time.RFC3339), exact, c.want, c.exact)
		}
	}
}

func TestFloatingCarriesTheLocalFieldsInUTC(t *testing.T) {
	syd, _ := time.LoadLocation("Australia/Sydney")
	got := Floating(time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC), syd)
	if want := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("%v, want %v", got, want)
	}
}
