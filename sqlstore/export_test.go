package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"testing"

	practiced "github.com/practiced/practiced"
)

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

// BeforeKeyQuery has f called with the number of reads of each coalesced
// key query just before it is sent (PostgreSQL).
func BeforeKeyQuery(s *Store, f func(n int)) { s.keyReads.beforeQuery = f }

// KeyReadYield has f called in place of the yield of each coalesced key
// query's leader before it takes the reads queued behind it (PostgreSQL).
func KeyReadYield(s *Store, f func()) { s.keyReads.yield = f }

// KeyReadsWaiting is how many key reads wait for the next coalesced
// query (PostgreSQL).
func KeyReadsWaiting(s *Store) int {
	s.keyReads.mu.Lock()
	defer s.keyReads.mu.Unlock()
	return len(s.keyReads.waiting)
}

// WriterSetting is the writer connection's setting of a pragma that
// answers a number (SQLite): temp_store (1 for files, 2 for memory) or
// threads.
func WriterSetting(s *Store, pragma string) (int, error) {
	var n int
	err := s.w.QueryRowContext(context.Background(), "PRAGMA "+pragma).Scan(&n)
	return n, err
}

// OnLoadBegun has f called with each transaction of SeedAll as it begins.
func OnLoadBegun(s *Store, f func(tx *sql.Tx)) { s.loadBegun = f }

// SetLaterIndexRows sets how many rows a load writes to a table before it
// builds the table's indexes after its rows, until the test ends.
func SetLaterIndexRows(t testing.TB, n int) {
	old := laterIndexRows
	laterIndexRows = n
	t.Cleanup(func() { laterIndexRows = old })
}

// Reader is the store's pool of connections for reads.
func Reader(s *Store) *sql.DB { return s.r }

// ListClientDocsOn is ListClientDocs on one connection, so that a test
// can read what that connection has prepared.
func ListClientDocsOn(ctx context.Context, s *Store, conn *sql.Conn, businessID string, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return clients.listDocs(ctx, conn, s.dialect, clientQuery(businessID, practiced.PersonFilter{}), p)
}

// DocID is docID, for its test.
var DocID = docID

// SortDocs is sortDocs, for its test.
var SortDocs = sortDocs

// ReverseJoinedPages has every page of documents joined by SQLite come
// back from the database in reverse, until the test ends.
func ReverseJoinedPages(t testing.TB) {
	joinedOrder = slices.Reverse[[]practiced.Doc]
	t.Cleanup(func() { joinedOrder = nil })
}

// ListClientDocsRead is ListClientDocs of the unfiltered list of live
// clients, read from the database past the documents the store keeps.
func ListClientDocsRead(ctx context.Context, s *Store, businessID string, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return clients.listDocs(ctx, s.r, s.dialect, clientQuery(businessID, practiced.PersonFilter{}), p)
}

// KeptDocs is how many client documents the store keeps, and their
// bytes as it counts them.
func KeptDocs(s *Store) (n, bytes int) {
	s.kept.mu.Lock()
	defer s.kept.mu.Unlock()
	return s.kept.lru.Len(), s.kept.size
}

// KeepDocBytes has the store keep none of the documents it kept and at
// most max bytes of them from now on.
func KeepDocBytes(s *Store, max int) { s.kept = newKeptDocs(max) }

// BetweenKeptReads has f called between the two statements of a page
// read with kept documents, until the test ends.
func BetweenKeptReads(t testing.TB, f func()) {
	keptBetween = f
	t.Cleanup(func() { keptBetween = nil })
}

// SentByKeptPages has f told how many documents the first statement of
// each page read with kept documents read, until the test ends.
func SentByKeptPages(t testing.TB, f func(n int)) {
	keptSent = f
	t.Cleanup(func() { keptSent = nil })
}

// ForgetKeptDocs has the store let go of the documents it keeps of the
// business, or of the clients ids when given, as it does when their
// bytes pass its bound; what it knows of the pages it read stays.
func ForgetKeptDocs(s *Store, business string, ids ...string) {
	s.kept.mu.Lock()
	defer s.kept.mu.Unlock()
	for id, d := range s.kept.rows[business] {
		if len(ids) == 0 || slices.Contains(ids, id) {
			s.kept.drop(d)
		}
	}
}

// WriterExec runs a statement on the writer's connection, as SQL typed
// by hand would.
func WriterExec(s *Store, query string, args ...any) error {
	_, err := s.w.ExecContext(context.Background(), query, args...)
	return err
}

// WriterTx runs f with a function that runs a statement in one
// transaction of the writer, as SQL typed by hand would, and commits
// when f returns nil.
func WriterTx(s *Store, f func(exec func(query string, args ...any) error) error) error {
	ctx := context.Background()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	err = f(func(query string, args ...any) error {
		_, err := tx.ExecContext(ctx, query, args...)
		return err
	})
	if err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// PlaceKept reports whether BusyTimePlace would answer the place of a
// busy time from what the store keeps, the database being unchanged.
func PlaceKept(s *Store, business, location, practitioner string) bool {
	return keptNow(s, s.places, placeKey{business, location, practitioner})
}

// KeyKept reports whether APIKeyAndClientsVersion would answer the key
// whose token hashes to hash from what the store keeps, the database
// being unchanged.
func KeyKept(s *Store, hash string) bool {
	return keptNow(s, s.keys, hash)
}

// keptNow reports whether c would answer k at the database's state now.
func keptNow[K comparable, V any](s *Store, c *stateCache[K, V], k K) bool {
	at, ok := s.wal.state()
	if !ok {
		return false
	}
	_, kept := c.get(k, at)
	return kept
}
