package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// BackupSQLite writes a consistent copy of the live SQLite database at
// path to the new file to, while other processes keep writing to it. The
// copy is SQLite's VACUUM INTO, taken inside one read transaction: it
// holds every write committed before the copy began and none that
// committed after. The copy is written beside to under a temporary name,
// synced, and renamed into place, so to is either absent or whole.
func BackupSQLite(ctx context.Context, path, to string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if _, err := os.Stat(to); err == nil {
		return fmt.Errorf("backup: %s already exists; name a new file", to)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	// Shared, as a store holds it: a database being restored, or made by
	// a load that no other process may read, is refused at once.
	lock, err := lockSQLite(path, false)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer lock.release()
	db, err := sql.Open("sqlite", sqliteURI(path)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer db.Close()
	if err := checkPracticed(ctx, db, path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	partial := to + ".partial"
	os.Remove(partial)
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, partial); err != nil {
		os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(partial); err != nil {
		os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(partial, to); err != nil {
		os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	return syncDir(filepath.Dir(to))
}

// RestoreSQLite replaces the SQLite database at path with the backup
// from. It refuses while any process has the database open (every store
// holds its lock file, see lockSQLite), and refuses a backup that fails
// SQLite's integrity check, that is no practiced database, or that has
// migrations this program does not know. The database it replaces is
// kept as path.before-restore. The new file is renamed over the old in
// one step, so a crash leaves either database whole.
func RestoreSQLite(ctx context.Context, path, from string) error {
	lock, err := lockSQLite(path, true)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer lock.release()

	src, err := sql.Open("sqlite", sqliteURI(from)+"?mode=ro")
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	err = checkBackup(ctx, src, from)
	src.Close()
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}

	incoming := path + ".restoring"
	if err := copyFile(from, incoming); err != nil {
		os.Remove(incoming)
		return fmt.Errorf("restore: %w", err)
	}
	if _, err := os.Stat(path); err == nil {
		// Fold the old database's write-ahead log into it, so that the
		// copy kept beside is whole and no log of the old database is
		// left to be read into the new one.
		if err := checkpoint(ctx, path); err != nil {
			os.Remove(incoming)
			return fmt.Errorf("restore: %w", err)
		}
		kept := path + ".before-restore"
		os.Remove(kept)
		if err := os.Link(path, kept); err != nil {
			os.Remove(incoming)
			return fmt.Errorf("restore: keeping the old database: %w", err)
		}
	}
	for _, side := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(side); err != nil && !errors.Is(err, os.ErrNotExist) {
			os.Remove(incoming)
			return fmt.Errorf("restore: %w", err)
		}
	}
	if err := os.Rename(incoming, path); err != nil {
		os.Remove(incoming)
		return fmt.Errorf("restore: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// checkPracticed fails unless db holds practiced's migrations table.
func checkPracticed(ctx context.Context, db *sql.DB, name string) error {
	ok, err := hasTable(ctx, db, "schema_migrations")
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if !ok {
		return fmt.Errorf("%s is not a practiced database", name)
	}
	return nil
}

// checkBackup fails unless db is a whole practiced database whose
// migrations this program knows.
func checkBackup(ctx context.Context, db *sql.DB, name string) error {
	var result string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if result != "ok" {
		return fmt.Errorf("%s fails SQLite's integrity check: %s", name, result)
	}
	if err := checkPracticed(ctx, db, name); err != nil {
		return err
	}
	known, err := (&Store{dialect: sqliteDialect}).migrationFiles()
	if err != nil {
		return err
	}
	newest := known[len(known)-1].version
	var have sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if have.Int64 > int64(newest) {
		return fmt.Errorf("%s has migration %d, newer than this program's %d: restore it with the version that wrote it", name, have.Int64, newest)
	}
	return nil
}

// checkpoint copies the write-ahead log of the database at path into the
// database file and empties the log.
func checkpoint(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", sqliteURI(path)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	var busy, logged, moved int
	if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved); err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if busy != 0 {
		return fmt.Errorf("checkpoint %s: the database is busy", path)
	}
	return nil
}

// copyFile copies from to a new file to and syncs it.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncFile(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a rename or a new file in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !strings.Contains(err.Error(), "invalid argument") {
		return err
	}
	return nil
}
