package sqlstore

import (
	"context"
	"database/sql"
	"errors"
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

// await returns the answer from answer, failing t if none comes within
// ten seconds: a group left waiting for the hour the tests let it.
func await[T any](t *testing.T, answer <-chan T) T {
	t.Helper()
	select {
	case v := <-answer:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("no answer within ten seconds")
		var zero T
		return zero
	}
}

// gathers returns how many waits st's committer has begun; read once the
// writes before it were answered, and none is queued.
func gathers(st *Store) int { return st.group.gathers }

// joinWaiting runs first as a write of its own and, once its group has
// begun to wait for more, the others, and returns their answers, first's
// first.
func joinWaiting(t *testing.T, st *Store, first func(tx *sql.Tx) error, others ...func(tx *sql.Tx) error) []error {
	t.Helper()
	waiting := make(chan struct{})
	st.group.waiting = func() { close(waiting) }
	answers := []<-chan error{answerOf(st, first)}
	await(t, waiting)
	for _, fn := range others {
		answers = append(answers, answerOf(st, fn))
	}
	var errs []error
	for _, answer := range answers {
		errs = append(errs, await(t, answer))
	}
	st.group.waiting = nil
	return errs
}

func TestGroupCommitGathersTheCallersOfTheLastCommit(t *testing.T) {
	st := groupStore(t)
	st.group.gatherFor = time.Hour
	holdThree(t, st)

	// a's group waits, as it is not full yet: b and c, coming after it,
	// join it.
	rec := &txRecorder{txs: map[string]*sql.Tx{}}
	for _, err := range joinWaiting(t, st, rec.write("a"), rec.write("b"), rec.write("c")) {
		if err != nil {
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

func TestGroupCommitCountsFailedMembersAsGathered(t *testing.T) {
	st := groupStore(t)
	st.group.gatherFor = time.Hour
	holdThree(t, st)
	before := gathers(st)

	// The group of a, a failing b and c has the three callers of the last
	// commit, and closes at once.
	boom := errors.New("boom")
	answers := make(chan []error, 1)
	go func() {
		answers <- group(t, st, func(tx *sql.Tx) error { return insertWord(tx, "a") },
			func(tx *sql.Tx) error { return boom },
			func(tx *sql.Tx) error { return insertWord(tx, "c") })
	}()
	errs := await(t, answers)
	if errs[0] != nil || !errors.Is(errs[1], boom) || errs[2] != nil {
		t.Fatalf("answers %v, want nil, boom and nil", errs)
	}
	if got := gathers(st); got != before {
		t.Errorf("the group waited %d times, want none: its failed member is one of the callers", got-before)
	}
}

func TestGroupCommitSkipsWaitsNoOneJoined(t *testing.T) {
	st := groupStore(t)
	st.group.gatherFor = 50 * time.Millisecond
	lone := func(w string) {
		t.Helper()
		if err := await(t, answerOf(st, func(tx *sql.Tx) error { return insertWord(tx, w) })); err != nil {
			t.Fatal(err)
		}
	}
	// waits has a lone write follow a commit of three, which it gathers
	// for unless it skips, and reports whether it waited.
	waits := func(w string) bool {
		t.Helper()
		holdThree(t, st)
		before := gathers(st)
		lone(w)
		return gathers(st) != before
	}
	steps := []struct {
		word string
		want bool
	}{
		{"a", true},  // no one joins: the next wait is skipped
		{"b", false}, // skipped; the next wait no one joins skips two
		{"c", true},
		{"d", false},
		{"e", false},
		{"f", true},
	}
	for _, step := range steps {
		if got := waits(step.word); got != step.want {
			t.Fatalf("write %s waited: %v, want %v", step.word, got, step.want)
		}
	}

	// A wait that a caller joins ends the skipping: the next wait that
	// no one joins skips one again.
	st.group.gatherFor = time.Hour
	st.group.skip = 0
	holdThree(t, st)
	for _, err := range joinWaiting(t, st, func(tx *sql.Tx) error { return insertWord(tx, "g") },
		func(tx *sql.Tx) error { return insertWord(tx, "h") },
		func(tx *sql.Tx) error { return insertWord(tx, "i") }) {
		if err != nil {
			t.Fatal(err)
		}
	}
	st.group.gatherFor = 50 * time.Millisecond
	for _, step := range steps[:3] {
		if got := waits(step.word + "2"); got != step.want {
			t.Fatalf("after a joined wait, write %s2 waited: %v, want %v", step.word, got, step.want)
		}
	}
}

func TestGatherWaitIsHalfTheCommitUpToAMillisecond(t *testing.T) {
	for _, c := range []struct{ took, want time.Duration }{
		{0, 0},
		{300 * time.Microsecond, 150 * time.Microsecond},
		{2 * time.Millisecond, time.Millisecond},
		{40 * time.Millisecond, time.Millisecond},
	} {
		if got := gatherWaitAfter(c.took); got != c.want {
			t.Errorf("after a commit of %v a group gathers for %v, want %v", c.took, got, c.want)
		}
	}
}
