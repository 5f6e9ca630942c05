package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	practiced "github.com/practiced/practiced"
)

// table describes how one kind of record is stored, so that reading one,
// creating, updating, archiving and unarchiving are written once for
// every kind. Each change is recorded in the change feed in the same
// transaction.
type table[T any] struct {
	name       string // SQL table
	recordType string // singular name in events, e.g. "client"
	kind       string // name in messages, e.g. "Client"
	cols       string // columns after business_id, id first
	scan       func(rowScanner) (T, error)
	values     func(*T) []any // in cols order
	// extraCols and extra are written but never read back (search text).
	extraCols []string
	extra     func(*T) []any
	// load fills what lives in other tables (join ids), for a page.
	load func(ctx context.Context, db queryer, businessID string, recs []T) error
	// save writes what lives in other tables, after the row.
	save func(ctx context.Context, tx *sql.Tx, businessID string, rec *T) error
	// normalize makes lists non-nil before writing and after reading.
	normalize func(*T)
	// stamp gives access to the common fields.
	stamp func(*T) *stamps
}

// stamps are the fields every record has.
type stamps struct {
	ID         *string
	UpdatedAt  *practiced.Time
	ArchivedAt **practiced.Time
}

func (t *table[T]) allCols() []string {
	return append(splitCols(t.cols), t.extraCols...)
}

func (t *table[T]) allValues(rec *T) []any {
	vals := t.values(rec)
	if t.extra != nil {
		vals = append(vals, t.extra(rec)...)
	}
	return vals
}

func (t *table[T]) finish(ctx context.Context, db queryer, businessID string, recs []T) error {
	if t.normalize != nil {
		for i := range recs {
			t.normalize(&recs[i])
		}
	}
	if t.load != nil && len(recs) > 0 {
		return t.load(ctx, db, businessID, recs)
	}
	return nil
}

// get reads one record; lock is appended to the query (see dialect).
func (t *table[T]) get(ctx context.Context, db queryer, businessID, id, lock string) (T, error) {
	row := db.QueryRowContext(ctx, `SELECT `+t.cols+` FROM `+t.name+` WHERE business_id = $1 AND id = $2`+lock, businessID, id)
	rec, err := t.scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, practiced.NotFound(t.kind)
	} else if err != nil {
		return rec, err
	}
	recs := []T{rec}
	err = t.finish(ctx, db, businessID, recs)
	return recs[0], err
}

// list reads a page of records matching q.
func (t *table[T]) list(ctx context.Context, db queryer, businessID string, q *listQuery, p practiced.PageRequest) ([]T, practiced.PageInfo, error) {
	recs, info, err := list(ctx, db, q, p, t.scan)
	if err != nil {
		return nil, info, err
	}
	return recs, info, t.finish(ctx, db, businessID, recs)
}

// query starts a list query on the table, with the common filters.
func (t *table[T]) query(businessID string, f practiced.ListFilter) *listQuery {
	q := newListQuery(businessID, t.cols, t.name, "business_id", "id")
	q.common("", f)
	return q
}

// insert writes a new record and its "created" event inside tx.
func (t *table[T]) insert(ctx context.Context, tx *sql.Tx, businessID string, rec *T) error {
	if t.normalize != nil {
		t.normalize(rec)
	}
	cols := append([]string{"business_id"}, t.allCols()...)
	var a args
	ps := make([]string, len(cols))
	ps[0] = a.add(businessID)
	for i, v := range t.allValues(rec) {
		ps[i+1] = a.add(v)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO `+t.name+` (`+strings.Join(cols, ", ")+`) VALUES (`+strings.Join(ps, ", ")+`)`, a.vals...)
	if err != nil {
		return translate(err)
	}
	if t.save != nil {
		if err := t.save(ctx, tx, businessID, rec); err != nil {
			return translate(err)
		}
	}
	return recordEvent(ctx, tx, businessID, t.recordType, "created", *t.stamp(rec).ID, rec)
}

// write replaces the stored row of rec (and what save writes).
func (t *table[T]) write(ctx context.Context, tx *sql.Tx, businessID string, rec *T) error {
	if t.normalize != nil {
		t.normalize(rec)
	}
	cols := t.allCols()[1:]
	vals := t.allValues(rec)[1:]
	var a args
	a.add(businessID)
	sets := make([]string, len(cols))
	for i, c := range cols {
		sets[i] = c + " = " + a.add(vals[i])
	}
	_, err := tx.ExecContext(ctx, `UPDATE `+t.name+` SET `+strings.Join(sets, ", ")+` WHERE business_id = $1 AND id = `+a.add(*t.stamp(rec).ID), a.vals...)
	if err != nil {
		return translate(err)
	}
	if t.save != nil {
		return translate(t.save(ctx, tx, businessID, rec))
	}
	return nil
}

// update reads a record under lock, lets change alter it, writes it and
// records action ("updated", "archived", …). UpdatedAt becomes now unless
// change set it.
func (t *table[T]) update(ctx context.Context, s *Store, businessID, id, action string, change func(*T) error) (T, error) {
	var rec T
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		rec, err = t.get(ctx, tx, businessID, id, s.dialect.lockRow)
		if err != nil {
			return err
		}
		st := t.stamp(&rec)
		before := *st.UpdatedAt
		if err := change(&rec); err != nil {
			return err
		}
		if *st.UpdatedAt == before {
			*st.UpdatedAt = practiced.Now()
		}
		if err := t.write(ctx, tx, businessID, &rec); err != nil {
			return err
		}
		return recordEvent(ctx, tx, businessID, t.recordType, action, id, rec)
	})
	return rec, err
}

// create inserts a new record in a transaction of its own.
func (t *table[T]) create(ctx context.Context, s *Store, businessID string, rec *T) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return t.insert(ctx, tx, businessID, rec) })
}

// archive sets or clears archived_at, recording "archived" or
// "unarchived". Archiving an archived record, or unarchiving a live one,
// changes nothing and records nothing.
func (t *table[T]) archive(ctx context.Context, s *Store, businessID, id string, archived bool, now practiced.Time) (T, error) {
	var rec T
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		rec, err = t.get(ctx, tx, businessID, id, s.dialect.lockRow)
		if err != nil {
			return err
		}
		st := t.stamp(&rec)
		if (*st.ArchivedAt != nil) == archived {
			return nil
		}
		action := "unarchived"
		*st.ArchivedAt = nil
		if archived {
			action = "archived"
			at := now
			*st.ArchivedAt = &at
		}
		*st.UpdatedAt = now
		if err := t.write(ctx, tx, businessID, &rec); err != nil {
			return err
		}
		return recordEvent(ctx, tx, businessID, t.recordType, action, id, rec)
	})
	return rec, err
}
