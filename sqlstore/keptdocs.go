package sqlstore

import (
	clist "container/list"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	practiced "github.com/practiced/practiced"
)

// keptDocBytes bounds the documents a store keeps (keptDocs): the
// clients of a clinic of some 20,000 fit.
const keptDocBytes = 32 << 20

// keptDocs keeps the stored documents of the client rows a store has
// read, each with the revision it was read at (migration 0029 on
// SQLite, 0034 on PostgreSQL): a revision names one document of its row
// for good, so a kept one is what a read now would return. A page of
// the list of live clients then has the database send only the
// documents it does not keep.
//
// On SQLite a page reads its ids and revisions from an index of their
// own, and then the documents it lacks: the rows of a page of 100
// clients fill some 30 pages of the table, read anew after any commit,
// and each document is copied several times on its way.
//
// On PostgreSQL a round trip costs more than the work it carries, so a
// page is one statement. Its documents are some 124 KB to send, receive
// and copy, where its ids and revisions are some 4 KB, but PostgreSQL
// cannot know which documents the server keeps. What the server tells
// it is the highest revision the page had when it was last read
// (pages): a row with a higher revision has changed since, or is new
// to the page, and comes with its document; a row at or below it comes
// without, and is found among the kept documents, or in the rare case
// it is not (a row that moved into the page, or a document let go) read
// by a second statement. A page read for the first time comes whole and
// keeps nothing, as a walk through the list reads each page once; read
// again, it comes whole once more and its documents are kept.
//
// Once the kept documents' bytes pass max, those not read since they
// were last passed over go first, oldest first ("second chance"): a read
// marks a document instead of moving it in the list, which would touch
// two more entries spread over the heap.
type keptDocs struct {
	max int

	mu    sync.Mutex
	size  int
	rows  map[string]map[string]*keptDoc // by business, then id
	lru   clist.List                     // of *keptDoc, the newest first
	pages map[keptPage]pageSeen          // PostgreSQL's: the pages read
}

// pageSeen is what a PostgreSQL store knows of a page it read: the
// highest revision of its rows when it was last read, and whether their
// documents were kept then.
type pageSeen struct {
	highest int64
	kept    bool
}

// keptPage names a page of a business's list of live clients.
type keptPage struct {
	business string
	page     practiced.PageRequest
}

// keptPages bounds the pages whose highest revision is kept: past it
// they are all let go, and each is read whole once more.
const keptPages = 4096

type keptDoc struct {
	business, id string
	revision     int64
	doc          practiced.Doc
	read         bool // since it was kept, or last passed over
	el           *clist.Element
}

// keptOverhead is what a kept document costs besides its id and its
// bytes, about.
const keptOverhead = 160

func newKeptDocs(max int) *keptDocs {
	return &keptDocs{max: max, rows: map[string]map[string]*keptDoc{}, pages: map[keptPage]pageSeen{}}
}

func (d *keptDoc) bytes() int { return len(d.id) + len(d.doc) + keptOverhead }

// get sets docs[i] to the kept document of the row ids[i] at
// revisions[i] for each it keeps, and returns the indexes of the others.
// An entry of docs already set is left as it is.
func (k *keptDocs) get(businessID string, ids []string, revisions []int64, docs []practiced.Doc) (missing []int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	rows := k.rows[businessID]
	for i, id := range ids {
		if docs[i] != "" {
			continue
		}
		d, ok := rows[id]
		if !ok || d.revision != revisions[i] {
			missing = append(missing, i)
			continue
		}
		docs[i], d.read = d.doc, true
	}
	return missing
}

// page returns what is known of page p of the business, and whether
// it was read.
func (k *keptDocs) page(businessID string, p practiced.PageRequest) (pageSeen, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	seen, ok := k.pages[keptPage{businessID, p}]
	return seen, ok
}

// saw notes that page p of the business was read whole, as seen says.
func (k *keptDocs) saw(businessID string, p practiced.PageRequest, seen pageSeen) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.pages) >= keptPages {
		clear(k.pages)
	}
	p.After, p.Before = strings.Clone(p.After), strings.Clone(p.Before)
	k.pages[keptPage{strings.Clone(businessID), p}] = seen
}

// put keeps doc as the document of the row id at revision, in place of
// one kept at another revision: most often an older one, but a row
// deleted and made again can have a lower one than it had.
func (k *keptDocs) put(businessID, id string, revision int64, doc practiced.Doc) {
	if len(id)+len(doc)+keptOverhead > k.max {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if old, ok := k.rows[businessID][id]; ok {
		if old.revision == revision {
			old.read = true
			return
		}
		k.drop(old)
	}
	// Its own copies: doc and id may be parts of the strings a statement
	// read, which they would keep whole.
	d := &keptDoc{business: strings.Clone(businessID), id: strings.Clone(id), revision: revision, doc: practiced.Doc(strings.Clone(string(doc)))}
	rows := k.rows[businessID]
	if rows == nil {
		rows = map[string]*keptDoc{}
		k.rows[businessID] = rows
	}
	d.el = k.lru.PushFront(d)
	rows[id] = d
	k.size += d.bytes()
	for k.size > k.max {
		last := k.lru.Back().Value.(*keptDoc)
		if last.read {
			last.read = false
			k.lru.MoveToFront(last.el)
			continue
		}
		k.drop(last)
	}
}

// drop lets go of the kept document d. k.mu must be held.
func (k *keptDocs) drop(d *keptDoc) {
	k.lru.Remove(d.el)
	k.size -= d.bytes()
	rows := k.rows[d.business]
	delete(rows, d.id)
	if len(rows) == 0 {
		delete(k.rows, d.business)
	}
}

// keptBetween, when a test sets it, runs between the two statements of
// readKeptDocs, as a write by another connection may.
var keptBetween func()

// keptSent, when a test sets it, is told how many documents the first
// statement of each readKeptDocs read.
var keptSent func(n int)

// readKeptDocs reads page p of the live clients of q's business as
// docPage's readers do, the documents from kept where it keeps them at
// the rows' revisions. One statement reads the page's ids and revisions
// (and the number, when asked for), on PostgreSQL with the documents of
// the rows changed since the page was last read (keptDocs); a second,
// only when documents are still lacking, reads them and their
// revisions, by id or through the page's range, and every document read
// is kept. When a row changed in between, so that the second statement
// finds another revision or no row, ok is false and nothing is
// answered: the caller reads the page anew, as it does when an id or a
// document cannot be read this way. On PostgreSQL a page read for the
// first time is read as ever and only noted: its documents are kept
// from its second read on.
func readKeptDocs(ctx context.Context, db queryer, d dialect, kept *keptDocs, q *listQuery, p practiced.PageRequest, number string) (docs []practiced.Doc, pl pagePlan, at int64, ok bool, err error) {
	business := q.args.vals[0].(string)
	var ids []string
	var revisions []int64
	if d.joinDocs {
		ids, revisions, pl, at, ok, err = readJoinedRevisions(ctx, db, q, p, number)
		docs = make([]practiced.Doc, len(ids))
	} else if seen, read := kept.page(business, p); !read {
		// A page read for the first time is read as ever, and noted.
		if docs, pl, at, err = readDocRows(ctx, db, q, p, "client", number); err != nil {
			return nil, pl, -1, false, err
		}
		if keptSent != nil {
			keptSent(len(docs))
		}
		if len(docs) > 0 {
			kept.saw(business, p, pageSeen{})
		}
		return docs, pl, at, true, nil
	} else {
		ids, revisions, docs, pl, at, ok, err = readRevisionRows(ctx, db, q, p, seen, number)
	}
	if err != nil || !ok {
		return nil, pl, -1, false, err
	}
	var sent []int // the documents the statement read
	for i, doc := range docs {
		if doc != "" {
			sent = append(sent, i)
		}
	}
	if keptSent != nil {
		keptSent(len(sent))
	}
	lacking := kept.get(business, ids, revisions, docs)
	if len(lacking) > 0 {
		if keptBetween != nil {
			keptBetween()
		}
		if ok, err := readLacking(ctx, db, d, q, p, business, ids, revisions, docs, lacking); err != nil || !ok {
			return nil, pl, -1, false, err
		}
	}
	for _, read := range [][]int{sent, lacking} {
		for _, i := range read {
			kept.put(business, ids[i], revisions[i], docs[i])
		}
	}
	if !d.joinDocs && len(ids) > 0 {
		// A page that lacked most of its documents, let go to make room
		// for others, is read whole next time, in one statement, and
		// kept again; otherwise only its changes are sent.
		kept.saw(business, p, pageSeen{highest: slices.Max(revisions), kept: len(lacking)*2 <= len(ids)})
	}
	return docs, pl, at, true, nil
}

// readLacking reads the documents of the rows lacking names (indexes of
// ids) into docs, at the revisions the page read. ok is false when a
// row has another revision now, or no document.
func readLacking(ctx context.Context, db queryer, d dialect, q *listQuery, p practiced.PageRequest, business string, ids []string, revisions []int64, docs []practiced.Doc, lacking []int) (ok bool, err error) {
	type wanted struct {
		at       int
		revision int64
	}
	missing := make(map[string]wanted, len(lacking))
	for _, i := range lacking {
		missing[ids[i]] = wanted{i, revisions[i]}
	}
	// A page that lacks most of its documents reads them as a page is
	// read, through its range of the list; a few, by id.
	var lack []string
	if len(lacking)*2 <= len(ids) {
		lack = slices.Collect(maps.Keys(missing))
	}
	found := func(id string, revision int64, doc string) bool {
		w, ok := missing[id]
		if !ok {
			return true // kept already, or not in the page (the range reads one more row)
		}
		if revision != w.revision {
			return false
		}
		docs[w.at] = practiced.Doc(doc)
		delete(missing, id)
		return true
	}
	read := readLackingRows
	if d.joinDocs {
		read = readLackingJoined
	}
	if ok, err := read(ctx, db, q, p, business, lack, found); err != nil {
		return false, fmt.Errorf("kept documents: %w", err)
	} else if !ok {
		return false, nil
	}
	return len(missing) == 0, nil
}

// readJoinedRevisions reads the ids and revisions of page p, and the
// number, as readJoinedDocs reads documents: in one row that joins them
// (SQLite), from the index of live clients. ok is false when an id
// holds a tab or a line feed, which the joined row cannot carry.
func readJoinedRevisions(ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, number string) (ids []string, revisions []int64, pl pagePlan, at int64, ok bool, err error) {
	pl = q.plan("id || char(9) || revision AS kept", p)
	outer := "SELECT group_concat(kept, char(10)), COUNT(*)"
	var joined sql.NullString
	var rows int64
	at = -1
	dest := []any{&joined, &rows}
	if number != "" {
		outer += ", (" + number + ")"
		dest = append(dest, &at)
	}
	if err := db.QueryRowContext(ctx, outer+" FROM ("+pl.sql+") page", pl.args...).Scan(dest...); err != nil {
		return nil, nil, pl, -1, false, err
	}
	if !joined.Valid {
		return nil, nil, pl, at, rows == 0, nil
	}
	lines := strings.Split(joined.String, "\n")
	if int64(len(lines)) != rows {
		return nil, nil, pl, -1, false, nil // an id holds a line feed
	}
	ids = make([]string, len(lines))
	revisions = make([]int64, len(lines))
	for i, line := range lines {
		id, rev, _ := strings.Cut(line, "\t")
		revision, err := strconv.ParseInt(rev, 10, 64)
		if err != nil {
			return nil, nil, pl, -1, false, nil // an id holds a tab
		}
		ids[i], revisions[i] = id, revision
	}
	return ids, revisions, pl, at, true, nil
}

// readRevisionRows reads page p a row each (PostgreSQL), a page read
// before as seen says: its ids and revisions, the number riding each
// row as readDocRows has it, and the documents of the rows above the
// page's highest revision when it was last read and kept, or all of
// them when it was not kept. ok is false when a row it reads a document
// for has none.
func readRevisionRows(ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, seen pageSeen, number string) (ids []string, revisions []int64, docs []practiced.Doc, pl pagePlan, at int64, ok bool, err error) {
	// The page's statement takes the revision as an argument of its own,
	// so that it is prepared once; the list's own arguments stay as
	// they are, for finishPage.
	withSince := *q
	withSince.args.vals = slices.Clone(q.args.vals)
	cols := "id, revision, doc"
	if seen.kept {
		cols = "id, revision, CASE WHEN revision > " + withSince.args.add(seen.highest) + " THEN doc END"
	}
	var id string
	var revision int64
	var doc sql.NullString
	at = -1
	dest := []any{&id, &revision, &doc}
	if number != "" {
		cols += ", (" + number + ")"
		dest = append(dest, &at)
	}
	pl = withSince.plan(cols, p)
	rows, err := db.QueryContext(ctx, pl.sql, pl.args...)
	if err != nil {
		return nil, nil, nil, pl, -1, false, err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, nil, nil, pl, -1, false, err
		}
		if !doc.Valid && (!seen.kept || revision > seen.highest) {
			return nil, nil, nil, pl, -1, false, rows.Err() // a row without a document: read as ever
		}
		ids, revisions, docs = append(ids, id), append(revisions, revision), append(docs, practiced.Doc(doc.String))
	}
	return ids, revisions, docs, pl, at, true, rows.Err()
}

// readLackingJoined reads the documents and revisions of the rows ids
// names, or with no ids those of page p's range, in one row that joins
// them (SQLite), and hands each to found until it returns false. ok is
// false when found did, or when a row has no document or one that holds
// a line feed.
func readLackingJoined(ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, business string, ids []string, found func(id string, revision int64, doc string) bool) (ok bool, err error) {
	var read sql.NullString
	var n int
	const row = "id || char(9) || revision || char(9) || doc"
	if ids == nil {
		docsPlan := q.plan(row+" AS kept", p)
		err = db.QueryRowContext(ctx, "SELECT group_concat(kept, char(10)), COUNT(*) FROM ("+docsPlan.sql+") page",
			docsPlan.args...).Scan(&read, &n)
	} else {
		var list []byte
		if list, err = json.Marshal(ids); err == nil {
			err = db.QueryRowContext(ctx, `SELECT group_concat(`+row+`, char(10)), COUNT(*) FROM clients
		WHERE business_id = $1 AND id IN (SELECT value FROM json_each($2))`, business, string(list)).Scan(&read, &n)
		}
	}
	if err != nil {
		return false, err
	}
	if !read.Valid || strings.Count(read.String, "\n")+1 != n {
		return false, nil // a document is missing or holds a line feed
	}
	for line := range strings.SplitSeq(read.String, "\n") {
		id, rest, _ := strings.Cut(line, "\t")
		rev, doc, _ := strings.Cut(rest, "\t")
		revision, err := strconv.ParseInt(rev, 10, 64)
		if err != nil || !found(id, revision, doc) {
			return false, nil
		}
	}
	return true, nil
}

// readLackingRows is readLackingJoined a row each (PostgreSQL).
func readLackingRows(ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, business string, ids []string, found func(id string, revision int64, doc string) bool) (ok bool, err error) {
	var rows *sql.Rows
	if ids == nil {
		docsPlan := q.plan("id, revision, doc", p)
		rows, err = db.QueryContext(ctx, docsPlan.sql, docsPlan.args...)
	} else {
		rows, err = db.QueryContext(ctx, `SELECT id, revision, doc FROM clients WHERE business_id = $1 AND id = ANY($2)`, business, ids)
	}
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var id string
	var revision int64
	var doc sql.NullString
	for rows.Next() {
		if err := rows.Scan(&id, &revision, &doc); err != nil {
			return false, err
		}
		if !doc.Valid || !found(id, revision, doc.String) {
			return false, rows.Err()
		}
	}
	return true, rows.Err()
}
