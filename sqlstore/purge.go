package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// DeleteBusiness removes a business and every row that belongs to it, in
// one transaction. It undoes a load that failed half-way (practiced demo
// cleans up with it); the API offers no way to delete a business.
//
// The tables are those with a business_id column, found in the schema,
// so a table added by a later migration is never missed. Rows that other
// rows still refer to are refused by the foreign keys; their tables are
// tried again after the others, each attempt behind a savepoint, until
// every table is empty of the business.
func (s *Store) DeleteBusiness(ctx context.Context, id string) error {
	tables, err := s.businessTables(ctx)
	if err != nil {
		return fmt.Errorf("delete business: %w", err)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		pending := tables
		for pass := 0; len(pending) > 0; pass++ {
			if pass > len(tables) {
				return fmt.Errorf("delete business: rows of %s are still referred to", strings.Join(pending, ", "))
			}
			var refused []string
			for _, table := range pending {
				if _, err := tx.ExecContext(ctx, `SAVEPOINT purge`); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM "`+table+`" WHERE business_id = $1`, id); err != nil {
					if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT purge`); err != nil {
						return err
					}
					refused = append(refused, table)
				}
				if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT purge`); err != nil {
					return err
				}
			}
			pending = refused
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM businesses WHERE id = $1`, id)
		return err
	})
}

// businessTables lists the tables with a business_id column.
func (s *Store) businessTables(ctx context.Context) ([]string, error) {
	q := `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
		WHERE m.type = 'table' AND c.name = 'business_id' ORDER BY m.name`
	if s.dialect.name == "postgres" {
		q = `SELECT table_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND column_name = 'business_id' ORDER BY table_name`
	}
	rows, err := s.r.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		tables = append(tables, name)
	}
	return tables, rows.Err()
}
