package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
)

// walWatch tells when a SQLite database in WAL mode has not changed: it
// holds the map of the database's WAL index header (walIndex) and a
// connection of its own that keeps the index open, so that SQLite keeps
// the file that is mapped for as long as the map is held.
type walWatch struct {
	db  *sql.DB
	pin *sql.Conn

	// mu guards the map against close, which sets index to nil: a
	// request still reading when the store closes finds no index, not an
	// unmapped one.
	mu    sync.RWMutex
	index *walIndex
}

// watchWAL opens a connection to the database at path through c, reads
// the database once so that SQLite opens its WAL index, and maps the
// index's header. It returns nil where there is no index to map, and
// opens nothing on a system that never maps one.
func watchWAL(c driver.Connector, path string) (*walWatch, error) {
	if !walIndexMapped {
		return nil, nil
	}
	ctx := context.Background()
	db := sql.OpenDB(c)
	pin, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	var tables int
	if err := pin.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
		return nil, errors.Join(fmt.Errorf("open the WAL index: %w", err), pin.Close(), db.Close())
	}
	// SQLite names the index after the database's file, past any
	// symbolic link to it.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	index, err := openWALIndex(path + "-shm")
	if err != nil || index == nil {
		return nil, errors.Join(err, pin.Close(), db.Close())
	}
	return &walWatch{db: db, pin: pin, index: index}, nil
}

// state returns the database's state, which any commit changes, or false
// when it cannot be told. A nil or closed watch tells none.
func (w *walWatch) state() (walState, bool) {
	if w == nil {
		return walState{}, false
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.index.state()
}

// close unmaps the header, then closes the connection that kept it. A
// watch closed again does nothing.
func (w *walWatch) close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.index == nil {
		return nil
	}
	err := w.index.close()
	w.index = nil
	return errors.Join(err, w.pin.Close(), w.db.Close())
}
