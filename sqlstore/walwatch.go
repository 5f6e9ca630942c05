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

	// mu guards the map against close: a request still reading when the
	// store closes finds it closed, not unmapped.
	mu     sync.RWMutex
	index  *walIndex
	closed bool
}

// watchWAL opens a connection to the database at path through c, reads
// the database once so that SQLite opens its WAL index, and maps the
// index's header. It returns nil where there is no index to map.
func watchWAL(c driver.Connector, path string) (*walWatch, error) {
	ctx := context.Background()
	db := sql.OpenDB(c)
	pin, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	w := &walWatch{db: db, pin: pin}
	var tables int
	if err := pin.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
		w.close()
		return nil, fmt.Errorf("open the WAL index: %w", err)
	}
	// SQLite names the index after the database's file, past any
	// symbolic link to it.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if w.index, err = openWALIndex(path + "-shm"); err != nil || w.index == nil {
		w.close()
		return nil, err
	}
	return w, nil
}

// state returns the database's state, which any commit changes, or false
// when it cannot be told. A nil or closed watch tells none.
func (w *walWatch) state() (walState, bool) {
	if w == nil {
		return walState{}, false
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return walState{}, false
	}
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
	if w.closed {
		return nil
	}
	w.closed = true
	return errors.Join(w.index.close(), w.pin.Close(), w.db.Close())
}
