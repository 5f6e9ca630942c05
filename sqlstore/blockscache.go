package sqlstore

import (
	clist "container/list"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	practiced "github.com/practiced/practiced"
)

// scheduleLists are the tables whose rows Blocks reads, each numbered in
// list_versions by triggers (migration 0024), but for a busy time's
// insert on SQLite, which the writer counts (countInserts).
var scheduleLists = []string{"appointment_clients", "appointments", "busy_times", "services"}

// scheduleVersion is the business's numbers of scheduleLists, in order.
type scheduleVersion [4]int64

// readScheduleVersion reads the business's scheduleVersion. Two reads
// that return the same one, with a read between them, bracket a read
// that saw every row as those numbers have it.
func readScheduleVersion(ctx context.Context, db queryer, businessID string) (scheduleVersion, error) {
	var v scheduleVersion
	var a args
	rows, err := db.QueryContext(ctx, `SELECT list, version FROM list_versions WHERE business = `+a.add(businessID)+
		` AND list IN `+a.in(scheduleLists), a.vals...)
	if err != nil {
		return v, fmt.Errorf("schedule version: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var list string
		var n int64
		if err := rows.Scan(&list, &n); err != nil {
			return v, err
		}
		v[slices.Index(scheduleLists, list)] = n
	}
	return v, rows.Err()
}

// blocksCache keeps what Blocks read, by business, practitioners and
// window, with the scheduleVersion it was read at, the least recently
// used out first beyond max entries. An entry is answered again only
// while the business's scheduleVersion is the one it was read at, so
// it is what a read now would return.
type blocksCache struct {
	max   int
	reads singleflight.Group // the reads in progress, by key and version

	mu      sync.Mutex
	entries map[blocksKey]*clist.Element // of *blocksEntry
	lru     clist.List                   // most recently used first
}

type blocksKey struct {
	business, practitioners string
	from, to                int64
}

type blocksEntry struct {
	key     blocksKey
	version scheduleVersion
	blocks  map[string]practiced.Blocks
}

func newBlocksCache(max int) *blocksCache {
	return &blocksCache{max: max, entries: map[blocksKey]*clist.Element{}}
}

func keyOfBlocks(businessID string, practitionerIDs []string, from, to time.Time) blocksKey {
	ids := slices.Clone(practitionerIDs)
	slices.Sort(ids)
	return blocksKey{business: businessID, practitioners: strings.Join(ids, ","), from: from.UnixNano(), to: to.UnixNano()}
}

// get returns a copy of the blocks kept for key at version.
func (c *blocksCache) get(key blocksKey, version scheduleVersion) (map[string]practiced.Blocks, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || e.Value.(*blocksEntry).version != version {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return copyBlocks(e.Value.(*blocksEntry).blocks), true
}

// put keeps a copy of blocks for key at version.
func (c *blocksCache) put(key blocksKey, version scheduleVersion, blocks map[string]practiced.Blocks) {
	kept := copyBlocks(blocks)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.lru.MoveToFront(e)
		e.Value = &blocksEntry{key: key, version: version, blocks: kept}
		return
	}
	c.entries[key] = c.lru.PushFront(&blocksEntry{key: key, version: version, blocks: kept})
	for len(c.entries) > c.max {
		e := c.lru.Back()
		c.lru.Remove(e)
		delete(c.entries, e.Value.(*blocksEntry).key)
	}
}

// copyBlocks copies blocks, so that a caller may change what it is given.
func copyBlocks(blocks map[string]practiced.Blocks) map[string]practiced.Blocks {
	out := make(map[string]practiced.Blocks, len(blocks))
	for id, b := range blocks {
		out[id] = practiced.Blocks{Busy: slices.Clone(b.Busy), Appointments: slices.Clone(b.Appointments)}
	}
	return out
}

// blocksKept is how many searches' reads a store keeps: a month of a
// busy practitioner is about 200 KB, so at most some 13 MB.
const blocksKept = 64
