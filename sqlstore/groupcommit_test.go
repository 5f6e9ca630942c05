package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// groupStore opens a SQLite store with a table of words to write.
func groupStore(t *testing.T) *Store {
	t.Helper()
	st, err := Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "group.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.w.Exec(`CREATE TABLE words (word TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return st
}

func insertWord(tx *sql.Tx, word string) error {
	_, err := tx.Exec(`INSERT INTO words (word) VALUES ($1)`, word)
	return err
}

func words(t *testing.T, st *Store) []string {
	t.Helper()
	ws, err := committedWords(st)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// committedWords reads the committed words; it may run off the test's
// goroutine.
func committedWords(st *Store) ([]string, error) {
	return readStrings(st.r, `SELECT word FROM words ORDER BY word`)
}

// readStrings reads the one text column of query's rows, in order.
func readStrings(db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// group runs fns as one group: the first holds the writer until the rest
// are queued behind it. It returns each one's error, in order; a panic
// that reaches its caller becomes the error "panic: …".
func group(t *testing.T, st *Store, fns ...func(tx *sql.Tx) error) []error {
	t.Helper()
	return groupThen(t, st, nil, fns...)
}

// groupThen is group, calling then(i) in the caller of fns[i] as soon as
// that caller has its answer.
func groupThen(t *testing.T, st *Store, then func(i int), fns ...func(tx *sql.Tx) error) []error {
	t.Helper()
	release := make(chan struct{})
	errs := make([]error, len(fns))
	done := make(chan int)
	first := fns[0]
	call := func(i int, fn func(tx *sql.Tx) error) {
		defer func() {
			if p := recover(); p != nil {
				errs[i] = fmt.Errorf("panic: %v", p)
			}
			done <- i
		}()
		errs[i] = st.inTx(context.Background(), fn)
		if then != nil {
			then(i)
		}
	}
	running := make(chan struct{})
	var once sync.Once
	go call(0, func(tx *sql.Tx) error {
		once.Do(func() { close(running) }) // it may run again
		<-release
		return first(tx)
	})
	// The first must be running before the rest queue, to lead the group.
	<-running
	for i, fn := range fns[1:] {
		go call(i+1, fn)
		for len(st.group.queue) < i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	for range fns {
		<-done
	}
	return errs
}

func TestGroupCommitFailingMemberFailsAlone(t *testing.T) {
	st := groupStore(t)
	boom := errors.New("boom")
	var seen []string
	errs := group(t, st,
		func(tx *sql.Tx) error { return insertWord(tx, "a") },
		func(tx *sql.Tx) error {
			if err := insertWord(tx, "b"); err != nil {
				return err
			}
			return boom
		},
		func(tx *sql.Tx) error {
			// Each member sees the members before it that committed.
			rows, err := tx.Query(`SELECT word FROM words ORDER BY word`)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var w string
				rows.Scan(&w)
				seen = append(seen, w)
			}
			return insertWord(tx, "c")
		},
	)
	if errs[0] != nil || errs[1] != boom || errs[2] != nil {
		t.Fatalf("errors %v, want nil, boom as it was returned, nil", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("committed %q, want a and c", got)
	}
	if !slices.Equal(seen, []string{"a"}) {
		t.Errorf("the third member saw %q, want a", seen)
	}
}

// A member that failed alone hears so only once the group has
// committed: a caller who lost a race reads the winner's write at once.
func TestGroupCommitAnswersAFailedMemberAfterTheCommit(t *testing.T) {
	st := groupStore(t)
	boom := errors.New("boom")
	var seen []string
	var readErr error
	errs := groupThen(t, st, func(i int) {
		if i == 1 {
			var ws sql.NullString
			readErr = st.r.QueryRow(`SELECT group_concat(word, ',') FROM (SELECT word FROM words ORDER BY word)`).Scan(&ws)
			if ws.Valid {
				seen = strings.Split(ws.String, ",")
			}
		}
	},
		func(tx *sql.Tx) error { return insertWord(tx, "a") },
		func(tx *sql.Tx) error { return boom },
		func(tx *sql.Tx) error { return insertWord(tx, "c") },
	)
	if errs[0] != nil || errs[1] != boom || errs[2] != nil {
		t.Fatalf("errors %v, want nil, boom, nil", errs)
	}
	if readErr != nil {
		t.Fatal(readErr)
	}
	if !slices.Equal(seen, []string{"a", "c"}) {
		t.Errorf("the failed member read %q on hearing its answer, want the group's a and c", seen)
	}
}

func TestGroupCommitFailingFirstMemberFailsAlone(t *testing.T) {
	st := groupStore(t)
	boom := errors.New("boom")
	errs := group(t, st,
		func(tx *sql.Tx) error { insertWord(tx, "a"); return boom },
		func(tx *sql.Tx) error { return insertWord(tx, "b") },
	)
	if errs[0] != boom || errs[1] != nil {
		t.Fatalf("errors %v, want boom, nil", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"b"}) {
		t.Errorf("committed %q, want b", got)
	}
}

// A failure that ends the whole transaction (in SQLite, an interrupted
// statement does) fails its member alone: the members before it run
// again in a new transaction. Here the first member runs three times:
// with no savepoints, again with one each once the second failed, and
// again in the new transaction.
func TestGroupCommitLostTransactionRunsEarlierMembersAgain(t *testing.T) {
	st := groupStore(t)
	boom := errors.New("boom")
	runs := 0
	errs := group(t, st,
		func(tx *sql.Tx) error { runs++; return insertWord(tx, "a") },
		func(tx *sql.Tx) error { tx.Exec("ROLLBACK"); return boom },
		func(tx *sql.Tx) error { return insertWord(tx, "c") },
	)
	if errs[0] != nil || errs[1] != boom || errs[2] != nil {
		t.Fatalf("errors %v, want nil, boom, nil", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("committed %q, want a and c", got)
	}
	if runs != 3 {
		t.Errorf("the first member ran %d times, want 3", runs)
	}
}

// Members run with no savepoint until one fails; the group then runs
// again from its start, each member behind a savepoint, so that the
// failing one fails alone and every other sees only the members before
// it that commit.
func TestGroupCommitRunsAgainWithSavepointsAfterAFailure(t *testing.T) {
	st := groupStore(t)
	boom := errors.New("boom")
	var runs [3]int
	var probes []error // the failing member's ROLLBACK TO member, each run
	var seen [][]string
	errs := group(t, st,
		func(tx *sql.Tx) error { runs[0]++; return insertWord(tx, "a") },
		func(tx *sql.Tx) error {
			runs[1]++
			_, err := tx.Exec("ROLLBACK TO member") // undoes nothing where there is one
			probes = append(probes, err)
			if err := insertWord(tx, "b"); err != nil {
				return err
			}
			return boom
		},
		func(tx *sql.Tx) error {
			runs[2]++
			var ws sql.NullString
			if err := tx.QueryRow(`SELECT group_concat(word, ',') FROM (SELECT word FROM words ORDER BY word)`).Scan(&ws); err != nil {
				return err
			}
			seen = append(seen, strings.Split(ws.String, ","))
			return insertWord(tx, "c")
		},
	)
	if errs[0] != nil || errs[1] != boom || errs[2] != nil {
		t.Fatalf("errors %v, want nil, boom, nil", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("committed %q, want a and c", got)
	}
	if runs != [3]int{2, 2, 1} {
		t.Errorf("the members ran %v times, want 2, 2, 1: the first two again after the failure, the third once", runs)
	}
	if len(probes) != 2 || probes[0] == nil || !strings.Contains(probes[0].Error(), "no such savepoint") || probes[1] != nil {
		t.Errorf("ROLLBACK TO member in the failing member's runs: %v, want no such savepoint and then none", probes)
	}
	if len(seen) != 1 || !slices.Equal(seen[0], []string{"a"}) {
		t.Errorf("the third member saw %q, want a once", seen)
	}
}

// A member that ends the transaction and says nothing of it (a ROLLBACK
// of its own here; a failure SQLite answers by rolling back, let pass)
// fails alone, whether first or not: the statements after it must not
// commit one by one, nor be written twice when the group runs again.
func TestGroupCommitMemberThatEndsTheTransactionFailsAlone(t *testing.T) {
	st := groupStore(t)
	boom := errors.New("boom")
	rollback := func(tx *sql.Tx) error { _, err := tx.Exec("ROLLBACK"); return err }
	errs := group(t, st,
		func(tx *sql.Tx) error { return insertWord(tx, "a") },
		rollback,
		func(tx *sql.Tx) error { return insertWord(tx, "c") },
		func(tx *sql.Tx) error { insertWord(tx, "d"); return boom },
	)
	if errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] != boom {
		t.Fatalf("errors %v, want nil, the ended transaction's, nil, boom", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("committed %q, want a and c once each", got)
	}

	st = groupStore(t)
	errs = group(t, st, rollback, func(tx *sql.Tx) error { return insertWord(tx, "b") })
	if errs[0] == nil || errs[1] != nil {
		t.Fatalf("errors %v, want the ended transaction's, nil", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"b"}) {
		t.Errorf("committed %q, want b", got)
	}
}

// A member that lets a failing statement pass and succeeds runs again
// behind a savepoint, which shows the transaction whole, and commits.
func TestGroupCommitMemberThatLetsAFailurePassCommits(t *testing.T) {
	st := groupStore(t)
	var runs [3]int
	errs := group(t, st,
		func(tx *sql.Tx) error { runs[0]++; return insertWord(tx, "a") },
		func(tx *sql.Tx) error {
			runs[1]++
			if _, err := tx.Exec(`INSERT INTO words (word) VALUES (NULL)`); err == nil {
				return errors.New("a NULL word was written")
			}
			return insertWord(tx, "b")
		},
		func(tx *sql.Tx) error { runs[2]++; return insertWord(tx, "c") },
	)
	if errs[0] != nil || errs[1] != nil || errs[2] != nil {
		t.Fatalf("errors %v, want none", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("committed %q, want a, b and c", got)
	}
	if runs != [3]int{2, 2, 1} {
		t.Errorf("the members ran %v times, want 2, 2, 1", runs)
	}
}

func TestEndsTransaction(t *testing.T) {
	for q, want := range map[string]bool{
		"ROLLBACK": true, "rollback;": true, "  COMMIT": true, "End Transaction": true, "BEGIN IMMEDIATE": true,
		"ROLLBACK TO member": true, "\nrollback\n": true,
		"SAVEPOINT member": false, "RELEASE member": false, "INSERT INTO words (word) VALUES ('ROLLBACK')": false,
		"ENDING": false, "": false, "SELECT 1": false,
	} {
		if got := endsTransaction(q); got != want {
			t.Errorf("endsTransaction(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestGroupCommitPanicReachesItsCaller(t *testing.T) {
	st := groupStore(t)
	errs := group(t, st,
		func(tx *sql.Tx) error { return insertWord(tx, "a") },
		func(tx *sql.Tx) error { insertWord(tx, "p"); panic("oops") },
		func(tx *sql.Tx) error { return insertWord(tx, "c") },
	)
	if errs[0] != nil || errs[1] == nil || errs[1].Error() != "panic: oops" || errs[2] != nil {
		t.Fatalf("errors %v, want nil, panic: oops, nil", errs)
	}
	if got := words(t, st); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("committed %q, want a and c", got)
	}
}

func TestGroupCommitCancelledWhileQueuedNeverRuns(t *testing.T) {
	st := groupStore(t)
	release := make(chan struct{})
	first := make(chan error)
	go func() {
		first <- st.inTx(context.Background(), func(tx *sql.Tx) error {
			<-release
			return insertWord(tx, "a")
		})
	}()
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	queued := make(chan error)
	ran := false
	go func() {
		queued <- st.inTx(ctx, func(tx *sql.Tx) error { ran = true; return insertWord(tx, "b") })
	}()
	for len(st.group.queue) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-queued; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write returned %v, want context.Canceled", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Error("the cancelled write ran")
	}
	if got := words(t, st); !slices.Equal(got, []string{"a"}) {
		t.Errorf("committed %q, want a", got)
	}
}

func TestGroupCommitAfterCloseFails(t *testing.T) {
	st := groupStore(t)
	st.Close()
	err := st.inTx(context.Background(), func(tx *sql.Tx) error { return nil })
	if err == nil {
		t.Fatal("a write after Close succeeded")
	}
}

// In a group, each member's events take the next numbers of the feed; a
// member that fails takes none with it, so the feed stays 1, 2, 3 … with
// no gap and no number twice, across groups and for each business. The
// group's transaction counts on from the numbers it gave, and reads them
// again after a member's failure.
func TestGroupCommitNumbersTheFeed(t *testing.T) {
	st := groupStore(t)
	ctx := context.Background()
	// No trigger numbers an event written without a number: the events
	// must carry theirs.
	if n := eventTriggers(t, st); n != 0 {
		t.Fatalf("%d triggers on events, want none", n)
	}
	var bizs []string
	for _, name := range []string{"One", "Two"} {
		b, err := st.CreateBusiness(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		bizs = append(bizs, b.ID)
	}
	write := func(biz string, n int, fail bool) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			evs := make([]newEvent, n)
			for i := range evs {
				evs[i] = newEvent{recordType: "tag", action: "created", recordID: fmt.Sprintf("tag_%d", i), data: map[string]int{"i": i}}
			}
			if err := recordEvents(ctx, tx, biz, evs); err != nil {
				return err
			}
			if fail {
				return errors.New("boom")
			}
			return nil
		}
	}
	for round := range 3 {
		errs := group(t, st, write(bizs[0], 2, false), write(bizs[0], 3, true), write(bizs[1], 1, false),
			write(bizs[0], 1001, false), write(bizs[0], 2, false), write(bizs[1], 1, false))
		if errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] != nil || errs[4] != nil || errs[5] != nil {
			t.Fatalf("round %d: errors %v", round, errs)
		}
	}
	for i, want := range []int{3 * 1005, 3 * 2} {
		rows, err := st.r.Query(`SELECT seq FROM events WHERE business_id = $1 ORDER BY seq`, bizs[i])
		if err != nil {
			t.Fatal(err)
		}
		var seqs []int
		for rows.Next() {
			var s int
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			seqs = append(seqs, s)
		}
		rows.Close()
		if len(seqs) != want {
			t.Errorf("business %d: %d events, want %d", i, len(seqs), want)
		}
		for j, s := range seqs {
			if s != j+1 {
				t.Fatalf("business %d: the %dth event has seq %d", i, j+1, s)
			}
		}
	}
}

// Unsynced and synced writes queued together commit in groups of their
// own kind: each sees the synchronous setting it asked for (1 NORMAL, 2
// FULL), all commit, and the writer is back at FULL afterwards.
func TestGroupCommitUnsyncedWritesCommitApart(t *testing.T) {
	st := groupStore(t)
	ctx := context.Background()
	seen := make([]int, 9)
	write := func(i int) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			if err := tx.QueryRow(`PRAGMA synchronous`).Scan(&seen[i]); err != nil {
				return err
			}
			return insertWord(tx, fmt.Sprint("w", i))
		}
	}
	unsynced := func(i int) bool { return i%3 == 1 }
	release := make(chan struct{})
	running := make(chan struct{})
	errs := make([]error, len(seen))
	var wg sync.WaitGroup
	wg.Go(func() {
		errs[0] = st.inTx(ctx, func(tx *sql.Tx) error {
			close(running)
			<-release
			return write(0)(tx)
		})
	})
	<-running
	for i := 1; i < len(seen); i++ {
		wg.Go(func() {
			if unsynced(i) {
				errs[i] = st.inTxUnsynced(ctx, write(i), nil)
			} else {
				errs[i] = st.inTx(ctx, write(i))
			}
		})
		for len(st.group.queue) < i {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	wg.Wait()
	for i, err := range errs {
		want := 2
		if unsynced(i) {
			want = 1
		}
		if err != nil || seen[i] != want {
			t.Errorf("write %d: synchronous %d, err %v; want %d, nil", i, seen[i], err, want)
		}
	}
	if got := words(t, st); len(got) != len(seen) {
		t.Errorf("%d words committed, want %d: %v", len(got), len(seen), got)
	}
	var after int
	if err := st.w.QueryRow(`PRAGMA synchronous`).Scan(&after); err != nil || after != 2 {
		t.Errorf("the writer's synchronous is %d after the writes (%v), want 2 (FULL)", after, err)
	}
}

// An unsynced write's after function runs once its commit is written,
// in the committer, and its error is the caller's; the writer's
// connection is back at FULL before any other statement gets it.
func TestGroupCommitRunsAfterOnceCommitted(t *testing.T) {
	st := groupStore(t)
	ctx := context.Background()
	var seen []string
	var readErr error
	// A write straight to the writer's connection, begun while after
	// runs, must find the connection back at FULL.
	direct := make(chan int, 1)
	after := func() error {
		seen, readErr = committedWords(st)
		go func() {
			var mode int
			st.w.QueryRow(`PRAGMA synchronous`).Scan(&mode)
			direct <- mode
		}()
		return errors.New("the end could not be sent")
	}
	err := st.inTxUnsynced(ctx, func(tx *sql.Tx) error { return insertWord(tx, "handed") }, after)
	if err == nil || err.Error() != "the end could not be sent" {
		t.Errorf("inTxUnsynced = %v, want after's error", err)
	}
	if readErr != nil || !slices.Equal(seen, []string{"handed"}) {
		t.Errorf("after saw %v committed (%v), want [handed]", seen, readErr)
	}
	if mode := <-direct; mode != 2 {
		t.Errorf("a statement on the writer begun during after saw synchronous %d, want 2 (FULL)", mode)
	}
	called := false
	err = st.inTxUnsynced(ctx, func(tx *sql.Tx) error { return errors.New("refused") }, func() error { called = true; return nil })
	if err == nil || err.Error() != "refused" || called {
		t.Errorf("a failing write: inTxUnsynced = %v and after called %v; want its error, after not called", err, called)
	}
}

// Unsynced writes queued together commit one at a time, each after
// function running once its own write is committed and before the next
// write commits.
func TestGroupCommitUnsyncedWritesCommitOneByOne(t *testing.T) {
	st := groupStore(t)
	ctx := context.Background()
	release := make(chan struct{})
	running := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		st.inTx(ctx, func(tx *sql.Tx) error {
			close(running)
			<-release
			return insertWord(tx, "a")
		})
	})
	<-running
	seen := make([][]string, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Go(func() {
			word := string(rune('b' + i))
			errs[i] = st.inTxUnsynced(ctx, func(tx *sql.Tx) error { return insertWord(tx, word) },
				func() error {
					var err error
					seen[i], err = committedWords(st)
					return err
				})
		})
		for len(st.group.queue) < i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	wg.Wait()
	want := [][]string{{"a", "b"}, {"a", "b", "c"}, {"a", "b", "c", "d"}}
	for i := range 3 {
		if errs[i] != nil || !slices.Equal(seen[i], want[i]) {
			t.Errorf("write %d: %v, its after saw %v committed; want nil, %v", i, errs[i], seen[i], want[i])
		}
	}
}
