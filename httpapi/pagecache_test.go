package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// twoStores opens two stores on one fresh database, as two server
// processes would: SQLite, or PostgreSQL when PRACTICED_TEST_STORE is
// "postgres".
func twoStores(t *testing.T) (*sqlstore.Store, *sqlstore.Store) {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "shared.db")
	if os.Getenv("PRACTICED_TEST_STORE") == "postgres" {
		url = testfix.PostgresURL(t)
	}
	var out [2]*sqlstore.Store
	for i := range out {
		st, err := sqlstore.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out[i] = st
	}
	return out[0], out[1]
}

// fetch sends a request with a key to one of several servers.
func fetch(t *testing.T, method, url, token string, body any) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// cacheRig is a database served by two processes, each keeping pages,
// and by a server that keeps none, all with the same public URL so that
// their links agree.
type cacheRig struct {
	st1, st2           *sqlstore.Store
	one, two, uncached string // base URLs
	clinic             *testfix.Clinic
}

func newCacheRig(t *testing.T) *cacheRig {
	t.Helper()
	st1, st2 := twoStores(t)
	r := &cacheRig{st1: st1, st2: st2, clinic: testfix.NewClinic(t, st1, "Cached Clinic")}
	serve := func(st *sqlstore.Store, cacheBytes int) string {
		srv := httptest.NewServer(newServer(st, httpapi.Options{PublicURL: "https://api.example.com", PageCacheBytes: cacheBytes}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	r.one, r.two, r.uncached = serve(st1, 0), serve(st2, 0), serve(st2, -1)
	return r
}

// same fails unless process one answers path exactly as a server that
// keeps no pages does, twice in a row (the second from what it kept).
func (r *cacheRig) same(t *testing.T, path string) response {
	t.Helper()
	want := fetch(t, "GET", r.uncached+path, r.clinic.Token, nil)
	for range 2 {
		got := fetch(t, "GET", r.one+path, r.clinic.Token, nil)
		if got.Status != want.Status || !bytes.Equal(got.Body, want.Body) {
			t.Fatalf("GET %s: %d %s\nwithout kept pages: %d %s", path, got.Status, got.Body, want.Status, want.Body)
		}
		for _, h := range []string{"Content-Type", "Content-Length", "Cache-Control"} {
			if got.Header.Get(h) != want.Header.Get(h) {
				t.Errorf("GET %s: %s %q, without kept pages %q", path, h, got.Header.Get(h), want.Header.Get(h))
			}
		}
	}
	return want
}

// TestClientsPageCacheAnswersAsUncached compares kept answers with fresh
// ones byte for byte, over filters, pages and refusals.
func TestClientsPageCacheAnswersAsUncached(t *testing.T) {
	r := newCacheRig(t)
	first := r.same(t, "/v1/clients?limit=2")
	next := first.page(t).Links.Next
	if next == nil {
		t.Fatal("no next page")
	}
	r.same(t, strings.TrimPrefix(*next, "https://api.example.com"))
	for _, path := range []string{
		"/v1/clients", "/v1/clients?limit=100", "/v1/clients?q=ann", "/v1/clients?q=ann&limit=1",
		"/v1/clients?include_archived=true", "/v1/clients?tag_id=" + r.clinic.Tag.ID, "/v1/clients?limit=0", "/v1/clients?bogus=1",
	} {
		r.same(t, path)
	}
}

// TestClientsPageCacheFollowsWrites changes the clients, through the
// other process's API and by a load straight into its store, and checks
// that the very next list of the first process shows each change.
func TestClientsPageCacheFollowsWrites(t *testing.T) {
	r := newCacheRig(t)
	const path = "/v1/clients?limit=100"
	before := r.same(t, path)
	ann := r.clinic.Clients[0]
	steps := []struct {
		name   string
		change func()
	}{
		{"update through the other process", func() {
			wantStatus(t, fetch(t, "POST", r.two+"/v1/clients/"+ann.ID, r.clinic.Token, map[string]any{"notes": "changed elsewhere"}), http.StatusOK)
		}},
		{"create through the other process", func() {
			wantStatus(t, fetch(t, "POST", r.two+"/v1/clients", r.clinic.Token, map[string]any{"first_name": "Dee", "last_name": "Doe"}), http.StatusCreated)
		}},
		{"archive through this process", func() {
			wantStatus(t, fetch(t, "POST", r.one+"/v1/clients/"+ann.ID+"/archive", r.clinic.Token, nil), http.StatusOK)
		}},
		{"a load into the other process's store", func() {
			now := practiced.Now()
			err := r.st2.Seed(context.Background(), r.clinic.Business.ID, practiced.SeedData{Clients: []practiced.Client{
				{ID: tid.New("cli"), FirstName: "Loaded", LastName: "Later", CreatedAt: now, UpdatedAt: now}}})
			if err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, step := range steps {
		step.change()
		after := r.same(t, path)
		if bytes.Equal(after.Body, before.Body) {
			t.Fatalf("%s: the list did not change", step.name)
		}
		before = after
	}
	if !bytes.Contains(before.Body, []byte(`"Loaded"`)) || bytes.Contains(before.Body, []byte(`"id":"`+ann.ID+`"`)) {
		t.Fatalf("the last list is not the clients as they are: %s", before.Body)
	}
}

// TestClientsPageCacheKeepsKeyRules checks that a kept page is no way
// around a key: a revoked key is refused on the very next request, in
// the process that revoked it and in another, and a read-only key that
// is served the kept page still cannot write.
func TestClientsPageCacheKeepsKeyRules(t *testing.T) {
	r := newCacheRig(t)
	const path = "/v1/clients?limit=100"
	ctx := context.Background()
	for _, st := range []*sqlstore.Store{r.st1, r.st2} {
		token := "pk_test_" + tid.New("key")
		id := tid.New(practiced.PrefixAPIKey)
		if err := st.CreateAPIKey(ctx, practiced.APIKey{ID: id, BusinessID: r.clinic.Business.ID,
			TokenHash: practiced.HashToken(token), CreatedAt: practiced.NewTime(testfix.Now)}); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			wantStatus(t, fetch(t, "GET", r.one+path, token, nil), http.StatusOK)
		}
		if err := st.RevokeAPIKey(ctx, id); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, fetch(t, "GET", r.one+path, token, nil), http.StatusUnauthorized)
	}
	ro := fetch(t, "GET", r.one+path, r.clinic.ReadOnlyToken, nil)
	wantStatus(t, ro, http.StatusOK)
	if rw := fetch(t, "GET", r.one+path, r.clinic.Token, nil); !bytes.Equal(rw.Body, ro.Body) {
		t.Fatal("the two keys of one business were answered differently")
	}
	wantStatus(t, fetch(t, "POST", r.one+"/v1/clients", r.clinic.ReadOnlyToken, map[string]any{"first_name": "No", "last_name": "Write"}), http.StatusForbidden)
	// Another business's key is answered its own clients, never the page
	// kept for this one.
	other := testfix.NewClinic(t, r.st1, "Other Clinic")
	got := fetch(t, "GET", r.one+path, other.Token, nil)
	wantStatus(t, got, http.StatusOK)
	if bytes.Contains(got.Body, []byte(r.clinic.Clients[0].ID)) {
		t.Fatal("another business was answered this one's clients")
	}
}

// TestClientsPageCacheLinksFollowHost checks that without a public URL
// the links of a kept page name the host each request was sent to.
func TestClientsPageCacheLinksFollowHost(t *testing.T) {
	st := testfix.Store(t)
	c := testfix.NewClinic(t, st, "Hosts")
	srv := httptest.NewServer(newServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }}))
	t.Cleanup(srv.Close)
	for _, host := range []string{"a.example.com", "b.example.com", "a.example.com"} {
		req, err := http.NewRequest("GET", srv.URL+"/v1/clients?limit=1", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+c.Token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !bytes.Contains(b, []byte(`"next":"http://`+host+`/v1/clients?`)) {
			t.Fatalf("Host %s: links %s", host, b)
		}
	}
}

// countedStore counts the pages of clients read from its store.
type countedStore struct {
	*sqlstore.Store
	reads atomic.Int64
}

func (s *countedStore) ListClientDocsAt(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, int64, error) {
	s.reads.Add(1)
	return s.Store.ListClientDocsAt(ctx, businessID, f, p)
}

// TestClientsPageCacheReadsAPageOnce checks that a page asked again is
// answered without reading the clients while they are unchanged, that a
// change has the next request read them, and that an empty page is kept
// too, as is a page after a cursor no longer in the list, whose probe
// of the cursor's other side runs on its own after the page, so that the
// page carries no number on either store.
func TestClientsPageCacheReadsAPageOnce(t *testing.T) {
	st := testfix.Store(t)
	c := testfix.NewClinic(t, st, "Counted")
	cs := &countedStore{Store: st}
	srv := httptest.NewServer(httpapi.NewServer(cs, httpapi.Options{PublicURL: "https://api.example.com"}))
	t.Cleanup(srv.Close)
	// The link after the list's first client, taken from a server of
	// its own so that it counts no read, then that client archived.
	plain := httptest.NewServer(httpapi.NewServer(st, httpapi.Options{PublicURL: "https://api.example.com"}))
	t.Cleanup(plain.Close)
	var first struct {
		Data  []struct{ ID string }
		Links struct{ Next string }
	}
	if res := fetch(t, "GET", plain.URL+"/v1/clients?limit=1", c.Token, nil); json.Unmarshal(res.Body, &first) != nil || len(first.Data) != 1 {
		t.Fatalf("the first client: %d %s", res.Status, res.Body)
	}
	afterGone := strings.TrimPrefix(first.Links.Next, "https://api.example.com")
	if _, err := st.ArchiveClient(context.Background(), c.Business.ID, first.Data[0].ID, true, practiced.Now()); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		what  string
		path  string
		write bool
		reads int64 // pages read from the store so far
	}{
		{"first ask", "/v1/clients?limit=2", false, 1},
		{"asked again", "/v1/clients?limit=2", false, 1},
		{"another page", "/v1/clients?limit=3", false, 2},
		{"the first again", "/v1/clients?limit=2", false, 2},
		{"after a change", "/v1/clients?limit=2", true, 3},
		{"asked again after it", "/v1/clients?limit=2", false, 3},
		{"an empty page", "/v1/clients?q=nobody+by+this+name", false, 4},
		{"the empty page again", "/v1/clients?q=nobody+by+this+name", false, 4},
		{"the empty page after a change", "/v1/clients?q=nobody+by+this+name", true, 5},
		{"the empty page again after it", "/v1/clients?q=nobody+by+this+name", false, 5},
		{"after an archived client", afterGone, false, 6},
		{"after it again", afterGone, false, 6},
		{"after it after a change", afterGone, true, 7},
		{"after it again after that", afterGone, false, 7},
	}
	for i, step := range steps {
		if step.write {
			_, err := st.UpdateClient(context.Background(), c.Business.ID, c.Clients[0].ID, func(cl *practiced.Client) error {
				cl.Notes = fmt.Sprint("change ", i)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		res := fetch(t, "GET", srv.URL+step.path, c.Token, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("%s: GET %s: %d %s", step.what, step.path, res.Status, res.Body)
		}
		if got := cs.reads.Load(); got != step.reads {
			t.Errorf("%s: %d pages read from the store, want %d", step.what, got, step.reads)
		}
	}
}
