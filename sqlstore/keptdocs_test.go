package sqlstore_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// keptStores runs f on a SQLite store and, where PRACTICED_TEST_POSTGRES
// names a server, on a PostgreSQL one; its subtest says it skips there
// otherwise.
func keptStores(t *testing.T, f func(t *testing.T, st *sqlstore.Store, sqlite bool)) {
	t.Run("sqlite", func(t *testing.T) { f(t, testfix.SQLiteStore(t), true) })
	t.Run("postgres", func(t *testing.T) { f(t, testfix.PostgresStore(t), false) })
}

// keptClinic is a clinic with n more clients, made as a load makes them.
func keptClinic(t *testing.T, st *sqlstore.Store, n int) (*testfix.Clinic, []string) {
	t.Helper()
	c := testfix.NewClinic(t, st, "Kept")
	ids := make([]string, n)
	batch := make([]practiced.Client, n)
	at := practiced.NewTime(testfix.Now)
	for i := range batch {
		ids[i] = tid.New(practiced.PrefixClient)
		batch[i] = practiced.Client{ID: ids[i], FirstName: fmt.Sprintf("First%d", i), LastName: "Last", CreatedAt: at, UpdatedAt: at}
	}
	if err := st.Seed(context.Background(), c.Business.ID, practiced.SeedData{Clients: batch}); err != nil {
		t.Fatal(err)
	}
	return c, ids
}

// replaceByHand replaces the row of client id whole, by SQL typed by
// hand, with a copy of itself that keeps its revision and whose
// document has old replaced by new: SQLite's INSERT OR REPLACE, and on
// PostgreSQL a delete and an insert in one transaction.
func replaceByHand(t *testing.T, st *sqlstore.Store, sqlite bool, biz, id, old, new string) {
	t.Helper()
	stmts := []string{
		`CREATE TEMP TABLE replacing AS SELECT * FROM clients WHERE business_id = $1 AND id = $2`,
		`UPDATE replacing SET doc = replace(doc, $1, $2)`,
	}
	if sqlite {
		stmts = append(stmts, `INSERT OR REPLACE INTO clients SELECT * FROM replacing`)
	} else {
		stmts = append(stmts, `DELETE FROM clients WHERE business_id = $1 AND id = $2`, `INSERT INTO clients SELECT * FROM replacing`)
	}
	stmts = append(stmts, `DROP TABLE replacing`)
	if err := sqlstore.WriterTx(st, func(exec func(q string, args ...any) error) error {
		for _, q := range stmts {
			var args []any
			switch {
			case strings.Contains(q, "replace(doc"):
				args = []any{old, new}
			case strings.Contains(q, "$2"):
				args = []any{biz, id}
			}
			if err := exec(q, args...); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// walkKept reads every page of the business's live clients, 40 at a
// time, forwards and then backwards, through ListClientDocs and
// ListClientDocsAt, and fails unless each page is, byte for byte and in
// its links, the page read from the database past the kept documents.
// It returns the documents of the forward walk.
func walkKept(t *testing.T, st *sqlstore.Store, biz, step string) []practiced.Doc {
	t.Helper()
	ctx := context.Background()
	var all []practiced.Doc
	check := func(p practiced.PageRequest) practiced.PageInfo {
		t.Helper()
		want, wantInfo, err := sqlstore.ListClientDocsRead(ctx, st, biz, p)
		if err != nil {
			t.Fatal(err)
		}
		got, info, err := st.ListClientDocs(ctx, biz, practiced.PersonFilter{}, p)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !reflect.DeepEqual(got, want) || info != wantInfo {
			t.Fatalf("%s: page %+v answered %d documents %+v, the database holds %d %+v", step, p, len(got), info, len(want), wantInfo)
		}
		gotAt, infoAt, version, err := st.ListClientDocsAt(ctx, biz, practiced.PersonFilter{}, p)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !reflect.DeepEqual(gotAt, want) || infoAt != wantInfo || version < 1 {
			t.Fatalf("%s: page %+v answered by ListClientDocsAt %d documents %+v at %d, the database holds %d %+v",
				step, p, len(gotAt), infoAt, version, len(want), wantInfo)
		}
		return info
	}
	p := practiced.PageRequest{Limit: 40}
	for {
		info := check(p)
		page, _, err := sqlstore.ListClientDocsRead(ctx, st, biz, p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, page...)
		if !info.HasNext {
			break
		}
		p.After = info.LastID
	}
	for p := (practiced.PageRequest{Limit: 40, Before: p.After}); p.Before != ""; {
		info := check(p)
		if !info.HasPrev {
			break
		}
		p.Before = info.FirstID
	}
	return all
}

// pageAndDatabase reads page p of the business's live clients through
// ListClientDocs, and from the database past the kept documents.
func pageAndDatabase(t *testing.T, st *sqlstore.Store, biz string, p practiced.PageRequest) (got []practiced.Doc, info practiced.PageInfo, want []practiced.Doc, wantInfo practiced.PageInfo) {
	t.Helper()
	ctx := context.Background()
	got, info, err := st.ListClientDocs(ctx, biz, practiced.PersonFilter{}, p)
	if err != nil {
		t.Fatal(err)
	}
	want, wantInfo, err = sqlstore.ListClientDocsRead(ctx, st, biz, p)
	if err != nil {
		t.Fatal(err)
	}
	return got, info, want, wantInfo
}

// samePage fails unless page p of the business's live clients is the
// page the database holds, and returns it.
func samePage(t *testing.T, st *sqlstore.Store, biz string, p practiced.PageRequest, step string) []practiced.Doc {
	t.Helper()
	got, info, want, wantInfo := pageAndDatabase(t, st, biz, p)
	if !reflect.DeepEqual(got, want) || info != wantInfo {
		t.Fatalf("%s: page %+v answered %d documents %+v, the database holds %d %+v", step, p, len(got), info, len(want), wantInfo)
	}
	return got
}

// holds reports whether docs has a document that holds s.
func holds(docs []practiced.Doc, s string) bool {
	for _, d := range docs {
		if strings.Contains(string(d), s) {
			return true
		}
	}
	return false
}

// A page of live clients answered with kept documents is the page the
// database holds, after every kind of change a client's row can have:
// through the store, and by SQL typed by hand.
func TestKeptDocumentsFollowEveryChange(t *testing.T) {
	keptStores(t, testKeptDocumentsFollowEveryChange)
}

func testKeptDocumentsFollowEveryChange(t *testing.T, st *sqlstore.Store, sqlite bool) {
	ctx := context.Background()
	c, ids := keptClinic(t, st, 150)
	biz := c.Business.ID
	docs := walkKept(t, st, biz, "first walk")
	if n, _ := sqlstore.KeptDocs(st); n != len(docs) || len(docs) < 150 {
		t.Fatalf("%d documents kept after a walk over %d live clients", n, len(docs))
	}
	walkKept(t, st, biz, "second walk")

	if _, err := st.UpdateClient(ctx, biz, ids[7], func(cl *practiced.Client) error {
		cl.Notes = "moved house"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "updated"); !holds(docs, "moved house") {
		t.Fatal("the update is not in the list")
	}
	// The changed document, read by id, is kept: read again, no page
	// lacks a document.
	sqlstore.BetweenKeptReads(t, func() { t.Fatal("a page read again after the update lacked a document") })
	walkKept(t, st, biz, "updated, read again")
	sqlstore.BetweenKeptReads(t, nil)

	now := practiced.NewTime(testfix.Now)
	if _, err := st.ArchiveClient(ctx, biz, ids[8], true, now); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "archived"); holds(docs, ids[8]) {
		t.Fatal("the archived client is still in the list")
	}
	if _, err := st.ArchiveClient(ctx, biz, ids[8], false, now); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "unarchived"); !holds(docs, ids[8]) {
		t.Fatal("the unarchived client is not in the list")
	}

	created := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "New", LastName: "Comer", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateClient(ctx, biz, &created); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "created"); !holds(docs, created.ID) {
		t.Fatal("the new client is not in the list")
	}

	// A document changed by hand, its revision left as it was.
	if err := sqlstore.WriterExec(st, `UPDATE clients SET doc = replace(doc, '"First9"', '"Typed"') WHERE business_id = $1 AND id = $2`,
		biz, ids[9]); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "typed by hand"); !holds(docs, `"Typed"`) || holds(docs, `"First9"`) {
		t.Fatal("the document changed by hand is not the one in the list")
	}

	// A row replaced whole by hand, with another document and the
	// revision it had.
	replaceByHand(t, st, sqlite, biz, ids[11], `"First11"`, `"Replaced"`)
	if docs := walkKept(t, st, biz, "replaced by hand"); !holds(docs, `"Replaced"`) || holds(docs, `"First11"`) {
		t.Fatal("the row replaced by hand is not the one in the list")
	}

	// A client deleted and loaded again with the same id and another name.
	if err := sqlstore.WriterExec(st, `DELETE FROM clients WHERE business_id = $1 AND id = $2`, biz, ids[10]); err != nil {
		t.Fatal(err)
	}
	walkKept(t, st, biz, "deleted")
	again := practiced.Client{ID: ids[10], FirstName: "Again", LastName: "Last", CreatedAt: now, UpdatedAt: now}
	if err := st.Seed(ctx, biz, practiced.SeedData{Clients: []practiced.Client{again}}); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "loaded again"); !holds(docs, `"Again"`) || holds(docs, `"First10"`) {
		t.Fatal("the client loaded again is not the one in the list")
	}
}

// revision reads the revision of a client's row.
func revision(t *testing.T, st *sqlstore.Store, biz, id string) int64 {
	t.Helper()
	var r int64
	if err := sqlstore.Reader(st).QueryRow(`SELECT revision FROM clients WHERE business_id = $1 AND id = $2`, biz, id).Scan(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// A row's revision grows with every change of its document, by whatever
// writes it; a row made again takes one it never had; and none may go
// back.
func TestARevisionNeverComesBack(t *testing.T) {
	keptStores(t, testARevisionNeverComesBack)
}

func testARevisionNeverComesBack(t *testing.T, st *sqlstore.Store, sqlite bool) {
	ctx := context.Background()
	c, ids := keptClinic(t, st, 3)
	biz := c.Business.ID
	seen := map[int64]bool{}
	last := revision(t, st, biz, ids[0])
	step := func(what string) {
		t.Helper()
		r := revision(t, st, biz, ids[0])
		if r <= last || seen[r] {
			t.Fatalf("%s: revision %d after %d", what, r, last)
		}
		seen[r], last = true, r
	}
	if last < 1 {
		t.Fatalf("a loaded client has revision %d", last)
	}
	seen[last] = true
	if _, err := st.UpdateClient(ctx, biz, ids[0], func(cl *practiced.Client) error {
		cl.Notes = "one"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	step("update")
	if err := sqlstore.WriterExec(st, `UPDATE clients SET doc = replace(doc, '"Last"', '"Typed"') WHERE business_id = $1 AND id = $2`, biz, ids[0]); err != nil {
		t.Fatal(err)
	}
	step("typed by hand")
	// A revision set by hand, back or ahead, gives way to the next.
	for _, set := range []string{"1", "revision + 1000"} {
		if err := sqlstore.WriterExec(st, `UPDATE clients SET revision = `+set+` WHERE business_id = $1 AND id = $2`, biz, ids[0]); err != nil {
			t.Fatal(err)
		}
		step("revision set to " + set)
	}
	// A row replaced whole, its revision copied, another document in it.
	replaceByHand(t, st, sqlite, biz, ids[0], `"Typed"`, `"Replaced"`)
	step("replaced")
	if err := sqlstore.WriterExec(st, `UPDATE clients SET id = id || 'x' WHERE business_id = $1 AND id = $2`, biz, ids[1]); err != nil {
		t.Fatal(err)
	}
	if r := revision(t, st, biz, ids[1]+"x"); r <= last {
		t.Fatalf("a row given another id kept revision %d, the last given being %d", r, last)
	}
	if err := sqlstore.WriterExec(st, `DELETE FROM clients WHERE business_id = $1 AND id = $2`, biz, ids[0]); err != nil {
		t.Fatal(err)
	}
	at := practiced.NewTime(testfix.Now)
	if err := st.Seed(ctx, biz, practiced.SeedData{Clients: []practiced.Client{{ID: ids[0], FirstName: "Again", LastName: "Last", CreatedAt: at, UpdatedAt: at}}}); err != nil {
		t.Fatal(err)
	}
	step("loaded again")
	if err := sqlstore.WriterExec(st, `DELETE FROM clients WHERE business_id = $1 AND id = $2`, biz, ids[0]); err != nil {
		t.Fatal(err)
	}
	made := practiced.Client{ID: ids[0], FirstName: "Made", LastName: "Again", CreatedAt: at, UpdatedAt: at}
	if err := st.CreateClient(ctx, biz, &made); err != nil {
		t.Fatal(err)
	}
	step("made again")
}

// The store keeps no more than its bytes of documents, the least
// recently read going first, and pages read past what it keeps are
// still the database's.
func TestKeptDocumentsStayWithinTheirBytes(t *testing.T) {
	keptStores(t, func(t *testing.T, st *sqlstore.Store, _ bool) { testKeptDocumentsStayWithinTheirBytes(t, st) })
}

func testKeptDocumentsStayWithinTheirBytes(t *testing.T, st *sqlstore.Store) {
	c, _ := keptClinic(t, st, 120)
	biz := c.Business.ID
	docs := walkKept(t, st, biz, "walk")
	var all int
	for _, d := range docs {
		all += len(d)
	}
	max := all / 2
	sqlstore.KeepDocBytes(st, max)
	walkKept(t, st, biz, "walk with half the bytes")
	n, bytes := sqlstore.KeptDocs(st)
	if bytes > max || n == 0 || n >= len(docs) {
		t.Fatalf("%d documents of %d kept in %d bytes, want some, in at most %d", n, len(docs), bytes, max)
	}
	// The last page of the backward walk, the list's first, was read
	// last, so it is kept whole: read again, it costs no document read.
	ctx := context.Background()
	first, _, err := st.ListClientDocs(ctx, biz, practiced.PersonFilter{}, practiced.PageRequest{Limit: 40})
	if err != nil {
		t.Fatal(err)
	}
	sqlstore.BetweenKeptReads(t, func() { t.Fatal("the first page, read last, was not kept") })
	again, _, err := st.ListClientDocs(ctx, biz, practiced.PersonFilter{}, practiced.PageRequest{Limit: 40})
	if err != nil || !reflect.DeepEqual(again, first) {
		t.Fatalf("the first page read again: %d documents, %v", len(again), err)
	}
}

// A row that changes between a page's first statement and its read of
// the documents it lacks has the page read anew, and it answers the row
// as changed: whether the page lacks most of its documents, read
// through its range, or one, read by id. The page was read before, and
// the documents it lacks let go, so that on PostgreSQL too its first
// statement reads no document of the rows as they were then.
func TestAPageWhoseRowChangesMidReadIsReadAgain(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(fmt.Sprintf("other documents kept %v", warm), func(t *testing.T) {
			keptStores(t, func(t *testing.T, st *sqlstore.Store, _ bool) {
				testAPageWhoseRowChangesMidReadIsReadAgain(t, st, warm)
			})
		})
	}
}

func testAPageWhoseRowChangesMidReadIsReadAgain(t *testing.T, st *sqlstore.Store, warm bool) {
	ctx := context.Background()
	c, ids := keptClinic(t, st, 30)
	biz := c.Business.ID
	page := practiced.PageRequest{Limit: 40}
	walkKept(t, st, biz, "read before")
	if warm {
		sqlstore.ForgetKeptDocs(st, biz, ids[3])
	} else {
		sqlstore.ForgetKeptDocs(st, biz)
	}
	kept, _ := sqlstore.KeptDocs(st)
	calls := 0
	sqlstore.BetweenKeptReads(t, func() {
		calls++
		if calls > 1 {
			return
		}
		if _, err := st.UpdateClient(ctx, biz, ids[3], func(cl *practiced.Client) error {
			cl.Notes = "changed mid-read"
			return nil
		}); err != nil {
			t.Error(err)
		}
	})
	got, info, want, wantInfo := pageAndDatabase(t, st, biz, page)
	if calls != 1 || !reflect.DeepEqual(got, want) || info != wantInfo || !holds(got, "changed mid-read") {
		t.Fatalf("after %d reads of missing documents the page holds %d documents %+v, the database %d %+v",
			calls, len(got), info, len(want), wantInfo)
	}
	if n, _ := sqlstore.KeptDocs(st); n != kept {
		t.Fatalf("%d documents kept after a page read anew, %d before", n, kept)
	}
}

// A PostgreSQL database from before migration 0034, as far as the
// clients' revisions go (0035's triggers and practiced_loading stay):
// its clients' rows take revision 0, which names each one's present
// document, and their documents are kept and answered as the database
// holds them; a change then gives a row a revision of its own.
func TestClientRevisionsAcrossUpgradeOnPostgres(t *testing.T) {
	ctx := context.Background()
	st := testfix.PostgresStore(t)
	c, ids := keptClinic(t, st, 50)
	biz := c.Business.ID
	for _, q := range []string{
		`DROP TRIGGER clients_revision ON clients`,
		`DROP TRIGGER clients_revision_insert ON clients`,
		`DROP FUNCTION clients_take_revision()`,
		`ALTER TABLE clients DROP COLUMN revision`,
		`DROP SEQUENCE client_revisions`,
		`DELETE FROM schema_migrations WHERE version = 34`,
	} {
		if err := sqlstore.WriterExec(st, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var revised int
	if err := sqlstore.Reader(st).QueryRow(`SELECT COUNT(*) FROM clients WHERE revision <> 0`).Scan(&revised); err != nil || revised != 0 {
		t.Fatalf("%d clients with a revision other than 0 after the upgrade (%v)", revised, err)
	}
	sqlstore.KeepDocBytes(st, 32<<20) // as a server starts
	docs := walkKept(t, st, biz, "upgraded")
	if n, _ := sqlstore.KeptDocs(st); n != len(docs) || len(docs) < 50 {
		t.Fatalf("%d documents kept after a walk over %d live clients", n, len(docs))
	}
	sqlstore.BetweenKeptReads(t, func() { t.Fatal("a page read again after the upgrade lacked a document") })
	walkKept(t, st, biz, "upgraded, read again")
	sqlstore.BetweenKeptReads(t, nil)
	if _, err := st.UpdateClient(ctx, biz, ids[0], func(cl *practiced.Client) error {
		cl.Notes = "after the upgrade"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if r := revision(t, st, biz, ids[0]); r < 1 {
		t.Fatalf("an updated client has revision %d", r)
	}
	if docs := walkKept(t, st, biz, "updated"); !holds(docs, "after the upgrade") {
		t.Fatal("the update is not in the list")
	}
}

// On PostgreSQL a page read again has the database send the documents of
// the rows changed since it was last read, and only those: a page read
// for the first time comes whole and keeps nothing, as a walk reads each
// page once; read again it comes whole and is kept; from then on it
// comes with no document while nothing changes, and after a change to
// one of its clients with that client's alone, in one statement.
func TestAPageReadAgainIsSentItsChangesOnPostgres(t *testing.T) {
	ctx := context.Background()
	st := testfix.PostgresStore(t)
	c, ids := keptClinic(t, st, 60)
	biz := c.Business.ID
	var sent []int
	sqlstore.SentByKeptPages(t, func(n int) { sent = append(sent, n) })
	sqlstore.BetweenKeptReads(t, func() { t.Error("a page read a second statement") })
	read := func(step string, p practiced.PageRequest, want, wantKept int) []practiced.Doc {
		t.Helper()
		sent = nil
		got := samePage(t, st, biz, p, step)
		if len(sent) != 1 || sent[0] != want {
			t.Fatalf("%s: the statements sent %v documents, want [%d]", step, sent, want)
		}
		if n, _ := sqlstore.KeptDocs(st); n != wantKept {
			t.Fatalf("%s: %d documents kept, want %d", step, n, wantKept)
		}
		return got
	}
	first := practiced.PageRequest{Limit: 20}
	read("first read", first, 21, 0) // the page's rows and the one after
	page := read("read again", first, 21, 21)
	read("read a third time", first, 0, 21)
	on, _ := sqlstore.DocID(string(page[4]))
	if _, err := st.UpdateClient(ctx, biz, on, func(cl *practiced.Client) error {
		cl.Notes = "changed on the page"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if docs := read("a client of the page changed", first, 1, 21); !holds(docs, "changed on the page") {
		t.Fatal("the change is not in the page")
	}
	read("read again after the change", first, 0, 21)
	if _, err := st.UpdateClient(ctx, biz, ids[59], func(cl *practiced.Client) error {
		cl.Notes = "changed elsewhere"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	read("a client of another page changed", first, 0, 21)
	last, _ := sqlstore.DocID(string(page[19]))
	next := practiced.PageRequest{Limit: 20, After: last}
	read("the next page's first read", next, 22, 21) // the cursor's row, the page's and the one after
	read("the next page read again", next, 22, 41)   // the cursor's row and the one after it were kept already
	read("the next page read a third time", next, 0, 41)
}

// On PostgreSQL a row the page's statement sends without its document,
// its revision being no higher than the page's highest when last read,
// is answered from a kept document only at that very revision: a row
// that changed on another page and then moved into this one, and a row
// whose change took its number before a later one but committed after
// the page was read, are answered as the database holds them.
func TestAPageOnPostgresTakesAKeptDocumentAtItsRevisionOnly(t *testing.T) {
	ctx := context.Background()
	update := func(t *testing.T, st *sqlstore.Store, biz, id, notes string) {
		t.Helper()
		if _, err := st.UpdateClient(ctx, biz, id, func(cl *practiced.Client) error {
			cl.Notes = notes
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("a row moved into the page", func(t *testing.T) {
		st := testfix.PostgresStore(t)
		c, _ := keptClinic(t, st, 60)
		biz := c.Business.ID
		first := practiced.PageRequest{Limit: 20}
		page := samePage(t, st, biz, first, "first read")
		last, _ := sqlstore.DocID(string(page[19]))
		next := practiced.PageRequest{Limit: 20, After: last}
		samePage(t, st, biz, next, "next page")
		moving, _ := sqlstore.DocID(string(samePage(t, st, biz, next, "next page kept")[1]))
		samePage(t, st, biz, first, "first page kept")
		update(t, st, biz, moving, "changed off the page") // kept at its revision before
		on, _ := sqlstore.DocID(string(page[2]))
		update(t, st, biz, on, "changed on the page") // a higher revision
		samePage(t, st, biz, first, "the page's highest now above the moving row's")
		for _, i := range []int{2, 3} {
			id, _ := sqlstore.DocID(string(page[i]))
			if _, err := st.ArchiveClient(ctx, biz, id, true, practiced.NewTime(testfix.Now)); err != nil {
				t.Fatal(err)
			}
		}
		if got := samePage(t, st, biz, first, "moved in"); !holds(got, "changed off the page") {
			t.Fatal("the row that moved in is not on the page")
		}
	})
	t.Run("a change committed late", func(t *testing.T) {
		url := testfix.PostgresURL(t)
		st, err := sqlstore.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		other, err := sqlstore.Open(ctx, url) // another server's connections
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		c, ids := keptClinic(t, st, 30)
		biz := c.Business.ID
		p := practiced.PageRequest{Limit: 40}
		samePage(t, st, biz, p, "first read")
		samePage(t, st, biz, p, "kept")
		late := make(chan error)
		took := make(chan struct{})
		go func() {
			err := sqlstore.WriterTx(other, func(exec func(string, ...any) error) error {
				err := exec(`UPDATE clients SET doc = replace(doc, '"First3"', '"Late"') WHERE business_id = $1 AND id = $2`, biz, ids[3])
				close(took) // its revision taken, not yet committed
				<-late
				return err
			})
			late <- err
		}()
		<-took
		update(t, st, biz, ids[5], "committed first") // a higher revision, committed
		samePage(t, st, biz, p, "read before the late commit")
		late <- nil
		if err := <-late; err != nil {
			t.Fatal(err)
		}
		if got := samePage(t, st, biz, p, "read after it"); !holds(got, `"Late"`) {
			t.Fatal("the late change is not on the page")
		}
	})
}

// On PostgreSQL a page whose documents were let go, to make room for
// others, reads them with a second statement once, then is read whole
// in one statement and kept again, and from then on is sent only its
// changes.
func TestAPageWhoseDocumentsWereLetGoIsReadWholeAgainOnPostgres(t *testing.T) {
	st := testfix.PostgresStore(t)
	c, _ := keptClinic(t, st, 30)
	biz := c.Business.ID
	p := practiced.PageRequest{Limit: 20}
	samePage(t, st, biz, p, "first read")
	samePage(t, st, biz, p, "kept")
	sqlstore.ForgetKeptDocs(st, biz)
	var sent []int
	seconds := 0
	sqlstore.SentByKeptPages(t, func(n int) { sent = append(sent, n) })
	sqlstore.BetweenKeptReads(t, func() { seconds++ })
	for _, step := range []struct {
		name          string
		sent, seconds int
	}{
		{"its documents let go", 0, 1},
		{"read whole", 21, 1},
		{"kept again", 0, 1},
	} {
		sent = nil
		samePage(t, st, biz, p, step.name)
		if len(sent) != 1 || sent[0] != step.sent || seconds != step.seconds {
			t.Fatalf("%s: the first statements sent %v documents and %d second statements ran; want [%d] and %d",
				step.name, sent, seconds, step.sent, step.seconds)
		}
	}
}
