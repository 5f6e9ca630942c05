package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// BenchmarkInsertBusyTime inserts busy times one by one, each with its
// event, in one transaction of the committer that it never commits: the
// processor's work of a write on SQLite without its share of a commit.
// Its time varies with the machine's other work; the instructions it
// runs do not, so a change to the write path is best compared by
// counting them, between two runs of different lengths (see
// docs/performance.md):
//
//	go test -c -o /tmp/sqlstore.test ./sqlstore/
//	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//		/tmp/sqlstore.test -test.run '^$' -test.bench InsertBusyTime -test.benchtime 2000x -test.cpu 1
func BenchmarkInsertBusyTime(b *testing.B) {
	ctx := context.Background()
	st, err := Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "insert.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	biz, loc, pra := busyPlace(b, st)
	now := busyPlaceTime
	tx, err := st.w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	singleWriter.Store(tx, &writerTx{lastSeq: map[string]int64{}})
	defer singleWriter.Delete(tx)
	name := "Benchmark"
	n := 0
	for b.Loop() {
		start := now.Add(time.Duration(n) * time.Hour)
		n++
		bt := practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: loc.ID, PractitionerID: pra.ID, Name: &name,
			StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(30 * time.Minute)), CreatedAt: now, UpdatedAt: now}
		if err := busyTimes.insertAll(ctx, tx, biz.ID, []practiced.BusyTime{bt}); err != nil {
			b.Fatal(err)
		}
	}
}
