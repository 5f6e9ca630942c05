package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// busySeries is a clinic with a repeating busy time of five daily occurrences
// (the third archived), a sixth made last but starting before the second,
// another series and a single busy time, all of the first practitioner.
type busySeries struct {
	*clinic
	occ    [6]practiced.BusyTime // occ[5] starts before occ[1]
	other  practiced.BusyTime    // of another series, starting with occ[3]
	single practiced.BusyTime
}

const oneDay = 24 * time.Hour

func newBusySeries(t *testing.T, st practiced.Store) *busySeries {
	t.Helper()
	s := &busySeries{clinic: newClinic(t, st)}
	rep := ptr(tid.New(practiced.PrefixRepeat))
	for i := range 5 {
		s.occ[i] = s.busy(time.Duration(i)*oneDay+hm(9, 0), time.Duration(i)*oneDay+hm(10, 0))
		s.occ[i].RepeatID = rep
		s.occ[i].Name = ptr("Admin")
	}
	s.occ[2].ArchivedAt = archivedAt()
	s.occ[5] = s.busy(hm(12, 0), hm(13, 0))
	s.occ[5].RepeatID = rep
	s.other = s.busy(3*oneDay+hm(9, 0), 3*oneDay+hm(10, 0))
	s.other.RepeatID = ptr(tid.New(practiced.PrefixRepeat))
	s.single = s.busy(4*oneDay+hm(14, 0), 4*oneDay+hm(15, 0))
	seed(t, st, s.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{s.occ[0], s.occ[1], s.occ[2], s.occ[3], s.occ[4], s.occ[5], s.other, s.single}})
	return s
}

// busyTimesByID returns every busy time of the business by id.
func busyTimesByID(t *testing.T, st practiced.Store, biz string) map[string]practiced.BusyTime {
	t.Helper()
	out := map[string]practiced.BusyTime{}
	for _, b := range listBusyTimes(t, st, biz) {
		out[b.ID] = b
	}
	return out
}

// noted returns b with the note and updated_at an update gives it.
func noted(b practiced.BusyTime, note string, at practiced.Time) practiced.BusyTime {
	b.Note = ptr(note)
	b.UpdatedAt = at
	return b
}

var busyTimeChangeRules = []rule{
	{"GetBusyTime returns the busy time as stored; an unknown one or another business's is ENOTFOUND", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		for _, want := range []practiced.BusyTime{a.bti1, a.bti2} {
			got, err := st.GetBusyTime(ctx(t), a.biz, want.ID)
			must(t, err)
			wantEqual(t, "GetBusyTime "+want.ID, got, want)
		}
		_, err := st.GetBusyTime(ctx(t), a.biz, b.bti1.ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetBusyTime(ctx(t), a.biz, tid.New(practiced.PrefixBusyTime))
		wantCode(t, err, practiced.ENOTFOUND)
	}},
	{"UpdateBusyTimes without following changes the busy time alone, which stays in its series", func(t *testing.T, st practiced.Store) {
		start := time.Now()
		s := newBusySeries(t, st)
		stamp := at(hm(8, 0))
		var calls []practiced.BusyTime
		got, err := st.UpdateBusyTimes(ctx(t), s.biz, s.occ[1].ID, false, func(first practiced.BusyTime, b *practiced.BusyTime) error {
			calls = append(calls, first, *b)
			b.Note, b.UpdatedAt = ptr("moved"), stamp
			b.StartsAt, b.EndsAt = at(oneDay+hm(11, 0)), at(oneDay+hm(11, 45))
			return nil
		})
		must(t, err)
		wantEqual(t, "first and busy time passed to change", calls, []practiced.BusyTime{s.occ[1], s.occ[1]})
		want := noted(s.occ[1], "moved", stamp)
		want.StartsAt, want.EndsAt, want.Duration = at(oneDay+hm(11, 0)), at(oneDay+hm(11, 45)), 45
		wantEqual(t, "UpdateBusyTimes result", got, []practiced.BusyTime{want})
		stored := busyTimesByID(t, st, s.biz)
		wantEqual(t, "stored busy time", stored[want.ID], want)
		for _, o := range append(s.occ[:1:1], s.occ[2:]...) {
			wantEqual(t, "another occurrence", stored[o.ID], o)
		}
		wantFeed(t, "events", feedEvents(t, st, s.biz, practiced.EventFilter{}), []feedChange{{"busy_time.updated", want.ID, want}}, start)
	}},
	{"UpdateBusyTimes with following changes the busy time, then every occurrence of its series starting at or after it, archived ones too", func(t *testing.T, st practiced.Store) {
		start := time.Now()
		s := newBusySeries(t, st)
		stamp := at(hm(8, 0))
		var firsts, seen []practiced.BusyTime
		got, err := st.UpdateBusyTimes(ctx(t), s.biz, s.occ[1].ID, true, func(first practiced.BusyTime, b *practiced.BusyTime) error {
			firsts, seen = append(firsts, first), append(seen, *b)
			b.Note, b.UpdatedAt = ptr("series"), stamp
			return nil
		})
		must(t, err)
		wantEqual(t, "busy times passed to change", seen, []practiced.BusyTime{s.occ[1], s.occ[2], s.occ[3], s.occ[4]})
		wantEqual(t, "first passed to change", firsts, []practiced.BusyTime{s.occ[1], s.occ[1], s.occ[1], s.occ[1]})
		var want []practiced.BusyTime
		var events []feedChange
		for _, o := range s.occ[1:5] {
			want = append(want, noted(o, "series", stamp))
			events = append(events, feedChange{"busy_time.updated", o.ID, want[len(want)-1]})
		}
		wantEqual(t, "UpdateBusyTimes result", got, want)
		stored := busyTimesByID(t, st, s.biz)
		for _, w := range want {
			wantEqual(t, "changed occurrence", stored[w.ID], w)
		}
		for _, o := range []practiced.BusyTime{s.occ[0], s.occ[5], s.other, s.single} {
			wantEqual(t, "busy time left alone", stored[o.ID], o)
		}
		wantFeed(t, "events", feedEvents(t, st, s.biz, practiced.EventFilter{}), events, start)
	}},
	{"UpdateBusyTimes with following on a busy time of no series changes it alone", func(t *testing.T, st practiced.Store) {
		s := newBusySeries(t, st)
		got, err := st.UpdateBusyTimes(ctx(t), s.biz, s.single.ID, true, func(_ practiced.BusyTime, b *practiced.BusyTime) error {
			b.Note = ptr("alone")
			return nil
		})
		must(t, err)
		wantIDs(t, "changed", idsOf(got), []string{s.single.ID})
	}},
	{"UpdateBusyTimes sets updated_at to the time of the update when change leaves it", func(t *testing.T, st practiced.Store) {
		s := newBusySeries(t, st)
		before := time.Now().Truncate(time.Second)
		got, err := st.UpdateBusyTimes(ctx(t), s.biz, s.occ[3].ID, true, func(_ practiced.BusyTime, b *practiced.BusyTime) error {
			b.Note = ptr("x")
			return nil
		})
		must(t, err)
		after := time.Now()
		for _, b := range got {
			if b.UpdatedAt.Before(before) || b.UpdatedAt.After(after) || !b.UpdatedAt.Equal(b.UpdatedAt.Truncate(time.Second)) {
				t.Errorf("updated_at %s, want whole seconds between %s and %s", b.UpdatedAt, before.UTC().Format(time.RFC3339), after.UTC().Format(time.RFC3339))
			}
		}
	}},
	{"an error from change on any occurrence is returned as it is and nothing is written", func(t *testing.T, st practiced.Store) {
		s := newBusySeries(t, st)
		refused := practiced.Invalid("ends_at", "refused")
		_, err := st.UpdateBusyTimes(ctx(t), s.biz, s.occ[1].ID, true, func(_ practiced.BusyTime, b *practiced.BusyTime) error {
			b.Note = ptr("written?")
			if b.ID == s.occ[4].ID {
				return refused
			}
			return nil
		})
		if err != refused {
			t.Errorf("UpdateBusyTimes error %v, want the error change returned", err)
		}
		stored := busyTimesByID(t, st, s.biz)
		for _, o := range s.occ {
			wantEqual(t, "occurrence after a refused change", stored[o.ID], o)
		}
		wantFeed(t, "events", feedEvents(t, st, s.biz, practiced.EventFilter{}), nil, time.Now())
	}},
	{"UpdateBusyTimes and DeleteBusyTimes of an unknown busy time or another business's are ENOTFOUND", func(t *testing.T, st practiced.Store) {
		a, b := newBusySeries(t, st), newBusySeries(t, st)
		for _, id := range []string{b.occ[0].ID, tid.New(practiced.PrefixBusyTime)} {
			called := false
			_, err := st.UpdateBusyTimes(ctx(t), a.biz, id, true, func(practiced.BusyTime, *practiced.BusyTime) error { called = true; return nil })
			wantCode(t, err, practiced.ENOTFOUND)
			if called {
				t.Error("change was called for an unknown busy time")
			}
			_, err = st.DeleteBusyTimes(ctx(t), a.biz, id, true)
			wantCode(t, err, practiced.ENOTFOUND)
		}
		wantEqual(t, "b's busy times", busyTimesByID(t, st, b.biz)[b.occ[0].ID], b.occ[0])
	}},
	{"DeleteBusyTimes deletes the busy time, or with following the occurrences UpdateBusyTimes would change, recording their last state", func(t *testing.T, st practiced.Store) {
		start := time.Now()
		s := newBusySeries(t, st)
		got, err := st.DeleteBusyTimes(ctx(t), s.biz, s.occ[4].ID, false)
		must(t, err)
		wantEqual(t, "deleted alone", got, []practiced.BusyTime{s.occ[4]})
		got, err = st.DeleteBusyTimes(ctx(t), s.biz, s.occ[1].ID, true)
		must(t, err)
		wantEqual(t, "deleted with following", got, []practiced.BusyTime{s.occ[1], s.occ[2], s.occ[3]})
		wantSameIDs(t, "left", idsOf(listBusyTimes(t, st, s.biz)), []string{s.occ[0].ID, s.occ[5].ID, s.other.ID, s.single.ID})
		for _, o := range s.occ[1:5] {
			_, err := st.GetBusyTime(ctx(t), s.biz, o.ID)
			wantCode(t, err, practiced.ENOTFOUND)
		}
		wantFeed(t, "events", feedEvents(t, st, s.biz, practiced.EventFilter{}), []feedChange{
			{"busy_time.deleted", s.occ[4].ID, s.occ[4]},
			{"busy_time.deleted", s.occ[1].ID, s.occ[1]},
			{"busy_time.deleted", s.occ[2].ID, s.occ[2]},
			{"busy_time.deleted", s.occ[3].ID, s.occ[3]},
		}, start)
	}},
	{"ArchiveBusyTime sets and clears archived_at and updated_at, recording busy_time.archived and unarchived", func(t *testing.T, st practiced.Store) {
		start := time.Now()
		s := newBusySeries(t, st)
		archived, err := st.ArchiveBusyTime(ctx(t), s.biz, s.occ[0].ID, true, at(hm(1, 0)))
		must(t, err)
		want := s.occ[0]
		want.ArchivedAt, want.UpdatedAt = atp(hm(1, 0)), at(hm(1, 0))
		wantEqual(t, "archived", archived, want)
		unarchived, err := st.ArchiveBusyTime(ctx(t), s.biz, s.occ[0].ID, false, at(hm(2, 0)))
		must(t, err)
		want.ArchivedAt, want.UpdatedAt = nil, at(hm(2, 0))
		wantEqual(t, "unarchived", unarchived, want)
		_, err = st.ArchiveBusyTime(ctx(t), s.biz, tid.New(practiced.PrefixBusyTime), true, at(0))
		wantCode(t, err, practiced.ENOTFOUND)
		wantFeed(t, "events", feedEvents(t, st, s.biz, practiced.EventFilter{}), []feedChange{
			{"busy_time.archived", s.occ[0].ID, archived},
			{"busy_time.unarchived", s.occ[0].ID, unarchived},
		}, start)
	}},
	{"concurrent following updates of one series lose no change", func(t *testing.T, st practiced.Store) {
		s := newBusySeries(t, st)
		const workers = 6
		errs := gather(workers, func(w int) error {
			from := s.occ[w%2].ID // half from the first occurrence, half from the second
			_, err := st.UpdateBusyTimes(ctx(t), s.biz, from, true, func(_ practiced.BusyTime, b *practiced.BusyTime) error {
				b.ResourceIDs = append(b.ResourceIDs, fmt.Sprint("w", w))
				return nil
			})
			return err
		})
		must(t, errors.Join(errs...))
		stored := busyTimesByID(t, st, s.biz)
		if n := len(stored[s.occ[0].ID].ResourceIDs); n != workers/2 {
			t.Errorf("the first occurrence has %d resources, want %d", n, workers/2)
		}
		for _, o := range s.occ[1:5] {
			if n := len(stored[o.ID].ResourceIDs); n != workers {
				t.Errorf("occurrence %s has %d resources %v, want %d", o.ID, n, stored[o.ID].ResourceIDs, workers)
			}
		}
	}},
}

// changeFeedRules are the rules of the area that keeps busy times and
// the change feed.
var changeFeedRules = append(append([]rule{}, eventRules...), busyTimeChangeRules...)
