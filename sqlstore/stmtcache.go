package sqlstore

import (
	clist "container/list"
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"unicode"

	"modernc.org/sqlite"
)

// stmtCacheSize is how many prepared statements each SQLite connection
// keeps.
const stmtCacheSize = 256

// A connection keeps no statement of more than maxKeptQuery bytes or
// maxKeptParams parameters: those are multi-row INSERTs (bulk loads, a
// repeating busy time's occurrences, a change's events), a text for each
// number of rows, which would fill the cache with large programs run once.
const (
	maxKeptQuery  = 8 << 10
	maxKeptParams = 128
)

// keepingConnector opens SQLite connections that keep the statements they
// run prepared, by their SQL text, so a statement run again is not parsed
// and planned again: on the write path parsing was a fifth of the CPU of
// a small write. PostgreSQL needs none of this: pgx keeps its statements
// itself.
type keepingConnector struct {
	driver.Connector
	size int
	// doubts, when set (the writer's), counts the statements of its
	// connections that failed, or that begin or end a transaction:
	// SQLite answers some failures by rolling the transaction back, so a
	// write that runs none of these leaves its transaction open
	// (committer.runMembers). The readers' connections count nothing.
	doubts *atomic.Uint64
}

func newKeepingConnector(dsn string, size int) (*keepingConnector, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return &keepingConnector{Connector: c, size: size}, nil
}

// Connect implements driver.Connector.
func (k *keepingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := k.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &keepingConn{conn: c.(sqliteConn), size: k.size, byText: map[string]*clist.Element{}, doubts: k.doubts}, nil
}

// sqliteConn is what database/sql asks of a SQLite connection.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// keptStmt is a prepared statement a connection keeps.
type keptStmt struct {
	text string
	stmt driver.Stmt
	// busy is set while rows read from stmt are open: running the same
	// SQL again then needs a statement of its own.
	busy bool
}

// keepingConn is a SQLite connection that keeps up to size statements,
// the least recently used going first. database/sql uses a connection
// from one goroutine at a time, so it needs no lock.
type keepingConn struct {
	conn   sqliteConn
	size   int
	byText map[string]*clist.Element // of *keptStmt
	lru    clist.List                // most recently used first
	doubts *atomic.Uint64            // its connector's, or nil
}

// doubt counts a statement that failed or that begins or ends a
// transaction (keepingConnector.doubts).
func (c *keepingConn) doubt(query string, err error) {
	if c.doubts != nil && (err != nil || endsTransaction(query)) {
		c.doubts.Add(1)
	}
}

// endsTransaction reports whether query is a statement that begins,
// commits or rolls back a transaction (ROLLBACK TO a savepoint too).
func endsTransaction(query string) bool {
	word := strings.TrimLeftFunc(query, unicode.IsSpace)
	if end := strings.IndexFunc(word, func(r rune) bool { return unicode.IsSpace(r) || r == ';' }); end >= 0 {
		word = word[:end]
	}
	for _, w := range []string{"BEGIN", "COMMIT", "END", "ROLLBACK"} {
		if strings.EqualFold(word, w) {
			return true
		}
	}
	return false
}

// stmt returns the kept statement for query, preparing it when it is not
// kept, or, when the kept one is busy or query too long to keep, a
// statement of its own that the caller closes (owned is true).
func (c *keepingConn) stmt(ctx context.Context, query string) (st *keptStmt, owned bool, err error) {
	if e, ok := c.byText[query]; ok {
		ks := e.Value.(*keptStmt)
		if !ks.busy {
			c.lru.MoveToFront(e)
			return ks, false, nil
		}
	}
	s, err := c.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, false, err
	}
	ks := &keptStmt{text: query, stmt: s}
	if len(query) > maxKeptQuery || s.NumInput() > maxKeptParams || c.byText[query] != nil {
		return ks, true, nil
	}
	c.byText[query] = c.lru.PushFront(ks)
	for e := c.lru.Back(); c.lru.Len() > c.size && e != nil; {
		prev := e.Prev()
		if old := e.Value.(*keptStmt); !old.busy && old != ks {
			c.lru.Remove(e)
			delete(c.byText, old.text)
			old.stmt.Close()
		}
		e = prev
	}
	return ks, false, nil
}

// ExecContext implements driver.ExecerContext with a kept statement.
func (c *keepingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	ks, owned, err := c.stmt(ctx, query)
	if err != nil {
		c.doubt(query, err)
		return nil, err
	}
	if owned {
		defer ks.stmt.Close()
	}
	res, err := ks.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
	c.doubt(query, err)
	return res, err
}

// QueryContext implements driver.QueryerContext with a kept statement,
// busy until the rows are closed.
func (c *keepingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	ks, owned, err := c.stmt(ctx, query)
	if err != nil {
		c.doubt(query, err)
		return nil, err
	}
	rows, err := ks.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	c.doubt(query, err)
	if err != nil {
		if owned {
			ks.stmt.Close()
		}
		return nil, err
	}
	ks.busy = true
	return &keptRows{Rows: rows, ks: ks, owned: owned, doubts: c.doubts}, nil
}

// keptRows are the rows of a kept statement; closing them frees it.
type keptRows struct {
	driver.Rows
	ks     *keptStmt
	owned  bool
	doubts *atomic.Uint64
}

// Next counts a step that fails as a statement that failed.
func (r *keptRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if r.doubts != nil && err != nil && err != io.EOF {
		r.doubts.Add(1)
	}
	return err
}

func (r *keptRows) Close() error {
	err := r.Rows.Close()
	r.ks.busy = false
	if r.owned {
		err = errors.Join(err, r.ks.stmt.Close())
	}
	return err
}

// Close closes the kept statements, then the connection.
func (c *keepingConn) Close() error {
	var errs []error
	for e := c.lru.Front(); e != nil; e = e.Next() {
		errs = append(errs, e.Value.(*keptStmt).stmt.Close())
	}
	c.lru.Init()
	clear(c.byText)
	return errors.Join(append(errs, c.conn.Close())...)
}

// kept reports how many statements the connection keeps.
func (c *keepingConn) kept() int { return c.lru.Len() }

func (c *keepingConn) Prepare(query string) (driver.Stmt, error) { return c.conn.Prepare(query) }
func (c *keepingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.conn.PrepareContext(ctx, query)
}
func (c *keepingConn) Begin() (driver.Tx, error) {
	return c.conn.BeginTx(context.Background(), driver.TxOptions{})
}
func (c *keepingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.conn.BeginTx(ctx, opts)
}
func (c *keepingConn) Ping(ctx context.Context) error         { return c.conn.Ping(ctx) }
func (c *keepingConn) ResetSession(ctx context.Context) error { return c.conn.ResetSession(ctx) }
func (c *keepingConn) IsValid() bool                          { return c.conn.IsValid() }
