package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// A load keeps the writer's temporary files in files and lets its sorts
// use helper threads while it runs; the writer keeps them in memory and
// sorts alone again after it, whether it failed or not.
func TestSeedAllGivesTheWriterItsSettingsBack(t *testing.T) {
	st := testfix.SQLiteStore(t)
	ctx := context.Background()
	biz, err := st.CreateBusiness(ctx, "Loaded Clinic")
	if err != nil {
		t.Fatal(err)
	}
	wantWriterAsUsual(t, st, "before a load")
	during, threads := -1, -1
	sqlstore.OnLoadBegun(st, func(tx *sql.Tx) {
		if err := tx.QueryRow("PRAGMA temp_store").Scan(&during); err != nil {
			t.Error(err)
		}
		if err := tx.QueryRow("PRAGMA threads").Scan(&threads); err != nil {
			t.Error(err)
		}
	})
	broken := errors.New("the file ends mid-row")
	if err := st.SeedAll(ctx, biz.ID, oneClient("Load", broken)); !errors.Is(err, broken) {
		t.Fatalf("err = %v, want the batch's error", err)
	}
	if during != 1 || threads != 2 {
		t.Fatalf("temp_store and threads during a failed load = %d and %d, want 1 (file) and 2", during, threads)
	}
	wantWriterAsUsual(t, st, "after a failed load")
	during, threads = -1, -1
	if err := st.SeedAll(ctx, biz.ID, oneClient("Load", nil)); err != nil {
		t.Fatal(err)
	}
	if during != 1 || threads != 2 {
		t.Fatalf("temp_store and threads during a load = %d and %d, want 1 (file) and 2", during, threads)
	}
	wantWriterAsUsual(t, st, "after a load")
}

// oneClient is the batches of a load of one client, Ada lastName, then
// of the end of the load or, when fail is set, of that error.
func oneClient(lastName string, fail error) func() (practiced.SeedData, bool, error) {
	now := practiced.NewTime(testfix.Now)
	done := false
	return func() (practiced.SeedData, bool, error) {
		if done {
			return practiced.SeedData{}, false, fail
		}
		done = true
		return practiced.SeedData{Clients: []practiced.Client{{ID: tid.New(practiced.PrefixClient), FirstName: "Ada",
			LastName: lastName, CreatedAt: now, UpdatedAt: now}}}, true, nil
	}
}

// wantWriterAsUsual fails unless the writer keeps its temporary files in
// memory (temp_store 2) and sorts alone (threads 0), as it does outside
// a load.
func wantWriterAsUsual(t *testing.T, st *sqlstore.Store, when string) {
	t.Helper()
	for pragma, want := range map[string]int{"temp_store": 2, "threads": 0} {
		n, err := sqlstore.WriterSetting(st, pragma)
		if err != nil || n != want {
			t.Fatalf("%s %s = %d, %v; want %d", pragma, when, n, err, want)
		}
	}
}

// countdownCtx is a context that is cancelled from its left-th check
// on: Done and Err both count.
type countdownCtx struct {
	context.Context
	left   atomic.Int64
	closed chan struct{}
}

func (c *countdownCtx) Done() <-chan struct{} {
	if c.left.Add(-1) < 0 {
		return c.closed
	}
	return nil
}

func (c *countdownCtx) Err() error {
	if c.left.Load() < 0 {
		return context.Canceled
	}
	return nil
}

// A load cancelled at any point, even between a setting taking effect
// and its statement reporting the cancellation, leaves the writer's
// settings as they were and stores nothing; cancelled late enough, it
// stores its client.
func TestSeedAllCancelledAnywhereGivesTheWriterItsSettingsBack(t *testing.T) {
	st := testfix.SQLiteStore(t)
	ctx := context.Background()
	biz, err := st.CreateBusiness(ctx, "Cancelled Clinic")
	if err != nil {
		t.Fatal(err)
	}
	cancelled := 0
	for checks := int64(0); ; checks++ {
		if checks == 1000 {
			t.Fatal("a load allowed 1,000 checks of its context still did not finish")
		}
		c := &countdownCtx{Context: ctx, closed: make(chan struct{})}
		close(c.closed)
		c.left.Store(checks)
		loadErr := st.SeedAll(c, biz.ID, oneClient("Cancel", nil))
		wantWriterAsUsual(t, st, fmt.Sprintf("after a load allowed %d checks (%v)", checks, loadErr))
		list, _, err := st.ListClients(ctx, biz.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if loadErr == nil {
			if len(list) != 1 || cancelled == 0 {
				t.Fatalf("the load stored %d clients after %d cancelled loads, want 1 after some", len(list), cancelled)
			}
			return
		}
		if !errors.Is(loadErr, context.Canceled) || len(list) != 0 {
			t.Fatalf("a load allowed %d checks: %v, and %d clients stored; want it cancelled with none", checks, loadErr, len(list))
		}
		cancelled++
	}
}

// loadStore opens a new SQLite store, with a business, and the same
// database file on a connection of its own, to read it from outside the
// store.
func loadStore(t *testing.T) (*sqlstore.Store, *sql.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := sqlstore.Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	biz, err := st.CreateBusiness(context.Background(), "Loaded Clinic")
	if err != nil {
		t.Fatal(err)
	}
	return st, db, biz.ID
}

// clientIndexes selects the clients' secondary indexes, and clientStats
// and clientSamples their planner statistics, for pairs.
const (
	clientIndexes = `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'clients' AND sql IS NOT NULL ORDER BY name`
	clientStats   = `SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'clients' ORDER BY idx`
	clientSamples = `SELECT idx, neq || '/' || nlt || '/' || ndlt || '/' || hex(sample) FROM sqlite_stat4 WHERE tbl = 'clients' ORDER BY 1, 2`
	// clientTriggers are the triggers on the clients table.
	clientTriggers = `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'clients' ORDER BY name`
)

// clientsVersion is the version of the business's list of clients.
func clientsVersion(t *testing.T, db *sql.DB, biz string) int {
	t.Helper()
	return listVersion(t, db, biz, "clients")
}

// listVersion is the version of the business's list, on either store.
func listVersion(t *testing.T, db *sql.DB, biz, list string) int {
	t.Helper()
	var v int
	err := db.QueryRow(`SELECT version FROM list_versions WHERE business = $1 AND list = $2`, biz, list).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0
	} else if err != nil {
		t.Fatal(err)
	}
	return v
}

// pairs runs query, which selects two text columns, on q, and returns
// each row as "first: second".
func pairs(t *testing.T, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string) []string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a, b sql.NullString
		if err := rows.Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		out = append(out, a.String+": "+b.String)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rowClients makes clients numbered one after another across calls, with
// e-mail addresses in mixed case ("Row7@Example.com").
type rowClients struct{ made int }

func (r *rowClients) next(n int) []practiced.Client {
	now := practiced.NewTime(testfix.Now)
	var out []practiced.Client
	for range n {
		r.made++
		out = append(out, practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Load",
			LastName: fmt.Sprint("Row", r.made), Email: fmt.Sprintf("Row%d@Example.com", r.made), CreatedAt: now, UpdatedAt: now})
	}
	return out
}

// checkIntegrity fails the test unless SQLite finds db whole, every index
// holding exactly its table's rows.
func checkIntegrity(t *testing.T, db *sql.DB) {
	t.Helper()
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
}

// A load into an empty table builds the table's secondary indexes after
// its rows, inside its transaction: while it runs the indexes are gone,
// and after it, committed or not, they are back as they were and index
// every row. A load that reaches the threshold while the table holds
// more rows from before it keeps them up row by row.
func TestALargeLoadBuildsItsIndexesAfterItsRows(t *testing.T) {
	sqlstore.SetLaterIndexRows(t, 100)
	ctx := context.Background()
	st, db, biz := loadStore(t)
	before := pairs(t, db, clientIndexes)
	if len(before) != 3 || !strings.HasPrefix(before[0], "clients_email_lower: ") || !strings.HasPrefix(before[1], "clients_live_revisions: ") ||
		!strings.HasPrefix(before[2], "clients_updated: ") {
		t.Fatalf("the clients' secondary indexes are %q, want clients_email_lower, clients_live_revisions and clients_updated", before)
	}
	triggers := pairs(t, db, clientTriggers)
	for _, name := range []string{"clients_version_insert", "clients_revision_insert"} {
		if !slices.ContainsFunc(triggers, func(s string) bool { return strings.HasPrefix(s, name+": ") }) {
			t.Fatalf("the clients' triggers are %q, want %s among them", triggers, name)
		}
	}
	version := clientsVersion(t, db, biz)
	var load *sql.Tx
	sqlstore.OnLoadBegun(st, func(tx *sql.Tx) { load = tx })
	var during, triggersDuring []string
	var clients rowClients
	batches := func(fail error) func() (practiced.SeedData, bool, error) {
		n := 0
		return func() (practiced.SeedData, bool, error) {
			n++
			if n == 2 {
				during = pairs(t, load, clientIndexes)
				triggersDuring = pairs(t, load, clientTriggers)
			}
			switch {
			case n == 3 && fail != nil:
				return practiced.SeedData{}, false, fail
			case n > 2:
				return practiced.SeedData{}, false, nil
			}
			return practiced.SeedData{Clients: clients.next(100)}, true, nil
		}
	}
	stored := func() int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM clients WHERE business_id = ?`, biz).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	broken := errors.New("the file ends mid-row")
	for _, fail := range []error{broken, nil} {
		during = nil
		if err := st.SeedAll(ctx, biz, batches(fail)); !errors.Is(err, fail) {
			t.Fatalf("err = %v, want %v", err, fail)
		}
		if len(during) != 0 {
			t.Errorf("a load into an empty table (failing: %v) kept %q while it ran, want no secondary index", fail, during)
		}
		if got := pairs(t, db, clientIndexes); !slices.Equal(got, before) {
			t.Fatalf("after a load (failing: %v) the indexes are %q, want %q", fail, got, before)
		}
		if want := len(triggers) - 2; len(triggersDuring) != want || slices.ContainsFunc(triggersDuring, func(s string) bool {
			return strings.HasPrefix(s, "clients_version_insert: ") || strings.HasPrefix(s, "clients_revision_insert: ")
		}) {
			t.Errorf("a load into an empty table (failing: %v) kept the triggers %q while it ran, want all but clients_version_insert and clients_revision_insert",
				fail, triggersDuring)
		}
		if got := pairs(t, db, clientTriggers); !slices.Equal(got, triggers) {
			t.Fatalf("after a load (failing: %v) the triggers are %q, want %q", fail, got, triggers)
		}
	}
	if n := stored(); n != 200 {
		t.Fatalf("a failed load and a load of 200 clients stored %d", n)
	}
	// The failed load changed nothing; the other added one, once.
	if got := clientsVersion(t, db, biz); got != version+1 {
		t.Errorf("the list's version went from %d to %d in a failed load and a load of 200 clients, want %d", version, got, version+1)
	}
	checkIntegrity(t, db)
	var byEmail, byUpdate int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM clients INDEXED BY clients_email_lower
		WHERE business_id = ? AND lower(email) = 'row300@example.com'`, biz).Scan(&byEmail); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM clients INDEXED BY clients_updated
		WHERE business_id = ? AND updated_at >= ''`, biz).Scan(&byUpdate); err != nil {
		t.Fatal(err)
	}
	if byEmail != 1 || byUpdate != 200 {
		t.Fatalf("the built indexes find %d clients by e-mail and %d by update, want 1 and 200", byEmail, byUpdate)
	}

	during = nil
	if err := st.SeedAll(ctx, biz, batches(nil)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(during, before) {
		t.Errorf("a load that decided at 100 rows, into 200 clients, kept %q while it ran, want %q", during, before)
	}
	if n := stored(); n != 400 {
		t.Fatalf("two loads of 200 clients stored %d", n)
	}
	// This one kept its trigger, which added one for each row.
	if got := clientsVersion(t, db, biz); got != version+201 {
		t.Errorf("after a load that kept its trigger the version is %d, want %d", got, version+201)
	}
}

// A load decides once, when its rows of a table reach the threshold,
// against the rows the table held before it: as many as the load's rows
// then, and it builds the indexes after its rows; one more, and it keeps
// them up row by row, even as its rows outgrow the table's. Rebuilt
// indexes keep their planner statistics, and a load cancelled after the
// drop leaves the indexes as they were.
func TestALoadDecidesOnTheRowsTheTableHeld(t *testing.T) {
	sqlstore.SetLaterIndexRows(t, 150)
	for _, tc := range []struct {
		prior         int
		cancel, drops bool
	}{{200, false, true}, {201, false, false}, {0, true, true}} {
		t.Run(fmt.Sprintf("%d rows before, cancelled %v", tc.prior, tc.cancel), func(t *testing.T) {
			ctx := context.Background()
			st, db, biz := loadStore(t)
			var clients rowClients
			for left := tc.prior; left > 0; left -= 100 {
				if err := st.Seed(ctx, biz, practiced.SeedData{Clients: clients.next(min(left, 100))}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
				t.Fatal(err)
			}
			indexes, stats, samples := pairs(t, db, clientIndexes), pairs(t, db, clientStats), pairs(t, db, clientSamples)
			if len(indexes) != 3 {
				t.Fatalf("the clients' secondary indexes are %q, want three", indexes)
			}
			if tc.prior > 0 && (len(stats) != 4 || len(samples) == 0) {
				t.Fatalf("statistics %q and %d samples, want the clients' four indexes and samples", stats, len(samples))
			}

			var load *sql.Tx
			sqlstore.OnLoadBegun(st, func(tx *sql.Tx) { load = tx })
			loadCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			var during []string
			n := 0
			err := st.SeedAll(loadCtx, biz, func() (practiced.SeedData, bool, error) {
				n++
				if n < 4 {
					return practiced.SeedData{Clients: clients.next(100)}, true, nil
				}
				during = pairs(t, load, clientIndexes)
				if tc.cancel {
					cancel()
				}
				return practiced.SeedData{}, false, nil
			})
			want, stored := tc.prior+300, 0
			if tc.cancel {
				want = tc.prior
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want the cancelled context's", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tc.drops && len(during) != 0 || !tc.drops && !slices.Equal(during, indexes) {
				t.Errorf("while the load ran the indexes were %q; want them dropped: %v", during, tc.drops)
			}
			if got := pairs(t, db, clientIndexes); !slices.Equal(got, indexes) {
				t.Errorf("after the load the indexes are %q, want %q", got, indexes)
			}
			if got := pairs(t, db, clientStats); !slices.Equal(got, stats) {
				t.Errorf("after the load the statistics are %q, want %q", got, stats)
			}
			if got := pairs(t, db, clientSamples); !slices.Equal(got, samples) {
				t.Errorf("after the load the samples are %q, want %q", got, samples)
			}
			if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM clients`).Scan(&stored); err != nil || stored != want {
				t.Errorf("%d clients stored (%v), want %d", stored, err, want)
			}
			checkIntegrity(t, db)
		})
	}
}

// A load on PostgreSQL counts its business's clients version once, by
// the triggers of its first rows at commit, and gives the clients after
// its first chunk one revision of its own, which no client had: its
// mark of the table, practiced.loading, is the transaction's, so the
// next write outside it is counted and numbered as ever.
func TestAPostgresLoadCountsOnceAndGivesItsRowsARevision(t *testing.T) {
	ctx := context.Background()
	st := testfix.PostgresStore(t)
	db := sqlstore.Reader(st)
	c := testfix.NewClinic(t, st, "Loaded")
	biz := c.Business.ID
	var before int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(revision), 0) FROM clients`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	version := clientsVersion(t, db, biz)
	var clients rowClients
	const batch, batches = 6000, 3 // a batch is two chunks of COPY (copyRows)
	n := 0
	if err := st.SeedAll(ctx, biz, func() (practiced.SeedData, bool, error) {
		if n++; n > batches {
			return practiced.SeedData{}, false, nil
		}
		return practiced.SeedData{Clients: clients.next(batch)}, true, nil
	}); err != nil {
		t.Fatal(err)
	}
	if v := clientsVersion(t, db, biz); v != version+1 {
		t.Fatalf("the clients version is %d after a load, %d before it; want one more", v, version)
	}
	rows, err := db.QueryContext(ctx, `SELECT revision, COUNT(*) FROM clients WHERE business_id = $1 AND revision > $2 GROUP BY revision`, biz, before)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var own, shared int // revisions with one client, and the clients of the one shared
	for rows.Next() {
		var r, k int64
		if err := rows.Scan(&r, &k); err != nil {
			t.Fatal(err)
		}
		switch {
		case k == 1:
			own++
		case shared != 0:
			t.Fatalf("a second revision, %d, is shared by %d clients", r, k)
		default:
			shared = int(k)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if own != 5000 || shared != batch*batches-5000 {
		t.Fatalf("%d clients loaded with a revision of their own and %d sharing one; want the first chunk's 5000 and the %d after it",
			own, shared, batch*batches-5000)
	}
	var loadedTo int64
	if err := db.QueryRowContext(ctx, `SELECT MAX(revision) FROM clients WHERE business_id = $1`, biz).Scan(&loadedTo); err != nil {
		t.Fatal(err)
	}
	created := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "After", LastName: "Load",
		CreatedAt: practiced.NewTime(testfix.Now), UpdatedAt: practiced.NewTime(testfix.Now)}
	if err := st.CreateClient(ctx, biz, &created); err != nil {
		t.Fatal(err)
	}
	if v := clientsVersion(t, db, biz); v != version+2 {
		t.Fatalf("the clients version is %d after a client made after the load, want %d", v, version+2)
	}
	var r int64
	if err := db.QueryRowContext(ctx, `SELECT revision FROM clients WHERE business_id = $1 AND id = $2`, biz, created.ID).Scan(&r); err != nil || r <= loadedTo {
		t.Fatalf("a client made after the load has revision %d (%v), the load's last being %d", r, err, loadedTo)
	}
}

// A load on PostgreSQL of busy times in more than one chunk of COPY
// counts their business's list of busy times once, as a write of them
// does, so that what is kept of the business's availability is read
// again; the busy times are all stored.
func TestAPostgresLoadCountsItsBusyTimesOnce(t *testing.T) {
	ctx := context.Background()
	st := testfix.PostgresStore(t)
	db := sqlstore.Reader(st)
	c := testfix.NewClinic(t, st, "Busy")
	biz := c.Business.ID
	version := listVersion(t, db, biz, "busy_times")
	const n = 12000 // three chunks of COPY (copyRows)
	bts := make([]practiced.BusyTime, n)
	for i := range bts {
		s := testfix.Now.Add(time.Duration(i) * time.Hour)
		bts[i] = practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: c.Sydney.ID, PractitionerID: c.Alice.ID,
			StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(30 * time.Minute)), Duration: 30,
			CreatedAt: practiced.NewTime(testfix.Now), UpdatedAt: practiced.NewTime(testfix.Now)}
	}
	loaded := false
	if err := st.SeedAll(ctx, biz, func() (practiced.SeedData, bool, error) {
		if loaded {
			return practiced.SeedData{}, false, nil
		}
		loaded = true
		return practiced.SeedData{BusyTimes: bts}, true, nil
	}); err != nil {
		t.Fatal(err)
	}
	if v := listVersion(t, db, biz, "busy_times"); v != version+1 {
		t.Fatalf("the busy times' version is %d after a load, %d before it; want one more", v, version)
	}
	var stored int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM busy_times WHERE business_id = $1`, biz).Scan(&stored); err != nil || stored != n {
		t.Fatalf("%d busy times stored (%v), want %d", stored, err, n)
	}
}
