package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
)

// walWatch tells when a SQLite database in WAL mode has not changed: it
// holds the map of the database's WAL index header (walIndex) and a
// connection of its own that keeps the index open, so that SQLite keeps
// the file that is mapped for as long as the map is held.
type walWatch struct {
	index *walIndex
	db    *sql.DB
	pin   *sql.Conn
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
	if w.index, err = openWALIndex(path + "-shm"); err != nil || w.index == nil {
		w.close()
		return nil, err
	}
	return w, nil
}

// state returns the database's state, which any commit changes, or false
// when it cannot be told. A nil watch tells none.
func (w *walWatch) state() (walState, bool) {
	if w == nil {
		return walState{}, false
	}
	return w.index.state()
}

// close unmaps the header, then closes the connection that kept it.
func (w *walWatch) close() error {
	if w == nil {
		return nil
	}
	return errors.Join(w.index.close(), w.pin.Close(), w.db.Close())
}
