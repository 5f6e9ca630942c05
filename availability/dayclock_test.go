package availability

import (
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
	"github.com/practiced/practiced/wallclock"
)

func TestDayClockFastPathAgreesWithInstant(t *testing.T) {
	times := []time.Duration{0, 90 * time.Minute, 150 * time.Minute, 165 * time.Minute, 12 * time.Hour, 24 * time.Hour}
	for _, zone := range append(zonetest.Zones, "America/Havana", "UTC") {
		loc := zonetest.Load(t, zone)
		fast := 0
		for d := (Date{2026, time.January, 1}); d.Year == 2026; d = d.AddDays(1) {
			clock := newDayClock(loc, d)
			if clock.fixed {
				fast++
			}
			for _, w := range times {
				got, gotExact := clock.at(w)
				want, wantExact := wallclock.Instant(d.midnightUTC().Add(w), loc)
				if !got.Equal(want) || gotExact != wantExact {
					t.Fatalf("%s %s +%v: dayClock %v, %v; Instant %v, %v", zone, d, w, got, gotExact, want, wantExact)
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
