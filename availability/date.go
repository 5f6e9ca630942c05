package availability

import (
	"errors"
	"fmt"
	"time"
)

// Date is a local calendar date, free of any time zone so that it can key
// exceptions and bound queries without picking an instant.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// errBadDate is returned for any malformed date; the input is quoted by the
// caller-facing error.
var errBadDate = errors.New("want YYYY-MM-DD")

// ParseDate parses a date written exactly as "YYYY-MM-DD". It rejects signs,
// spaces, missing leading zeros and days that the month does not have,
// because dates arrive from URLs and a lenient parser would silently turn
// "2026-02-30" into March.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, fmt.Errorf("availability: parse date %q: %w", s, errBadDate)
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 || day > daysIn(year, time.Month(month)) {
		return Date{}, fmt.Errorf("availability: parse date %q: %w", s, errBadDate)
	}
	return Date{Year: year, Month: time.Month(month), Day: day}, nil
}

// digits parses a string made only of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn returns the number of days in a month, letting time.Date do the
// leap-year arithmetic by normalising day 0 of the next month.
func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// String formats the date as "YYYY-MM-DD".
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// AddDays returns the date n calendar days later (earlier when n < 0).
func (d Date) AddDays(n int) Date {
	return dateOf(d.midnightUTC().AddDate(0, 0, n))
}

// Weekday returns the day of the week of the date.
func (d Date) Weekday() time.Weekday {
	return d.midnightUTC().Weekday()
}

// Before reports whether d is an earlier calendar date than o.
func (d Date) Before(o Date) bool {
	if d.Year != o.Year {
		return d.Year < o.Year
	}
	if d.Month != o.Month {
		return d.Month < o.Month
	}
	return d.Day < o.Day
}

// midnightUTC returns the date's midnight as a UTC time. UTC has no
// transitions, so it doubles as a "naive" wall clock: wall-clock arithmetic
// on it never skips or repeats a time.
func (d Date) midnightUTC() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// dateOf returns the calendar date of t in t's own location.
func dateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}
