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

// keptClinic is a clinic with n more clients, made as a load makes them.
func keptClinic(t *testing.T, n int) (*sqlstore.Store, *testfix.Clinic, []string) {
	t.Helper()
	st := testfix.SQLiteStore(t)
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
	return st, c, ids
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
	ctx := context.Background()
	st, c, ids := keptClinic(t, 150)
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
	if err := sqlstore.WriterExec(st, `UPDATE clients SET doc = replace(doc, '"First9"', '"Typed"') WHERE business_id = ? AND id = ?`,
		biz, ids[9]); err != nil {
		t.Fatal(err)
	}
	if docs := walkKept(t, st, biz, "typed by hand"); !holds(docs, `"Typed"`) || holds(docs, `"First9"`) {
		t.Fatal("the document changed by hand is not the one in the list")
	}

	// A row replaced whole by hand, with another document and the
	// revision it had.
	for _, q := range []string{
		`CREATE TEMP TABLE replacing AS SELECT * FROM clients WHERE business_id = ? AND id = ?`,
		`UPDATE temp.replacing SET doc = replace(doc, '"First11"', '"Replaced"')`,
		`INSERT OR REPLACE INTO clients SELECT * FROM temp.replacing`,
		`DROP TABLE temp.replacing`,
	} {
		var args []any
		if strings.Contains(q, "?") {
			args = []any{biz, ids[11]}
		}
		if err := sqlstore.WriterExec(st, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	if docs := walkKept(t, st, biz, "replaced by hand"); !holds(docs, `"Replaced"`) || holds(docs, `"First11"`) {
		t.Fatal("the row replaced by hand is not the one in the list")
	}

	// A client deleted and loaded again with the same id and another name.
	if err := sqlstore.WriterExec(st, `DELETE FROM clients WHERE business_id = ? AND id = ?`, biz, ids[10]); err != nil {
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
	if err := sqlstore.Reader(st).QueryRow(`SELECT revision FROM clients WHERE business_id = ? AND id = ?`, biz, id).Scan(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// A row's revision grows with every change of its document, by whatever
// writes it; a row made again takes one it never had; and none may go
// back.
func TestARevisionNeverComesBack(t *testing.T) {
	ctx := context.Background()
	st, c, ids := keptClinic(t, 3)
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
	if err := sqlstore.WriterExec(st, `UPDATE clients SET doc = replace(doc, '"Last"', '"Typed"') WHERE business_id = ? AND id = ?`, biz, ids[0]); err != nil {
		t.Fatal(err)
	}
	step("typed by hand")
	// A revision set by hand, back or ahead, gives way to the next.
	for _, set := range []string{"1", "revision + 1000"} {
		if err := sqlstore.WriterExec(st, `UPDATE clients SET revision = `+set+` WHERE business_id = ? AND id = ?`, biz, ids[0]); err != nil {
			t.Fatal(err)
		}
		step("revision set to " + set)
	}
	// A row replaced whole, its revision copied, another document in it.
	if err := sqlstore.WriterExec(st, `INSERT OR REPLACE INTO clients SELECT * FROM clients WHERE business_id = ? AND id = ?`, biz, ids[0]); err != nil {
		t.Fatal(err)
	}
	step("replaced")
	if err := sqlstore.WriterExec(st, `UPDATE clients SET id = id || 'x' WHERE business_id = ? AND id = ?`, biz, ids[1]); err != nil {
		t.Fatal(err)
	}
	if r := revision(t, st, biz, ids[1]+"x"); r <= last {
		t.Fatalf("a row given another id kept revision %d, the last given being %d", r, last)
	}
	if err := sqlstore.WriterExec(st, `DELETE FROM clients WHERE business_id = ? AND id = ?`, biz, ids[0]); err != nil {
		t.Fatal(err)
	}
	at := practiced.NewTime(testfix.Now)
	if err := st.Seed(ctx, biz, practiced.SeedData{Clients: []practiced.Client{{ID: ids[0], FirstName: "Again", LastName: "Last", CreatedAt: at, UpdatedAt: at}}}); err != nil {
		t.Fatal(err)
	}
	step("loaded again")
	if err := sqlstore.WriterExec(st, `DELETE FROM clients WHERE business_id = ? AND id = ?`, biz, ids[0]); err != nil {
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
	st, c, _ := keptClinic(t, 120)
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

// A row that changes between a page's read of its ids and revisions and
// its read of the documents it lacks has the page read anew, and it
// answers the row as changed: whether the page lacks most of its
// documents, read through its range, or one, read by id.
func TestAPageWhoseRowChangesMidReadIsReadAgain(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(fmt.Sprintf("other documents kept %v", warm), func(t *testing.T) {
			ctx := context.Background()
			st, c, ids := keptClinic(t, 30)
			biz := c.Business.ID
			page := practiced.PageRequest{Limit: 40}
			if warm {
				walkKept(t, st, biz, "warm")
				if _, err := st.UpdateClient(ctx, biz, ids[3], func(cl *practiced.Client) error {
					cl.Notes = "changed before"
					return nil
				}); err != nil {
					t.Fatal(err)
				}
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
			got, info, err := st.ListClientDocs(ctx, biz, practiced.PersonFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			want, wantInfo, err := sqlstore.ListClientDocsRead(ctx, st, biz, page)
			if err != nil {
				t.Fatal(err)
			}
			if calls != 1 || !reflect.DeepEqual(got, want) || info != wantInfo || !holds(got, "changed mid-read") {
				t.Fatalf("after %d reads of missing documents the page holds %d documents %+v, the database %d %+v",
					calls, len(got), info, len(want), wantInfo)
			}
			if n, _ := sqlstore.KeptDocs(st); n != kept {
				t.Fatalf("%d documents kept after a page read anew, %d before", n, kept)
			}
		})
	}
}
