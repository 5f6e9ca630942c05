package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	practiced "github.com/practiced/practiced"
)

// ClaimIdempotencyKey claims a key in a transaction of its own: it frees
// the key if it has expired or its claim's lease ran out unanswered, then
// inserts the claim unless the key is stored, and reads back what is. The
// primary key decides between concurrent claims: on PostgreSQL the
// second insert waits for the first transaction and then does nothing.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, k practiced.IdempotencyKey) (practiced.IdempotencyKey, error) {
	// A key read back as missing was released between the insert and the
	// read; claiming again settles it.
	for range 3 {
		got, found, err := s.claimIdempotencyKey(ctx, k)
		if err != nil || found {
			return got, err
		}
	}
	return practiced.IdempotencyKey{}, fmt.Errorf("idempotency key %q: released during every claim", k.Key)
}

func (s *Store) claimIdempotencyKey(ctx context.Context, k practiced.IdempotencyKey) (practiced.IdempotencyKey, bool, error) {
	var got practiced.IdempotencyKey
	found := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		got, found = practiced.IdempotencyKey{}, false // it may run more than once
		if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys
			WHERE api_key_id = $1 AND idempotency_key = $2
			AND (created_at <= $3 OR (status IS NULL AND lease_until <= $4))`,
			k.APIKeyID, k.Key, ts(k.CreatedAt.Add(-practiced.IdempotencyTTL)), ts(k.CreatedAt)); err != nil {
			return fmt.Errorf("idempotency key: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency_keys
			(api_key_id, idempotency_key, request_hash, claim_id, created_at, lease_until)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (api_key_id, idempotency_key) DO NOTHING`,
			k.APIKeyID, k.Key, k.RequestHash, k.ClaimID, ts(k.CreatedAt), ts(k.LeaseUntil)); err != nil {
			return fmt.Errorf("idempotency key: %w", err)
		}
		var err error
		got, err = scanIdempotencyKey(tx.QueryRowContext(ctx, `SELECT api_key_id, idempotency_key, request_hash, claim_id,
			created_at, lease_until, status, header, body
			FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2`, k.APIKeyID, k.Key))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	return got, found, err
}

func scanIdempotencyKey(row *sql.Row) (practiced.IdempotencyKey, error) {
	var k practiced.IdempotencyKey
	var created, lease practiced.Time
	var status sql.NullInt64
	var header sql.NullString
	var body []byte
	err := row.Scan(&k.APIKeyID, &k.Key, &k.RequestHash, &k.ClaimID, timeScan{&created}, timeScan{&lease}, &status, &header, &body)
	if err != nil {
		return k, err
	}
	k.CreatedAt, k.LeaseUntil = created.Time, lease.Time
	if status.Valid {
		a := &practiced.IdempotentAnswer{Status: int(status.Int64), Body: body}
		if header.Valid {
			if err := json.Unmarshal([]byte(header.String), &a.Header); err != nil {
				return k, fmt.Errorf("idempotency key %q: header: %w", k.Key, err)
			}
		}
		if a.Body == nil {
			a.Body = []byte{}
		}
		k.Answer = a
	}
	return k, nil
}

// SaveIdempotentAnswer stores the answer of the claim, if it still holds
// the key.
func (s *Store) SaveIdempotentAnswer(ctx context.Context, apiKeyID, key, claimID string, a practiced.IdempotentAnswer) error {
	header, err := json.Marshal(a.Header)
	if err != nil {
		return fmt.Errorf("idempotency key: header: %w", err)
	}
	if a.Body == nil {
		a.Body = []byte{}
	}
	res, err := s.w.ExecContext(ctx, `UPDATE idempotency_keys SET status = $1, header = $2, body = $3
		WHERE api_key_id = $4 AND idempotency_key = $5 AND claim_id = $6 AND status IS NULL`,
		a.Status, string(header), a.Body, apiKeyID, key, claimID)
	if err != nil {
		return fmt.Errorf("idempotency key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return practiced.NotFound("Idempotency key")
	}
	return nil
}

// ReleaseIdempotencyKey deletes the claim, if it still holds the key
// unanswered.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, apiKeyID, key, claimID string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM idempotency_keys
		WHERE api_key_id = $1 AND idempotency_key = $2 AND claim_id = $3 AND status IS NULL`, apiKeyID, key, claimID)
	if err != nil {
		return fmt.Errorf("idempotency key: %w", err)
	}
	return nil
}

// PurgeIdempotencyKeys deletes the oldest keys claimed before before, at
// most limit of them, so that one call stays short however many expired.
func (s *Store) PurgeIdempotencyKeys(ctx context.Context, before time.Time, limit int) (int, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE (api_key_id, idempotency_key) IN (
		SELECT api_key_id, idempotency_key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
		ts(before), limit)
	if err != nil {
		return 0, fmt.Errorf("idempotency keys: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
