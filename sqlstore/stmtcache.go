package sqlstore

import (
	clist "container/list"
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCacheSize bounds the statements a reader keeps prepared. The SQL
// of a list depends on its filters and of a join on the length of its
// IN list, so the texts are many but the ones in use at a time are few.
const stmtCacheSize = 256

// reader is the pool the store reads through. It runs its queries as
// statements prepared once per connection and kept, instead of parsing
// the SQL again on every call, which on SQLite costs more than running
// the small reads every request makes. Everything else is *sql.DB's.
type reader struct {
	*sql.DB
	stmts *stmtCache
}

func newReader(db *sql.DB) *reader {
	return &reader{DB: db, stmts: newStmtCache(db, stmtCacheSize)}
}

// passReader is a reader without a cache of its own, for a driver that
// keeps its prepared statements itself (pgx, in
// QueryExecModeCacheStatement): a second cache on top would only prepare
// each statement again on every connection.
func passReader(db *sql.DB) *reader { return &reader{DB: db} }

// QueryContext runs query as a kept statement.
func (r *reader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if r.stmts == nil {
		return r.DB.QueryContext(ctx, query, args...)
	}
	st, release, err := r.stmts.get(ctx, query)
	if err != nil {
		return nil, err
	}
	// The rows keep the statement open until they are closed, even if
	// it is evicted before then.
	defer release()
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query as a kept statement.
func (r *reader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if r.stmts == nil {
		return r.DB.QueryRowContext(ctx, query, args...)
	}
	st, release, err := r.stmts.get(ctx, query)
	if err != nil {
		// A *sql.Row carrying err can only come from running the query.
		return r.DB.QueryRowContext(ctx, query, args...)
	}
	defer release()
	return st.QueryRowContext(ctx, args...)
}

// Close closes the kept statements, then the pool.
func (r *reader) Close() error {
	return errors.Join(r.closeStmts(), r.DB.Close())
}

// closeStmts closes the kept statements, if the reader keeps any.
func (r *reader) closeStmts() error {
	if r.stmts == nil {
		return nil
	}
	return r.stmts.close()
}

// stmtCache keeps up to size prepared statements by their SQL, closing
// the least recently used when it needs room. A statement is closed only
// once no call is using it.
type stmtCache struct {
	db   *sql.DB
	size int

	mu     sync.Mutex
	byText map[string]*clist.Element // of *cachedStmt
	lru    clist.List                // most recently used first
	closed bool
}

type cachedStmt struct {
	text    string
	stmt    *sql.Stmt
	users   int  // calls using stmt now
	evicted bool // out of the cache; the last user closes stmt
}

func newStmtCache(db *sql.DB, size int) *stmtCache {
	return &stmtCache{db: db, size: size, byText: make(map[string]*clist.Element)}
}

// get returns the statement for query, preparing it if it is not kept,
// and a func to call once the statement has been run.
func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, func(), error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil, errors.New("sqlstore: the store is closed")
	}
	if e, ok := c.byText[query]; ok {
		c.lru.MoveToFront(e)
		cs := e.Value.(*cachedStmt)
		cs.users++
		c.mu.Unlock()
		return cs.stmt, func() { c.release(cs) }, nil
	}
	c.mu.Unlock()

	// Prepare outside the lock: it waits for a connection. Two callers
	// may prepare the same text at once; the second keeps the first's.
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, nil, err
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		st.Close()
		return nil, nil, errors.New("sqlstore: the store is closed")
	}
	if e, ok := c.byText[query]; ok {
		st.Close()
		c.lru.MoveToFront(e)
		cs := e.Value.(*cachedStmt)
		cs.users++
		return cs.stmt, func() { c.release(cs) }, nil
	}
	cs := &cachedStmt{text: query, stmt: st, users: 1}
	c.byText[query] = c.lru.PushFront(cs)
	for c.lru.Len() > c.size {
		c.evict(c.lru.Back())
	}
	return st, func() { c.release(cs) }, nil
}

// evict takes e out of the cache, closing its statement unless a call
// is using it. c.mu is held.
func (c *stmtCache) evict(e *clist.Element) error {
	cs := c.lru.Remove(e).(*cachedStmt)
	delete(c.byText, cs.text)
	cs.evicted = true
	if cs.users == 0 {
		return cs.stmt.Close()
	}
	return nil
}

func (c *stmtCache) release(cs *cachedStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs.users--
	if cs.evicted && cs.users == 0 {
		cs.stmt.Close()
	}
}

// close closes every kept statement and keeps no more.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var err error
	for c.lru.Len() > 0 {
		err = errors.Join(err, c.evict(c.lru.Front()))
	}
	return err
}
