package sqlstore

import (
	"sync"

	practiced "github.com/practiced/practiced"
)

// keyCacheMax bounds the keys a keyCache holds: past it, keys read are
// answered but not kept.
const keyCacheMax = 1024

// keyCache keeps the API keys a SQLite store has read, each with its
// business's clients number, for as long as the database is unchanged:
// every request reads its key, and on SQLite that query cost a fifth of
// the server's time answering a kept page of clients
// (docs/performance.md). A key is kept at the state of the WAL index's
// header read before the query that read it, and answered again only
// while the header reads that same state. The query began after that
// state was read, so it saw at least every commit made until then; and
// while the state has not moved, no commit has been made since. So a kept
// answer is what the query would answer now: a key revoked, a business's
// clients changed, by this process or any other, is read again at once.
// Keys refused are not kept.
type keyCache struct {
	mu   sync.Mutex
	at   walState
	keys map[string]keptKey
}

type keptKey struct {
	key     practiced.APIKey
	version int64
}

func newKeyCache() *keyCache {
	return &keyCache{keys: make(map[string]keptKey)}
}

// get returns the key kept for hash when the database is still at now.
func (c *keyCache) get(hash string, now walState) (practiced.APIKey, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != now {
		return practiced.APIKey{}, 0, false
	}
	k, ok := c.keys[hash]
	return k.key, k.version, ok
}

// put keeps key and version for hash, as read by a query that began once
// the database was at at. Keys kept at another state go.
func (c *keyCache) put(hash string, at walState, key practiced.APIKey, version int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != at {
		c.at = at
		clear(c.keys)
	}
	if len(c.keys) < keyCacheMax {
		c.keys[hash] = keptKey{key: key, version: version}
	}
}
