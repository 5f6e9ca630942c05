package sqlstore_test

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/storetest"
	"github.com/practiced/practiced/tid"
)

// openSQLite opens a fresh store on a file of its own.
func openSQLite(t *testing.T) practiced.Store {
	t.Helper()
	return testfix.SQLiteStore(t)
}

func TestStore(t *testing.T) {
	storetest.Run(t, openSQLite)
}

// TestStorePostgres runs the suite on the server PRACTICED_TEST_POSTGRES
// names, and skips without it. The run has a database of its own and
// each group of rules a schema of its own in it, which is far cheaper to
// make than a database.
func TestStorePostgres(t *testing.T) {
	if os.Getenv(testfix.PostgresEnv) == "" {
		t.Skip(testfix.PostgresEnv + " is not set: skipping the PostgreSQL store")
	}
	base := testfix.PostgresURL(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	storetest.Run(t, func(t *testing.T) practiced.Store {
		schema := "s_" + strings.TrimPrefix(tid.New("s"), "s_")
		if _, err := admin.ExecContext(t.Context(), "CREATE SCHEMA "+schema); err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		st, err := sqlstore.Open(t.Context(), u.String())
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// open opens url, closed when the test ends.
func open(t *testing.T, url string) *sqlstore.Store {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open(%q): %v", url, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestMigrationsApplyOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st := open(t, "sqlite:"+path)
	biz, err := st.CreateBusiness(t.Context(), "Clinic A")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(t.Context()); err != nil {
		t.Fatalf("Migrate on a migrated database: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	again := open(t, "sqlite:"+path) // migrates again, finding nothing to do
	got, err := again.BusinessByName(t.Context(), "Clinic A")
	if err != nil || got.ID != biz.ID {
		t.Fatalf("BusinessByName after reopening = %+v, %v; want %s", got, err, biz.ID)
	}
}

func TestBarePathIsSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bare.db")
	bare := open(t, path)
	if _, err := bare.CreateBusiness(t.Context(), "Clinic A"); err != nil {
		t.Fatal(err)
	}
	bare.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the bare path was not used: %v", err)
	}
	prefixed := open(t, "sqlite:"+path)
	if _, err := prefixed.BusinessByName(t.Context(), "Clinic A"); err != nil {
		t.Fatalf("sqlite:PATH does not open the file a bare PATH made: %v", err)
	}
}

func TestEmptyPathIsRefused(t *testing.T) {
	for _, url := range []string{"", "sqlite:"} {
		if st, err := sqlstore.Open(t.Context(), url); err == nil {
			st.Close()
			t.Errorf("Open(%q) succeeded", url)
		}
	}
}

func TestUnknownSchemeIsRefusedByName(t *testing.T) {
	for url, scheme := range map[string]string{"mysql://root@localhost/clinic": "mysql", "sqlite3://x.db": "sqlite3", "http://example.org/db": "http"} {
		st, err := sqlstore.Open(t.Context(), url)
		if err == nil {
			st.Close()
			t.Errorf("Open(%q) succeeded", url)
			continue
		}
		want := `unknown database URL scheme "` + scheme + `": use sqlite:PATH, a file path, or postgres://…`
		if err.Error() != want {
			t.Errorf("Open(%q): %v, want %s", url, err, want)
		}
	}
}

func TestJournalIsWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st := open(t, "sqlite:"+path)
	if _, err := st.CreateBusiness(t.Context(), "Clinic A"); err != nil {
		t.Fatal(err)
	}
	// In WAL mode, writes go to PATH-wal while the database is open.
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("no write-ahead log beside the database: %v", err)
	}
}

func TestForeignKeysAreEnforced(t *testing.T) {
	st := open(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	ctx := t.Context()
	biz, err := st.CreateBusiness(ctx, "Clinic A")
	if err != nil {
		t.Fatal(err)
	}
	pra := practiced.Practitioner{ID: tid.New(practiced.PrefixPractitioner), FirstName: "Alice", LastName: "Nguyen"}
	bt := practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: tid.New(practiced.PrefixLocation),
		PractitionerID: pra.ID, StartsAt: practiced.Now(), EndsAt: practiced.Now()}
	err = st.Seed(ctx, biz.ID, practiced.SeedData{Practitioners: []practiced.Practitioner{pra}, BusyTimes: []practiced.BusyTime{bt}})
	if code := practiced.ErrorCode(err); code != practiced.EINVALID {
		t.Fatalf("Seed of a busy time at a missing location: %v (code %q), want EINVALID", err, code)
	}
	if _, err := st.GetPractitioner(ctx, biz.ID, pra.ID); practiced.ErrorCode(err) != practiced.ENOTFOUND {
		t.Errorf("GetPractitioner after the failed seed: %v, want ENOTFOUND", err)
	}
}

// Two stores on one file stand for two processes, such as the server and
// `practiced apikey create`: their writers must wait for each other, not
// fail on a locked database.
func TestTwoStoresOnOneFileWaitForEachOther(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	a, b := open(t, "sqlite:"+path), open(t, "sqlite:"+path)
	ctx := t.Context()
	biz, err := a.CreateBusiness(ctx, "Clinic A")
	if err != nil {
		t.Fatal(err)
	}
	cli := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Ann", LastName: "Archer"}
	if err := a.Seed(ctx, biz.ID, practiced.SeedData{Clients: []practiced.Client{cli}}); err != nil {
		t.Fatal(err)
	}
	const rounds = 20
	var wg sync.WaitGroup
	errs := make(chan error, 2*rounds)
	for _, st := range []*sqlstore.Store{a, b} {
		wg.Go(func() {
			for range rounds {
				_, err := st.UpdateClient(ctx, biz.ID, cli.ID, func(c *practiced.Client) error {
					c.Intolerances = append(c.Intolerances, "x")
					return nil
				})
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, err := b.GetClient(ctx, biz.ID, cli.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Intolerances) != 2*rounds {
		t.Errorf("%d intolerances after %d appends through two stores, want %d", len(got.Intolerances), 2*rounds, 2*rounds)
	}
}
