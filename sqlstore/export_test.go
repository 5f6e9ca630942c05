package sqlstore

import "context"

// CountBusinessRows counts a business's rows in every table with a
// business_id, for the tests of DeleteBusiness.
func CountBusinessRows(s *Store, business string) (map[string]int, error) {
	ctx := context.Background()
	tables, err := s.businessTables(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, table := range tables {
		var n int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+table+`" WHERE business_id = $1`, business).Scan(&n); err != nil {
			return nil, err
		}
		out[table] = n
	}
	return out, nil
}

// ReadBlocksUncached is Blocks read from the database, past what the
// store keeps.
var ReadBlocksUncached = (*Store).readBlocks
