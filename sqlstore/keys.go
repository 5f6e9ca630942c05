package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// CreateBusiness creates a business.
func (s *Store) CreateBusiness(ctx context.Context, name string) (practiced.Business, error) {
	b := practiced.Business{ID: tid.New(practiced.PrefixBusiness), Name: name, CreatedAt: practiced.Now()}
	_, err := s.w.ExecContext(ctx, `INSERT INTO businesses (id, name, created_at) VALUES ($1, $2, $3)`, b.ID, b.Name, tsv(b.CreatedAt))
	if err != nil {
		return b, translate(err)
	}
	return b, nil
}

// BusinessByName finds a business by its exact name.
func (s *Store) BusinessByName(ctx context.Context, name string) (practiced.Business, error) {
	var b practiced.Business
	err := s.r.QueryRowContext(ctx, `SELECT id, name, created_at FROM businesses WHERE name = $1`, name).
		Scan(&b.ID, &b.Name, timeScan{&b.CreatedAt})
	if errors.Is(err, sql.ErrNoRows) {
		return b, practiced.NotFound("Business")
	}
	return b, err
}

// CreateAPIKey stores a key by the hash of its token.
func (s *Store) CreateAPIKey(ctx context.Context, k practiced.APIKey) error {
	if k.TokenHash == "" {
		return fmt.Errorf("api key without a token hash")
	}
	if k.RatePerMinute < 0 {
		return fmt.Errorf("api key with a negative rate limit")
	}
	var rate any
	if k.RatePerMinute > 0 {
		rate = k.RatePerMinute
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO api_keys (id, business_id, token_hash, read_only, rate_per_minute, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		k.ID, k.BusinessID, k.TokenHash, k.ReadOnly, rate, tsv(k.CreatedAt))
	return translate(err)
}

// APIKeyByHash finds a live key by the hash of its token.
func (s *Store) APIKeyByHash(ctx context.Context, hash string) (practiced.APIKey, error) {
	k, _, err := s.APIKeyAndClientsVersion(ctx, hash)
	return k, err
}

// RevokeAPIKey revokes a live key.
func (s *Store) RevokeAPIKey(ctx context.Context, id string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, tsv(practiced.Now()), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return practiced.NotFound("API key")
	}
	return nil
}

// ListAPIKeys lists the business's keys, revoked ones too, by id.
func (s *Store) ListAPIKeys(ctx context.Context, businessID string) ([]practiced.APIKey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, business_id, token_hash, read_only, rate_per_minute, created_at, revoked_at FROM api_keys
		WHERE business_id = $1 ORDER BY id`, businessID)
	if err != nil {
		return nil, fmt.Errorf("api keys: %w", err)
	}
	defer rows.Close()
	keys := []practiced.APIKey{}
	for rows.Next() {
		var k practiced.APIKey
		var rate sql.NullInt64
		if err := rows.Scan(&k.ID, &k.BusinessID, &k.TokenHash, &k.ReadOnly, &rate, timeScan{&k.CreatedAt}, nullTimeScan{&k.RevokedAt}); err != nil {
			return nil, fmt.Errorf("api keys: %w", err)
		}
		k.RatePerMinute = int(rate.Int64)
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// HasLiveAPIKey reports whether any key is not revoked.
func (s *Store) HasLiveAPIKey(ctx context.Context) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1) k`).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("api keys: %w", err)
	}
	return n > 0, nil
}
