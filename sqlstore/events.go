package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// recordEvent writes the change feed entry for a change, inside the
// transaction that made the change. data is the record after the change.
func recordEvent(ctx context.Context, db queryer, businessID, recordType, action, recordID string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("event: %w", err)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO events (business_id, id, type, record_type, record_id, data, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		businessID, tid.New(practiced.PrefixEvent), recordType+"."+action, recordType, recordID, string(b), tsv(practiced.Now()))
	if err != nil {
		return fmt.Errorf("event: %w", err)
	}
	return nil
}
