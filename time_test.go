package practiced_test

import (
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

func TestParseClockReadsHHMMUpTo2400(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"00:00", 0, true}, {"09:30", 570, true}, {"23:59", 1439, true}, {"24:00", 1440, true},
		{"24:01", 0, false}, {"25:00", 0, false}, {"12:60", 0, false}, {"9:30", 0, false},
		{"09:30:00", 0, false}, {"0930", 0, false}, {"", 0, false}, {"ab:cd", 0, false}, {"-1:00", 0, false},
	} {
		got, ok := practiced.ParseClock(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseClock(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// AppendTime writes what Format writes, for times in every zone, with
// fractions of a second, at the ends of the four-digit years and beyond
// them.
func TestAppendTimeWritesWhatFormatWrites(t *testing.T) {
	sydney, err := time.LoadLocation("Australia/Sydney")
	if err != nil {
		t.Fatal(err)
	}
	times := []time.Time{
		time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC),
		time.Date(2026, 10, 4, 2, 30, 0, 999_999_999, sydney),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 0, 0, 0, time.FixedZone("", -90*60)), // 2000 in UTC
		{},
	}
	// A second every 997 minutes for 20 years, in Sydney.
	for at := time.Date(2020, 1, 1, 0, 0, 1, 0, sydney); at.Year() < 2040; at = at.Add(997 * time.Minute) {
		times = append(times, at)
	}
	for _, at := range times {
		want := at.UTC().Format(practiced.TimeLayout)
		if got := string(practiced.AppendTime([]byte("x"), at)); got != "x"+want {
			t.Fatalf("AppendTime(%v) = %q, want %q", at, got, "x"+want)
		}
		if got := practiced.NewTime(at).String(); got != practiced.NewTime(at).UTC().Format(practiced.TimeLayout) {
			t.Fatalf("Time(%v).String() = %q", at, got)
		}
		if got, _ := practiced.NewTime(at).MarshalJSON(); string(got) != `"`+practiced.NewTime(at).UTC().Format(practiced.TimeLayout)+`"` {
			t.Fatalf("Time(%v).MarshalJSON() = %s", at, got)
		}
	}
}
