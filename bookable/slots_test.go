package bookable

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/availability"
)

// mergeSlots puts the practitioners' slots in the order of their start,
// then practitioner id, whatever order the practitioners come in: starts
// shared between practitioners, starts a nanosecond apart, practitioners
// without a slot, and lists of one slot (first_available's).
func TestMergeSlotsOrdersByStartThenPractitioner(t *testing.T) {
	base := time.Date(2026, 11, 30, 22, 0, 0, 0, time.UTC)
	ids := []string{"pra_c", "pra_a", "pra_b", "pra_ab", "pra_", "pra_d", "pra_e"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		var lists [][]Slot
		var all []Slot
		for _, id := range ids[:round%(len(ids)+1)] {
			var l []Slot
			start := base.Add(time.Duration(rng.IntN(4)) * time.Minute)
			for range rng.IntN(30) {
				start = start.Add(time.Duration(1+rng.IntN(3)) * 15 * time.Minute)
				if rng.IntN(5) == 0 {
					start = start.Add(time.Nanosecond)
				}
				l = append(l, Slot{Slot: availability.Slot{Start: start}, PractitionerID: id})
			}
			if round%3 == 0 && len(l) > 1 {
				l = l[:1]
			}
			lists = append(lists, l)
			all = append(all, l...)
		}
		rng.Shuffle(len(lists), func(i, j int) { lists[i], lists[j] = lists[j], lists[i] })
		slices.SortFunc(all, func(a, b Slot) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return strings.Compare(a.PractitionerID, b.PractitionerID)
		})
		if got := mergeSlots(lists); !slices.Equal(got, all) {
			t.Fatalf("round %d: mergeSlots of %d slots:\n\tgot  %v\n\twant %v", round, len(all), got, all)
		}
	}
}
