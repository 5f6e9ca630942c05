package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	practiced "github.com/practiced/practiced"
)

// ClientsVersion returns the number of the business's clients
// (list_versions, migration 0023): triggers change it in the transaction
// of every change of one of the business's clients rows, so two reads
// that return the same number see the same clients. A business whose
// clients have not changed since the migration has 0.
//
// ListClientDocsAt reads it with a page of them, in one statement.
func (s *Store) ClientsVersion(ctx context.Context, businessID string) (int64, error) {
	var v int64
	err := s.r.QueryRowContext(ctx, clientsVersionSQL, businessID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("clients version: %w", err)
	}
	return v, nil
}

// clientsVersionSQL reads the ClientsVersion of the business $1, when
// its clients have changed since the migration.
const clientsVersionSQL = `SELECT version FROM list_versions WHERE business = $1 AND list = 'clients'`

// countInserts adds one to the version of the business's list in tx,
// for the rows tx inserted into it, where no trigger does: the busy
// times on SQLite (migration 0033), which table.insertAll counts for a
// table marked insertsCounted. A transaction of the committer, the one
// that every write on SQLite runs in, adds one once, however many of
// its members insert: readers see the number only once the transaction
// commits, so one change tells them of every row it wrote. PostgreSQL's
// transactions have no committer, and there the table's trigger counts
// (migration 0025).
func countInserts(ctx context.Context, tx *sql.Tx, businessID, list string) error {
	w := writerOf(tx)
	if w == nil {
		return nil
	}
	key := listOf{businessID, list}
	if w.counted[key] {
		return nil
	}
	if _, err := tx.ExecContext(ctx, countListSQL, businessID, list); err != nil {
		return fmt.Errorf("%s version: %w", list, err)
	}
	if w.counted == nil {
		w.counted = map[listOf]bool{}
	}
	w.counted[key] = true
	return nil
}

// countListSQL adds one to the version of the business ? of the list ?,
// on SQLite.
const countListSQL = `INSERT INTO list_versions (business, list, version) VALUES (?, ?, 1)
	ON CONFLICT (business, list) DO UPDATE SET version = version + 1`

// ListClientDocsAt is ListClientDocs and the ClientsVersion its page was
// read at. The page's own statement reads the number, in the one
// snapshot it reads the rows in, so the rows are the clients of that
// number whatever commits meanwhile. A page its statement did not tell
// whole has no number, -1: one whose probe of the cursor's other side
// ran on its own after it (an inclusive page, or one whose cursor is no
// longer in the list), and on PostgreSQL, whose statement reads a row a
// document, one with no row (an empty page, unless it is after a client
// still in the list). On SQLite the statement answers one row whatever
// the page holds.
func (s *Store) ListClientDocsAt(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, int64, error) {
	return clients.listDocsAt(ctx, s.r, s.dialect, s.clientDocsQuery(businessID, f), p, "COALESCE(("+clientsVersionSQL+"), 0)")
}

// APIKeyAndClientsVersion is APIKeyByHash and, read by the same query,
// the ClientsVersion of the key's business: a list of clients answered
// from what a server keeps needs nothing more from the database.
func (s *Store) APIKeyAndClientsVersion(ctx context.Context, hash string) (practiced.APIKey, int64, error) {
	if s.keyReads != nil {
		return s.keyReads.read(ctx, hash)
	}
	kept, err := readKept(s, s.keys, hash, func() (keptKey, error) {
		var k keptKey
		// The read is of one row, by a unique index, in a local file. With a
		// context that can be cancelled, database/sql and the driver would
		// each start a goroutine to watch it, which cost a third as much
		// again as the read (docs/performance.md). So a request whose client
		// has gone still waits for a reader connection and finishes the read.
		err := scanKeyAndVersion(s.r.QueryRowContext(context.WithoutCancel(ctx), keyAndVersionSQL+`k.token_hash = $1`, hash), &k.key, &k.version)
		if errors.Is(err, sql.ErrNoRows) {
			err = practiced.Errorf(practiced.EUNAUTHORIZED, "The API key is not valid.")
		}
		return k, err
	})
	return kept.key, kept.version, err
}

// keyAndVersionSQL reads live keys with their business's clients number,
// in the columns scanKeyAndVersion scans; the condition on the token's
// hash completes it.
const keyAndVersionSQL = `SELECT k.id, k.business_id, k.token_hash, k.read_only, k.rate_per_minute, k.created_at, COALESCE(v.version, 0)
	FROM api_keys k LEFT JOIN list_versions v ON v.business = k.business_id AND v.list = 'clients'
	WHERE k.revoked_at IS NULL AND `

// scanKeyAndVersion scans a key and its business's clients number, in
// the columns APIKeyAndClientsVersion reads.
func scanKeyAndVersion(r rowScanner, k *practiced.APIKey, version *int64) error {
	var rate sql.NullInt64
	err := r.Scan(&k.ID, &k.BusinessID, &k.TokenHash, &k.ReadOnly, &rate, timeScan{&k.CreatedAt}, version)
	k.RatePerMinute = int(rate.Int64)
	return err
}
