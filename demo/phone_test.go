package demo

import (
	"math/rand/v2"
	"testing"
)

// landlineNumber must store what the phone parser makes of landline, for
// every area code the suburbs use, and draw the same numbers from r.
func TestLandlineNumberIsWhatTheParserKeeps(t *testing.T) {
	areas := map[string]bool{}
	for _, s := range suburbs {
		areas[s.areaCode] = true
	}
	for area := range areas {
		a, b := rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(7, 7))
		for range 200 {
			want := auNumber(landline(a, area))
			if got := landlineNumber(b, area); got != want {
				t.Fatalf("area %s: landlineNumber = %q, the parser keeps %q", area, got, want)
			}
		}
	}
}
