package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// maxGroup bounds how many write transactions one commit carries, so a
// long queue cannot keep the first caller of a group waiting for ever.
const maxGroup = 256

// errClosed answers the writes still queued when the store closes.
var errClosed = errors.New("sql: database is closed")

// singleWriter holds the transactions of the committer, which runs
// SQLite's writes one transaction at a time: in them the next number of
// a business's feed is its largest plus one (recordEvents), and
// statements may use SQLite's plain "?" parameters.
var singleWriter sync.Map // *sql.Tx → *writerTx

// writerTx is what a transaction of the committer knows of what it
// wrote: the largest feed number it gave each business, so that the
// next event of a group's member need not read it again. Members run
// one at a time, so it needs no lock.
type writerTx struct {
	lastSeq map[string]int64
	// counted holds the lists whose version the transaction has added
	// one to (countInserts).
	counted map[listOf]bool
	// leaves says the member running changes nothing a stateCache reads
	// (leavesKeptReads); changed, that a member that ran did not say so,
	// or was rolled back (forget). wrote says the transaction has written
	// an event (recordEvents), so that its commit writes to the log.
	leaves, changed, wrote bool
}

// listOf names a business's list in list_versions.
type listOf struct{ business, list string }

// forget drops what the transaction knows, when a member's writes were
// rolled back: the numbers it took are free again, and the versions it
// added one to may be as they were.
func (w *writerTx) forget() {
	clear(w.lastSeq)
	clear(w.counted)
	w.changed = true // what was written is no longer known
}

// writerOf returns the state of db when it is a transaction of the
// committer, and nil otherwise.
func writerOf(db queryer) *writerTx {
	tx, ok := db.(*sql.Tx)
	if !ok {
		return nil
	}
	w, ok := singleWriter.Load(tx)
	if !ok {
		return nil
	}
	return w.(*writerTx)
}

// leavesKeptReads tells the committer, from within a member's function,
// that the member changes no row a stateCache reads (api_keys, the
// clients' row of list_versions, locations, practitioners,
// practitioner_locations). A commit of members that all said so, and
// that wrote an event, moves the kept reads on to the state it leaves
// (committer.passed). Outside the committer it does nothing.
func leavesKeptReads(db queryer) {
	if w := writerOf(db); w != nil {
		w.leaves = true
	}
}

// singleWriterTx reports whether db is a transaction of the committer.
func singleWriterTx(db queryer) bool {
	return writerOf(db) != nil
}

// committer is SQLite's single writer with group commit. SQLite makes a
// commit durable with an fsync, which costs far more than the small
// transactions of a clinic's API; so the committer runs the write
// transactions that callers queue one after another inside one database
// transaction and commits them together, one fsync for the group. Each
// caller is answered only after that commit.
//
// Members run one at a time, in the order they were taken, each seeing
// the effects of those before it, so the writer stays serializable. They
// run with no savepoint between them until one fails; the group then
// runs again from its start with every member inside a savepoint of its
// own, so that a member whose function fails is rolled back to its
// savepoint and fails alone, and the others commit (runMembers). A
// failing first member needs none: the whole transaction is rolled
// back, which holds only its work.
//
// A synced group gathers the writer's callers before it closes. It
// takes every call queued and yields once, so that callers about to
// queue can; then, while it has fewer members than the writer held at
// its last synced commit (that commit's members, failed ones included,
// and the calls queued behind them), it waits for more, in all up to
// half as long as that commit took and never over a millisecond
// (gather). Without the wait, many callers settle into cohorts: the
// callers a commit answers send their next writes while the next group
// already runs without them, so each group holds half of them and every
// write pays for twice the commits. No group waits when the last commit
// held a single caller, or while a call of the other kind waits for it
// to close. A wait that no caller joined is skipped by the next group
// that would wait, and each such wait in a row doubles the groups that
// skip theirs (up to maxSkip): callers that cannot come back within a
// wait, or a burst long over, are not waited for every time. (Waiting
// only for callers that come back at once after a commit would not do:
// under load the first of them comes back after its answer and those
// of the others are written, later than a wait.)
//
// A call may ask for an unsynced commit (doUnsynced): it then runs in a
// group of such calls only, committed with synchronous=NORMAL, which
// writes the log without waiting for the disk. Such a commit survives
// the end of the process as soon as it is written, but not a power cut.
// Unsynced calls commit one to a group, and a call's after function runs
// in the committer the moment its commit is written, before anything
// else can run in between (another call's after would: writing to a
// socket can wake a process that takes the processor).
type committer struct {
	db *sql.DB
	// wal reads the state of the database (nil for none); passed is
	// told the states before and after each commit that was the only one
	// between them and whose members all changed nothing the kept reads
	// read (leavesKeptReads), so that those reads, still right, are kept
	// past it.
	wal    *walWatch
	passed func(from, to walState)
	// doubts counts the statements of db's connection that failed or
	// that begin or end a transaction (keepingConnector.doubts).
	doubts *atomic.Uint64
	// sync is the synchronous setting of db's connection, restored after
	// an unsynced group.
	sync  string
	queue chan *txCall
	quit  chan struct{} // closed by stop
	done  chan struct{} // closed when run returns
	once  sync.Once     // a store may be closed twice

	// What a synced group gathers for (gather), set at each synced
	// commit: held, the callers the writer held then, and wait, half as
	// long as that commit took, up to maxGather. skip is how many groups
	// are still to skip their wait, and backoff how many skip theirs
	// after the next wait that no caller joins. Only the committer's
	// goroutine uses these.
	held          int
	wait          time.Duration
	skip, backoff int
	// gatherFor, when set (tests), is how long a group gathers in place
	// of wait; gathers counts the waits begun, and waiting, when set, is
	// called as each begins, for tests.
	gatherFor time.Duration
	gathers   int
	waiting   func()
}

// txCall is one caller's write transaction, waiting in the queue.
type txCall struct {
	ctx      context.Context
	fn       func(tx *sql.Tx) error
	unsynced bool
	after    func() error // an unsynced call's, run once it committed
	// claimed is set by whichever side takes the call first: the
	// committer to run it, or the caller giving up on a cancelled context
	// before it ran.
	claimed atomic.Bool
	err     error
	panic   any // what fn panicked with, panicked again in the caller
	done    chan struct{}
}

func newCommitter(db *sql.DB, doubts *atomic.Uint64, sync string, wal *walWatch, passed func(from, to walState)) *committer {
	c := &committer{
		db:      db,
		wal:     wal,
		passed:  passed,
		doubts:  doubts,
		sync:    sync,
		queue:   make(chan *txCall, maxGroup),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
		backoff: 1,
	}
	go c.run()
	return c
}

// stop finishes the group being committed, answers the writes still
// queued with errClosed, and waits for the committer to end.
func (c *committer) stop() {
	c.once.Do(func() { close(c.quit) })
	<-c.done
}

// do queues fn and waits for its group to commit. A context cancelled
// while fn waits withdraws it; once fn runs, cancellation fails it as it
// would fail a transaction of its own, its writes undone alone. fn may
// run more than once (runMembers), each time in a new transaction.
func (c *committer) do(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return c.queueCall(ctx, &txCall{ctx: ctx, fn: fn, done: make(chan struct{})})
}

// doUnsynced is do with a commit that does not wait for the disk; once
// fn has committed, the committer calls after (nil for none), whose
// error is the call's. after must be quick: every write waits for it.
func (c *committer) doUnsynced(ctx context.Context, fn func(tx *sql.Tx) error, after func() error) error {
	return c.queueCall(ctx, &txCall{ctx: ctx, fn: fn, unsynced: true, after: after, done: make(chan struct{})})
}

func (c *committer) queueCall(ctx context.Context, call *txCall) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	select {
	case c.queue <- call:
	case <-ctx.Done():
		return fmt.Errorf("begin: %w", ctx.Err())
	case <-c.done:
		return fmt.Errorf("begin: %w", errClosed)
	}
	select {
	case <-call.done:
	case <-ctx.Done():
		if call.claimed.CompareAndSwap(false, true) {
			return fmt.Errorf("begin: %w", ctx.Err())
		}
		<-call.done
	case <-c.done:
		if call.claimed.CompareAndSwap(false, true) {
			return fmt.Errorf("begin: %w", errClosed)
		}
		<-call.done
	}
	if call.panic != nil {
		panic(call.panic)
	}
	return call.err
}

// run commits groups until stop.
func (c *committer) run() {
	defer close(c.done)
	var pending []*txCall // claimed, to run in the next group
	for {
		if len(pending) == 0 {
			select {
			case call := <-c.queue:
				if !call.claimed.CompareAndSwap(false, true) {
					continue
				}
				pending = []*txCall{call}
			case <-c.quit:
				c.drain()
				return
			}
		}
		pending = c.group(pending)
	}
}

// drain answers every queued call with errClosed.
func (c *committer) drain() {
	for {
		select {
		case call := <-c.queue:
			if call.claimed.CompareAndSwap(false, true) {
				call.err = fmt.Errorf("begin: %w", errClosed)
				close(call.done)
			}
		default:
			return
		}
	}
}

// next returns the next call of a group: from pending (calls already
// claimed) while it lasts, then from the queue while the group has room.
// Once the queue is empty, a group with a gathering g waits for more
// calls (gather); g is nil for a group that does not gather. It returns
// nil when no call is waiting, or none came while g waited.
func (c *committer) next(pending *[]*txCall, size int, g *gathering) *txCall {
	if len(*pending) > 0 {
		call := (*pending)[0]
		*pending = (*pending)[1:]
		return call
	}
	yielded := false
	for size < maxGroup {
		select {
		case call := <-c.queue:
			if call.claimed.CompareAndSwap(false, true) {
				return call
			}
		default:
			if !yielded {
				// Let callers that are about to queue a write do so
				// before the group is closed: with few processors, the
				// callers the last commit answered would otherwise wait
				// for the next.
				runtime.Gosched()
				yielded = true
				continue
			}
			if g == nil || size >= g.want {
				return nil
			}
			call, ok := c.gather(g)
			if !ok {
				return nil
			}
			if call.claimed.CompareAndSwap(false, true) {
				return call
			}
		}
	}
	return nil
}

// gathering is what a synced group waits for before it closes: want
// members, until the time until (zero until it first waits); joined
// counts the calls that came while it waited.
type gathering struct {
	want   int
	until  time.Time
	joined int
}

const (
	// maxGather bounds how long a group gathers: a commit that took
	// long, such as one that copied the log into the database, would
	// otherwise hold the next group's callers as long.
	maxGather = time.Millisecond
	// maxSkip bounds how many groups in a row skip their wait.
	maxSkip = 64
)

// gatherWaitAfter is how long the group after a commit that took took
// may gather: half as long, up to maxGather.
func gatherWaitAfter(took time.Duration) time.Duration {
	return min(took/2, maxGather)
}

// gatherWait is how long the next group may gather.
func (c *committer) gatherWait() time.Duration {
	if c.gatherFor > 0 {
		return c.gatherFor
	}
	return c.wait
}

// gather waits for the next queued call until g's time is up, or the
// store closes, and reports whether one came. The first wait of a group
// is skipped while c.skip says so.
func (c *committer) gather(g *gathering) (*txCall, bool) {
	now := time.Now()
	if g.until.IsZero() {
		if c.skip > 0 {
			c.skip--
			g.want = 0
			return nil, false
		}
		c.gathers++
		g.until = now.Add(c.gatherWait())
		if c.waiting != nil {
			c.waiting()
		}
	}
	left := g.until.Sub(now)
	if left <= 0 {
		return nil, false
	}
	t := time.NewTimer(left)
	defer t.Stop()
	select {
	case call := <-c.queue:
		g.joined++
		return call, true
	case <-t.C:
	case <-c.quit:
	}
	return nil, false
}

// gathered notes how a group's gathering g went: after a wait that no
// caller joined, the next groups that would wait skip theirs, twice as
// many after each such wait in a row; a wait that one joined ends that.
func (c *committer) gathered(g *gathering) {
	switch {
	case g == nil || g.until.IsZero():
	case g.joined == 0:
		c.skip = c.backoff
		c.backoff = min(2*c.backoff, maxSkip)
	default:
		c.backoff = 1
	}
}

// group runs pending and whatever else is queued meanwhile in one
// transaction, commits it and answers every member. It returns the calls
// that must run in a new transaction: those still pending when the first
// member fails (its failure rolls the transaction back), and the members
// that had run before a failure that ended the whole transaction even
// behind savepoints, which in SQLite an interrupted statement does; the
// failing members are then answered at once, the others in their new
// group.
//
// The group's members are all unsynced or all not, as its first is; a
// call of the other kind taken meanwhile waits for the next group. An
// unsynced group has one member.
func (c *committer) group(pending []*txCall) (again []*txCall) {
	unsynced := pending[0].unsynced
	var later []*txCall
	// failed holds the members that failed alone. They are answered only
	// once the group has committed, so that a caller who lost a race to
	// another member (a time booked twice) reads the winner's write as
	// soon as it hears that it lost.
	var failed []*txCall
	var g *gathering // one for the group, however often it runs again
	if !unsynced {
		g = &gathering{want: c.held}
	}
	defer func() {
		for _, call := range failed {
			close(call.done)
		}
		again = append(again, later...)
	}()
	begin := c.db.BeginTx
	if unsynced {
		// The group holds the writer's one connection from the setting
		// to its restoring, so no other write (some go straight to the
		// connection, not through the committer) commits without an
		// fsync meanwhile.
		conn, err := c.db.Conn(context.Background())
		if err == nil {
			if _, err = conn.ExecContext(context.Background(), "PRAGMA synchronous = NORMAL"); err != nil {
				conn.Close()
			}
		}
		if err != nil {
			for _, call := range pending {
				answer(call, fmt.Errorf("begin: %w", err))
			}
			return nil
		}
		defer c.restoreSync(conn)
		begin = conn.BeginTx
	}
	careful := false
	for {
		tx, err := begin(context.Background(), nil)
		if err != nil {
			for _, call := range pending {
				answer(call, fmt.Errorf("begin: %w", err))
			}
			return nil
		}
		// BEGIN IMMEDIATE has taken the database's write lock: no other
		// connection commits until this transaction ends.
		before, known := c.wal.state()
		writer := &writerTx{lastSeq: map[string]int64{}}
		members, rest, end := c.runMembers(tx, writer, pending, careful, g, &later, &failed)
		if end == groupAgain {
			pending, careful = rest, true
			continue
		}
		// Before any member is answered, so that its caller's next
		// write finds the committer as this group left it.
		c.gathered(g)
		if end == groupLost {
			return rest
		}
		start := time.Now()
		err = tx.Commit()
		if afterGroupCommit != nil {
			afterGroupCommit()
		}
		if err == nil && known && !writer.changed && writer.wrote {
			c.pass(before)
		}
		if !unsynced {
			c.held, c.wait = 0, 0
			if err == nil {
				c.held, c.wait = len(members)+len(failed)+len(c.queue), gatherWaitAfter(time.Since(start))
			}
		}
		if err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
		for _, call := range members {
			if err == nil && call.after != nil {
				answer(call, call.after())
				continue
			}
			answer(call, err)
		}
		return rest
	}
}

// afterGroupCommit, when a test sets it, runs right after each group's
// commit, before the state it left is read (pass).
var afterGroupCommit func()

// pass tells passed of the commit just made from the state before, read
// inside its transaction. The commit wrote an event, so it wrote to the
// log and added one to the header's count of commits; when the header
// reads one commit more, that commit was the group's, as no other could
// be made while the transaction held the write lock, and none has been
// made since. (Checkpoints, and a log started again, change the header
// but no row, and are passed too.) A transaction that wrote nothing
// commits without touching the log, so one commit more would be
// another's: such a group is not passed.
func (c *committer) pass(before walState) {
	after, known := c.wal.state()
	if known && after.commits() == before.commits()+1 {
		c.passed(before, after)
	}
}

// groupEnd is how runMembers left a group's transaction.
type groupEnd int

const (
	groupCommit groupEnd = iota // every member taken ran: commit
	groupAgain                  // rolled back: run the calls again, each behind a savepoint
	groupLost                   // rolled back: the calls returned start a new group
)

// runMembers runs pending, then whatever else is queued, in tx, one
// after another, and returns the members that ran, the calls that did
// not, and what became of tx.
//
// A member that succeeds leaves its writes for the next to see, with no
// savepoint around it unless careful: most writes succeed, and a
// savepoint has SQLite copy each page a member changes, to undo it
// alone, which is a seventh of a busy time's insert and its event
// (docs/performance.md). When a member fails where no savepoint can undo
// it alone, runMembers rolls tx back and returns groupAgain, the members
// that ran and the failing one first among the calls, to run again from
// the start with a savepoint each: every member then sees exactly the
// members before it that commit. A first member that fails is answered
// at once (groupLost), as the transaction held only its work. Careful, a
// member that fails is rolled back to its savepoint and added to failed,
// and the others go on.
//
// Without a savepoint, a member that succeeds may still have ended the
// transaction: by a ROLLBACK of its own, or by a failing statement it
// let pass that SQLite answered by rolling the transaction back; the
// statements after it would then commit one by one. Its RELEASE tells
// that when it is careful; when it is not, a member during which the
// connection ran a statement that failed or that begins or ends a
// transaction (doubts) is taken as failing, and the group runs again
// with savepoints.
func (c *committer) runMembers(tx *sql.Tx, writer *writerTx, pending []*txCall, careful bool, g *gathering, later, failed *[]*txCall) (members, rest []*txCall, end groupEnd) {
	unsynced := g == nil
	singleWriter.Store(tx, writer)
	defer singleWriter.Delete(tx)
	for {
		if unsynced && len(members) == 1 {
			return members, pending, groupCommit
		}
		gather := g
		if len(*later) > 0 {
			// A call of the other kind waits for this group to close.
			gather = nil
		}
		call := c.next(&pending, len(members)+len(*failed)+len(*later), gather)
		if call == nil {
			return members, pending, groupCommit
		}
		if call.unsynced != unsynced {
			*later = append(*later, call)
			continue
		}
		if careful {
			if _, err := tx.Exec("SAVEPOINT member"); err != nil {
				tx.Rollback()
				answer(call, fmt.Errorf("begin: %w", err))
				return nil, append(members, pending...), groupLost
			}
		}
		doubts := c.doubts.Load()
		writer.leaves = false
		ok := run(call, tx)
		writer.changed = writer.changed || !writer.leaves
		doubted := !careful && c.doubts.Load() != doubts
		if ok && !doubted {
			if careful {
				if _, err := tx.Exec("RELEASE member"); err != nil {
					tx.Rollback()
					answer(call, fmt.Errorf("commit: %w", err))
					return nil, append(members, pending...), groupLost
				}
			}
			members = append(members, call)
			continue
		}
		if !careful {
			tx.Rollback()
			if !ok && len(members) == 0 {
				close(call.done)
				return nil, pending, groupLost
			}
			return nil, append(append(members, call), pending...), groupAgain
		}
		writer.forget()
		_, err := tx.Exec("ROLLBACK TO member")
		if err == nil {
			_, err = tx.Exec("RELEASE member")
		}
		*failed = append(*failed, call)
		if err != nil {
			// The failure ended the transaction and the members before
			// it with it: they run again in a new one.
			tx.Rollback()
			return nil, append(members, pending...), groupLost
		}
	}
}

// restoreSync sets the connection of an unsynced group back to the
// writer's synchronous setting (resetConn) and returns it to the pool.
func (c *committer) restoreSync(conn *sql.Conn) {
	resetConn(conn, "PRAGMA synchronous = "+c.sync)
	conn.Close()
}

// run calls call's function in tx and reports whether it succeeded; when
// it did not, call.err or call.panic says why. A function that succeeds
// after its caller gave up fails as a transaction of its own would, at
// commit.
func run(call *txCall, tx *sql.Tx) (ok bool) {
	call.err, call.panic = nil, nil // from a run of a group rolled back
	defer func() {
		if p := recover(); p != nil {
			call.panic = p
			ok = false
		}
	}()
	if err := call.fn(tx); err != nil {
		call.err = err
		return false
	}
	if err := call.ctx.Err(); err != nil {
		call.err = fmt.Errorf("commit: %w", err)
		return false
	}
	return true
}

// answer gives call its outcome and wakes its caller.
func answer(call *txCall, err error) {
	call.err = err
	close(call.done)
}
