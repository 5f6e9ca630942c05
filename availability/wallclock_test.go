package availability

import (
	"testing"
	"time"
)

func TestResolveExistingTimeIsExact(t *testing.T) {
	loc := mustZone(t, "Europe/London")
	w := time.Date(2026, time.July, 1, 9, 15, 0, 0, time.UTC)
	got, exact := resolve(loc, w)
	if want := time.Date(2026, time.July, 1, 8, 15, 0, 0, time.UTC); !got.Equal(want) || !exact {
		t.Errorf("resolve = %v, %v; want %v, true", got, exact, want)
	}
}

func TestResolveTimeInGapIsTransitionAndNotExact(t *testing.T) {
	for _, zone := range testZones {
		t.Run(zone, func(t *testing.T) {
			loc := mustZone(t, zone)
			tr := springForward(t, zone)
			// The last wall-clock minute before the transition, shifted by
			// the new offset, is the last minute of the gap.
			lastInGap := tr.At.Add(tr.After - time.Minute).UTC()
			firstInGap := tr.At.Add(tr.Before).UTC()
			for _, w := range []time.Time{firstInGap, lastInGap} {
				got, exact := resolve(loc, w)
				if !got.Equal(tr.At) || exact {
					t.Errorf("resolve(%s) = %v, %v; want %v, false", w.Format("15:04"), got, exact, tr.At)
				}
			}
			gapEnd := tr.At.Add(tr.After).UTC()
			if got, exact := resolve(loc, gapEnd); !got.Equal(tr.At) || !exact {
				t.Errorf("resolve(%s) = %v, %v; want %v, true", gapEnd.Format("15:04"), got, exact, tr.At)
			}
		})
	}
}

func TestResolveRepeatedTimeIsFirstInstant(t *testing.T) {
	for _, zone := range testZones {
		t.Run(zone, func(t *testing.T) {
			loc := mustZone(t, zone)
			tr := fallBack(t, zone)
			// Wall-clock readings from the new offset's view of the
			// transition up to the old one's occur twice.
			repeatStart := tr.At.Add(tr.After).UTC()
			for w := repeatStart; w.Before(tr.At.Add(tr.Before)); w = w.Add(time.Minute) {
				want := w.Add(-tr.Before)
				if got, exact := resolve(loc, w); !got.Equal(want) || !exact {
					t.Fatalf("resolve(%s) = %v, %v; want %v, true", w.Format("15:04"), got, exact, want)
				}
			}
		})
	}
}

func TestDayClockFastPathAgreesWithResolve(t *testing.T) {
	times := []time.Duration{0, 90 * time.Minute, 150 * time.Minute, 165 * time.Minute, 12 * time.Hour, 24 * time.Hour}
	for _, zone := range append(testZones, "America/Havana", "UTC") {
		loc := mustZone(t, zone)
		fast := 0
		for d := (Date{2026, time.January, 1}); d.Year == 2026; d = d.AddDays(1) {
			clock := newDayClock(loc, d)
			if clock.fixed {
				fast++
			}
			for _, w := range times {
				got, gotExact := clock.at(w)
				want, wantExact := resolve(loc, d.midnightUTC().Add(w))
				if !got.Equal(want) || gotExact != wantExact {
					t.Fatalf("%s %s +%v: dayClock %v, %v; resolve %v, %v", zone, d, w, got, gotExact, want, wantExact)
				}
			}
		}
		// Only the days within about a day of a transition may take the
		// slow path.
		if slow := 365 - fast; slow > 2*4 {
			t.Errorf("%s: %d days took the slow path", zone, slow)
		}
	}
}
