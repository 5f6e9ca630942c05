package recur

import (
	"errors"
	"github.com/practiced/practiced/wallclock"
	"testing"
	"time"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return loc
}

func utc(year int, month time.Month, day, hour, min int) time.Time {
	return time.Date(year, month, day, hour, min, 0, 0, time.UTC)
}

func TestExpand(t *testing.T) {
	london := zone(t, "Europe/London")
	adelaide := zone(t, "Australia/Adelaide")
	newYork := zone(t, "America/New_York")

	tests := []struct {
		name       string
		rule       Rule
		start, end time.Time
		zone       *time.Location
		want       []Occurrence
	}{
		{
			name:  "daily keeps 09:00-17:00 London across spring-forward",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 4},
			start: utc(2025, 3, 28, 9, 0), end: utc(2025, 3, 28, 17, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 3, 28, 9, 0), utc(2025, 3, 28, 17, 0)},
				{utc(2025, 3, 29, 9, 0), utc(2025, 3, 29, 17, 0)},
				{utc(2025, 3, 30, 8, 0), utc(2025, 3, 30, 16, 0)}, // BST from 01:00
				{utc(2025, 3, 31, 8, 0), utc(2025, 3, 31, 16, 0)},
			},
		},
		{
			name:  "daily keeps 09:00-17:00 London across fall-back",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 3},
			start: utc(2025, 10, 25, 8, 0), end: utc(2025, 10, 25, 16, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 10, 25, 8, 0), utc(2025, 10, 25, 16, 0)},
				{utc(2025, 10, 26, 9, 0), utc(2025, 10, 26, 17, 0)}, // GMT from 02:00 BST
				{utc(2025, 10, 27, 9, 0), utc(2025, 10, 27, 17, 0)},
			},
		},
		{
			name:  "daily overnight 22:00-06:00 London ends next day and is an hour shorter across spring-forward",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 3},
			start: utc(2025, 3, 28, 22, 0), end: utc(2025, 3, 29, 6, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 3, 28, 22, 0), utc(2025, 3, 29, 6, 0)},
				{utc(2025, 3, 29, 22, 0), utc(2025, 3, 30, 5, 0)},
				{utc(2025, 3, 30, 21, 0), utc(2025, 3, 31, 5, 0)},
			},
		},
		{
			name: "weekly monday wednesday friday keeps 09:00-17:00 Adelaide across April DST end",
			rule: Rule{
				Frequency:   "weekly",
				Interval:    1,
				Days:        []time.Weekday{time.Monday, time.Wednesday, time.Friday},
				Occurrences: 6,
			},
			// Monday 31 March 2025 09:00 ACDT (+10:30).
			start: utc(2025, 3, 30, 22, 30), end: utc(2025, 3, 31, 6, 30), zone: adelaide,
			want: []Occurrence{
				{utc(2025, 3, 30, 22, 30), utc(2025, 3, 31, 6, 30)},
				{utc(2025, 4, 1, 22, 30), utc(2025, 4, 2, 6, 30)},
				{utc(2025, 4, 3, 22, 30), utc(2025, 4, 4, 6, 30)},
				// ACST (+09:30) from 03:00 ACDT on Sunday 6 April.
				{utc(2025, 4, 6, 23, 30), utc(2025, 4, 7, 7, 30)},
				{utc(2025, 4, 8, 23, 30), utc(2025, 4, 9, 7, 30)},
				{utc(2025, 4, 10, 23, 30), utc(2025, 4, 11, 7, 30)},
			},
		},
		{
			name:  "monthly on the 31st skips months without one",
			rule:  Rule{Frequency: "monthly", Interval: 1, Occurrences: 5},
			start: utc(2025, 1, 31, 15, 0), end: utc(2025, 1, 31, 16, 0), zone: newYork, // 10:00 EST
			want: []Occurrence{
				{utc(2025, 1, 31, 15, 0), utc(2025, 1, 31, 16, 0)},
				{utc(2025, 3, 31, 14, 0), utc(2025, 3, 31, 15, 0)}, // EDT
				{utc(2025, 5, 31, 14, 0), utc(2025, 5, 31, 15, 0)},
				{utc(2025, 7, 31, 14, 0), utc(2025, 7, 31, 15, 0)},
				{utc(2025, 8, 31, 14, 0), utc(2025, 8, 31, 15, 0)},
			},
		},
		{
			name:  "monthly interval 12 on 29 February keeps only leap years",
			rule:  Rule{Frequency: "monthly", Interval: 12, Occurrences: 3},
			start: utc(2096, 2, 29, 9, 0), end: utc(2096, 2, 29, 10, 0), zone: time.UTC,
			want: []Occurrence{
				{utc(2096, 2, 29, 9, 0), utc(2096, 2, 29, 10, 0)},
				{utc(2104, 2, 29, 9, 0), utc(2104, 2, 29, 10, 0)}, // 2100 is not a leap year
				{utc(2108, 2, 29, 9, 0), utc(2108, 2, 29, 10, 0)},
			},
		},
		{
			name:  "monthly interval 2 counts months from start",
			rule:  Rule{Frequency: "monthly", Interval: 2, Occurrences: 3},
			start: utc(2025, 11, 15, 9, 0), end: utc(2025, 11, 15, 10, 0), zone: time.UTC,
			want: []Occurrence{
				{utc(2025, 11, 15, 9, 0), utc(2025, 11, 15, 10, 0)},
				{utc(2026, 1, 15, 9, 0), utc(2026, 1, 15, 10, 0)},
				{utc(2026, 3, 15, 9, 0), utc(2026, 3, 15, 10, 0)},
			},
		},
		{
			name:  "daily interval 3 skips two days",
			rule:  Rule{Frequency: "daily", Interval: 3, Occurrences: 3},
			start: utc(2025, 2, 27, 9, 0), end: utc(2025, 2, 27, 10, 0), zone: time.UTC,
			want: []Occurrence{
				{utc(2025, 2, 27, 9, 0), utc(2025, 2, 27, 10, 0)},
				{utc(2025, 3, 2, 9, 0), utc(2025, 3, 2, 10, 0)},
				{utc(2025, 3, 5, 9, 0), utc(2025, 3, 5, 10, 0)},
			},
		},
		{
			name: "weekly interval 2 tuesday thursday repeats every other week",
			rule: Rule{
				Frequency:   "weekly",
				Interval:    2,
				Days:        []time.Weekday{time.Thursday, time.Tuesday},
				Occurrences: 5,
			},
			// Tuesday 3 June 2025 14:00 BST.
			start: utc(2025, 6, 3, 13, 0), end: utc(2025, 6, 3, 14, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 6, 3, 13, 0), utc(2025, 6, 3, 14, 0)},
				{utc(2025, 6, 5, 13, 0), utc(2025, 6, 5, 14, 0)},
				{utc(2025, 6, 17, 13, 0), utc(2025, 6, 17, 14, 0)},
				{utc(2025, 6, 19, 13, 0), utc(2025, 6, 19, 14, 0)},
				{utc(2025, 7, 1, 13, 0), utc(2025, 7, 1, 14, 0)},
			},
		},
		{
			name:  "weekly interval 2 without days repeats start's weekday",
			rule:  Rule{Frequency: "weekly", Interval: 2, Occurrences: 3},
			start: utc(2025, 6, 3, 13, 0), end: utc(2025, 6, 3, 14, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 6, 3, 13, 0), utc(2025, 6, 3, 14, 0)},
				{utc(2025, 6, 17, 13, 0), utc(2025, 6, 17, 14, 0)},
				{utc(2025, 7, 1, 13, 0), utc(2025, 7, 1, 14, 0)},
			},
		},
		{
			name: "weekly without start's weekday still begins at start and counts it",
			rule: Rule{
				Frequency:   "weekly",
				Interval:    1,
				Days:        []time.Weekday{time.Monday, time.Friday},
				Occurrences: 3,
			},
			// Wednesday 4 June 2025 14:00 BST.
			start: utc(2025, 6, 4, 13, 0), end: utc(2025, 6, 4, 14, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 6, 4, 13, 0), utc(2025, 6, 4, 14, 0)},
				{utc(2025, 6, 6, 13, 0), utc(2025, 6, 6, 14, 0)},
				{utc(2025, 6, 9, 13, 0), utc(2025, 6, 9, 14, 0)},
			},
		},
		{
			name: "weekly interval 2 without start's weekday skips the rest of start's Monday-based week",
			rule: Rule{
				Frequency:   "weekly",
				Interval:    2,
				Days:        []time.Weekday{time.Monday},
				Occurrences: 3,
			},
			// Tuesday 3 June 2025; the Monday of its week, 2 June, is before it.
			start: utc(2025, 6, 3, 13, 0), end: utc(2025, 6, 3, 14, 0), zone: london,
			want: []Occurrence{
				{utc(2025, 6, 3, 13, 0), utc(2025, 6, 3, 14, 0)},
				{utc(2025, 6, 16, 13, 0), utc(2025, 6, 16, 14, 0)},
				{utc(2025, 6, 30, 13, 0), utc(2025, 6, 30, 14, 0)},
			},
		},
		{
			name: "weekly days are weekdays in the zone, not in UTC",
			rule: Rule{
				Frequency:   "weekly",
				Interval:    1,
				Days:        []time.Weekday{time.Monday},
				Occurrences: 2,
			},
			// Monday 30 June 2025 08:00 AEST is Sunday in UTC.
			start: utc(2025, 6, 29, 22, 0), end: utc(2025, 6, 29, 23, 0), zone: zone(t, "Australia/Sydney"),
			want: []Occurrence{
				{utc(2025, 6, 29, 22, 0), utc(2025, 6, 29, 23, 0)},
				{utc(2025, 7, 6, 22, 0), utc(2025, 7, 6, 23, 0)},
			},
		},
		{
			name:  "daily 02:30 New York moves to 03:00 EDT on spring-forward day",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 3},
			start: utc(2025, 3, 8, 7, 30), end: utc(2025, 3, 8, 8, 30), zone: newYork, // 02:30-03:30 EST
			want: []Occurrence{
				{utc(2025, 3, 8, 7, 30), utc(2025, 3, 8, 8, 30)},
				{utc(2025, 3, 9, 7, 0), utc(2025, 3, 9, 7, 30)}, // 03:00-03:30 EDT
				{utc(2025, 3, 10, 6, 30), utc(2025, 3, 10, 7, 30)},
			},
		},
		{
			name:  "daily 01:30 New York takes the first 01:30 on fall-back day",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 3},
			start: utc(2025, 11, 1, 5, 30), end: utc(2025, 11, 1, 6, 30), zone: newYork, // 01:30-02:30 EDT
			want: []Occurrence{
				{utc(2025, 11, 1, 5, 30), utc(2025, 11, 1, 6, 30)},
				{utc(2025, 11, 2, 5, 30), utc(2025, 11, 2, 7, 30)}, // 01:30 EDT-02:30 EST
				{utc(2025, 11, 3, 6, 30), utc(2025, 11, 3, 7, 30)},
			},
		},
		{
			name:  "daily start at the second 01:30 on fall-back day is kept as the first occurrence",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 3},
			start: utc(2025, 11, 2, 6, 30), end: utc(2025, 11, 2, 7, 30), zone: newYork, // 01:30-02:30 EST
			want: []Occurrence{
				{utc(2025, 11, 2, 6, 30), utc(2025, 11, 2, 7, 30)},
				{utc(2025, 11, 3, 6, 30), utc(2025, 11, 3, 7, 30)},
				{utc(2025, 11, 4, 6, 30), utc(2025, 11, 4, 7, 30)},
			},
		},
		{
			name:  "sub-second start and end are kept",
			rule:  Rule{Frequency: "daily", Interval: 1, Occurrences: 2},
			start: time.Date(2025, 1, 1, 9, 0, 0, 500, time.UTC), end: time.Date(2025, 1, 1, 10, 0, 0, 700, time.UTC), zone: time.UTC,
			want: []Occurrence{
				{time.Date(2025, 1, 1, 9, 0, 0, 500, time.UTC), time.Date(2025, 1, 1, 10, 0, 0, 700, time.UTC)},
				{time.Date(2025, 1, 2, 9, 0, 0, 500, time.UTC), time.Date(2025, 1, 2, 10, 0, 0, 700, time.UTC)},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.rule, tt.start, tt.end, tt.zone)
			if err != nil {
				t.Fatalf("Expand: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d occurrences %v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if !g.Start.Equal(w.Start) || !g.End.Equal(w.End) {
					t.Errorf("occurrence %d = %s-%s, want %s-%s", i, g.Start, g.End, w.Start, w.End)
				}
				if g.Start.Location() != time.UTC || g.End.Location() != time.UTC {
					t.Errorf("occurrence %d is in %s-%s, want UTC", i, g.Start.Location(), g.End.Location())
				}
			}
		})
	}
}

func TestExpandCount(t *testing.T) {
	mwf := []time.Weekday{time.Monday, time.Wednesday, time.Friday}
	tests := []struct {
		name      string
		rule      Rule
		start     time.Time
		wantLast  time.Time
		wantCount int
	}{
		{
			name:      "one occurrence is start alone",
			rule:      Rule{Frequency: "daily", Interval: 1, Occurrences: 1},
			start:     utc(2025, 1, 1, 9, 0),
			wantLast:  utc(2025, 1, 1, 9, 0),
			wantCount: 1,
		},
		{
			name:      "one weekly occurrence without start's weekday is start alone",
			rule:      Rule{Frequency: "weekly", Interval: 1, Days: []time.Weekday{time.Monday}, Occurrences: 1},
			start:     utc(2025, 1, 7, 9, 0), // Tuesday
			wantLast:  utc(2025, 1, 7, 9, 0),
			wantCount: 1,
		},
		{
			name:      "daily 260 ends 259 days after start",
			rule:      Rule{Frequency: "daily", Interval: 1, Occurrences: 260},
			start:     utc(2025, 1, 1, 9, 0),
			wantLast:  utc(2025, 9, 17, 9, 0),
			wantCount: 260,
		},
		{
			name:      "weekly monday wednesday friday 260 ends on the second day of week 87",
			rule:      Rule{Frequency: "weekly", Interval: 1, Days: mwf, Occurrences: 260},
			start:     utc(2025, 1, 6, 9, 0), // Monday
			wantLast:  utc(2026, 9, 2, 9, 0), // Wednesday
			wantCount: 260,
		},
		{
			name:      "weekly 260 without start's weekday counts start plus 259 mondays",
			rule:      Rule{Frequency: "weekly", Interval: 1, Days: []time.Weekday{time.Monday}, Occurrences: 260},
			start:     utc(2025, 1, 7, 9, 0), // Tuesday
			wantLast:  utc(2029, 12, 24, 9, 0),
			wantCount: 260,
		},
		{
			name:      "weekly interval 52 repeats after 364 days",
			rule:      Rule{Frequency: "weekly", Interval: 52, Occurrences: 2},
			start:     utc(2025, 1, 6, 9, 0),
			wantLast:  utc(2026, 1, 5, 9, 0),
			wantCount: 2,
		},
		{
			name:      "monthly 260 on the 15th ends 259 months after start",
			rule:      Rule{Frequency: "monthly", Interval: 1, Occurrences: 260},
			start:     utc(2025, 1, 15, 9, 0),
			wantLast:  utc(2046, 8, 15, 9, 0),
			wantCount: 260,
		},
		{
			name:      "monthly interval 52 reaches past rrule-go's 292-year default horizon",
			rule:      Rule{Frequency: "monthly", Interval: 52, Occurrences: 260},
			start:     utc(2025, 1, 15, 9, 0),
			wantLast:  utc(3147, 5, 15, 9, 0), // 259*52 months later
			wantCount: 260,
		},
		{
			name:      "monthly 260 on the 31st takes seven months a year",
			rule:      Rule{Frequency: "monthly", Interval: 1, Occurrences: 260},
			start:     utc(2025, 1, 31, 9, 0),
			wantLast:  utc(2062, 1, 31, 9, 0),
			wantCount: 260,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.rule, tt.start, tt.start.Add(time.Hour), time.UTC)
			if err != nil {
				t.Fatalf("Expand: %v", err)
			}
			if len(got) != tt.wantCount {
				t.Fatalf("got %d occurrences, want %d", len(got), tt.wantCount)
			}
			if last := got[len(got)-1].Start; !last.Equal(tt.wantLast) {
				t.Errorf("last occurrence starts %s, want %s", last, tt.wantLast)
			}
			for i := 1; i < len(got); i++ {
				if !got[i].Start.After(got[i-1].Start) {
					t.Fatalf("occurrence %d at %s is not after occurrence %d at %s", i, got[i].Start, i-1, got[i-1].Start)
				}
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	newYork := zone(t, "America/New_York")
	start := utc(2025, 1, 6, 9, 0)
	end := utc(2025, 1, 6, 10, 0)
	daily := Rule{Frequency: "daily", Interval: 1, Occurrences: 3}

	tests := []struct {
		name       string
		rule       Rule
		start, end time.Time
		zone       *time.Location
		wantErr    error
	}{
		{"unknown frequency yearly", Rule{Frequency: "yearly", Interval: 1, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"empty frequency", Rule{Interval: 1, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"frequency is case-sensitive", Rule{Frequency: "Daily", Interval: 1, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"interval 0", Rule{Frequency: "daily", Interval: 0, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"interval 53", Rule{Frequency: "weekly", Interval: 53, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"occurrences 0", Rule{Frequency: "daily", Interval: 1, Occurrences: 0}, start, end, time.UTC, ErrInvalidRule},
		{"occurrences 261", Rule{Frequency: "daily", Interval: 1, Occurrences: 261}, start, end, time.UTC, ErrInvalidRule},
		{"days for daily", Rule{Frequency: "daily", Interval: 1, Days: []time.Weekday{time.Monday}, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"days for monthly", Rule{Frequency: "monthly", Interval: 1, Days: []time.Weekday{time.Monday}, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"weekday out of range", Rule{Frequency: "weekly", Interval: 1, Days: []time.Weekday{7}, Occurrences: 3}, start, end, time.UTC, ErrInvalidRule},
		{"end equal to start", daily, start, start, time.UTC, ErrInvalidRule},
		{"end before start", daily, end, start, time.UTC, ErrInvalidRule},
		{"nil zone", daily, start, end, nil, ErrInvalidRule},
		{
			name: "monthly runs out at the end of the year 9999",
			rule: Rule{Frequency: "monthly", Interval: 1, Occurrences: 260},
			// Only 120 months are left.
			start: utc(9990, 1, 15, 9, 0), end: utc(9990, 1, 15, 10, 0), zone: time.UTC,
			wantErr: ErrUnexpandable,
		},
		{
			name: "weekly block inside New York's spring-forward gap is empty",
			rule: Rule{Frequency: "weekly", Interval: 1, Occurrences: 2},
			// Sunday 2 March 2025 02:00-02:30 EST; on 9 March both are 03:00 EDT.
			start: utc(2025, 3, 2, 7, 0), end: utc(2025, 3, 2, 7, 30), zone: newYork,
			wantErr: ErrUnexpandable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.rule, tt.start, tt.end, tt.zone)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Expand error = %v, want %v", err, tt.wantErr)
			}
			if got != nil {
				t.Errorf("Expand returned %d occurrences with an error", len(got))
			}
		})
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name string
		zone string
		wall time.Time // local wall clock, carried in UTC
		want time.Time
	}{
		{"ordinary time", "Europe/London", utc(2025, 7, 1, 9, 0), utc(2025, 7, 1, 8, 0)},
		{"New York gap moves to 03:00 EDT", "America/New_York", utc(2025, 3, 9, 2, 30), utc(2025, 3, 9, 7, 0)},
		{"New York gap start moves to 03:00 EDT", "America/New_York", utc(2025, 3, 9, 2, 0), utc(2025, 3, 9, 7, 0)},
		{"New York end of gap exists", "America/New_York", utc(2025, 3, 9, 3, 0), utc(2025, 3, 9, 7, 0)},
		{"New York overlap takes EDT", "America/New_York", utc(2025, 11, 2, 1, 30), utc(2025, 11, 2, 5, 30)},
		{"New York overlap start takes EDT", "America/New_York", utc(2025, 11, 2, 1, 0), utc(2025, 11, 2, 5, 0)},
		{"Adelaide overlap takes ACDT", "Australia/Adelaide", utc(2025, 4, 6, 2, 30), utc(2025, 4, 5, 16, 0)},
		{"Adelaide gap moves to 03:00 ACDT", "Australia/Adelaide", utc(2025, 10, 5, 2, 30), utc(2025, 10, 4, 16, 30)},
		{"Lord Howe half-hour gap moves to 02:30", "Australia/Lord_Howe", utc(2025, 10, 5, 2, 15), utc(2025, 10, 4, 15, 30)},
		{"Lord Howe half-hour overlap takes +11", "Australia/Lord_Howe", utc(2025, 4, 6, 1, 45), utc(2025, 4, 5, 14, 45)},
		{"Havana midnight gap moves to 01:00", "America/Havana", utc(2025, 3, 9, 0, 30), utc(2025, 3, 9, 5, 0)},
		{"fixed zone", "Etc/GMT-5", utc(2025, 3, 9, 2, 30), utc(2025, 3, 8, 21, 30)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := wallclock.Instant(tt.wall, zone(t, tt.zone))
			if !got.Equal(tt.want) {
				t.Errorf("resolve(%s) = %s, want %s", tt.wall, got, tt.want)
			}
		})
	}
}
