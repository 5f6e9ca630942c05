package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

func TestClientsVersionSQLite(t *testing.T) {
	testClientsVersion(t, testfix.SQLiteStore(t), false, true)
}

func TestClientsVersionPostgres(t *testing.T) {
	testClientsVersion(t, testfix.PostgresStore(t), true, false)
}

// testClientsVersion checks that every way a client changes changes the
// number of its business's clients, that nothing else does, and that it
// never goes back. On PostgreSQL a transaction adds exactly one. SQLite
// reads a page of documents as one row (emptyNumbered), so an empty
// page has a number there; PostgreSQL reads a row a document, and an
// empty page has none.
func testClientsVersion(t *testing.T, st *sqlstore.Store, perTransaction, emptyNumbered bool) {
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Versions")
	other := testfix.NewClinic(t, st, "Other")
	version := func(biz string) int64 {
		t.Helper()
		v, err := st.ClientsVersion(ctx, biz)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	fresh, err := st.CreateBusiness(ctx, "No clients")
	if err != nil {
		t.Fatal(err)
	}
	if v := version(fresh.ID); v != 0 {
		t.Fatalf("a business without clients has %d, want 0", v)
	}
	last := version(c.Business.ID)
	if last == 0 {
		t.Fatal("seeding clients left the number at 0")
	}
	otherAt := version(other.Business.ID)
	step := func(what string, rows int64, change func() error) {
		t.Helper()
		if err := change(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		v := version(c.Business.ID)
		want := last + rows
		if perTransaction {
			want = last + 1
		}
		if v != want {
			t.Errorf("%s: the number went from %d to %d, want %d", what, last, v, want)
		}
		last = v
		// A page read with its number reads this one: filtered or not,
		// on either side of a cursor, and empty after its cursor's own
		// row. A page whose probe ran on its own after its statement (an
		// inclusive one, or one after a client no longer in the list)
		// has none: -1.
		_, all, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		pages := []struct {
			f    practiced.PersonFilter
			p    practiced.PageRequest
			want int   // clients on the page
			at   int64 // its number
		}{
			{practiced.PersonFilter{}, practiced.PageRequest{Limit: 2}, 2, v},
			{practiced.PersonFilter{Query: "dale"}, practiced.PageRequest{Limit: 2}, 1, v},
			{practiced.PersonFilter{}, practiced.PageRequest{Limit: 2, After: all.FirstID}, 2, v},
			{practiced.PersonFilter{}, practiced.PageRequest{Limit: 2, Before: all.LastID}, 2, v},
			{practiced.PersonFilter{}, practiced.PageRequest{Limit: 2, After: all.LastID}, 0, v},
			{practiced.PersonFilter{}, practiced.PageRequest{Limit: 2, Before: all.LastID, Inclusive: true}, 2, -1},
			{practiced.PersonFilter{}, practiced.PageRequest{Limit: 2, After: "cli_0"}, 2, -1},
		}
		for _, pg := range pages {
			docs, _, at, err := st.ListClientDocsAt(ctx, c.Business.ID, pg.f, pg.p)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != pg.want || at != pg.at {
				t.Errorf("%s: a page of %+v, %+v: %d clients at number %d, want %d at %d", what, pg.f, pg.p, len(docs), at, pg.want, pg.at)
			}
		}
	}
	ann := c.Clients[0]
	step("create", 1, func() error {
		return st.CreateClient(ctx, c.Business.ID, &practiced.Client{ID: tid.New("cli"), FirstName: "Dan", LastName: "Dale",
			CreatedAt: practiced.Now(), UpdatedAt: practiced.Now()})
	})
	step("update", 1, func() error {
		_, err := st.UpdateClient(ctx, c.Business.ID, ann.ID, func(cl *practiced.Client) error { cl.Notes = "changed"; return nil })
		return err
	})
	step("archive", 1, func() error {
		_, err := st.ArchiveClient(ctx, c.Business.ID, ann.ID, true, practiced.Now())
		return err
	})
	step("seed of three", 3, func() error {
		var cls []practiced.Client
		for i := range 3 {
			cls = append(cls, practiced.Client{ID: tid.New("cli"), FirstName: fmt.Sprint("Seed", i), LastName: "Row",
				CreatedAt: practiced.Now(), UpdatedAt: practiced.Now()})
		}
		return st.Seed(ctx, c.Business.ID, practiced.SeedData{Clients: cls})
	})

	// A change that fails is rolled back with its number.
	refused := errors.New("refused")
	_, err = st.UpdateClient(ctx, c.Business.ID, ann.ID, func(cl *practiced.Client) error { cl.Notes = "never"; return refused })
	if !errors.Is(err, refused) {
		t.Fatalf("update: %v", err)
	}
	if v := version(c.Business.ID); v != last {
		t.Errorf("a rolled-back update moved the number from %d to %d", last, v)
	}
	// A page with no client.
	docs, _, at, err := st.ListClientDocsAt(ctx, c.Business.ID, practiced.PersonFilter{Query: "nobody by this name"}, practiced.PageRequest{Limit: 10})
	want := int64(-1)
	if emptyNumbered {
		want = last
	}
	if err != nil || len(docs) != 0 || at != want {
		t.Errorf("an empty page: %d clients at number %d, %v; want none at %d", len(docs), at, err, want)
	}
	// Other records and other businesses leave it.
	if err := st.CreateContact(ctx, c.Business.ID, &practiced.Contact{ID: tid.New("con"), Type: "emergency", FirstName: "Fay", LastName: "Fox",
		CreatedAt: practiced.Now(), UpdatedAt: practiced.Now()}); err != nil {
		t.Fatal(err)
	}
	if v := version(c.Business.ID); v != last {
		t.Errorf("a new contact moved the clients' number from %d to %d", last, v)
	}
	if v := version(other.Business.ID); v != otherAt {
		t.Errorf("the other business's number went from %d to %d", otherAt, v)
	}
	// Deleting the business removes its clients; the number goes on.
	if err := st.DeleteBusiness(ctx, c.Business.ID); err != nil {
		t.Fatal(err)
	}
	if v := version(c.Business.ID); v <= last {
		t.Errorf("deleting the business's clients took the number from %d to %d", last, v)
	}
}

func TestClientsVersionUnderConcurrentWritesSQLite(t *testing.T) {
	testClientsVersionUnderConcurrentWrites(t, testfix.SQLiteStore(t))
}

func TestClientsVersionUnderConcurrentWritesPostgres(t *testing.T) {
	testClientsVersionUnderConcurrentWrites(t, testfix.PostgresStore(t))
}

// testClientsVersionUnderConcurrentWrites reads pages of clients while
// other goroutines change them, each read between two reads of the
// number. One reader reads the page alone, as a cache of pages did,
// and counts only the reads the number held across; the others read it
// with its number (ListClientDocsAt), which must lie between the two.
// Every page counted at a number must be the one every other read of
// that number found.
func testClientsVersionUnderConcurrentWrites(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Busy")
	deadline := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	var writes sync.WaitGroup
	for w := range 3 {
		writes.Add(1)
		go func() {
			defer writes.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				id := c.Clients[(w+i)%len(c.Clients)].ID
				_, err := st.UpdateClient(ctx, c.Business.ID, id, func(cl *practiced.Client) error {
					cl.Notes = fmt.Sprintf("writer %d, change %d", w, i)
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if i%5 == 0 {
					err := st.CreateClient(ctx, c.Business.ID, &practiced.Client{ID: tid.New("cli"), FirstName: "New", LastName: fmt.Sprint(w, i),
						CreatedAt: practiced.Now(), UpdatedAt: practiced.Now()})
					if err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	var mu sync.Mutex
	seen := map[int64]string{}
	held, numbered := 0, 0 // reads counted by each way
	for reader := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				v1, err := st.ClientsVersion(ctx, c.Business.ID)
				if err != nil {
					t.Error(err)
					return
				}
				var docs []practiced.Doc
				at := int64(-1)
				if reader == 0 {
					docs, _, err = st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100})
				} else {
					docs, _, at, err = st.ListClientDocsAt(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100})
				}
				if err != nil {
					t.Error(err)
					return
				}
				v2, err := st.ClientsVersion(ctx, c.Business.ID)
				if err != nil {
					t.Error(err)
					return
				}
				if v2 < v1 {
					t.Errorf("the number went back from %d to %d", v1, v2)
				}
				if reader == 0 {
					if v1 != v2 {
						continue
					}
					at = v1
				} else if at < v1 || at > v2 {
					t.Errorf("a page read between numbers %d and %d was read at %d", v1, v2, at)
					continue
				}
				var page []byte
				for _, d := range docs {
					page = append(append(page, d...), '\n')
				}
				mu.Lock()
				if prev, ok := seen[at]; ok && prev != string(page) {
					t.Errorf("two reads at number %d found different clients", at)
				}
				seen[at] = string(page)
				if reader == 0 {
					held++
				} else {
					numbered++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	writes.Wait()
	if held < 10 || numbered < 10 || len(seen) < 3 {
		t.Fatalf("only %d reads that held their number and %d read with it, at %d numbers: the test proves little", held, numbered, len(seen))
	}
	// The page at the last number is the clients as they are now.
	v, _ := st.ClientsVersion(ctx, c.Business.ID)
	docs, _, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if page, ok := seen[v]; ok {
		var now []byte
		for _, d := range docs {
			now = append(append(now, d...), '\n')
		}
		if page != string(now) {
			t.Errorf("the page read at number %d is not the clients now", v)
		}
	}
}

func TestAPIKeyAndClientsVersionSQLite(t *testing.T) {
	testAPIKeyAndClientsVersion(t, testfix.SQLiteStore(t))
}

func TestAPIKeyAndClientsVersionPostgres(t *testing.T) {
	testAPIKeyAndClientsVersion(t, testfix.PostgresStore(t))
}

// testAPIKeyAndClientsVersion checks that the key read with the number
// is the key APIKeyByHash reads and the number ClientsVersion's, also
// with a context already cancelled, and that a revoked key is refused by
// the very next read.
func testAPIKeyAndClientsVersion(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	fresh, err := st.CreateBusiness(ctx, "Keys, no clients")
	if err != nil {
		t.Fatal(err)
	}
	c := testfix.NewClinic(t, st, "Keys")
	for _, biz := range []string{fresh.ID, c.Business.ID} {
		id := tid.New(practiced.PrefixAPIKey)
		hash := practiced.HashToken("pk_test_" + id)
		if err := st.CreateAPIKey(ctx, practiced.APIKey{ID: id, BusinessID: biz, TokenHash: hash, ReadOnly: true, RatePerMinute: 7,
			CreatedAt: practiced.NewTime(testfix.Now)}); err != nil {
			t.Fatal(err)
		}
		want, err := st.APIKeyByHash(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		wantV, err := st.ClientsVersion(ctx, biz)
		if err != nil {
			t.Fatal(err)
		}
		got, v, err := st.APIKeyAndClientsVersion(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || v != wantV {
			t.Errorf("read %+v at %d, want %+v at %d", got, v, want, wantV)
		}
		// The read is not watched for the request's cancellation: a
		// request whose client has gone still reads its key.
		gone, cancel := context.WithCancel(ctx)
		cancel()
		if got, v, err := st.APIKeyAndClientsVersion(gone, hash); err != nil || got != want || v != wantV {
			t.Errorf("with a cancelled context: %+v at %d, %v; want %+v at %d", got, v, err, want, wantV)
		}
		if err := st.RevokeAPIKey(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); practiced.ErrorCode(err) != practiced.EUNAUTHORIZED {
			t.Errorf("a revoked key: %v, want EUNAUTHORIZED", err)
		}
	}
}
