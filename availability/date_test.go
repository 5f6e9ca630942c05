package availability

import (
	"errors"
	"testing"
	"time"
)

func TestParseDateAcceptsOnlyStrictISODates(t *testing.T) {
	tests := []struct {
		in   string
		want Date
		ok   bool
	}{
		{"2026-04-05", Date{2026, time.April, 5}, true},
		{"2024-02-29", Date{2024, time.February, 29}, true},
		{"0001-01-01", Date{1, time.January, 1}, true},
		{"2026-12-31", Date{2026, time.December, 31}, true},
		{"2025-02-29", Date{}, false}, // not a leap year
		{"2026-04-31", Date{}, false},
		{"2026-13-01", Date{}, false},
		{"2026-00-10", Date{}, false},
		{"2026-01-00", Date{}, false},
		{"2026-4-05", Date{}, false},
		{"2026-04-5", Date{}, false},
		{"26-04-05", Date{}, false},
		{"+026-04-05", Date{}, false},
		{"2026-04-05 ", Date{}, false},
		{" 2026-04-05", Date{}, false},
		{"2026/04/05", Date{}, false},
		{"2026-04-05T00:00:00Z", Date{}, false},
		{"", Date{}, false},
	}
	for _, tt := range tests {
		got, err := ParseDate(tt.in)
		if tt.ok && (err != nil || got != tt.want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v, nil", tt.in, got, err, tt.want)
		}
		if !tt.ok && (err == nil || !errors.Is(err, errBadDate)) {
			t.Errorf("ParseDate(%q) = %v, %v; want errBadDate", tt.in, got, err)
		}
	}
}

func TestDateStringRoundTripsThroughParseDate(t *testing.T) {
	for _, s := range []string{"2026-01-01", "2026-10-04", "0999-09-09", "2024-02-29"} {
		d, err := ParseDate(s)
		if err != nil {
			t.Fatalf("ParseDate(%q): %v", s, err)
		}
		if got := d.String(); got != s {
			t.Errorf("ParseDate(%q).String() = %q", s, got)
		}
	}
}

func TestDateAddDaysCrossesMonthsYearsAndLeapDays(t *testing.T) {
	tests := []struct {
		from string
		n    int
		want string
	}{
		{"2026-04-05", 0, "2026-04-05"},
		{"2026-04-30", 1, "2026-05-01"},
		{"2026-12-31", 1, "2027-01-01"},
		{"2024-02-28", 1, "2024-02-29"},
		{"2025-02-28", 1, "2025-03-01"},
		{"2026-01-01", -1, "2025-12-31"},
		{"2026-03-01", 31, "2026-04-01"},
		{"2026-01-01", 365, "2027-01-01"},
	}
	for _, tt := range tests {
		d, _ := ParseDate(tt.from)
		if got := d.AddDays(tt.n).String(); got != tt.want {
			t.Errorf("%s.AddDays(%d) = %s, want %s", tt.from, tt.n, got, tt.want)
		}
	}
}

func TestDateWeekdayIsTheCalendarWeekday(t *testing.T) {
	tests := []struct {
		in   string
		want time.Weekday
	}{
		{"2026-04-05", time.Sunday},
		{"2026-03-08", time.Sunday},
		{"2026-01-01", time.Thursday},
		{"2024-02-29", time.Thursday},
		{"2026-10-24", time.Saturday},
	}
	for _, tt := range tests {
		d, _ := ParseDate(tt.in)
		if got := d.Weekday(); got != tt.want {
			t.Errorf("%s.Weekday() = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDateBeforeComparesYearThenMonthThenDay(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"2026-04-05", "2026-04-06", true},
		{"2026-04-06", "2026-04-05", false},
		{"2026-04-05", "2026-04-05", false},
		{"2026-03-31", "2026-04-01", true},
		{"2025-12-31", "2026-01-01", true},
		{"2026-01-01", "2025-12-31", false},
	}
	for _, tt := range tests {
		a, _ := ParseDate(tt.a)
		b, _ := ParseDate(tt.b)
		if got := a.Before(b); got != tt.want {
			t.Errorf("%s.Before(%s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
