package sqlstore

import (
	"context"
	"database/sql"
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
	// args are numbered ($N), never positional: a page's query names
	// each of them twice, in its filters and in its probe's.
	args args
	// number, when set, is the SQL of an integer that the page's own
	// statement reads beside its rows, and so in the snapshot they were
	// read in (a subquery that does not depend on the row); list stores
	// it in *numbered, which it leaves when the page has no row to carry
	// it.
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
// limit tells whether the list goes on in the direction of travel; an
// indexed probe tells whether it goes on the other way. The probe rides
// in the page's own query, as a last column that is the same for every
// row (a subquery that does not depend on the row, run once), so a page
// with a cursor costs one query and, on PostgreSQL, one round trip.
// Only an empty page asks it on its own. q.number, when set, rides the
// same way, after the probe.
func list[T any](ctx context.Context, db queryer, q *listQuery, p practiced.PageRequest, scan func(rowScanner) (T, error)) ([]T, practiced.PageInfo, error) {
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
	// op compares a page's rows to the cursor; probeOp finds the rows on
	// the cursor's other side.
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
	cols := q.cols
	var found, number sql.NullInt64
	var r idScanner // one for every row: a scanner per row would be an allocation per row
	if cursor != "" {
		at := q.at(a.add(cursor)) // the cursor's position
		where = append(where, q.orderCol()+" "+op+" "+at)
		cols += ", (" + q.probe(probeOp, at) + ")"
		r.tail = append(r.tail, &found)
	}
	if q.number != "" {
		cols += ", (" + q.number + ")"
		r.tail = append(r.tail, &number)
	}
	sqlText := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s %s LIMIT %d",
		cols, q.from, strings.Join(where, " AND "), q.orderCol(), order, limit+1)
	rows, err := db.QueryContext(ctx, sqlText, a.vals...)
	if err != nil {
		return nil, info, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	var out []T
	var ids []string
	r.rows = rows
	for rows.Next() {
		v, err := scan(&r)
		if err != nil {
			return nil, info, fmt.Errorf("list: %w", err)
		}
		out = append(out, v)
		ids = append(ids, r.id)
	}
	if err := rows.Err(); err != nil {
		return nil, info, fmt.Errorf("list: %w", err)
	}
	more := len(out) > limit
	if more {
		out, ids = out[:limit], ids[:limit]
	}
	if q.numbered != nil && number.Valid {
		*q.numbered = number.Int64
	}
	beyond := found.Valid // rows on the cursor's other side
	if cursor != "" && len(out) == 0 {
		if beyond, err = q.exists(ctx, db, probeOp, cursor); err != nil {
			return nil, info, err
		}
	}
	if backward {
		slices.Reverse(out)
		slices.Reverse(ids)
		info.HasPrev, info.HasNext = more, beyond
	} else {
		info.HasNext, info.HasPrev = more, beyond
	}
	if out == nil {
		out = []T{}
	}
	if len(ids) > 0 {
		info.FirstID, info.LastID = ids[0], ids[len(ids)-1]
	}
	return out, info, nil
}

// idScanner remembers the id of the row it scans: every list query
// selects the record's id first. When the query reads more columns after
// the row's own (the probe, the number), it scans them into tail.
type idScanner struct {
	rows rowScanner
	tail []any
	dest []any // the row's destinations and tail, reused for every row
	id   string
}

func (s *idScanner) Scan(dest ...any) error {
	all := dest
	if len(s.tail) > 0 {
		s.dest = append(append(s.dest[:0], dest...), s.tail...)
		all = s.dest
	}
	if err := s.rows.Scan(all...); err != nil {
		return err
	}
	id, ok := dest[0].(*string)
	if !ok {
		return fmt.Errorf("list: the first column is not the id")
	}
	s.id = *id
	return nil
}

// probe is the SQL of a query whose one row, if any, tells that a row
// matching q has a position that compares to the position at with op
// ("<", "<=", ">" or ">="). It looks from at outwards, so the rows it
// reads are the neighbours of the page read beside it rather than the
// first of the whole list. Its placeholders are q's and at's.
func (q *listQuery) probe(op, at string) string {
	order := "ASC"
	if strings.HasPrefix(op, "<") {
		order = "DESC"
	}
	where := append(slices.Clone(q.where), q.orderCol()+" "+op+" "+at)
	return fmt.Sprintf("SELECT 1 FROM %s WHERE %s ORDER BY %s %s LIMIT 1", q.from, strings.Join(where, " AND "), q.orderCol(), order)
}

// exists reports whether a row matching q has a position that compares
// to the position of id with op.
func (q *listQuery) exists(ctx context.Context, db queryer, op, id string) (bool, error) {
	a := args{vals: slices.Clone(q.args.vals)}
	rows, err := db.QueryContext(ctx, q.probe(op, q.at(a.add(id))), a.vals...)
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
