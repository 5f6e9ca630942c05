package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// busyTimesVersion reads the business's busy_times version as readers
// see it.
func busyTimesVersion(t *testing.T, st *Store, businessID string) int64 {
	t.Helper()
	v, err := readScheduleVersion(context.Background(), st.r, businessID)
	if err != nil {
		t.Fatal(err)
	}
	return v[slices.Index(scheduleLists, "busy_times")]
}

// busyTimeIDs reads the ids of the business's busy times, in order.
func busyTimeIDs(t *testing.T, st *Store, businessID string) []string {
	t.Helper()
	ids, err := readStrings(st.r, `SELECT id FROM busy_times WHERE business_id = ? ORDER BY id`, businessID)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// On SQLite no trigger counts a busy time's insert: the writer adds one
// to the list's version once in each transaction that inserts some, and
// again after a member that had added it was rolled back to its
// savepoint. Blocks, which keeps what it read while the version stays,
// follows every busy time that commits.
func TestBusyTimeInsertsCountedOnceATransaction(t *testing.T) {
	st := groupStore(t)
	ctx := context.Background()
	var triggers int
	if err := st.r.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'busy_times_version_insert'`).Scan(&triggers); err != nil {
		t.Fatal(err)
	}
	if triggers != 0 {
		t.Fatalf("busy_times_version_insert is still in the schema")
	}
	biz, loc, pra := busyPlace(t, st)
	insert := func(b practiced.BusyTime) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error { return busyTimes.insertAll(ctx, tx, biz.ID, []practiced.BusyTime{b}) }
	}
	from, to := busyPlaceTime.Time, busyPlaceTime.Add(30*24*time.Hour)
	blocksFollow := func(what string) {
		t.Helper()
		got, err := st.Blocks(ctx, biz.ID, []string{pra.ID}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		want, err := st.readBlocks(ctx, biz.ID, []string{pra.ID}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Blocks answered %+v, the database holds %+v", what, got, want)
		}
	}

	v0 := busyTimesVersion(t, st, biz.ID)
	blocksFollow("before")
	a, b := busyOn(loc, pra, 1, nil), busyOn(loc, pra, 2, nil)
	if errs := group(t, st, insert(a), insert(b)); errs[0] != nil || errs[1] != nil {
		t.Fatalf("errors %v", errs)
	}
	if got := busyTimeIDs(t, st, biz.ID); !slices.Equal(got, []string{a.ID, b.ID}) {
		t.Fatalf("busy times %q, want %q", got, []string{a.ID, b.ID})
	}
	v1 := busyTimesVersion(t, st, biz.ID)
	if v1 != v0+1 {
		t.Errorf("version %d after a group of two inserts, want %d: one more", v1, v0+1)
	}
	blocksFollow("after a group of two")

	// The second member adds one and fails: the group runs again with
	// savepoints, the second is rolled back to its own, and the third's
	// insert must add one again.
	boom := errors.New("boom")
	c, d := busyOn(loc, pra, 3, nil), busyOn(loc, pra, 4, nil)
	errs := group(t, st,
		func(tx *sql.Tx) error { return insertWord(tx, "a") },
		func(tx *sql.Tx) error {
			if err := insert(c)(tx); err != nil {
				return err
			}
			return boom
		},
		insert(d),
	)
	if errs[0] != nil || errs[1] != boom || errs[2] != nil {
		t.Fatalf("errors %v, want nil, boom, nil", errs)
	}
	if got := busyTimeIDs(t, st, biz.ID); !slices.Equal(got, []string{a.ID, b.ID, d.ID}) {
		t.Fatalf("busy times %q, want %q", got, []string{a.ID, b.ID, d.ID})
	}
	if v2 := busyTimesVersion(t, st, biz.ID); v2 != v1+1 {
		t.Errorf("version %d after the third member's insert, want %d: one more", v2, v1+1)
	}
	blocksFollow("after a member that counted was rolled back")

	// The store's own writes, a series with and without its conflicts
	// checked, each count once.
	for i, skip := range []bool{false, true} {
		repeat := fmt.Sprintf("rep_%d", i)
		series := []practiced.BusyTime{busyOn(loc, pra, 10+2*i, &repeat), busyOn(loc, pra, 11+2*i, &repeat)}
		before := busyTimesVersion(t, st, biz.ID)
		if created, err := st.CreateBusyTimes(ctx, biz.ID, series, skip); err != nil || len(created) != 2 {
			t.Fatalf("CreateBusyTimes (skipConflicts %v): %d made, %v", skip, len(created), err)
		}
		if after := busyTimesVersion(t, st, biz.ID); after != before+1 {
			t.Errorf("version %d after CreateBusyTimes of a series (skipConflicts %v), want %d", after, skip, before+1)
		}
		blocksFollow(fmt.Sprintf("after CreateBusyTimes (skipConflicts %v)", skip))
	}

	// A load counts its busy times once, whether it builds the indexes
	// after its rows or not.
	for _, later := range []int{laterIndexRows, 1} {
		old := laterIndexRows
		laterIndexRows = later
		e, f := busyOn(loc, pra, 20+later%7, nil), busyOn(loc, pra, 21+later%7, nil)
		before := busyTimesVersion(t, st, biz.ID)
		err := st.Seed(ctx, biz.ID, practiced.SeedData{BusyTimes: []practiced.BusyTime{e, f}})
		laterIndexRows = old
		if err != nil {
			t.Fatal(err)
		}
		if after := busyTimesVersion(t, st, biz.ID); after != before+1 {
			t.Errorf("version %d after a load of two busy times (indexes after %d rows), want %d", after, later, before+1)
		}
		blocksFollow(fmt.Sprintf("after a load (indexes after %d rows)", later))
	}

	// A busy time cannot be inserted where it would not be counted.
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		b := busyOn(loc, pra, 30, nil)
		return busyTimes.insert(ctx, tx, biz.ID, &b)
	})
	if err == nil || !strings.Contains(err.Error(), "inserted by insertAll") {
		t.Errorf("insert of a busy time = %v, want it refused", err)
	}
}
