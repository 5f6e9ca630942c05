package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

func TestSeedAllIsOneTransactionSQLite(t *testing.T) {
	testSeedAll(t, testfix.SQLiteStore(t))
}

func TestSeedAllIsOneTransactionPostgres(t *testing.T) {
	testSeedAll(t, testfix.PostgresStore(t))
}

// testSeedAll stores three batches whose last one fails, then three that
// succeed: the first attempt leaves nothing.
func testSeedAll(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	biz, err := st.CreateBusiness(ctx, "Batched Clinic")
	if err != nil {
		t.Fatal(err)
	}
	batches := func(fail error) func() (practiced.SeedData, bool, error) {
		n := 0
		return func() (practiced.SeedData, bool, error) {
			n++
			switch {
			case n == 3 && fail != nil:
				return practiced.SeedData{}, false, fail
			case n > 3:
				return practiced.SeedData{}, false, nil
			}
			var d practiced.SeedData
			for i := range 50 {
				now := practiced.NewTime(testfix.Now)
				d.Clients = append(d.Clients, practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: fmt.Sprint("Batch", n),
					LastName: fmt.Sprint("Row", i), CreatedAt: now, UpdatedAt: now})
			}
			return d, true, nil
		}
	}
	count := func() int {
		n := 0
		page := practiced.PageRequest{Limit: 100}
		for {
			list, info, err := st.ListClients(ctx, biz.ID, practiced.PersonFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			n += len(list)
			if !info.HasNext {
				return n
			}
			page.After = info.LastID
		}
	}
	disk := errors.New("the file ends mid-row")
	if err := st.SeedAll(ctx, biz.ID, batches(disk)); !errors.Is(err, disk) {
		t.Fatalf("err = %v, want the batch's error", err)
	}
	if n := count(); n != 0 {
		t.Fatalf("a failed SeedAll left %d clients", n)
	}
	if err := st.SeedAll(ctx, biz.ID, batches(nil)); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 150 {
		t.Fatalf("three batches of 50 stored %d clients", n)
	}
}

// A load keeps the writer's temporary files in files while it runs; the
// writer keeps them in memory again after it, whether it failed or not.
func TestSeedAllGivesTheWriterItsTempStoreBack(t *testing.T) {
	st := testfix.SQLiteStore(t)
	ctx := context.Background()
	biz, err := st.CreateBusiness(ctx, "Loaded Clinic")
	if err != nil {
		t.Fatal(err)
	}
	want := func(when string) {
		t.Helper()
		n, err := sqlstore.WriterTempStore(st)
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Fatalf("temp_store %s = %d, want 2 (memory)", when, n)
		}
	}
	want("before a load")
	during := -1
	sqlstore.OnLoadBegun(st, func(tx *sql.Tx) {
		if err := tx.QueryRow("PRAGMA temp_store").Scan(&during); err != nil {
			t.Error(err)
		}
	})
	now := practiced.NewTime(testfix.Now)
	one := func(fail error) func() (practiced.SeedData, bool, error) {
		done := false
		return func() (practiced.SeedData, bool, error) {
			if done {
				return practiced.SeedData{}, false, fail
			}
			done = true
			return practiced.SeedData{Clients: []practiced.Client{{ID: tid.New(practiced.PrefixClient), FirstName: "Ada",
				LastName: "Load", CreatedAt: now, UpdatedAt: now}}}, true, nil
		}
	}
	broken := errors.New("the file ends mid-row")
	if err := st.SeedAll(ctx, biz.ID, one(broken)); !errors.Is(err, broken) {
		t.Fatalf("err = %v, want the batch's error", err)
	}
	if during != 1 {
		t.Fatalf("temp_store during a failed load = %d, want 1 (file)", during)
	}
	want("after a failed load")
	during = -1
	if err := st.SeedAll(ctx, biz.ID, one(nil)); err != nil {
		t.Fatal(err)
	}
	if during != 1 {
		t.Fatalf("temp_store during a load = %d, want 1 (file)", during)
	}
	want("after a load")
}
