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
	// number, when set, is the SQL of an integer that the page's own
	// statement reads beside its rows, and so in the snapshot they were
	// read in (a subquery that does not depend on the row); list stores
	// it in *numbered when that statement told all the page holds: it
	// returned a row to carry the number, and no probe had to run on
	// its own after it.
	number   string
	numbered *int64
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

// list runs q for page p and returns its rows in order with whether
// more rows lie before and after them. Fetching one row more than the
// limit tells whether the list goes on in the direction of travel. An
// exclusive page also reads from the cursor's own row: when it comes
// back first, the list goes on the other way, and it is dropped. So a
// page after a record that is still in the list costs one query and,
// on PostgreSQL, one round trip, and every row carries only its own
// columns. When the cursor's row is not in the list (deleted, archived
// or filtered out), and for an inclusive page, an indexed probe asks on
// its own whether the list goes on the other way. q.number, when set,
// rides the page's query as a last column, the same for every row.
// idOf returns the id of a row scan made.
func list[T any](ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, scan func(rowScanner) (T, error), idOf func(*T) string) ([]T, practiced.PageInfo, error) {
	var info practiced.PageInfo
	limit := p.Limit
	if limit <= 0 {
		limit = 10
	}
	a := q.args // copy, so the filters' own arguments stay as they are
	a.vals = slices.Clone(q.args.vals)
	where := slices.Clone(q.where)
	backward := p.Before != ""
	cursor := p.After
	if backward {
		cursor = p.Before
	}
	// op compares a page's rows to the cursor, readOp the rows read with
	// it; probeOp finds the rows on the cursor's other side.
	var op, probeOp, order string
	switch {
	case backward && p.Inclusive:
		op, probeOp, order = "<=", ">", "DESC"
	case backward:
		op, probeOp, order = "<", ">=", "DESC"
	case p.Inclusive:
		op, probeOp, order = ">=", "<", "ASC"
	default:
		op, probeOp, order = ">", "<=", "ASC"
	}
	readOp, read := op, limit+1
	withCursor := cursor != "" && !p.Inclusive
	if withCursor {
		readOp, read = op+"=", limit+2
	}
	cols := q.cols
	var number any
	var r tailScanner // one for every row: a scanner per row would be an allocation per row
	if cursor != "" {
		where = append(where, q.orderCol()+" "+readOp+" "+q.at(a.add(cursor)))
	}
	if q.number != "" {
		cols += ", (" + q.number + ")"
		r.tail = append(r.tail, &number)
	}
	sqlText := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s %s LIMIT %d",
		cols, q.from, strings.Join(where, " AND "), q.orderCol(), order, read)
	rows, err := db.QueryContext(ctx, sqlText, a.vals...)
	if err != nil {
		return nil, info, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	var out []T
	r.rows = rows
	for rows.Next() {
		v, err := scan(&r)
		if err != nil {
			return nil, info, fmt.Errorf("list: %w", err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, info, fmt.Errorf("list: %w", err)
	}
	beyond := false // rows on the cursor's other side
	probed := false
	if withCursor && len(out) > 0 && idOf(&out[0]) == cursor {
		out, beyond = out[1:], true
	} else if cursor != "" {
		if beyond, err = q.exists(ctx, db, probeOp, cursor); err != nil {
			return nil, info, err
		}
		probed = true
	}
	switch n := number.(type) {
	case nil: // no row, or no number asked for
	case int64:
		if q.numbered != nil && !probed {
			*q.numbered = n
		}
	default:
		return nil, info, fmt.Errorf("list: the page's number is a %T", number)
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	if backward {
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
	return out, info, nil
}

// tailScanner scans a row of a list query: the row's own columns into
// the destinations its scan gives, then the columns the query reads
// after them (the number) into tail.
type tailScanner struct {
	rows rowScanner
	tail []any
	dest []any // the row's destinations and tail, reused for every row
}

func (s *tailScanner) Scan(dest ...any) error {
	if len(s.tail) == 0 {
		return s.rows.Scan(dest...)
	}
	s.dest = append(append(s.dest[:0], dest...), s.tail...)
	return s.rows.Scan(s.dest...)
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
