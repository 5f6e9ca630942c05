package sqlstore_test

import (
	"context"
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
