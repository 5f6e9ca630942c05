package wallclock

import (
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
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

func TestInstantExistingTimeIsExact(t *testing.T) {
	loc := zonetest.Load(t, "Europe/London")
	w := time.Date(2026, time.July, 1, 9, 15, 0, 0, time.UTC)
	got, exact := Instant(w, loc)
	if want := time.Date(2026, time.July, 1, 8, 15, 0, 0, time.UTC); !got.Equal(want) || !exact {
		t.Errorf("Instant = %v, %v; want %v, true", got, exact, want)
	}
}

func TestInstantTimeInGapIsTransitionAndNotExact(t *testing.T) {
	for _, zone := range zonetest.Zones {
		t.Run(zone, func(t *testing.T) {
			loc := zonetest.Load(t, zone)
			tr := zonetest.SpringForward(t, zone)
			// The last wall-clock minute before the transition, shifted by
			// the new offset, is the last minute of the gap.
			lastInGap := tr.At.Add(tr.After - time.Minute).UTC()
			firstInGap := tr.At.Add(tr.Before).UTC()
			for _, w := range []time.Time{firstInGap, lastInGap} {
				got, exact := Instant(w, loc)
				if !got.Equal(tr.At) || exact {
					t.Errorf("Instant(%s) = %v, %v; want %v, false", w.Format("15:04"), got, exact, tr.At)
				}
			}
			gapEnd := tr.At.Add(tr.After).UTC()
			if got, exact := Instant(gapEnd, loc); !got.Equal(tr.At) || !exact {
				t.Errorf("Instant(%s) = %v, %v; want %v, true", gapEnd.Format("15:04"), got, exact, tr.At)
			}
		})
	}
}

func TestInstantRepeatedTimeIsFirstInstant(t *testing.T) {
	for _, zone := range zonetest.Zones {
		t.Run(zone, func(t *testing.T) {
			loc := zonetest.Load(t, zone)
			tr := zonetest.FallBack(t, zone)
			// Wall-clock readings from the new offset's view of the
			// transition up to the old one's occur twice.
			repeatStart := tr.At.Add(tr.After).UTC()
			for w := repeatStart; w.Before(tr.At.Add(tr.Before)); w = w.Add(time.Minute) {
				want := w.Add(-tr.Before)
				if got, exact := Instant(w, loc); !got.Equal(want) || !exact {
					t.Fatalf("Instant(%s) = %v, %v; want %v, true", w.Format("15:04"), got, exact, want)
				}
			}
		})
	}
}
