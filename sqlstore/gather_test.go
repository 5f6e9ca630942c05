package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"
)

// A group gathers the callers the writer held at its last commit: with
// many callers they would otherwise settle into half-sized groups, each
// paying for a commit (committer).

// txRecorder notes which transaction each write ran in.
type txRecorder struct {
	mu  sync.Mutex
	txs map[string]*sql.Tx
}

func (r *txRecorder) write(word string) func(tx *sql.Tx) error {
	return func(tx *sql.Tx) error {
		r.mu.Lock()
		r.txs[word] = tx
		r.mu.Unlock()
		return insertWord(tx, word)
	}
}

func (r *txRecorder) tx(word string) *sql.Tx {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.txs[word]
}

// holdThree commits a group of three, so that the next group gathers for
// three callers.
func holdThree(t *testing.T, st *Store) {
	t.Helper()
	for i, err := range group(t, st, func(tx *sql.Tx) error { return insertWord(tx, "x") },
		func(tx *sql.Tx) error { return insertWord(tx, "y") },
		func(tx *sql.Tx) error { return insertWord(tx, "z") }) {
		if err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
	}
}

// answerOf runs fn as a write of its own and returns a channel that gets
// its answer.
func answerOf(st *Store, fn func(tx *sql.Tx) error) <-chan error {
	answer := make(chan error, 1)
	go func() { answer <- st.inTx(context.Background(), fn) }()
	return answer
}

// await returns the answer from answer, failing t if none comes within a
// minute: a group left waiting far longer than it may.
func await(t *testing.T, answer <-chan error) error {
	t.Helper()
	select {
	case err := <-answer:
		return err
	case <-time.After(time.Minute):
		t.Fatal("no answer within a minute")
		return nil
	}
}

func TestGroupCommitGathersTheCallersOfTheLastCommit(t *testing.T) {
	st := groupStore(t)
	st.group.gatherFor = time.Hour
	holdThree(t, st)

	rec := &txRecorder{txs: map[string]*sql.Tx{}}
	ran := make(chan struct{})
	first := answerOf(st, func(tx *sql.Tx) error {
		defer close(ran)
		return rec.write("a")(tx)
	})
	// a has run and waits in its group, which is not full yet: b and c,
	// coming after it, join it.
	<-ran
	second, third := answerOf(st, rec.write("b")), answerOf(st, rec.write("c"))
	for _, answer := range []<-chan error{first, second, third} {
		if err := await(t, answer); err != nil {
			t.Fatal(err)
		}
	}
	if rec.tx("a") != rec.tx("b") || rec.tx("b") != rec.tx("c") {
		t.Errorf("a, b and c ran in transactions %p, %p and %p, want one", rec.tx("a"), rec.tx("b"), rec.tx("c"))
	}
	if got := words(t, st); len(got) != 6 {
		t.Errorf("committed %q, want a, b, c, x, y and z", got)
	}
}

func TestGroupCommitGathersOnlyForAWhile(t *testing.T) {
	st := groupStore(t)
	const gatherFor = 100 * time.Millisecond
	st.group.gatherFor = gatherFor
	holdThree(t, st)

	// No one else comes: a commits alone once the time is up.
	start := time.Now()
	if err := await(t, answerOf(st, func(tx *sql.Tx) error { return insertWord(tx, "a") })); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < gatherFor {
		t.Errorf("a lone write was answered after %v, want it to wait %v for the two others of the last commit", waited, gatherFor)
	}

	// The last commit held one caller: a caller alone waits for no one,
	// however long a group may gather.
	st.group.gatherFor = time.Hour
	for _, w := range []string{"b", "c"} {
		if err := await(t, answerOf(st, func(tx *sql.Tx) error { return insertWord(tx, w) })); err != nil {
			t.Fatal(err)
		}
	}
	if got := words(t, st); len(got) != 6 {
		t.Errorf("committed %q, want a, b, c, x, y and z", got)
	}
}

func TestGroupCommitStopsGatheringWhenClosed(t *testing.T) {
	st := groupStore(t)
	st.group.gatherFor = time.Hour
	holdThree(t, st)

	ran := make(chan struct{})
	answer := answerOf(st, func(tx *sql.Tx) error {
		defer close(ran)
		return insertWord(tx, "a")
	})
	<-ran
	closed := make(chan error, 1)
	go func() { closed <- st.Close() }()
	if err := await(t, answer); err != nil {
		t.Errorf("the write gathering when the store closed: %v, want it committed", err)
	}
	if err := await(t, closed); err != nil {
		t.Fatal(err)
	}
}
