package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ClientsVersion returns the number of the business's clients
// (list_versions, migration 0023): triggers change it in the transaction
// of every change of one of the business's clients rows, so two reads
// that return the same number see the same clients. A business whose
// clients have not changed since the migration has 0.
//
// Reads outside a transaction each see every transaction committed
// before they began, so when the number is the same before and after a
// read of the clients, that read saw the clients of that number.
func (s *Store) ClientsVersion(ctx context.Context, businessID string) (int64, error) {
	var v int64
	err := s.r.QueryRowContext(ctx, `SELECT version FROM list_versions WHERE business = $1 AND list = 'clients'`, businessID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("clients version: %w", err)
	}
	return v, nil
}
