package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	practiced "github.com/practiced/practiced"
)

// table describes how one kind of record is stored, so that reading one,
// creating, updating, archiving and unarchiving are written once for
// every kind. Each change is recorded in the change feed in the same
// transaction.
type table[T any] struct {
	kind practiced.Kind // its Plural is the SQL table
	cols string         // columns after business_id a write sets, id first
	// readCols are the columns scan reads, when they are not cols: "doc"
	// for a table whose stored document is the whole record (clients).
	readCols string
	scan     func(rowScanner) (T, error)
	values   func(*T) []any // in cols order
	// extraCols and extra are written but never read back (search text).
	extraCols []string
	extra     func(*T) []any
	// joins are the id lists kept in join tables, read with the row and
	// written after it.
	joins []join[T]
	// load fills what else lives in other tables, for a page.
	load func(ctx context.Context, db queryer, businessID string, recs []T) error
	// normalize makes lists non-nil before writing and after reading.
	normalize func(*T)
	// stamp gives access to the common fields.
	stamp func(*T) *stamps
	// docs says the table keeps each record's API document in its doc
	// column (see doc.go), written with every write of the row.
	docs bool
	// revised says that each row also has a revision, which triggers
	// move with every change of its document (migration 0029 on SQLite,
	// 0034 on PostgreSQL), so that a store can keep the documents it
	// read (keptdocs.go).
	revised bool
	// insertsCounted says that on SQLite no trigger adds one to the
	// table's list version for a row inserted: insertAll does, once a
	// transaction (countInserts, migration 0033), and loads once
	// (seedRows). insert refuses such a table.
	insertsCounted bool
	// domain returns the domain event actions of a change from before
	// (nil for a new record) to after, such as practiced.FormEvents.
	domain func(before, after *T) []string

	// colsOnce makes written, the columns allCols returns, the INSERT of
	// one row (insertText) and the UPDATE of a row (updateText), once.
	colsOnce  sync.Once
	written   []string
	insertOne [2]string // by placeholder: "$N", then "?"
	updateOne string
}

// stamps are the fields every record has.
type stamps struct {
	ID         *string
	UpdatedAt  *practiced.Time
	ArchivedAt **practiced.Time
}

// read returns the columns scan reads.
func (t *table[T]) read() string {
	if t.readCols != "" {
		return t.readCols
	}
	return t.cols
}

// allCols are the columns a write sets, in allValues order, made once:
// a caller may append to them but not change them.
func (t *table[T]) allCols() []string {
	t.made()
	return t.written[:len(t.written):len(t.written)]
}

// made makes what colsOnce guards.
func (t *table[T]) made() {
	t.colsOnce.Do(func() {
		t.written = append(splitCols(t.cols), t.extraCols...)
		if t.docs {
			t.written = append(t.written, "doc")
		}
		for i, positional := range []bool{false, true} {
			t.insertOne[i] = t.insertRows(1, positional)
		}
		sets := make([]string, len(t.written)-1)
		for i, c := range t.written[1:] {
			sets[i] = c + " = $" + strconv.Itoa(i+2)
		}
		t.updateOne = `UPDATE ` + t.kind.Plural + ` SET ` + strings.Join(sets, ", ") +
			` WHERE business_id = $1 AND id = $` + strconv.Itoa(len(t.written)+1)
	})
}

// updateText is the UPDATE of a row's written columns but its id, made
// once: its values are the business, the values after the id, then the
// id (write).
func (t *table[T]) updateText() string {
	t.made()
	return t.updateOne
}

// insertText is the INSERT of n rows of business_id and the written
// columns, placeholders in the order of the rows' values; that of one
// row, the write of nearly every record, is made once.
func (t *table[T]) insertText(n int, positional bool) string {
	t.made()
	if n != 1 {
		return t.insertRows(n, positional)
	}
	if positional {
		return t.insertOne[1]
	}
	return t.insertOne[0]
}

func (t *table[T]) insertRows(n int, positional bool) string {
	return `INSERT INTO ` + t.kind.Plural + ` (business_id, ` + strings.Join(t.written, ", ") + `) VALUES ` +
		valuesText(n, 1+len(t.written), positional)
}

// allValues are the values a write sets, in allCols order. rec must be
// tidy, as it is read back.
func (t *table[T]) allValues(rec *T) []any {
	return t.appendValues(make([]any, 0, len(t.allCols())), rec)
}

// appendValues appends allValues to dst, which a statement's values can
// be made in from the start.
func (t *table[T]) appendValues(dst []any, rec *T) []any {
	dst = append(dst, t.values(rec)...)
	if t.extra != nil {
		dst = append(dst, t.extra(rec)...)
	}
	if t.docs {
		dst = append(dst, docText(rec))
	}
	return dst
}

// tidy makes rec's lists non-nil and its join ids sorted, before writing
// and after reading.
func (t *table[T]) tidy(rec *T) {
	t.sortJoins(rec)
	if t.normalize != nil {
		t.normalize(rec)
	}
}

// finish completes records read from their rows: their join lists come
// from loadJoins, already sorted, so only normalize is left to run.
func (t *table[T]) finish(ctx context.Context, db queryer, businessID string, recs []T) error {
	if t.normalize != nil {
		for i := range recs {
			t.normalize(&recs[i])
		}
	}
	if len(recs) == 0 {
		return nil
	}
	if err := t.loadJoins(ctx, db, businessID, recs); err != nil {
		return err
	}
	if t.load != nil {
		return t.load(ctx, db, businessID, recs)
	}
	return nil
}

// get reads one record; lock is appended to the query (see dialect).
func (t *table[T]) get(ctx context.Context, db queryer, businessID, id, lock string) (T, error) {
	row := db.QueryRowContext(ctx, `SELECT `+t.read()+` FROM `+t.kind.Plural+` WHERE business_id = $1 AND id = $2`+lock, businessID, id)
	rec, err := t.scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, practiced.NotFound(t.kind.Name)
	} else if err != nil {
		return rec, err
	}
	recs := []T{rec}
	err = t.finish(ctx, db, businessID, recs)
	return recs[0], err
}

// id returns the id of rec.
func (t *table[T]) id(rec *T) string { return *t.stamp(rec).ID }

// list reads a page of records matching q.
func (t *table[T]) list(ctx context.Context, db queryer, businessID string, q *listQuery, p practiced.PageRequest) ([]T, practiced.PageInfo, error) {
	recs, info, err := list(ctx, db, q, p, t.scan, t.id)
	if err != nil {
		return nil, info, err
	}
	return recs, info, t.finish(ctx, db, businessID, recs)
}

// listDocs reads a page of the stored documents of the records matching
// q, a query of list's, as docPage does.
func (t *table[T]) listDocs(ctx context.Context, db queryer, d dialect, q *listQuery, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	docs, info, _, err := t.listDocsAt(ctx, db, d, q, p, "")
	return docs, info, err
}

// listDocsAt is listDocs with the integer that the SQL number gives,
// read by the page's own statement (see docPage).
func (t *table[T]) listDocsAt(ctx context.Context, db queryer, d dialect, q *listQuery, p practiced.PageRequest, number string) ([]practiced.Doc, practiced.PageInfo, int64, error) {
	if !t.docs {
		return nil, practiced.PageInfo{}, -1, fmt.Errorf("%s: no stored documents", t.kind.Plural)
	}
	return docPage(ctx, db, d, q, p, t.kind.Type, number)
}

// query starts a list query on the table, with the common filters.
func (t *table[T]) query(businessID string, f practiced.ListFilter) *listQuery {
	q := newListQuery(businessID, t.read(), t.kind.Plural, "business_id", "id")
	q.common("", f)
	return q
}

// insert writes a new record and its "created" event inside tx.
func (t *table[T]) insert(ctx context.Context, tx *sql.Tx, businessID string, rec *T) error {
	if t.insertsCounted {
		return fmt.Errorf("insert: %s are inserted by insertAll, which counts them", t.kind.Plural)
	}
	t.tidy(rec)
	vals := t.appendValues(append(make([]any, 0, 1+len(t.allCols())), businessID), rec)
	_, err := tx.ExecContext(ctx, t.insertText(1, singleWriterTx(tx)), vals...)
	if err != nil {
		return translate(err)
	}
	if err := t.saveJoins(ctx, tx, businessID, rec); err != nil {
		return translate(err)
	}
	return t.recordChange(ctx, tx, businessID, "created", nil, rec, t.writtenDoc(rec, vals[1:]))
}

// writtenDoc returns the document of rec among vals, the allValues just
// written for it: the stored document when the table keeps one, else
// rec encoded as one.
func (t *table[T]) writtenDoc(rec *T, vals []any) practiced.Doc {
	if t.docs {
		return practiced.Doc(vals[len(vals)-1].(string))
	}
	return practiced.Doc(docText(rec))
}

// insertAll writes new records and their "created" events inside tx, as
// insert writes each, in multi-row statements: the records of a series
// in one statement, their events in another, and counts them in their
// list's version where the table's are counted (insertsCounted). The
// table must keep no join rows and have no domain events (busy times).
func (t *table[T]) insertAll(ctx context.Context, tx *sql.Tx, businessID string, recs []T) error {
	if len(t.joins) > 0 || t.domain != nil {
		return fmt.Errorf("insertAll: %s keep join rows or domain events", t.kind.Plural)
	}
	ncols := 1 + len(t.allCols())
	per := maxParams / ncols
	positional := singleWriterTx(tx)
	docs := make([]practiced.Doc, len(recs))
	for start := 0; start < len(recs); start += per {
		chunk := recs[start:min(start+per, len(recs))]
		vals := make([]any, 0, len(chunk)*ncols)
		for i := range chunk {
			t.tidy(&chunk[i])
			vals = t.appendValues(append(vals, businessID), &chunk[i])
			docs[start+i] = t.writtenDoc(&chunk[i], vals)
		}
		_, err := tx.ExecContext(ctx, t.insertText(len(chunk), positional), vals...)
		if err != nil {
			return translate(err)
		}
	}
	events := make([]newEvent, len(recs))
	for i := range recs {
		events[i] = newEvent{recordType: t.kind.Type, action: "created", recordID: *t.stamp(&recs[i]).ID, data: docs[i]}
	}
	if err := recordEvents(ctx, tx, businessID, events); err != nil {
		return err
	}
	if t.insertsCounted {
		return countInserts(ctx, tx, businessID, t.kind.Plural)
	}
	return nil
}

// recordChange writes the events of a change of a record from before
// (nil for a new one) to after: "<record_type>.<action>", then each of
// its domain events, all with doc, the document of after that its write
// returned, as data.
func (t *table[T]) recordChange(ctx context.Context, db queryer, businessID, action string, before, after *T, doc practiced.Doc) error {
	id := *t.stamp(after).ID
	if err := recordEvent(ctx, db, businessID, t.kind.Type, action, id, doc); err != nil {
		return err
	}
	if t.domain == nil {
		return nil
	}
	for _, a := range t.domain(before, after) {
		if err := recordEvent(ctx, db, businessID, t.kind.Type, a, id, doc); err != nil {
			return err
		}
	}
	return nil
}

// write replaces the stored row of rec (and its join ids), and returns
// the document of rec as written, for its events.
func (t *table[T]) write(ctx context.Context, tx *sql.Tx, businessID string, rec *T) (practiced.Doc, error) {
	t.tidy(rec)
	// The business, the values after the id (the first), then the id.
	vals := t.appendValues(append(make([]any, 0, 2+len(t.allCols())), businessID), rec)
	vals = append(append(vals[:1], vals[2:]...), *t.stamp(rec).ID)
	_, err := tx.ExecContext(ctx, t.updateText(), vals...)
	if err != nil {
		return "", translate(err)
	}
	if err := t.saveJoins(ctx, tx, businessID, rec); err != nil {
		return "", translate(err)
	}
	return t.writtenDoc(rec, vals[:len(vals)-1]), nil
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
		before := rec
		st := t.stamp(&rec)
		if err := change(&rec); err != nil {
			return err
		}
		if *st.UpdatedAt == *t.stamp(&before).UpdatedAt {
			*st.UpdatedAt = practiced.Now()
		}
		doc, err := t.write(ctx, tx, businessID, &rec)
		if err != nil {
			return err
		}
		return t.recordChange(ctx, tx, businessID, action, &before, &rec, doc)
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
		before := rec
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
		doc, err := t.write(ctx, tx, businessID, &rec)
		if err != nil {
			return err
		}
		return t.recordChange(ctx, tx, businessID, action, &before, &rec, doc)
	})
	return rec, err
}
