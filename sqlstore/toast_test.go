package sqlstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// TestPostgresKeepsARecordsRowWhole stores clients on PostgreSQL whose
// rows are longer than the 2 KB at which PostgreSQL would by default
// compress their documents or move them to the TOAST table (migration
// 0028): a row of about 3.5 KB stays whole and uncompressed in the
// clients table, and one longer than a page still goes to the TOAST table.
func TestPostgresKeepsARecordsRowWhole(t *testing.T) {
	url := testfix.PostgresURL(t)
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := testfix.NewClinic(t, st, "Toast")
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var toast string
	if err := db.QueryRow(`SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = 'clients'`).Scan(&toast); err != nil {
		t.Fatal(err)
	}
	// stored creates a client with notes of n random hex digits, which
	// pglz cannot shrink by the quarter it asks, and reports whether its
	// document was compressed and how many rows the TOAST table holds.
	stored := func(n int) (compressed bool, toasted int) {
		t.Helper()
		b := make([]byte, n/2)
		rand.Read(b)
		cl := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Long", LastName: "Notes", Notes: hex.EncodeToString(b),
			CreatedAt: practiced.NewTime(testfix.Now), UpdatedAt: practiced.NewTime(testfix.Now)}
		if err := st.CreateClient(ctx, c.Business.ID, &cl); err != nil {
			t.Fatal(err)
		}
		var rowLen int
		if err := db.QueryRow(`SELECT pg_column_compression(doc) IS NOT NULL, octet_length(doc) + octet_length(notes) FROM clients WHERE id = $1`,
			cl.ID).Scan(&compressed, &rowLen); err != nil {
			t.Fatal(err)
		}
		if rowLen < n*2 {
			t.Fatalf("the client's notes and document are %d bytes, want at least %d", rowLen, n*2)
		}
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + toast).Scan(&toasted); err != nil {
			t.Fatal(err)
		}
		return compressed, toasted
	}
	if compressed, toasted := stored(1500); compressed || toasted != 0 {
		t.Errorf("a client row of about 3.5 KB: document compressed %v, %d rows in the TOAST table; want it whole", compressed, toasted)
	}
	if compressed, toasted := stored(6000); !compressed && toasted == 0 {
		t.Errorf("a client row of about 12 KB is neither compressed nor in the TOAST table")
	}
}
