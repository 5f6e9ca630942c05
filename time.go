package practiced

import "time"

// Time is a timestamp that encodes as RFC 3339 in UTC with whole seconds,
// e.g. "2026-03-02T09:30:00Z".
type Time struct{ time.Time }

// NewTime truncates t to whole seconds in UTC.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Second)} }

// Now returns the current time as a Time.
func Now() Time { return NewTime(time.Now()) }

// TimeLayout is the layout of every timestamp in responses.
const TimeLayout = "2006-01-02T15:04:05Z"

// MarshalJSON writes the time in TimeLayout.
func (t Time) MarshalJSON() ([]byte, error) {
	return t.appendJSON(make([]byte, 0, len(TimeLayout)+2)), nil
}

// appendJSON appends the time in TimeLayout as a JSON string.
func (t Time) appendJSON(b []byte) []byte {
	b = append(b, '"')
	b = AppendTime(b, t.Time)
	return append(b, '"')
}

// String returns the time in TimeLayout.
func (t Time) String() string { return string(AppendTime(make([]byte, 0, len(TimeLayout)), t.Time)) }

// AppendTime appends t in UTC in TimeLayout, as t.UTC().Format(TimeLayout)
// writes it, digit by digit rather than by reading the layout: an
// answer of thousands of times writes them at several times the speed.
// A year that is not four digits is left to Format.
func AppendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, TimeLayout)
	}
	hour, minute, second := t.Clock()
	b = appendDigits(b, year/100)
	b = appendDigits(b, year%100)
	b = append(b, '-')
	b = appendDigits(b, int(month))
	b = append(b, '-')
	b = appendDigits(b, day)
	b = append(b, 'T')
	b = appendDigits(b, hour)
	b = append(b, ':')
	b = appendDigits(b, minute)
	b = append(b, ':')
	b = appendDigits(b, second)
	return append(b, 'Z')
}

// appendDigits appends n, from 0 to 99, as two digits.
func appendDigits(b []byte, n int) []byte {
	return append(b, byte('0'+n/10), byte('0'+n%10))
}

// TimePtr returns a pointer to NewTime(t).
func TimePtr(t time.Time) *Time { v := NewTime(t); return &v }

// DayPrefixes are the opening-hours key prefixes, indexed by time.Weekday.
var DayPrefixes = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// DayNames are the weekday names used in requests, indexed by time.Weekday.
var DayNames = [7]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// ParseClock reads a local wall-clock time "HH:MM" (00:00 to 23:59, and
// 24:00 for the end of the day) as minutes after midnight.
func ParseClock(s string) (minutes int, ok bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	switch {
	case h == 24 && m == 0:
		return 24 * 60, true
	case h > 23 || m > 59:
		return 0, false
	}
	return h*60 + m, true
}

// EndOfDay is "24:00", the only clock time that can end a range but not
// start one.
const EndOfDay = "24:00"

// checkClockRange checks that a range of valid clock times starts before
// it ends. The start is the field startPath, named start in messages, and
// the end the field endPath. It returns the range in minutes, and ok
// false when the range failed.
func checkClockRange(errs *FieldErrors, startPath, endPath, startName, start, end string) (from, to int, ok bool) {
	from, okFrom := ParseClock(start)
	to, okTo := ParseClock(end)
	if !okFrom || !okTo {
		return 0, 0, false // a malformed time is refused where it is read
	}
	if start == EndOfDay {
		errs.Add(startPath, "must be before 24:00, which can only end a range")
		return 0, 0, false
	}
	if to <= from {
		errs.Add(endPath, "must be after "+startName+" ("+start+")")
		return 0, 0, false
	}
	return from, to, true
}
