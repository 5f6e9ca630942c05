package practiced_test

import (
	"testing"

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
