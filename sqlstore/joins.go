package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// join is a list of ids a record keeps in a join table, such as a
// practitioner's location ids in practitioner_locations.
type join[T any] struct {
	table  string             // the join table
	keyCol string             // its column of the record's id
	valCol string             // its column of the listed ids
	ids    func(*T) *[]string // the record's list
	// readOnly lists are written from the other side: a location lists
	// the practitioners and services that name it, and writes neither.
	readOnly bool
}

// sortJoins puts the record's join ids in the id order they are read
// back in, never nil.
func (t *table[T]) sortJoins(rec *T) {
	for _, j := range t.joins {
		*j.ids(rec) = sortedIDs(*j.ids(rec))
	}
}

// loadJoins fills the join ids of a page of records with one query for
// the whole page (joined). A kind without join tables, such as clients,
// returns before it gathers the page's ids.
func (t *table[T]) loadJoins(ctx context.Context, db queryer, businessID string, recs []T) error {
	if len(t.joins) == 0 {
		return nil
	}
	ids := make([]string, len(recs))
	for i := range recs {
		ids[i] = *t.stamp(&recs[i]).ID
	}
	byJoin, err := joined(ctx, db, businessID, t.joins, ids)
	if err != nil {
		return fmt.Errorf("%s' lists: %w", t.kind.Plural, err)
	}
	for n, j := range t.joins {
		for i := range recs {
			*j.ids(&recs[i]) = append([]string{}, byJoin[n][ids[i]]...)
		}
	}
	return nil
}

// saveJoins writes the record's join ids, then touches the locations it
// joined or left: a location lists the records joined to it, so their
// coming and going changes the location too.
func (t *table[T]) saveJoins(ctx context.Context, tx *sql.Tx, businessID string, rec *T) error {
	st := t.stamp(rec)
	var touched []string
	for _, j := range t.joins {
		if j.readOnly {
			continue
		}
		old, err := rejoin(ctx, tx, j, businessID, *st.ID, *j.ids(rec))
		if err != nil {
			return err
		}
		if j.valCol == "location_id" {
			touched = append(touched, symmetricDiff(old, *j.ids(rec))...)
		}
	}
	return touchLocations(ctx, tx, businessID, touched, *st.UpdatedAt)
}

// joined reads join tables in one query, each table's rows put together
// with UNION ALL, so that a record of two lists costs one round trip to
// the database, not two: for each of joins, and each key in keys, the ids
// the key is joined to, in id order; joins must not be empty.
func joined[T any](ctx context.Context, db queryer, businessID string, joins []join[T], keys []string) ([]map[string][]string, error) {
	out := make([]map[string][]string, len(joins))
	for n := range out {
		out[n] = map[string][]string{}
	}
	if len(keys) == 0 {
		return out, nil
	}
	var a args
	biz, in := a.add(businessID), a.in(keys)
	parts := make([]string, len(joins))
	for n, j := range joins {
		parts[n] = fmt.Sprintf(`SELECT %d, %s, %s FROM %s WHERE business_id = %s AND %s IN %s`,
			n, j.keyCol, j.valCol, j.table, biz, j.keyCol, in)
	}
	rows, err := db.QueryContext(ctx, strings.Join(parts, " UNION ALL ")+" ORDER BY 1, 2, 3", a.vals...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n int
		var k, v string
		if err := rows.Scan(&n, &k, &v); err != nil {
			return nil, err
		}
		out[n][k] = append(out[n][k], v)
	}
	return out, rows.Err()
}

// rejoin makes the join table hold exactly vals for key, and returns the
// values it held before.
func rejoin[T any](ctx context.Context, tx *sql.Tx, j join[T], businessID, key string, vals []string) ([]string, error) {
	byJoin, err := joined(ctx, tx, businessID, []join[T]{j}, []string{key})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", j.table, err)
	}
	old := byJoin[0][key]
	if slices.Equal(old, sortedIDs(vals)) {
		return old, nil
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %s WHERE business_id = $1 AND %s = $2`, j.table, j.keyCol),
		businessID, key); err != nil {
		return nil, fmt.Errorf("%s: %w", j.table, err)
	}
	if len(vals) == 0 {
		return old, nil
	}
	var a args
	biz, k := a.add(businessID), a.add(key)
	rows := make([]string, len(vals))
	for i, v := range vals {
		rows[i] = "(" + biz + ", " + k + ", " + a.add(v) + ")"
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s (business_id, %s, %s) VALUES %s`, j.table, j.keyCol, j.valCol,
		strings.Join(rows, ", ")), a.vals...); err != nil {
		return nil, fmt.Errorf("%s: %w", j.table, translate(err))
	}
	return old, nil
}

// symmetricDiff returns the ids in exactly one of a and b.
func symmetricDiff(a, b []string) []string {
	var out []string
	for _, id := range a {
		if !slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	for _, id := range b {
		if !slices.Contains(a, id) {
			out = append(out, id)
		}
	}
	return out
}

// sortedIDs returns a sorted copy of ids, never nil: join ids are read
// back in id order, so they are kept in that order everywhere.
func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return out
}
