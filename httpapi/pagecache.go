package httpapi

import (
	"bytes"
	clist "container/list"
	"context"
	"net/http"
	"sync"

	practiced "github.com/practiced/practiced"
)

// clientsVersioner is a store that numbers each business's clients
// (sqlstore.Store.ClientsVersion): the number changes in the transaction
// of every change of one of them, so two reads that return the same
// number see the same clients. ListClientDocsAt reads a page of them
// with the number of the clients it holds, or -1 when its statement did
// not tell the whole page (a probe ran after it, or, where each row
// carries the number, no row came back).
type clientsVersioner interface {
	ClientsVersion(ctx context.Context, businessID string) (int64, error)
	ListClientDocsAt(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, int64, error)
}

// keyAndClientsVersioner is a store that reads an API key and the
// ClientsVersion of its business in one query, so that a list answered
// from the pageCache costs one read of the database, the key's, which
// every request makes anyway.
type keyAndClientsVersioner interface {
	APIKeyAndClientsVersion(ctx context.Context, hash string) (practiced.APIKey, int64, error)
}

// DefaultPageCacheBytes is the size of the answered pages a server keeps
// when Options.PageCacheBytes is 0.
const DefaultPageCacheBytes = 32 << 20

// pageCache keeps whole answers to list requests, each with the number
// of the business's records it was read at, least recently used out
// first once they pass max bytes. An answer is kept at the number the
// statement that read its records read beside them, in the same
// snapshot, when that statement told all the page holds, so the page is
// that of that number; it is answered again only to a request that
// reads the same number, and so would read the same page. A page whose
// statement did not tell it whole carries no number (a page whose probe
// of the cursor's other side ran on its own after it, and on PostgreSQL,
// whose rows carry the number, a page read with no row): it is kept when
// the number read after it is the one read before it. What else an answer depends on is in its
// key: the business, the path (the list), the base of its links and the
// query string, which holds the filters, the limit and the cursor.
type pageCache struct {
	max int

	mu    sync.Mutex
	size  int
	byKey map[pageKey]*clist.Element // of *cachedPage
	lru   clist.List                 // most recently used first
}

type pageKey struct {
	business, path, base, query string
}

type cachedPage struct {
	key     pageKey
	version int64
	body    []byte
}

func newPageCache(max int) *pageCache {
	return &pageCache{max: max, byKey: make(map[pageKey]*clist.Element)}
}

// get returns the answer kept for key at version.
func (c *pageCache) get(key pageKey, version int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	p := e.Value.(*cachedPage)
	if p.version != version {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return p.body, true
}

// put keeps body as the answer for key at version, unless it keeps one
// at a later version already. body must not change afterwards.
func (c *pageCache) put(key pageKey, version int64, body []byte) {
	if len(body) > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		p := e.Value.(*cachedPage)
		if p.version > version {
			return
		}
		c.size += len(body) - len(p.body)
		p.version, p.body = version, body
		c.lru.MoveToFront(e)
	} else {
		c.byKey[key] = c.lru.PushFront(&cachedPage{key: key, version: version, body: body})
		c.size += len(body)
	}
	for c.size > c.max {
		e := c.lru.Back()
		p := e.Value.(*cachedPage)
		c.lru.Remove(e)
		delete(c.byKey, p.key)
		c.size -= len(p.body)
	}
}

// respondVersionedList answers a list request whose records' number
// version reads, from the kept answer when the number has not changed
// since it was kept, else from read's page, kept at the number read
// returns with it: the number of the records the page holds, or -1 when
// its statement did not tell all of it, for which the number is read
// again after the page and the page kept if it has not changed. known,
// unless negative, is the number read earlier in the request (with its
// key), which serves as well as one read now: the answer is the records
// as they were at some moment of the request.
func (s *Server) respondVersionedList(w http.ResponseWriter, r *http.Request, l *listRequest, known int64,
	version func(ctx context.Context, businessID string) (int64, error),
	read func() ([]practiced.Doc, practiced.PageInfo, int64, error)) error {
	ctx := r.Context()
	biz := businessID(ctx)
	if known < 0 {
		var err error
		if known, err = version(ctx, biz); err != nil {
			return err
		}
	}
	key := pageKey{business: biz, path: r.URL.Path, base: s.base(r), query: r.URL.RawQuery}
	if body, ok := s.pages.get(key, known); ok {
		writePage(w, body)
		return nil
	}
	data, info, at, err := read()
	if err != nil {
		return err
	}
	buf := getPageBuffer(0)
	defer putPageBuffer(buf)
	if err := pageBody(buf, s, r, l, data, info); err != nil {
		return err
	}
	if at < 0 {
		// The page's statement did not tell the whole page: a probe
		// ran after it, or it had no row to carry the number. The page is that of the number read
		// before it when the number after it is the same: every read
		// sees all that was committed before it began.
		after, err := version(ctx, biz)
		if err != nil {
			return err
		}
		if after == known {
			at = known
		}
	}
	if at >= 0 {
		s.pages.put(key, at, bytes.Clone(buf.Bytes()))
	}
	writePage(w, buf.Bytes())
	return nil
}
