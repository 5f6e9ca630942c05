package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	practiced "github.com/practiced/practiced"
)

// listQuery describes one keyset-paginated list: rows of from that match
// where, ordered by idCol. The first argument ($1) is always the business.
type listQuery struct {
	cols  string
	from  string
	idCol string
	// keyCol, when set, orders the list instead of idCol; keyOf turns the
	// placeholder of a cursor's id into the SQL of that row's keyCol. A
	// cursor still carries an id, whatever orders the list.
	keyCol string
	keyOf  func(idPlaceholder string) string
	where  []string
	// args are numbered ($N), never positional: a cursor's position
	// (keyOf) names the business, $1, a second time.
	args args
	// kept, when set, keeps documents of the rows: the list is of the
	// live clients of the business, unfiltered (readKeptDocs).
	kept *keptDocs
}

// orderCol is the column the list is in order of.
func (q *listQuery) orderCol() string {
	if q.keyCol != "" {
		return q.keyCol
	}
	return q.idCol
}

// at is the SQL of the position in the list of the row whose id is the
// placeholder p. The id is read through a subquery, (SELECT p), so that
// the planner cannot see it: after its first five runs on a connection,
// PostgreSQL then keeps one plan of a page's statement for every cursor,
// as it does for a first page, where it would otherwise make a plan for
// each cursor (which took longer than running it). The index is used
// all the same, bounded by the subquery's value, which is read once
// before the scan. PostgreSQL takes the subquery for text, as ids are:
// a list ordered by a column of another type needs a keyOf, which is a
// subquery already.
func (q *listQuery) at(p string) string {
	if q.keyOf != nil {
		return q.keyOf(p)
	}
	return "(SELECT " + p + ")"
}

func newListQuery(businessID, cols, from, bizCol, idCol string) *listQuery {
	q := &listQuery{cols: cols, from: from, idCol: idCol}
	q.where = append(q.where, bizCol+" = "+q.args.add(businessID))
	return q
}

// filter adds a condition; placeholders in cond are made with q.args.add.
func (q *listQuery) filter(cond string) { q.where = append(q.where, cond) }

// common applies the filters every list accepts. prefix qualifies the
// column names ("" or "t.").
func (q *listQuery) common(prefix string, f practiced.ListFilter) {
	if !f.IncludeArchived {
		q.filter(prefix + "archived_at IS NULL")
	}
	if f.UpdatedSince != nil {
		q.filter(prefix + "updated_at >= " + q.args.add(ts(*f.UpdatedSince)))
	}
}

type rowScanner interface{ Scan(dest ...any) error }

// pagePlan is the statement of one page of a list, and what reading
// the page from its rows needs to know.
type pagePlan struct {
	sql   string // SELECT cols FROM … ORDER BY … LIMIT …
	args  []any
	order string // ASC or DESC: the direction of travel
	limit int
	// cursor is the page's After or Before; withCursor, that the
	// statement reads from the cursor's own row (an exclusive page).
	cursor     string
	withCursor bool
	backward   bool
	probeOp    string // what finds the rows on the cursor's other side
}

// plan makes the statement that reads cols of the rows of page p of q.
// Fetching one row more than the limit tells whether the list goes on
// in the direction of travel. An exclusive page also reads from the
// cursor's own row: when it comes back first, the list goes on the
// other way (see finishPage).
func (q *listQuery) plan(cols string, p practiced.PageRequest) pagePlan {
	pl := pagePlan{limit: p.Limit, backward: p.Before != "", cursor: p.After}
	if pl.limit <= 0 {
		pl.limit = 10
	}
	if pl.backward {
		pl.cursor = p.Before
	}
	a := q.args // copy, so the filters' own arguments stay as they are
	a.vals = slices.Clone(q.args.vals)
	where := slices.Clone(q.where)
	// op compares a page's rows to the cursor, readOp the rows read with
	// it; probeOp finds the rows on the cursor's other side.
	var op string
	switch {
	case pl.backward && p.Inclusive:
		op, pl.probeOp, pl.order = "<=", ">", "DESC"
	case pl.backward:
		op, pl.probeOp, pl.order = "<", ">=", "DESC"
	case p.Inclusive:
		op, pl.probeOp, pl.order = ">=", "<", "ASC"
	default:
		op, pl.probeOp, pl.order = ">", "<=", "ASC"
	}
	readOp, read := op, pl.limit+1
	pl.withCursor = pl.cursor != "" && !p.Inclusive
	if pl.withCursor {
		readOp, read = op+"=", pl.limit+2
	}
	if pl.cursor != "" {
		where = append(where, q.orderCol()+" "+readOp+" "+q.at(a.add(pl.cursor)))
	}
	pl.sql = fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s %s LIMIT %d",
		cols, q.from, strings.Join(where, " AND "), q.orderCol(), pl.order, read)
	pl.args = a.vals
	return pl
}

// list runs q for page p and returns its rows in order with whether
// more rows lie before and after them. idOf returns the id of a row
// scan made.
func list[T any](ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, scan func(rowScanner) (T, error), idOf func(*T) string) ([]T, practiced.PageInfo, error) {
	pl := q.plan(q.cols, p)
	rows, err := db.QueryContext(ctx, pl.sql, pl.args...)
	if err != nil {
		return nil, practiced.PageInfo{}, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, practiced.PageInfo{}, fmt.Errorf("list: %w", err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, practiced.PageInfo{}, fmt.Errorf("list: %w", err)
	}
	out, info, _, err := finishPage(ctx, db, q, pl, out, idOf)
	return out, info, err
}

// finishPage turns the rows pl's statement read, in its order, into the
// page: when the cursor's own row came back first, the list goes on the
// other way and the row is dropped; when the cursor's row is not in the
// list (deleted, archived or filtered out), and for an inclusive page,
// an indexed probe asks on its own whether the list goes on the other
// way, and probed says so. So a page after a record that is still in
// the list costs one statement and, on PostgreSQL, one round trip.
func finishPage[T any](ctx context.Context, db queryer, q *listQuery, pl pagePlan, out []T, idOf func(*T) string) ([]T, practiced.PageInfo, bool, error) {
	var info practiced.PageInfo
	beyond := false // rows on the cursor's other side
	probed := false
	if pl.withCursor && len(out) > 0 && idOf(&out[0]) == pl.cursor {
		out, beyond = out[1:], true
	} else if pl.cursor != "" {
		var err error
		if beyond, err = q.exists(ctx, db, pl.probeOp, pl.cursor); err != nil {
			return nil, info, false, err
		}
		probed = true
	}
	more := len(out) > pl.limit
	if more {
		out = out[:pl.limit]
	}
	if pl.backward {
		slices.Reverse(out)
		info.HasPrev, info.HasNext = more, beyond
	} else {
		info.HasNext, info.HasPrev = more, beyond
	}
	if len(out) == 0 {
		out = []T{}
	} else {
		info.FirstID, info.LastID = idOf(&out[0]), idOf(&out[len(out)-1])
	}
	return out, info, probed, nil
}

// exists reports whether a row matching q has a position that compares
// to the position of id with op ("<", "<=", ">" or ">="). It looks from
// id's position outwards, so the rows it reads are the neighbours of the
// page just read rather than the first of the whole list.
func (q *listQuery) exists(ctx context.Context, db queryer, op, id string) (bool, error) {
	a := args{vals: slices.Clone(q.args.vals)}
	order := "ASC"
	if strings.HasPrefix(op, "<") {
		order = "DESC"
	}
	where := append(slices.Clone(q.where), q.orderCol()+" "+op+" "+q.at(a.add(id)))
	rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT 1 FROM %s WHERE %s ORDER BY %s %s LIMIT 1",
		q.from, strings.Join(where, " AND "), q.orderCol(), order), a.vals...)
	if err != nil {
		return false, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	found := rows.Next()
	return found, rows.Err()
}

// likePattern returns a LIKE pattern matching s anywhere, with LIKE's
// own metacharacters escaped by a backslash.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}
