package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	practiced "github.com/practiced/practiced"
)

// openSQLite opens path with WAL journaling, foreign keys and a busy
// timeout, one connection for writing and a pool for reading.
//
// synchronous is FULL unless sync says otherwise: each commit fsyncs the
// write-ahead log, so an answered write survives a power cut, not only
// the end of the process. The committer makes that one fsync per group
// of concurrent writes rather than one per write.
//
// With load, a database that does not exist yet is made for one bulk
// load: it keeps a rollback journal until Close, which switches it to
// the write-ahead log, and no other process may open it meanwhile. In
// the log every page of a load is written twice, into the log and then
// into the database by the checkpoint; with a rollback journal the new
// pages at the end of the file go into the database once, and only the
// few pages that held something before are copied to the journal. A
// crash leaves the database as of its last commit: the next open plays
// the journal back. synchronous FULL becomes EXTRA there, which also
// syncs the directory once a commit has deleted its journal, so that a
// power cut cannot bring the journal back to undo the commit.
func openSQLite(path, sync string, load bool) (*Store, error) {
	if path == "" {
		return nil, fmt.Errorf("sqlite: empty database path")
	}
	if load {
		isNew, err := newSQLite(path)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		load = isNew
	}
	lock, err := lockSQLite(path, load)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	if load {
		// Another process may have made the database between the look and
		// the lock: it then opens as any existing one, shared.
		isNew, err := newSQLite(path)
		if err == nil && !isNew {
			lock.release()
			load = false
			lock, err = lockSQLite(path, false)
		}
		if err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
	}
	journal := "WAL"
	if sync == "" {
		sync = "FULL"
	}
	if load {
		journal = "DELETE"
		if sync == "FULL" {
			sync = "EXTRA"
		}
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode("+journal+")")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous("+sync+")")
	// A commit that leaves at least 1,000 pages in the write-ahead log
	// copies them into the database (SQLite's default, stated). With a
	// log of up to 16,384 pages, busy time writes were about 5 % slower
	// (docs/performance.md). A load is one transaction and is
	// checkpointed once, at its commit, either way.
	q.Add("_pragma", "wal_autocheckpoint(1000)")
	dsn := sqliteURI(path) + "?" + q.Encode()
	if err := createSQLite(path, journal); err != nil {
		lock.release()
		return nil, fmt.Errorf("sqlite: create %s: %w", path, err)
	}

	// The writer keeps its temporary files in memory: a statement's
	// journal, and the savepoints of a group commit's members once one
	// failed, save pages to a sub-journal, which would otherwise spill
	// to a file and cost a write call per page. A bulk load sets it
	// aside while it holds the writer (loadSettings).
	wc, err := newKeepingConnector(dsn+"&_pragma=temp_store("+writerTempStore+")&_txlock=immediate", stmtCacheSize)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	wc.doubts = new(atomic.Uint64)
	w := sql.OpenDB(wc)
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if err := w.Ping(); err != nil {
		w.Close()
		lock.release()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}

	rc, err := newKeepingConnector(dsn, stmtCacheSize)
	if err != nil {
		w.Close()
		lock.release()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	r := sql.OpenDB(rc)
	n := max(4, runtime.NumCPU())
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	var wal *walWatch
	if !load {
		// A load writes with a rollback journal: there is no WAL index.
		if wal, err = watchWAL(rc, path); err != nil {
			err = errors.Join(err, r.Close(), w.Close())
			lock.release()
			return nil, fmt.Errorf("sqlite: %w", err)
		}
	}
	s := &Store{w: w, r: r, dialect: sqliteDialect, lock: lock, blocks: newBlocksCache(blocksKept),
		kept:       newKeptDocs(keptDocBytes),
		wal:        wal,
		keys:       newStateCache[string, keptKey](),
		places:     newStateCache[placeKey, practiced.BusyTimePlace](),
		walOnClose: load}
	s.group = newCommitter(w, wc.doubts, sync, wal, s.passKept)
	return s, nil
}

// newSQLite reports whether there is no database at path yet: no file,
// or an empty one.
func newSQLite(path string) (bool, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	return err == nil && fi.Size() == 0, err
}

// closeToWAL closes a database opened for a load, switching it to the
// write-ahead log on the writer's connection once every reader's is
// closed: a reader in the middle of a read would keep the switch from
// taking its lock. SQLite answers a switch it could not make with the
// mode it kept, not an error. The next open switches a database left
// behind with its rollback journal.
func (s *Store) closeToWAL() error {
	rerr := s.r.Close()
	var mode string
	err := s.w.QueryRow("PRAGMA journal_mode = WAL").Scan(&mode)
	if err == nil && mode != "wal" {
		err = fmt.Errorf("the database kept journal mode %s", mode)
	}
	if err != nil {
		err = fmt.Errorf("sqlite: switching to the write-ahead log: %w", err)
	}
	return errors.Join(rerr, err, s.w.Close())
}

// writerTempStore is where the writer keeps its temporary files.
const writerTempStore = "MEMORY"

// loadSettings sets up the writer's connection conn, held by a bulk
// load, for the load until restoreSettings: temp_store takes effect at
// the next transaction, threads at the next sort.
//
// Temporary files go to files: each multi-row INSERT of a load saves
// every page it changes to a statement sub-journal, and in memory a
// load's sub-journals were a third of its processor time, as the memory
// of each was mapped, touched, freed and handed back to the system
// again. In a file they cost a write call a page.
//
// The sorter may use loadSorterThreads helper threads: building a
// million clients' indexes after their rows (inserter.buildIndexes)
// sorts on both cores of a two-core machine, in 5.9–7.1 s instead of
// 8.5–9.6 s.
func loadSettings(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = FILE"); err != nil {
		return fmt.Errorf("sqlite: temp_store: %w", err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA threads = %d", loadSorterThreads)); err != nil {
		return fmt.Errorf("sqlite: threads: %w", err)
	}
	return nil
}

// loadSorterThreads is how many helper threads a load's sorts may use.
const loadSorterThreads = 2

// restoreSettings sets conn back to the writer's settings: temporary
// files in writerTempStore, and no helper threads.
func restoreSettings(conn *sql.Conn) {
	resetConn(conn, "PRAGMA temp_store = "+writerTempStore)
	resetConn(conn, "PRAGMA threads = 0")
}

// resetConn runs pragma on the writer's connection conn to set back what
// a held connection changed; a connection that cannot be set back is
// discarded instead, and the next one opens with the writer's settings.
func resetConn(conn *sql.Conn, pragma string) {
	if _, err := conn.ExecContext(context.Background(), pragma); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

// hasTable reports whether the SQLite database q reads has a table of
// that name.
func hasTable(ctx context.Context, q queryer, name string) (bool, error) {
	var ok bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)`, name).Scan(&ok)
	return ok, err
}

// pageSize is the page size of a new database. A stored record is about
// 2.5 KB (its columns and its API document), so a 4 KiB page holds one
// and leaves 40 % of itself empty, where an 8 KiB page holds three: a
// million clients take 2.7 GB instead of 3.2, and load a fifth faster.
// SQLite fixes the size when a database is created.
const pageSize = 8192

// createSQLite makes the database at path, with pageSize pages and the
// given journal mode, when there is none yet (no file, or an empty one).
// An existing database keeps the page size it was made with.
func createSQLite(path, journal string) error {
	if isNew, err := newSQLite(path); err != nil || !isNew {
		return err
	}
	db, err := sql.Open("sqlite", sqliteURI(path)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	// Setting the user version writes the database's first page, which
	// fixes its page size: the write-ahead log does, a rollback journal
	// not yet.
	_, err = db.Exec(fmt.Sprintf("PRAGMA page_size = %d; PRAGMA journal_mode = %s; PRAGMA user_version = 0", pageSize, journal))
	return err
}

// sqliteURI returns the "file:" URI of the database file at path. SQLite
// reads the path part of the URI up to a "?" or "#" and decodes "%HH",
// so those three are escaped: a path holding them names its own file.
func sqliteURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
}
