package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/sqlstore"
)

// TestDemoRunsTwiceOnOneDatabase runs practiced demo twice on one
// database: the second run loads a second clinic with ids of its own.
// The first, which makes the database with a rollback journal, leaves it
// in the write-ahead log.
func TestDemoRunsTwiceOnOneDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.db")
	db := "sqlite:" + path
	var logs syncBuffer
	for range 2 {
		var token syncBuffer
		if err := run(t.Context(), []string{"demo", "--db", db}, noEnv, &token, &logs); err != nil {
			t.Fatalf("%v: %s", err, logs.String())
		}
		if !strings.HasPrefix(token.String(), "pk_") {
			t.Fatalf("printed %q, want a key", token.String())
		}
		// Bytes 18 and 19 of the header are 2 in the write-ahead log.
		header, err := os.ReadFile(path)
		if err != nil || len(header) < 20 || header[18] != 2 || header[19] != 2 {
			t.Fatalf("the database after a demo run: %v; want its header to say write-ahead log", err)
		}
	}
	if n := strings.Count(logs.String(), "loaded the demo clinic as business"); n != 2 {
		t.Fatalf("%d loads reported: %s", n, logs.String())
	}
	st, err := openStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	first, err := st.BusinessByName(t.Context(), demoBusiness)
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := st.ListClients(t.Context(), first.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100})
	if err != nil || len(list) != 100 {
		t.Fatalf("the first clinic lists %d clients: %v", len(list), err)
	}
}

// failingSeeds fails the store's nth load, a call of Seed or SeedAll: a
// demo load on SQLite makes three: the set-up, the clients and the
// appointments.
type failingSeeds struct {
	*sqlstore.Store
	n, calls int
}

func (f *failingSeeds) fails() bool {
	f.calls++
	return f.calls == f.n
}

func (f *failingSeeds) Seed(ctx context.Context, businessID string, d practiced.SeedData) error {
	if f.fails() {
		return errors.New("disk full")
	}
	return f.Store.Seed(ctx, businessID, d)
}

func (f *failingSeeds) SeedAll(ctx context.Context, businessID string, next func() (practiced.SeedData, bool, error)) error {
	if f.fails() {
		return errors.New("disk full")
	}
	return f.Store.SeedAll(ctx, businessID, next)
}

// TestDemoLoadIsAllOrNothing fails each of a load's batches in turn, and
// cancels one: nothing of the business stays behind, in the write-ahead
// log and in a new database made for the load, as practiced demo makes
// one.
func TestDemoLoadIsAllOrNothing(t *testing.T) {
	for name, opt := range map[string]sqlstore.Options{"log": {}, "made for the load": {Load: true}} {
		t.Run(name, func(t *testing.T) {
			st, err := sqlstore.OpenWith(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "demo.db"), opt)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			demoLoadIsAllOrNothing(t, st)
		})
	}
}

// demoLoadIsAllOrNothing is TestDemoLoadIsAllOrNothing on the store st.
func demoLoadIsAllOrNothing(t *testing.T, st *sqlstore.Store) {
	for n := 1; n <= 3; n++ {
		f := &failingSeeds{Store: st, n: n}
		_, err := loadDemoBusiness(t.Context(), f, "Failing Clinic", 1, 250, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.HasSuffix(err.Error(), "(nothing of the demo clinic was kept)") {
			t.Errorf("seed %d failing: %v", n, err)
		}
		if _, err := st.BusinessByName(t.Context(), "Failing Clinic"); practiced.ErrorCode(err) != practiced.ENOTFOUND {
			t.Fatalf("after seed %d failed, the business: %v", n, err)
		}
	}
	// Ctrl-C after the set-up was stored, as the clients start.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c := &cancelAtSeed{Store: st, n: 2, cancel: cancel}
	if _, err := loadDemoBusiness(ctx, c, "Interrupted Clinic", 1, 250, io.Discard); !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted load: %v", err)
	}
	if c.calls != 2 {
		t.Fatalf("the load made %d calls of Seed and SeedAll, want 2", c.calls)
	}
	if _, err := st.BusinessByName(t.Context(), "Interrupted Clinic"); practiced.ErrorCode(err) != practiced.ENOTFOUND {
		t.Errorf("after an interrupted load, the business: %v", err)
	}
}

// cancelAtSeed cancels the load's context at its nth call of Seed or
// SeedAll.
type cancelAtSeed struct {
	*sqlstore.Store
	n, calls int
	cancel   func()
}

func (c *cancelAtSeed) count() {
	c.calls++
	if c.calls == c.n {
		c.cancel()
	}
}

func (c *cancelAtSeed) Seed(ctx context.Context, businessID string, d practiced.SeedData) error {
	c.count()
	return c.Store.Seed(ctx, businessID, d)
}

func (c *cancelAtSeed) SeedAll(ctx context.Context, businessID string, next func() (practiced.SeedData, bool, error)) error {
	c.count()
	return c.Store.SeedAll(ctx, businessID, next)
}
