package sqlstore

import (
	"context"
	"fmt"

	practiced "github.com/practiced/practiced"
)

// MissingRefs returns the ids that name no record of the business.
func (s *Store) MissingRefs(ctx context.Context, businessID string, ids []string) ([]string, error) {
	byTable := map[string][]string{}
	var missing []string
	for _, id := range ids {
		k, ok := practiced.KindOf(id)
		if !ok {
			missing = append(missing, id)
			continue
		}
		byTable[k.Plural] = append(byTable[k.Plural], id)
	}
	for table, want := range byTable {
		var a args
		q := `SELECT id FROM ` + table + ` WHERE business_id = ` + a.add(businessID) + ` AND id IN ` + a.in(want)
		rows, err := s.r.QueryContext(ctx, q, a.vals...)
		if err != nil {
			return nil, fmt.Errorf("refs: %w", err)
		}
		found := map[string]bool{}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			found[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for _, id := range want {
			if !found[id] {
				missing = append(missing, id)
			}
		}
	}
	return missing, nil
}
