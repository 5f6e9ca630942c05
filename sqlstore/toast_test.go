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

// TestPostgresKeepsARecordsRowWhole stores a client on PostgreSQL whose
// row is longer than the 2 KB at which PostgreSQL would by default
// compress its document or move it to the TOAST table (migration 0028):
// the row of about 3.5 KB stays whole and uncompressed in the clients
// table.
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
	// Notes of 3,000 random hex digits, which do not compress by the
	// quarter PostgreSQL asks, in the document.
	b := make([]byte, 1500)
	rand.Read(b)
	cl := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Long", LastName: "Notes", Notes: hex.EncodeToString(b),
		CreatedAt: practiced.NewTime(testfix.Now), UpdatedAt: practiced.NewTime(testfix.Now)}
	if err := st.CreateClient(ctx, c.Business.ID, &cl); err != nil {
		t.Fatal(err)
	}
	var compressed bool
	var rowLen, toasted int
	if err := db.QueryRow(`SELECT pg_column_compression(doc) IS NOT NULL, octet_length(doc) FROM clients WHERE id = $1`,
		cl.ID).Scan(&compressed, &rowLen); err != nil {
		t.Fatal(err)
	}
	if rowLen < 3000 {
		t.Fatalf("the client's document is %d bytes, want at least 3,000", rowLen)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + toast).Scan(&toasted); err != nil {
		t.Fatal(err)
	}
	if compressed || toasted != 0 {
		t.Errorf("a client row of about 3.5 KB: document compressed %v, %d rows in the TOAST table; want it whole", compressed, toasted)
	}
}
