package sqlstore

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	practiced "github.com/practiced/practiced"
)

// translate turns driver errors that callers can act on into practiced
// errors: a foreign key that names nothing is EINVALID, a duplicate key
// is ECONFLICT. Anything else is returned as it is (and so is internal).
func translate(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return practiced.Errorf(practiced.EINVALID, "A referenced record does not exist.")
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return practiced.Errorf(practiced.ECONFLICT, "The record already exists.")
		}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23503": // foreign_key_violation
			return practiced.Errorf(practiced.EINVALID, "A referenced record does not exist.")
		case "23505": // unique_violation
			return practiced.Errorf(practiced.ECONFLICT, "The record already exists.")
		}
	}
	return err
}
