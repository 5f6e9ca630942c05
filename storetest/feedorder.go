package storetest

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// pollAfter reads every event of the business after the event id after
// ("" for the start of the feed), in feed order, a page at a time.
func pollAfter(t *testing.T, st practiced.Store, biz, after string) []practiced.Event {
	t.Helper()
	var out []practiced.Event
	for {
		f := practiced.EventFilter{After: after}
		got, _, err := st.ListEvents(ctx(t), biz, f, practiced.PageRequest{Limit: 100})
		must(t, err)
		if len(got) == 0 {
			return out
		}
		out = append(out, got...)
		after = got[len(got)-1].ID
	}
}

var feedOrderRules = []rule{
	{"After lists the events after the one it names, in feed order, with the other filters and a cursor", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		var clis []practiced.Client
		for i := range 4 {
			cli := newClient(c.biz, "Client", string(rune('A'+i)))
			must(t, st.CreateClient(ctx(t), c.biz, &cli))
			clis = append(clis, cli)
		}
		_, err := st.UpdateClient(ctx(t), c.biz, clis[1].ID, func(c *practiced.Client) error { c.Notes = "1"; return nil })
		must(t, err)
		all := feedEvents(t, st, c.biz, practiced.EventFilter{})
		ids := idsOf(all)
		if len(ids) != 5 {
			t.Fatalf("%d events, want 5", len(ids))
		}
		for _, tc := range []struct {
			name string
			f    practiced.EventFilter
			p    practiced.PageRequest
			want []string
		}{
			{"after the first", practiced.EventFilter{After: ids[0]}, allOnPage, ids[1:]},
			{"after the last", practiced.EventFilter{After: ids[4]}, allOnPage, nil},
			{"after, with a type", practiced.EventFilter{After: ids[1], Types: []string{"client.created"}}, allOnPage, ids[2:4]},
			{"after, with a record id", practiced.EventFilter{After: ids[0], RecordID: clis[1].ID}, allOnPage, []string{ids[1], ids[4]}},
			{"after an event the filters leave out", practiced.EventFilter{After: ids[2], Types: []string{"client.updated"}}, allOnPage, ids[4:]},
			{"after, with a limit", practiced.EventFilter{After: ids[0]}, practiced.PageRequest{Limit: 2}, ids[1:3]},
			{"after, with a cursor further on", practiced.EventFilter{After: ids[0]}, practiced.PageRequest{Limit: 10, After: ids[2]}, ids[3:]},
			{"after, with a cursor before it", practiced.EventFilter{After: ids[2]}, practiced.PageRequest{Limit: 10, After: ids[0]}, ids[3:]},
		} {
			got, _, err := st.ListEvents(ctx(t), c.biz, tc.f, tc.p)
			must(t, err)
			wantIDs(t, tc.name, idsOf(got), tc.want)
		}
		got, info, err := st.ListEvents(ctx(t), c.biz, practiced.EventFilter{After: ids[1]}, practiced.PageRequest{Limit: 2})
		must(t, err)
		wantIDs(t, "first page after", idsOf(got), ids[2:4])
		if info.HasPrev || !info.HasNext || info.LastID != ids[3] {
			t.Errorf("first page after: %+v, want no page before, one after, and the last id %s", info, ids[3])
		}
	}},
	{"After an event the business does not have is EINVALID on after", func(t *testing.T, st practiced.Store) {
		a, b := newClinic(t, st), newClinic(t, st)
		cb := newClient(b.biz, "Ben", "Baker")
		must(t, st.CreateClient(ctx(t), b.biz, &cb))
		evB := feedEvents(t, st, b.biz, practiced.EventFilter{})
		for _, id := range []string{evB[0].ID, tid.New(practiced.PrefixEvent)} {
			_, _, err := st.ListEvents(ctx(t), a.biz, practiced.EventFilter{After: id}, allOnPage)
			wantInvalidField(t, err, "after")
		}
	}},
	{"a poller resuming after its last event sees every event once, in feed order, while many writers commit at once", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		// A writer stops at the deadline or after writes, whichever comes
		// first: at most 1 + 3 × writes/4 + writes × 3/4 events each, 7,212
		// in all, within feedEvents' 100 pages of 100 on a fast machine.
		const writers, writes = 12, 400
		deadline := time.Now().Add(2 * time.Second)
		var written atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Go(func() {
				cli := newClient(c.biz, "Writer", strconv.Itoa(w))
				if err := st.CreateClient(ctx(t), c.biz, &cli); err != nil {
					errs <- err
					return
				}
				written.Add(1)
				for n := 1; n <= writes && time.Now().Before(deadline); n++ {
					if n%4 == 0 {
						// Several events in one transaction widen the gap
						// between taking an id and committing.
						bts := []practiced.BusyTime{c.busy(hm(9, 0), hm(10, 0)), c.busy(hm(10, 0), hm(11, 0)), c.busy(hm(11, 0), hm(12, 0))}
						if _, err := st.CreateBusyTimes(ctx(t), c.biz, bts, false); err != nil {
							errs <- err
							return
						}
						written.Add(int64(len(bts)))
						continue
					}
					if _, err := st.UpdateClient(ctx(t), c.biz, cli.ID, func(c *practiced.Client) error {
						c.Notes = strconv.Itoa(n)
						return nil
					}); err != nil {
						errs <- err
						return
					}
					written.Add(1)
				}
			})
		}
		var seen []practiced.Event
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		for polling := true; polling; {
			select {
			case <-done:
				polling = false
			default:
			}
			last := ""
			if len(seen) > 0 {
				last = seen[len(seen)-1].ID
			}
			seen = append(seen, pollAfter(t, st, c.biz, last)...)
		}
		close(errs)
		for err := range errs {
			must(t, err)
		}

		all := feedEvents(t, st, c.biz, practiced.EventFilter{})
		if int64(len(all)) != written.Load() {
			t.Fatalf("the feed has %d events, the writers wrote %d", len(all), written.Load())
		}
		seenIDs, allIDs := idsOf(seen), idsOf(all)
		if !slices.Equal(seenIDs, allIDs) {
			once := map[string]int{}
			for _, id := range seenIDs {
				once[id]++
			}
			missed, twice := 0, 0
			for _, id := range allIDs {
				switch once[id] {
				case 0:
					missed++
				case 1:
				default:
					twice++
				}
			}
			t.Fatalf("the poller saw %d events, the feed has %d: %d missed, %d seen more than once, or out of order", len(seen), len(all), missed, twice)
		}
		// Each writer's changes of its client come in the order made.
		notes := map[string]int{}
		for _, e := range all {
			if e.Type != "client.updated" {
				continue
			}
			var cli practiced.Client
			must(t, json.Unmarshal(e.Data, &cli))
			n, err := strconv.Atoi(cli.Notes)
			if err != nil {
				t.Fatalf("client.updated without numbered notes: %s", e.Data)
			}
			if n <= notes[e.RecordID] {
				t.Fatalf("client %s: notes %d after %d", e.RecordID, n, notes[e.RecordID])
			}
			notes[e.RecordID] = n
		}
		t.Logf("%d writers wrote %d events; the poller saw each once, in feed order", writers, len(all))
	}},
}
