package sqlstore

import (
	"sync"

	practiced "github.com/practiced/practiced"
)

// stateCacheMax bounds what a stateCache holds: past it, what is read is
// answered but not kept.
const stateCacheMax = 1024

// stateCache keeps small reads a SQLite store answers on every request
// (the request's API key, a new busy time's place) for as long as the
// database is unchanged: on SQLite the key's query, with its read
// transaction's locks, cost a fifth of the server's time answering a
// kept page of clients (docs/performance.md). A value is kept at the
// state of the WAL index's header read before the query that read it
// (walWatch), and answered again only while the header reads that same
// state. The query began after that state was read, so it saw at least
// every commit made until then; and while the state has not moved, no
// commit has been made since. So a kept answer is what the query would
// answer now: a key revoked, a business's clients changed, by this
// process or any other, is read again at once. Errors are not kept.
//
// The one commit a cache is kept past is the committer's own, when it
// was the only one since its transaction began, it wrote an event, and
// every member said it changed nothing these reads read
// (leavesKeptReads): a busy time's write, say, leaves the request's key
// and the place of the next one kept, where it would otherwise have them
// read again.
type stateCache[K comparable, V any] struct {
	mu   sync.Mutex
	at   walState
	kept map[K]V
}

func newStateCache[K comparable, V any]() *stateCache[K, V] {
	return &stateCache[K, V]{kept: make(map[K]V)}
}

// get returns the value kept for k when the database is still at now.
func (c *stateCache[K, V]) get(k K, now walState) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != now {
		var zero V
		return zero, false
	}
	v, ok := c.kept[k]
	return v, ok
}

// put keeps v for k, as read by a query that began once the database was
// at at. Values kept at another state go.
func (c *stateCache[K, V]) put(k K, at walState, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != at {
		c.at = at
		clear(c.kept)
	}
	if len(c.kept) < stateCacheMax {
		c.kept[k] = v
	}
}

// pass moves what c keeps at from on to to: the database went from one
// to the other by a commit that changed nothing c's reads read
// (committer.pass), so they would be answered the same at to.
func (c *stateCache[K, V]) pass(from, to walState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at == from {
		c.at = to
	}
}

// passKept moves every stateCache of s on past a commit that changed
// nothing they read (committer.pass).
func (s *Store) passKept(from, to walState) {
	s.keys.pass(from, to)
	s.places.pass(from, to)
}

// readKept answers k from c while the database of s is as it was when k
// was read, and otherwise reads it, keeping what read returns unless it
// fails. Without a WAL index (PostgreSQL, a load) it always reads.
func readKept[K comparable, V any](s *Store, c *stateCache[K, V], k K, read func() (V, error)) (V, error) {
	at, known := s.wal.state()
	if known {
		if v, ok := c.get(k, at); ok {
			return v, nil
		}
	}
	v, err := read()
	if keptReadDone != nil {
		keptReadDone()
	}
	if err == nil && known {
		c.put(k, at, v)
	}
	return v, err
}

// keptReadDone, when a test sets it, runs between a query of readKept
// and the keeping of its answer.
var keptReadDone func()

// keptKey is an API key with its business's clients number.
type keptKey struct {
	key     practiced.APIKey
	version int64
}

// placeKey names what BusyTimePlace reads.
type placeKey struct {
	business, location, practitioner string
}
