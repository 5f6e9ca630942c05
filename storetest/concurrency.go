package storetest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// gather runs f n times at once and returns what each call returned.
func gather(n int, f func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = f(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

var concurrencyRules = []rule{
	{"concurrent UpdateClient calls lose no update", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := newClient(c.biz, "Ann", "Archer")
		seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cli}})
		const workers, rounds = 8, 10
		errs := gather(workers, func(w int) error {
			for r := range rounds {
				_, err := st.UpdateClient(ctx(t), c.biz, cli.ID, func(c *practiced.Client) error {
					c.Intolerances = append(c.Intolerances, fmt.Sprintf("w%d-r%d", w, r))
					return nil
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		for _, err := range errs {
			must(t, err)
		}
		got, err := st.GetClient(ctx(t), c.biz, cli.ID)
		must(t, err)
		if len(got.Intolerances) != workers*rounds {
			t.Fatalf("%d intolerances after %d appends, want %d", len(got.Intolerances), workers*rounds, workers*rounds)
		}
		for w := range workers { // each worker's appends, all there and in its order
			var mine, want []string
			for _, s := range got.Intolerances {
				if strings.HasPrefix(s, fmt.Sprintf("w%d-", w)) {
					mine = append(mine, s)
				}
			}
			for r := range rounds {
				want = append(want, fmt.Sprintf("w%d-r%d", w, r))
			}
			wantIDs(t, fmt.Sprintf("worker %d's intolerances", w), mine, want)
		}
	}},
	{"concurrent skipConflicts creations of one slot create exactly one", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		// Eight callers race for each of ten slots, all at once, which
		// gives a check made outside the writing transaction many
		// chances to let two through.
		const slots, callers = 10, 8
		in := make([]practiced.BusyTime, slots*callers)
		for i := range in {
			slot := time.Duration(i%slots) * time.Hour
			in[i] = c.busy(slot, slot+30*time.Minute)
		}
		errs := gather(len(in), func(i int) error {
			_, err := st.CreateBusyTimes(ctx(t), c.biz, in[i:i+1], true)
			return err
		})
		created := map[string]int{}
		for i, err := range errs {
			switch practiced.ErrorCode(err) {
			case "":
				created[in[i].StartsAt.String()]++
			case practiced.EINVALID:
				wantInvalidField(t, err, "starts_at")
			default:
				t.Errorf("CreateBusyTimes: %v", err)
			}
		}
		stored := map[string]int{}
		for _, b := range listBusyTimes(t, st, c.biz) {
			stored[b.StartsAt.String()]++
		}
		for i := range slots {
			slot := in[i].StartsAt.String()
			if created[slot] != 1 || stored[slot] != 1 {
				t.Errorf("slot %s: %d calls succeeded and %d busy times are stored, want 1 and 1", slot, created[slot], stored[slot])
			}
		}
	}},
	{"concurrent creations of different slots all succeed", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		const workers = 8
		ids := make([]string, workers)
		errs := gather(workers, func(i int) error {
			b := c.busy(hm(8+i, 0), hm(9+i, 0))
			b.ID = tid.New(practiced.PrefixBusyTime)
			ids[i] = b.ID
			_, err := st.CreateBusyTimes(ctx(t), c.biz, []practiced.BusyTime{b}, true)
			return err
		})
		for _, err := range errs {
			must(t, err)
		}
		wantSameIDs(t, "stored", idsOf(listBusyTimes(t, st, c.biz)), ids)
	}},
}
