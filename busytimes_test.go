package practiced

import (
	"testing"
	"time"
)

func TestWallShiftMovesLaterOccurrencesByTheSameLocalTimes(t *testing.T) {
	sydney, _ := time.LoadLocation("Australia/Sydney")
	newYork, _ := time.LoadLocation("America/New_York")
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		zone *time.Location
		// The changed occurrence before and after the change.
		oldStart, oldEnd, newStart, newEnd string
		// A later occurrence, and where the shift must move it.
		start, end, wantStart, wantEnd string
	}{
		{"09:00-10:00 to 09:30-11:00 Sydney, carried across the end of DST", sydney,
			"2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z", "2026-03-30T22:30:00Z", "2026-03-31T00:00:00Z",
			"2026-04-06T23:00:00Z", "2026-04-07T00:00:00Z", "2026-04-06T23:30:00Z", "2026-04-07T01:00:00Z"},
		{"an occurrence moved on its own moves by the same amounts", sydney,
			"2026-03-30T22:00:00Z", "2026-03-30T23:00:00Z", "2026-03-30T22:30:00Z", "2026-03-31T00:00:00Z",
			"2026-04-07T03:00:00Z", "2026-04-07T04:00:00Z", "2026-04-07T03:30:00Z", "2026-04-07T05:00:00Z"},
		{"a move to the next day moves later ones a day on the wall clock, across a DST change", sydney,
			"2026-04-02T22:00:00Z", "2026-04-02T23:00:00Z", "2026-04-03T22:00:00Z", "2026-04-03T23:00:00Z",
			"2026-04-03T22:00:00Z", "2026-04-03T23:00:00Z", "2026-04-04T23:00:00Z", "2026-04-05T00:00:00Z"}, // 09:00 AEDT to 09:00 AEST
		{"the end alone", sydney,
			"2026-03-02T22:00:00Z", "2026-03-02T23:00:00Z", "2026-03-02T22:00:00Z", "2026-03-02T23:15:00Z",
			"2026-03-09T22:00:00Z", "2026-03-09T23:00:00Z", "2026-03-09T22:00:00Z", "2026-03-09T23:15:00Z"},
		{"a local time in a DST gap moves to the end of the gap", newYork,
			"2026-03-01T06:00:00Z", "2026-03-01T07:00:00Z", "2026-03-01T06:30:00Z", "2026-03-01T07:30:00Z", // 01:00 EST to 01:30
			"2026-03-08T06:45:00Z", "2026-03-08T07:45:00Z", "2026-03-08T07:00:00Z", "2026-03-08T08:15:00Z"}, // 01:45 EST-03:45 EDT to (02:15) 03:00-04:15 EDT
		{"02:30 on the spring-forward day becomes 03:00", newYork,
			"2026-03-01T06:00:00Z", "2026-03-01T08:00:00Z", "2026-03-01T07:30:00Z", "2026-03-01T08:00:00Z", // 01:00 EST to 02:30
			"2026-03-08T06:00:00Z", "2026-03-08T08:00:00Z", "2026-03-08T07:00:00Z", "2026-03-08T08:00:00Z"}, // 01:00 EST becomes 02:30, in the gap: 03:00 EDT
		{"a local time that occurs twice takes its first instant", newYork,
			"2026-10-25T04:30:00Z", "2026-10-25T05:30:00Z", "2026-10-25T05:00:00Z", "2026-10-25T05:30:00Z", // 00:30 EDT to 01:00
			"2026-11-01T04:30:00Z", "2026-11-01T07:00:00Z", "2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z"}, // 01:00 EDT, not EST
		{"no move leaves the instants, even the second instance of a repeated hour", newYork,
			"2026-10-25T04:30:00Z", "2026-10-25T05:30:00Z", "2026-10-25T04:30:00Z", "2026-10-25T05:30:00Z",
			"2026-11-01T06:15:00Z", "2026-11-01T06:45:00Z", "2026-11-01T06:15:00Z", "2026-11-01T06:45:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shift := NewWallShift(utc(tc.oldStart), utc(tc.oldEnd), utc(tc.newStart), utc(tc.newEnd), tc.zone)
			start, end := shift.Apply(utc(tc.start), utc(tc.end), tc.zone)
			if got := [2]string{start.Format(time.RFC3339), end.Format(time.RFC3339)}; got != [2]string{tc.wantStart, tc.wantEnd} {
				t.Fatalf("moved to %v, want [%s %s] (shift %+v)", got, tc.wantStart, tc.wantEnd, shift)
			}
		})
	}
}
