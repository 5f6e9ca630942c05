// Package sqlstore implements practiced.Store on SQL databases: an
// embedded SQLite file (the default) and PostgreSQL. The queries are
// shared; what differs between the two lives in dialect.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/mail"
)

// Store is a practiced.Store on a SQL database. Writes go through w and
// reads through r; for SQLite, w is a single connection so that writers
// queue in the process instead of failing on a locked database, and
// group commits the write transactions queued there together.
type Store struct {
	w       *sql.DB
	r       *sql.DB
	dialect dialect
	group   *committer // SQLite's; nil on PostgreSQL, which groups commits itself
	lock    *fileLock  // SQLite's, held while open; nil on PostgreSQL
	// observeTx, when set, is told the time and result of every write
	// transaction.
	observeTx func(elapsed time.Duration, err error)
	// messages, when set, has the messages to clients planned in the
	// transactions of the changes that cause them (messages.go).
	messages *messaging
	// blocks keeps what availability searches read (blockscache.go).
	blocks *blocksCache
	// kept keeps the documents of the clients read (keptdocs.go).
	kept *keptDocs
	// keyReads coalesces the key reads of concurrent requests
	// (keyreads.go); PostgreSQL's, nil on SQLite.
	keyReads *keyReads
	// wal tells when a SQLite database is unchanged (walwatch.go); keys
	// and places keep what requests read while it is (statecache.go).
	// wal is nil on PostgreSQL and during a load.
	wal    *walWatch
	keys   *stateCache[string, keptKey]
	places *stateCache[placeKey, practiced.BusyTimePlace]
	// templates render messages; nil means the built-in ones.
	templates *mail.Templates
	// walOnClose is set when a new SQLite database was opened for a load
	// with a rollback journal: Close switches it to the write-ahead log.
	walOnClose bool
	// loadBegun, when set, is called with each transaction of SeedAll as
	// it begins, for the tests of what a load sets on the writer.
	loadBegun func(tx *sql.Tx)
}

var _ practiced.Store = (*Store)(nil)

// dialect holds everything the supported databases disagree on.
type dialect struct {
	name string
	// lockRow is appended to a SELECT that reads a row the transaction
	// will write, so concurrent writers on PostgreSQL wait for each other.
	// SQLite takes the write lock when the transaction begins instead.
	lockRow string
	// joinDocs reads a page of stored documents as one row that joins
	// them (readJoinedDocs) instead of a row each (readDocRows). On
	// SQLite that reads a page of 100 clients in about a tenth less
	// time, with 48 allocations instead of 255. On PostgreSQL string_agg,
	// with the ORDER BY that keeps the database's order of ids, made the
	// page take three times as long (docs/performance.md).
	joinDocs bool
}

var (
	sqliteDialect   = dialect{name: "sqlite", lockRow: "", joinDocs: true}
	postgresDialect = dialect{name: "postgres", lockRow: " FOR UPDATE"}
)

// Options tune a store. The zero value is a good default.
type Options struct {
	// PoolSize is the number of PostgreSQL connections; 0 means PoolSize.
	PoolSize int

	// Load opens a SQLite database that does not exist yet for one bulk
	// load, the only process to use it until Close (see openSQLite).
	// An existing database, or a PostgreSQL one, opens as usual.
	Load bool

	// sqliteSync is SQLite's synchronous setting, FULL when empty. Only
	// the power-loss test sets it, to NORMAL, to show that the test can
	// tell when answered writes are lost.
	sqliteSync string
}

// Open opens the database named by url and applies any migrations it has
// not had. url is "sqlite:PATH", a bare path (SQLite), or "postgres://…".
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenWith(ctx, url, Options{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, url string, opt Options) (*Store, error) {
	var s *Store
	var err error
	if scheme, _, ok := strings.Cut(url, "://"); ok && !IsPostgres(url) && !strings.HasPrefix(url, "sqlite:") {
		return nil, fmt.Errorf("unknown database URL scheme %q: use sqlite:PATH, a file path, or postgres://…", scheme)
	}
	if IsPostgres(url) {
		s, err = openPostgres(ctx, url, opt.PoolSize)
	} else {
		s, err = openSQLite(strings.TrimPrefix(url, "sqlite:"), opt.sqliteSync, opt.Load)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// IsPostgres reports whether url names a PostgreSQL database.
func IsPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// Close closes the database.
func (s *Store) Close() error {
	if s.group != nil {
		s.group.stop()
	}
	defer s.lock.release()
	// Before the readers close: the watch keeps the index open. Reads
	// still under way find it closed and query.
	if err := s.wal.close(); err != nil {
		return errors.Join(err, s.w.Close(), s.r.Close())
	}
	if s.r == s.w {
		return s.r.Close()
	}
	if s.walOnClose {
		// Once: a store may be closed twice.
		s.walOnClose = false
		return s.closeToWAL()
	}
	return errors.Join(s.w.Close(), s.r.Close())
}

// inTx runs fn in a write transaction, committing when it returns nil.
// It returns once the commit is durable. On SQLite, fn may share its
// transaction with other callers' and run more than once (see
// committer); what it sees and what it is answered are as if it ran
// alone, after the writes that were answered before it began.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.observeTx == nil {
		return s.runTx(ctx, fn)
	}
	start := time.Now()
	err := s.runTx(ctx, fn)
	s.observeTx(time.Since(start), err)
	return err
}

func (s *Store) runTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.messages != nil {
		fn = s.withMessages(ctx, fn)
	}
	if s.group != nil {
		return s.group.do(ctx, fn)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// inTxUnsynced is inTx on SQLite with a commit that does not wait for
// the disk: it survives the end of the process (kill -9) once it is
// written, but not a power cut. after, if not nil, runs the moment the
// commit is written, before anything else (see committer); its error is
// returned. fn writes no events.
func (s *Store) inTxUnsynced(ctx context.Context, fn func(tx *sql.Tx) error, after func() error) error {
	return s.group.doUnsynced(ctx, fn, after)
}

// ObserveTransactions has fn told the time (from the call to the durable
// commit) and the result of every write transaction from now on. Call it
// before the store is shared between goroutines.
func (s *Store) ObserveTransactions(fn func(elapsed time.Duration, err error)) {
	s.observeTx = fn
}

// PoolStats reports the store's connection pools: "write" and "read" on
// SQLite (one writer connection and the readers), "postgres" on
// PostgreSQL.
func (s *Store) PoolStats() map[string]sql.DBStats {
	if s.dialect.name == "postgres" {
		return map[string]sql.DBStats{"postgres": s.w.Stats()}
	}
	return map[string]sql.DBStats{"write": s.w.Stats(), "read": s.r.Stats()}
}

// queryer is what both *sql.DB and *sql.Tx offer.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// args builds a numbered parameter list ($1, $2, …) for a query.
type args struct {
	vals []any
	// positional writes "?" instead of "$N", for a statement of SQLite
	// that uses each value once, in the order added: SQLite finds each
	// "$N" by a linear search, so a multi-row INSERT of thousands of them
	// is slow to parse.
	positional bool
}

// add appends v and returns its placeholder.
func (a *args) add(v any) string {
	a.vals = append(a.vals, v)
	if a.positional {
		return "?"
	}
	return "$" + strconv.Itoa(len(a.vals))
}

// valuesText returns the placeholders of n rows of cols values each,
// "(?, ?), (?, ?)" when positional and "($1, $2), ($3, $4)" when not,
// numbered in the order of the rows' values.
func valuesText(n, cols int, positional bool) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j := range cols {
			if j > 0 {
				b.WriteString(", ")
			}
			if positional {
				b.WriteByte('?')
			} else {
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(i*cols + j + 1))
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// in appends every value of vs and returns "($i, $j, …)".
func (a *args) in(vs []string) string {
	ps := make([]string, len(vs))
	for i, v := range vs {
		ps[i] = a.add(v)
	}
	return "(" + strings.Join(ps, ", ") + ")"
}

// Analyze refreshes the query planner's statistics. After a bulk load
// (the demo, an import) the planner would otherwise guess the tables are
// tiny and pick plans that do not scale; ordinary writes keep the
// statistics fresh by themselves (PostgreSQL's autovacuum).
func (s *Store) Analyze(ctx context.Context) error {
	stmt := "ANALYZE"
	if s.dialect.name == "sqlite" {
		stmt = "PRAGMA optimize"
	}
	_, err := s.w.ExecContext(ctx, stmt)
	return err
}
