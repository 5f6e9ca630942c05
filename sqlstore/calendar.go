package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	practiced "github.com/practiced/practiced"
)

// SetCalendarFeed implements practiced.CalendarFeedStore.
func (s *Store) SetCalendarFeed(ctx context.Context, businessID, practitionerID, secretHash string, now practiced.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM practitioners WHERE business_id = $1 AND id = $2`, businessID, practitionerID).Scan(&n)
		if err != nil {
			return err
		}
		if n == 0 {
			return practiced.NotFound("Practitioner")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE business_id = $1 AND practitioner_id = $2`, businessID, practitionerID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO calendar_feeds (business_id, practitioner_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)`,
			businessID, practitionerID, secretHash, tsv(now))
		return translate(err)
	})
}

// CalendarFeed implements practiced.CalendarFeedStore.
func (s *Store) CalendarFeed(ctx context.Context, secretHash string) (businessID, practitionerID string, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT business_id, practitioner_id FROM calendar_feeds WHERE secret_hash = $1`, secretHash).
		Scan(&businessID, &practitionerID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", practiced.NotFound("Calendar feed")
	}
	return businessID, practitionerID, err
}
