package sqlstore_test

import (
	"context"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// TestPostgresPlansAPageOnceForEveryCursor reads ten pages with cursors
// on one connection. PostgreSQL plans a prepared statement for its
// values five times, then keeps one plan for all values when that plan
// costs no more: a page's statement must get there, because planning it
// for each cursor took longer than running it. The 20,000 clients of
// benchClinic have statistics, so the planner could tell a cursor near
// the start of the list from another; with much fewer rows, or pages of
// 10, a plan for the cursor would not cost enough less to be kept
// making.
func TestPostgresPlansAPageOnceForEveryCursor(t *testing.T) {
	st := testfix.PostgresStore(t)
	ctx := context.Background()
	c, ids := benchClinic(t, st)
	conn, err := sqlstore.Reader(st).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := range 10 {
		docs, _, err := sqlstore.ListClientDocsOn(ctx, st, conn, c.Business.ID, practiced.PageRequest{Limit: 100, After: ids[i]})
		if err != nil || len(docs) != 100 {
			t.Fatalf("page %d: %d clients, %v", i, len(docs), err)
		}
	}
	var generic, custom int
	err = conn.QueryRowContext(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE 'SELECT doc FROM clients WHERE %'`).Scan(&generic, &custom)
	if err != nil {
		t.Fatal(err)
	}
	if generic != 5 || custom != 5 {
		t.Errorf("ten pages were read with %d plans made for their cursors and %d runs of a kept plan, want 5 and 5", custom, generic)
	}
}
