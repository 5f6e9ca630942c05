package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"runtime"
	"slices"
	"sync"
	"time"

	practiced "github.com/practiced/practiced"
)

// keyReads coalesces the reads of API keys, with their business's
// clients number, that every request makes on PostgreSQL, where each is
// a round trip to the database: while one query is under way, the reads
// that arrive queue, and the next query answers all of them. A read's
// query is always sent after the read began, so it sees every write
// committed before; only where a query is already under way does a read
// wait, for that query and then its own. Under load that turns one round
// trip a request into one for every several: a query's leader first
// yields to the goroutines ready to run, so that the requests already
// read off their connections join it.
type keyReads struct {
	db *sql.DB
	mu sync.Mutex
	// busy says a query is under way or about to be sent by a leader;
	// waiting holds the reads that arrived since it was sent.
	busy    bool
	waiting []*keyRead
	// beforeQuery, when set (tests), is called with the reads of each
	// query just before it is sent.
	beforeQuery func(n int)
	// yield, when set (tests), is called in place of the leader's yield
	// to the other goroutines before it takes its batch.
	yield func()
}

// keyRead is one request's read of a key.
type keyRead struct {
	hash    string
	key     practiced.APIKey
	version int64
	err     error
	done    chan struct{} // closed when answered
	lead    chan struct{} // closed when the read is to send the next query
}

// errKeyReadPanicked answers the reads of a query that panicked.
var errKeyReadPanicked = errors.New("sqlstore: the key query panicked")

// keyReadTimeout bounds one coalesced query: it is not the query of any
// one request, so it does not end with any one request's context.
const keyReadTimeout = 10 * time.Second

// read returns the key whose token hashes to hash and its business's
// clients number, as APIKeyAndClientsVersion does.
func (kr *keyReads) read(ctx context.Context, hash string) (practiced.APIKey, int64, error) {
	r := &keyRead{hash: hash, done: make(chan struct{}), lead: make(chan struct{})}
	kr.mu.Lock()
	if kr.busy {
		kr.waiting = append(kr.waiting, r)
		kr.mu.Unlock()
		select {
		case <-r.done:
			return r.key, r.version, r.err
		case <-r.lead:
			// The query under way has ended and this read leads the
			// next, for itself and those queued behind it.
		}
		kr.mu.Lock()
	}
	kr.busy = true
	kr.mu.Unlock()
	// Before sending, let the requests that are ready to run reach their
	// key read and queue for this query: on a busy processor a query then
	// answers several times the reads for the same round trip, and with
	// nothing else to run the leader goes on at once.
	if kr.yield != nil {
		kr.yield()
	} else {
		runtime.Gosched()
	}
	kr.mu.Lock()
	batch := append([]*keyRead{r}, kr.waiting...)
	kr.waiting = nil
	kr.mu.Unlock()
	// Whatever becomes of the query, even a panic, the next read leads
	// or no one is busy: a read left waiting would wait for ever.
	defer kr.handOff()
	kr.query(context.WithoutCancel(ctx), batch)
	return r.key, r.version, r.err
}

// handOff gives the next query to the first read queued meanwhile, if
// any, and otherwise marks no query under way.
func (kr *keyReads) handOff() {
	kr.mu.Lock()
	defer kr.mu.Unlock()
	if len(kr.waiting) == 0 {
		kr.busy = false
		return
	}
	next := kr.waiting[0]
	kr.waiting = kr.waiting[1:]
	close(next.lead)
}

// query answers batch with one query and closes each read's done but
// the first's: the first is its leader's own read.
func (kr *keyReads) query(ctx context.Context, batch []*keyRead) {
	if kr.beforeQuery != nil {
		kr.beforeQuery(len(batch))
	}
	ctx, cancel := context.WithTimeout(ctx, keyReadTimeout)
	defer cancel()
	answered := false
	defer func() {
		if !answered {
			// A panic: the reads queued behind the leader are told so.
			for _, r := range batch[1:] {
				r.err = errKeyReadPanicked
				close(r.done)
			}
		}
	}()
	found, err := kr.keys(ctx, batch)
	answered = true
	for i, r := range batch {
		switch k, ok := found[r.hash]; {
		case err != nil:
			r.err = err
		case !ok:
			r.err = practiced.Errorf(practiced.EUNAUTHORIZED, "The API key is not valid.")
		default:
			r.key, r.version = k.key, k.version
		}
		if i > 0 {
			close(r.done)
		}
	}
}

type keyAndVersion struct {
	key     practiced.APIKey
	version int64
}

// keys reads the live keys of the batch's hashes, each once.
func (kr *keyReads) keys(ctx context.Context, batch []*keyRead) (map[string]keyAndVersion, error) {
	hashes := make([]string, 0, len(batch))
	for _, r := range batch {
		if !slices.Contains(hashes, r.hash) {
			hashes = append(hashes, r.hash)
		}
	}
	rows, err := kr.db.QueryContext(ctx, keyAndVersionSQL+`k.token_hash = ANY($1)`, hashes)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := make(map[string]keyAndVersion, len(hashes))
	for rows.Next() {
		var kv keyAndVersion
		if err := scanKeyAndVersion(rows, &kv.key, &kv.version); err != nil {
			return nil, err
		}
		found[kv.key.TokenHash] = kv
	}
	return found, rows.Err()
}
