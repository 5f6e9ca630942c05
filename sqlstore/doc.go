package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	practiced "github.com/practiced/practiced"
)

// A table with docs set keeps, beside each record's columns, the record's
// JSON document as the API answers it (practiced.MarshalDoc) in its doc
// column, so that a list is read and answered without decoding the
// columns and encoding the record again. The columns stay the truth that
// filters, rules and the typed reads use; the document is written from
// the same record in the same statement as the columns (table.insert,
// table.write, Seed), so the two cannot drift apart. A location's
// document also holds ids that other records' join rows give it, so
// whoever changes those rewrites it (touchLocations). Migration 0013
// adds the column, and fillDocs gives a document to the rows that have
// none.

// docText returns the document of rec as a column value.
func docText(rec any) string {
	doc, err := practiced.MarshalDocText(rec)
	if err != nil {
		panic(fmt.Sprintf("sqlstore: encode %T: %v", rec, err))
	}
	return doc
}

// docIDPrefix begins every stored document: the records' types encode
// their id first.
const docIDPrefix = `{"id":"`

// docID returns the id a stored document begins with, and whether it
// begins with one that JSON writes as it is: an id with a character
// JSON escapes (a quote, a backslash, a control character, U+2028)
// cannot be read back from its document this way, so it is none.
func docID(doc string) (string, bool) {
	rest, ok := strings.CutPrefix(doc, docIDPrefix)
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, `"`)
	if !ok || id == "" || strings.Contains(id, `\`) {
		return "", false
	}
	return id, true
}

// docPage reads page p of the stored documents of the rows q matches
// and, when number is not empty, the integer that SQL gives, read by
// the page's own statement and so in the snapshot of its rows. It is -1
// when finishPage had to probe the cursor's other side with a statement
// of its own after it, and when the statement answered no row to carry
// it (readDocRows, on an empty page). typ names the records in errors.
func docPage(ctx context.Context, db queryer, d dialect, q *listQuery, p practiced.PageRequest, typ, number string) ([]practiced.Doc, practiced.PageInfo, int64, error) {
	var docs []practiced.Doc
	var pl pagePlan
	var at int64
	kept := false
	var err error
	if q.kept != nil {
		if docs, pl, at, kept, err = readKeptDocs(ctx, db, d, q.kept, q, p, number); err != nil {
			return nil, practiced.PageInfo{}, -1, fmt.Errorf("list: %w", err)
		}
	}
	if !kept {
		read := readDocRows
		if d.joinDocs {
			read = readJoinedDocs
		}
		if docs, pl, at, err = read(ctx, db, q, p, typ, number); err != nil {
			return nil, practiced.PageInfo{}, -1, fmt.Errorf("list: %w", err)
		}
	}
	for _, doc := range docs {
		if _, ok := docID(string(doc)); !ok {
			return nil, practiced.PageInfo{}, -1, fmt.Errorf("list: a stored %s document does not begin with its id", typ)
		}
	}
	if d.joinDocs {
		sortDocs(docs, pl.order == "DESC")
	}
	docs, info, probed, err := finishPage(ctx, db, q, pl, docs, func(d *practiced.Doc) string {
		id, _ := docID(string(*d))
		return id
	})
	if probed || err != nil {
		at = -1
	}
	return docs, info, at, err
}

// readDocRows reads a page of documents a row each, the number, when
// asked for, riding each row as a last column (see docPage).
func readDocRows(ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, typ, number string) ([]practiced.Doc, pagePlan, int64, error) {
	cols := "doc"
	// A document is scanned into a string: database/sql hands over the
	// string the driver made, so the page holds the driver's one copy
	// of each document and no other.
	var doc sql.NullString
	at := int64(-1)
	dest := []any{&doc} // the same for every row, so that no row allocates its own
	if number != "" {
		cols += ", (" + number + ")"
		dest = append(dest, &at)
	}
	pl := q.plan(cols, p)
	rows, err := db.QueryContext(ctx, pl.sql, pl.args...)
	if err != nil {
		return nil, pl, -1, err
	}
	defer rows.Close()
	var docs []practiced.Doc
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, pl, -1, err
		}
		if !doc.Valid {
			return nil, pl, -1, fmt.Errorf("a %s has no stored document", typ)
		}
		docs = append(docs, practiced.Doc(doc.String))
	}
	return docs, pl, at, rows.Err()
}

// readJoinedDocs reads a page of documents with a statement that
// answers one row: the page's documents joined by line feeds, which a
// stored document never holds (it is compact JSON, which writes a line
// feed in a string as \n), how many rows the page read and how many of
// them have a document, and the number when asked for, so that an
// empty page has its number too. Each document is a part of the one
// string. group_concat joins the rows in no order it states, so
// docPage sorts them (sortDocs).
func readJoinedDocs(ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, typ, number string) ([]practiced.Doc, pagePlan, int64, error) {
	pl := q.plan("doc", p)
	outer := "SELECT group_concat(doc, char(10)), COUNT(*), COUNT(doc)"
	var joined sql.NullString
	var rows, withDoc int64
	at := int64(-1)
	dest := []any{&joined, &rows, &withDoc}
	if number != "" {
		outer += ", (" + number + ")"
		dest = append(dest, &at)
	}
	if err := db.QueryRowContext(ctx, outer+" FROM ("+pl.sql+") page", pl.args...).Scan(dest...); err != nil {
		return nil, pl, -1, err
	}
	if withDoc != rows {
		return nil, pl, -1, fmt.Errorf("a %s has no stored document", typ)
	}
	if joined.Valid && int64(strings.Count(joined.String, "\n")+1) != rows {
		return nil, pl, -1, fmt.Errorf("a stored %s document holds a line feed", typ)
	}
	docs := make([]practiced.Doc, 0, rows)
	for rest, more := joined.String, joined.Valid; more; {
		var doc string
		doc, rest, more = strings.Cut(rest, "\n")
		docs = append(docs, practiced.Doc(doc))
	}
	if joinedOrder != nil {
		joinedOrder(docs)
	}
	return docs, pl, at, nil
}

// joinedOrder, when a test sets it, changes the order of each joined
// page's documents before docPage sorts them, as group_concat may.
var joinedOrder func([]practiced.Doc)

// sortDocs puts documents in order of their ids, compared byte by byte,
// as SQLite compares ids; descending when desc.
func sortDocs(docs []practiced.Doc, desc bool) {
	cmp := func(a, b practiced.Doc) int {
		ia, _ := docID(string(a))
		ib, _ := docID(string(b))
		if desc {
			return strings.Compare(ib, ia)
		}
		return strings.Compare(ia, ib)
	}
	if !slices.IsSortedFunc(docs, cmp) {
		slices.SortFunc(docs, cmp)
	}
}

// rewriteDocs writes the documents of the records ids name anew, from
// their columns and join rows, inside tx.
func (t *table[T]) rewriteDocs(ctx context.Context, tx *sql.Tx, businessID string, ids []string) error {
	for _, id := range sortedIDs(ids) {
		if _, err := t.rewriteDoc(ctx, tx, businessID, id); err != nil {
			return err
		}
	}
	return nil
}

// rewriteDoc writes the document of the record id anew, from its columns
// and join rows, inside tx, and returns it.
func (t *table[T]) rewriteDoc(ctx context.Context, tx *sql.Tx, businessID, id string) (practiced.Doc, error) {
	rec, err := t.get(ctx, tx, businessID, id, "")
	if err != nil {
		return "", err
	}
	doc := docText(&rec)
	if _, err := tx.ExecContext(ctx, `UPDATE `+t.kind.Plural+` SET doc = $1 WHERE business_id = $2 AND id = $3`,
		doc, businessID, id); err != nil {
		return "", fmt.Errorf("%s: %w", t.kind.Plural, err)
	}
	return practiced.Doc(doc), nil
}

// docFiller gives the rows of one table without a document theirs.
type docFiller struct {
	table string
	fill  func(ctx context.Context, tx *sql.Tx, businessID string, ids []string) error
}

func filler[T any](t *table[T]) docFiller {
	return docFiller{table: t.kind.Plural, fill: t.rewriteDocs}
}

// docTables are the tables that keep documents, but for clients, whose
// document is the whole record since migration 0030: Migrate fills theirs
// from their columns (clientsByColumns) before that migration drops them.
func docTables() []docFiller {
	out := []docFiller{filler(contacts), filler(locations), filler(practitioners),
		filler(services), filler(cases), filler(clientPackages), filler(busyTimes), filler(formTemplates)}
	for _, k := range practiced.NamedKinds {
		out = append(out, filler(namedTables[k.Prefix]))
	}
	return out
}

// fillBatch is how many rows fillDocs gives documents in one transaction.
const fillBatch = 500

// fillDocs gives every row of tables without a document its document,
// in batches of fillBatch rows, each in a transaction of its own. It fills
// the rows that existed before migration 0013 added the column; on a
// filled database it finds nothing to do. It may be stopped and run
// again.
func (s *Store) fillDocs(ctx context.Context, tables []docFiller) error {
	for _, f := range tables {
		for {
			n, err := s.fillDocBatch(ctx, f)
			if err != nil {
				return fmt.Errorf("fill documents of %s: %w", f.table, err)
			}
			if n < fillBatch {
				break
			}
		}
	}
	return nil
}

func (s *Store) fillDocBatch(ctx context.Context, f docFiller) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n = 0 // it may run more than once
		rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT business_id, id FROM %s WHERE doc IS NULL ORDER BY business_id, id LIMIT %d`,
			f.table, fillBatch))
		if err != nil {
			return err
		}
		byBusiness := map[string][]string{}
		var order []string
		for rows.Next() {
			var biz, id string
			if err := rows.Scan(&biz, &id); err != nil {
				rows.Close()
				return err
			}
			if byBusiness[biz] == nil {
				order = append(order, biz)
			}
			byBusiness[biz] = append(byBusiness[biz], id)
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, biz := range order {
			if err := f.fill(ctx, tx, biz, byBusiness[biz]); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}
