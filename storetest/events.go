package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// feedEvents walks ListEvents to the end and returns every event of the
// business that f matches.
func feedEvents(t *testing.T, st practiced.Store, biz string, f practiced.EventFilter) []practiced.Event {
	t.Helper()
	var out []practiced.Event
	p := practiced.PageRequest{Limit: 100}
	for range 100 {
		got, info, err := st.ListEvents(ctx(t), biz, f, p)
		must(t, err)
		out = append(out, got...)
		if !info.HasNext || len(got) == 0 {
			return out
		}
		p.After = got[len(got)-1].ID
	}
	t.Fatal("ListEvents: more than 100 pages")
	return nil
}

// feedChange is an event a test expects: its type, record and data, the record
// after the change (the last state for a deletion).
type feedChange struct {
	typ      string
	recordID string
	data     any
}

// wantFeed fails unless got are exactly the changes of want, in order:
// each with an evt_ id in ascending order, record_type the type's first
// part, the data encoding the record, and a created_at in whole seconds
// of the test's run.
func wantFeed(t *testing.T, what string, got []practiced.Event, want []feedChange, since time.Time) {
	t.Helper()
	if len(got) != len(want) {
		var types []string
		for _, e := range got {
			types = append(types, e.Type+" "+e.RecordID)
		}
		t.Fatalf("%s: %d events [%s], want %d", what, len(got), strings.Join(types, ", "), len(want))
	}
	if !slices.IsSortedFunc(got, func(a, b practiced.Event) int { return strings.Compare(a.ID, b.ID) }) {
		t.Errorf("%s: events not in id order: %v", what, idsOf(got))
	}
	for i, e := range got {
		w := want[i]
		recordType, _, _ := strings.Cut(w.typ, ".")
		if !tid.Valid(e.ID, practiced.PrefixEvent) || e.Type != w.typ || e.RecordType != recordType || e.RecordID != w.recordID {
			t.Errorf("%s: event %d is %s %s %s %s, want %s %s %s", what, i, e.ID, e.Type, e.RecordType, e.RecordID, w.typ, recordType, w.recordID)
		}
		wantSameJSON(t, what+": data of event "+e.Type+" "+e.RecordID, e.Data, w.data)
		if e.CreatedAt.Before(since.Truncate(time.Second)) || e.CreatedAt.After(time.Now()) || !e.CreatedAt.Equal(e.CreatedAt.Truncate(time.Second)) {
			t.Errorf("%s: event %d created at %s, not in whole seconds since %s", what, i, e.CreatedAt, since.UTC().Format(time.RFC3339))
		}
	}
}

// wantSameJSON fails unless data encodes the same JSON value as want does.
func wantSameJSON(t *testing.T, what string, data json.RawMessage, want any) {
	t.Helper()
	w, err := json.Marshal(want)
	must(t, err)
	if g, w := canonicalText(t, data), canonicalText(t, w); g != w {
		t.Errorf("%s:\n\tgot  %s\n\twant %s", what, g, w)
	}
}

func canonicalText(t *testing.T, text []byte) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, text)
	}
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}

// sleepToNextSecond sleeps into the next whole second, so events recorded
// afterwards carry a later created_at than those recorded before.
func sleepToNextSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second).Sub(now))
}

var eventRules = []rule{
	{"client changes record client.created, updated, archived and unarchived with the client after each", func(t *testing.T, st practiced.Store) {
		start := time.Now()
		c := newClinic(t, st)
		cli := newClient(c.biz, "Ann", "Archer")
		cli.Email = "ann@example.com"
		must(t, st.CreateClient(ctx(t), c.biz, &cli))
		created, err := st.GetClient(ctx(t), c.biz, cli.ID)
		must(t, err)
		updatedCli, err := st.UpdateClient(ctx(t), c.biz, cli.ID, func(c *practiced.Client) error { c.Notes = "seen"; return nil })
		must(t, err)
		archived, err := st.ArchiveClient(ctx(t), c.biz, cli.ID, true, at(hm(1, 0)))
		must(t, err)
		unarchived, err := st.ArchiveClient(ctx(t), c.biz, cli.ID, false, at(hm(2, 0)))
		must(t, err)
		wantFeed(t, "events of the client", feedEvents(t, st, c.biz, practiced.EventFilter{}), []feedChange{
			{"client.created", cli.ID, created},
			{"client.updated", cli.ID, updatedCli},
			{"client.archived", cli.ID, archived},
			{"client.unarchived", cli.ID, unarchived},
		}, start)
	}},
	{"archiving an archived record or unarchiving a live one records nothing", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		live, gone := newClient(c.biz, "Ann", "Archer"), newClient(c.biz, "Ben", "Baker")
		gone.ArchivedAt = archivedAt()
		b := c.busy(hm(9, 0), hm(10, 0))
		seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{live, gone}, BusyTimes: []practiced.BusyTime{b}})
		got, err := st.ArchiveClient(ctx(t), c.biz, live.ID, false, at(0))
		must(t, err)
		wantEqual(t, "unarchived live client", got, live)
		got, err = st.ArchiveClient(ctx(t), c.biz, gone.ID, true, at(0))
		must(t, err)
		wantEqual(t, "archived archived client", got, gone)
		gotB, err := st.ArchiveBusyTime(ctx(t), c.biz, b.ID, false, at(0))
		must(t, err)
		wantEqual(t, "unarchived live busy time", gotB, b)
		wantFeed(t, "events", feedEvents(t, st, c.biz, practiced.EventFilter{}), nil, time.Now())
	}},
	{"Seed records no events", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		wantFeed(t, "events after Seed", feedEvents(t, st, r.biz, practiced.EventFilter{}), nil, time.Now())
	}},
	{"a refused change records no event", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := newClient(c.biz, "Ann", "Archer")
		existing := c.busy(hm(9, 0), hm(10, 0))
		seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cli}, BusyTimes: []practiced.BusyTime{existing}})
		refused := errors.New("refused")
		_, err := st.UpdateClient(ctx(t), c.biz, cli.ID, func(*practiced.Client) error { return refused })
		if err != refused {
			t.Errorf("UpdateClient: %v, want the error of change", err)
		}
		_, err = st.UpdateBusyTimes(ctx(t), c.biz, existing.ID, false, func(_ practiced.BusyTime, b *practiced.BusyTime) error { return refused })
		if err != refused {
			t.Errorf("UpdateBusyTimes: %v, want the error of change", err)
		}
		_, err = st.CreateBusyTimes(ctx(t), c.biz, []practiced.BusyTime{c.busy(hm(9, 0), hm(10, 0))}, true)
		wantInvalidField(t, err, "starts_at")
		bad := c.busy(hm(11, 0), hm(12, 0))
		bad.LocationID = tid.New(practiced.PrefixLocation)
		_, err = st.CreateBusyTimes(ctx(t), c.biz, []practiced.BusyTime{c.busy(hm(10, 0), hm(11, 0)), bad}, false)
		if err == nil {
			t.Error("CreateBusyTimes with a missing location succeeded")
		}
		_, err = st.DeleteBusyTimes(ctx(t), c.biz, tid.New(practiced.PrefixBusyTime), false)
		wantCode(t, err, practiced.ENOTFOUND)
		wantFeed(t, "events", feedEvents(t, st, c.biz, practiced.EventFilter{}), nil, time.Now())
	}},
	{"CreateBusyTimes records busy_time.created for each busy time created, none for those left out", func(t *testing.T, st practiced.Store) {
		start := time.Now()
		c := newClinic(t, st)
		existing := c.busy(hm(10, 0), hm(11, 0))
		seed(t, st, c.biz, practiced.SeedData{BusyTimes: []practiced.BusyTime{existing}})
		in := []practiced.BusyTime{c.busy(hm(9, 0), hm(10, 0)), c.busy(hm(10, 30), hm(11, 30)), c.busy(hm(11, 0), hm(12, 0))}
		created, err := st.CreateBusyTimes(ctx(t), c.biz, in, true)
		must(t, err)
		wantFeed(t, "events", feedEvents(t, st, c.biz, practiced.EventFilter{}), []feedChange{
			{"busy_time.created", in[0].ID, created[0]},
			{"busy_time.created", in[2].ID, created[1]},
		}, start)
	}},
	{"ListEvents filters by any of several types, by record type, record id and since, together", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		ann, ben := newClient(c.biz, "Ann", "Archer"), newClient(c.biz, "Ben", "Baker")
		must(t, st.CreateClient(ctx(t), c.biz, &ann))
		must(t, st.CreateClient(ctx(t), c.biz, &ben))
		bts, err := st.CreateBusyTimes(ctx(t), c.biz, []practiced.BusyTime{c.busy(hm(9, 0), hm(10, 0))}, false)
		must(t, err)
		_, err = st.UpdateClient(ctx(t), c.biz, ann.ID, func(c *practiced.Client) error { c.Notes = "1"; return nil })
		must(t, err)
		sleepToNextSecond()
		_, err = st.ArchiveClient(ctx(t), c.biz, ben.ID, true, at(0))
		must(t, err)
		_, err = st.UpdateClient(ctx(t), c.biz, ann.ID, func(c *practiced.Client) error { c.Notes = "2"; return nil })
		must(t, err)
		_, err = st.DeleteBusyTimes(ctx(t), c.biz, bts[0].ID, false)
		must(t, err)

		all := feedEvents(t, st, c.biz, practiced.EventFilter{})
		if len(all) != 7 {
			t.Fatalf("%d events, want 7", len(all))
		}
		later := all[4].CreatedAt.Time
		if !all[3].CreatedAt.Before(later) {
			t.Fatalf("events 3 and 4 were recorded in different seconds, yet carry %s and %s", all[3].CreatedAt, all[4].CreatedAt)
		}
		type sig struct{ typ, id string }
		for _, tc := range []struct {
			name string
			f    practiced.EventFilter
			want []sig
		}{
			{"no filter", practiced.EventFilter{}, []sig{{"client.created", ann.ID}, {"client.created", ben.ID}, {"busy_time.created", bts[0].ID},
				{"client.updated", ann.ID}, {"client.archived", ben.ID}, {"client.updated", ann.ID}, {"busy_time.deleted", bts[0].ID}}},
			{"one type", practiced.EventFilter{Types: []string{"client.updated"}}, []sig{{"client.updated", ann.ID}, {"client.updated", ann.ID}}},
			{"two types", practiced.EventFilter{Types: []string{"busy_time.deleted", "client.created"}},
				[]sig{{"client.created", ann.ID}, {"client.created", ben.ID}, {"busy_time.deleted", bts[0].ID}}},
			{"a type no event has", practiced.EventFilter{Types: []string{"form.created"}}, nil},
			{"record type", practiced.EventFilter{RecordType: "busy_time"}, []sig{{"busy_time.created", bts[0].ID}, {"busy_time.deleted", bts[0].ID}}},
			{"record id", practiced.EventFilter{RecordID: ben.ID}, []sig{{"client.created", ben.ID}, {"client.archived", ben.ID}}},
			{"since the later second", practiced.EventFilter{Since: &later},
				[]sig{{"client.archived", ben.ID}, {"client.updated", ann.ID}, {"busy_time.deleted", bts[0].ID}}},
			{"since a second after the last event", practiced.EventFilter{Since: ptr(all[6].CreatedAt.Add(time.Second))}, nil},
			{"type, record id and since together", practiced.EventFilter{Types: []string{"client.updated", "client.created"}, RecordID: ann.ID, Since: &later},
				[]sig{{"client.updated", ann.ID}}},
			{"record type and record id of different kinds", practiced.EventFilter{RecordType: "client", RecordID: bts[0].ID}, nil},
		} {
			var got []sig
			for _, e := range feedEvents(t, st, c.biz, tc.f) {
				got = append(got, sig{e.Type, e.RecordID})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s:\n\tgot  %v\n\twant %v", tc.name, got, tc.want)
			}
		}
	}},
	{"ListEvents pages through the events in id order both ways", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		for i := range 7 {
			cli := newClient(c.biz, "Client", string(rune('A'+i)))
			must(t, st.CreateClient(ctx(t), c.biz, &cli))
		}
		ids := idsOf(feedEvents(t, st, c.biz, practiced.EventFilter{}))
		if len(ids) != 7 {
			t.Fatalf("%d events, want 7", len(ids))
		}
		for _, tc := range []struct {
			p                practiced.PageRequest
			want             []string
			hasPrev, hasNext bool
		}{
			{practiced.PageRequest{Limit: 3}, ids[:3], false, true},
			{practiced.PageRequest{Limit: 3, After: ids[2]}, ids[3:6], true, true},
			{practiced.PageRequest{Limit: 3, After: ids[5]}, ids[6:], true, false},
			{practiced.PageRequest{Limit: 3, After: ids[2], Inclusive: true}, ids[2:5], true, true},
			{practiced.PageRequest{Limit: 3, Before: ids[6]}, ids[3:6], true, true},
			{practiced.PageRequest{Limit: 3, Before: ids[3]}, ids[:3], false, true},
			{practiced.PageRequest{Limit: 3, Before: ids[6], Inclusive: true}, ids[4:], true, false},
			{practiced.PageRequest{Limit: 3, After: ids[6]}, nil, true, false},
		} {
			got, info, err := st.ListEvents(ctx(t), c.biz, practiced.EventFilter{}, tc.p)
			must(t, err)
			wantIDs(t, "page", idsOf(got), tc.want)
			if info.HasPrev != tc.hasPrev || info.HasNext != tc.hasNext {
				t.Errorf("page %+v: %+v, want {HasPrev:%v HasNext:%v}", tc.p, info, tc.hasPrev, tc.hasNext)
			}
		}
	}},
	{"GetEvent and ListEvents see only the business's own events", func(t *testing.T, st practiced.Store) {
		a, b := newClinic(t, st), newClinic(t, st)
		ca, cb := newClient(a.biz, "Ann", "Archer"), newClient(b.biz, "Ben", "Baker")
		must(t, st.CreateClient(ctx(t), a.biz, &ca))
		must(t, st.CreateClient(ctx(t), b.biz, &cb))
		evA, evB := feedEvents(t, st, a.biz, practiced.EventFilter{}), feedEvents(t, st, b.biz, practiced.EventFilter{})
		if len(evA) != 1 || len(evB) != 1 || evA[0].RecordID != ca.ID || evB[0].RecordID != cb.ID {
			t.Fatalf("events of a %v and of b %v, want the creation of each one's own client", evA, evB)
		}
		got, err := st.GetEvent(ctx(t), a.biz, evA[0].ID)
		must(t, err)
		wantEqual(t, "GetEvent", got, evA[0])
		_, err = st.GetEvent(ctx(t), a.biz, evB[0].ID)
		wantCode(t, err, practiced.ENOTFOUND)
		_, err = st.GetEvent(ctx(t), a.biz, tid.New(practiced.PrefixEvent))
		wantCode(t, err, practiced.ENOTFOUND)
		wantFeed(t, "a's events of b's client", feedEvents(t, st, a.biz, practiced.EventFilter{RecordID: cb.ID}), nil, time.Now())
	}},
}
