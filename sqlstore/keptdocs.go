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

// keptDocBytes bounds the documents a SQLite store keeps (keptDocs): the
// clients of a clinic of some 20,000 fit.
const keptDocBytes = 32 << 20

// keptDocs keeps the stored documents of the client rows a SQLite store
// has read, each with the revision it was read at (migration 0029). A
// page of the list of live clients then reads only its rows' ids and
// revisions, from an index, and the documents of the rows whose
// revision it keeps: a revision names one document of its row for good,
// so a kept one is what a read now would return. Reading the documents
// from SQLite costs far more: the rows of a page of 100 clients fill
// some 30 pages of the table, read anew after any commit, and each
// document is copied several times on its way.
// Once the kept documents' bytes pass max, those not read since they
// were last passed over go first, oldest first ("second chance"): a read
// marks a document instead of moving it in the list, which would touch
// two more entries spread over the heap.
type keptDocs struct {
	max int

	mu   sync.Mutex
	size int
	rows map[string]map[string]*keptDoc // by business, then id
	lru  clist.List                     // of *keptDoc, the newest first
}

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
	return &keptDocs{max: max, rows: map[string]map[string]*keptDoc{}}
}

func (d *keptDoc) bytes() int { return len(d.id) + len(d.doc) + keptOverhead }

// get sets docs[i] to the kept document of the row ids[i] at
// revisions[i] for each it keeps, and returns the indexes of the others.
func (k *keptDocs) get(businessID string, ids []string, revisions []int64, docs []practiced.Doc) (missing []int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	rows := k.rows[businessID]
	for i, id := range ids {
		d, ok := rows[id]
		if !ok || d.revision != revisions[i] {
			missing = append(missing, i)
			continue
		}
		docs[i], d.read = d.doc, true
	}
	return missing
}

// put keeps doc as the document of the row id at revision, in place of
// one kept at an older revision.
func (k *keptDocs) put(businessID, id string, revision int64, doc practiced.Doc) {
	d := &keptDoc{business: businessID, id: id, revision: revision, doc: doc}
	if d.bytes() > k.max {
		return
	}
	// Its own copies: doc and id are parts of the strings a statement
	// read, which they would keep whole.
	d.business, d.id, d.doc = strings.Clone(businessID), strings.Clone(id), practiced.Doc(strings.Clone(string(doc)))
	k.mu.Lock()
	defer k.mu.Unlock()
	if old, ok := k.rows[businessID][id]; ok {
		if old.revision > revision {
			return
		}
		k.drop(old)
	}
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

// readKeptDocs reads page p of the live clients of q's business as
// readJoinedDocs does, the documents from kept where it keeps them at
// the rows' revisions. One statement reads the page's ids and revisions
// (and the number, when asked for) from the index of live clients; a
// second, only when kept lacks some, reads their documents and
// revisions, by id or through the page's range, and keeps them. When a
// row changed in between, so that the second statement finds another
// revision or no row, ok is false and nothing is answered: the caller
// reads the page anew.
func readKeptDocs(ctx context.Context, db queryer, kept *keptDocs, q *listQuery, p practiced.PageRequest, number string) (docs []practiced.Doc, pl pagePlan, at int64, ok bool, err error) {
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
		return nil, pl, -1, false, err
	}
	if !joined.Valid {
		return []practiced.Doc{}, pl, at, rows == 0, nil
	}
	lines := strings.Split(joined.String, "\n")
	if int64(len(lines)) != rows {
		return nil, pl, -1, false, nil // an id holds a line feed: read as ever
	}
	business := q.args.vals[0].(string)
	ids := make([]string, len(lines))
	revisions := make([]int64, len(lines))
	for i, line := range lines {
		id, rev, _ := strings.Cut(line, "\t")
		revision, err := strconv.ParseInt(rev, 10, 64)
		if err != nil {
			return nil, pl, -1, false, nil // an id holds a tab: read as ever
		}
		ids[i], revisions[i] = id, revision
	}
	docs = make([]practiced.Doc, len(lines))
	lacking := kept.get(business, ids, revisions, docs)
	if len(lacking) == 0 {
		return docs, pl, at, true, nil
	}
	if keptBetween != nil {
		keptBetween()
	}
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
	var read sql.NullString
	var n int
	const row = "id || char(9) || revision || char(9) || doc"
	if len(lacking)*2 > len(ids) {
		docsPlan := q.plan(row+" AS kept", p)
		err = db.QueryRowContext(ctx, "SELECT group_concat(kept, char(10)), COUNT(*) FROM ("+docsPlan.sql+") page",
			docsPlan.args...).Scan(&read, &n)
	} else {
		var list []byte
		if list, err = json.Marshal(slices.Collect(maps.Keys(missing))); err == nil {
			err = db.QueryRowContext(ctx, `SELECT group_concat(`+row+`, char(10)), COUNT(*) FROM clients
		WHERE business_id = $1 AND id IN (SELECT value FROM json_each($2))`, business, string(list)).Scan(&read, &n)
		}
	}
	if err != nil {
		return nil, pl, -1, false, fmt.Errorf("kept documents: %w", err)
	}
	if !read.Valid || strings.Count(read.String, "\n")+1 != n {
		return nil, pl, -1, false, nil // a document is missing or holds a line feed: read as ever
	}
	for line := range strings.SplitSeq(read.String, "\n") {
		id, rest, _ := strings.Cut(line, "\t")
		rev, doc, _ := strings.Cut(rest, "\t")
		w, ok := missing[id]
		if !ok {
			continue // kept already, or not in the page (the range reads one more row)
		}
		revision, err := strconv.ParseInt(rev, 10, 64)
		if err != nil || revision != w.revision {
			return nil, pl, -1, false, nil
		}
		docs[w.at] = practiced.Doc(doc)
		delete(missing, id)
	}
	if len(missing) > 0 {
		return nil, pl, -1, false, nil
	}
	for _, i := range lacking {
		kept.put(business, ids[i], revisions[i], docs[i])
	}
	return docs, pl, at, true, nil
}
