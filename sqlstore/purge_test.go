package sqlstore_test

import (
	"context"
	"testing"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

func TestDeleteBusinessSQLite(t *testing.T) {
	testDeleteBusiness(t, testfix.SQLiteStore(t))
}

func TestDeleteBusinessPostgres(t *testing.T) {
	testDeleteBusiness(t, testfix.PostgresStore(t))
}

// testDeleteBusiness deletes one of two full clinics and counts what is
// left of each in every table that has a business_id.
func testDeleteBusiness(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	gone := testfix.NewClinic(t, st, "Gone Clinic")
	kept := testfix.NewClinic(t, st, "Kept Clinic")
	before := rowsPerTable(t, st, kept.Business.ID)
	if err := st.DeleteBusiness(ctx, gone.Business.ID); err != nil {
		t.Fatal(err)
	}
	for table, n := range rowsPerTable(t, st, gone.Business.ID) {
		if n != 0 {
			t.Errorf("%s keeps %d rows of the deleted business", table, n)
		}
	}
	after := rowsPerTable(t, st, kept.Business.ID)
	total := 0
	for table, n := range before {
		if after[table] != n {
			t.Errorf("%s: the other business had %d rows, now %d", table, n, after[table])
		}
		total += n
	}
	if total < 20 {
		t.Fatalf("the kept clinic has %d rows in all; the test proves nothing", total)
	}
	if _, err := st.BusinessByName(ctx, "Gone Clinic"); err == nil {
		t.Error("the deleted business is still there")
	}
	if _, err := st.BusinessByName(ctx, "Kept Clinic"); err != nil {
		t.Errorf("the other business: %v", err)
	}
}

func rowsPerTable(t *testing.T, st *sqlstore.Store, business string) map[string]int {
	t.Helper()
	out, err := sqlstore.CountBusinessRows(st, business)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
