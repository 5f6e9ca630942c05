package sqlstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

func TestDocIDReadsTheIDADocumentBeginsWith(t *testing.T) {
	for _, c := range []struct {
		doc, id string
		ok      bool
	}{
		{`{"id":"cli_01m8c6zn86fgdrefqqj1p0v9mv","first_name":"Ann"}`, "cli_01m8c6zn86fgdrefqqj1p0v9mv", true},
		{`{"id":"tag_1"}`, "tag_1", true},
		{`{"id":""}`, "", false},
		{`{"id":"cli_1`, "", false},
		{`{"first_name":"Ann","id":"cli_1"}`, "", false},
		{`{ "id":"cli_1"}`, "", false},
		{`{"id":"cli_a\"b"}`, "", false},
		{`{"id":"cli_a\u2028b"}`, "", false},
		{``, "", false},
	} {
		id, ok := sqlstore.DocID(c.doc)
		if id != c.id || ok != c.ok {
			t.Errorf("docID(%s) = %q, %v; want %q, %v", c.doc, id, ok, c.id, c.ok)
		}
	}
}

func TestAPageWithABrokenDocumentFails(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testDocWithoutID(t, testfix.SQLiteStore(t), true) })
	t.Run("postgres", func(t *testing.T) { testDocWithoutID(t, testfix.PostgresStore(t), false) })
}

// testDocWithoutID breaks one stored document of a page in each way a
// page can find. joined says the store reads a page's documents joined
// by line feeds (SQLite), where it reads them a row each (PostgreSQL).
func testDocWithoutID(t *testing.T, st *sqlstore.Store, joined bool) {
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Docs")
	page := practiced.PageRequest{Limit: 100}
	docs, _, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, page)
	if err != nil || len(docs) == 0 {
		t.Fatalf("%d clients, %v", len(docs), err)
	}
	if _, err := sqlstore.Reader(st).ExecContext(ctx, `UPDATE clients SET doc = '{"first_name":"Ann"}' WHERE business_id = $1 AND id = $2`,
		c.Business.ID, c.Clients[1].ID); err != nil {
		t.Fatal(err)
	}
	docs, _, err = st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, page)
	if err == nil || !strings.Contains(err.Error(), "a stored client document does not begin with its id") || docs != nil {
		t.Errorf("a page holding a document without its id: %d documents, %v", len(docs), err)
	}
	if _, err := sqlstore.Reader(st).ExecContext(ctx, `UPDATE clients SET doc = NULL WHERE business_id = $1 AND id = $2`,
		c.Business.ID, c.Clients[1].ID); err != nil {
		t.Fatal(err)
	}
	docs, _, err = st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, page)
	if err == nil || !strings.Contains(err.Error(), "a client has no stored document") || docs != nil {
		t.Errorf("a page holding a client without a document: %d documents, %v", len(docs), err)
	}
	// Joined by line feeds, a document that holds one would read as
	// two; a row each, it reads as it is.
	lf := "{\"id\":\"" + c.Clients[1].ID + "\",\n\"first_name\":\"Ann\"}"
	if _, err := sqlstore.Reader(st).ExecContext(ctx, `UPDATE clients SET doc = $1 WHERE business_id = $2 AND id = $3`,
		lf, c.Business.ID, c.Clients[1].ID); err != nil {
		t.Fatal(err)
	}
	docs, _, err = st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, page)
	if joined {
		if err == nil || !strings.Contains(err.Error(), "a stored client document holds a line feed") || docs != nil {
			t.Errorf("a page holding a document with a line feed: %d documents, %v", len(docs), err)
		}
	} else if err != nil || !slices.Contains(docs, practiced.Doc(lf)) {
		t.Errorf("a page holding a document with a line feed: %v, %v", docs, err)
	}
}

// TestAJoinedPageInAnyOrderReadsInOrder reads every page of clients,
// forwards and backwards, with each page's joined documents coming back
// from SQLite in reverse: the pages must be those of the typed list.
func TestAJoinedPageInAnyOrderReadsInOrder(t *testing.T) {
	st := testfix.SQLiteStore(t)
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Order")
	sqlstore.ReverseJoinedPages(t)
	all, _, err := st.ListClients(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100})
	if err != nil || len(all) < 3 {
		t.Fatalf("%d clients, %v", len(all), err)
	}
	var want []string
	for _, cl := range all {
		want = append(want, cl.ID)
	}
	ids := func(docs []practiced.Doc) []string {
		var out []string
		for _, d := range docs {
			id, _ := sqlstore.DocID(string(d))
			out = append(out, id)
		}
		return out
	}
	var got []string
	p := practiced.PageRequest{Limit: 2}
	for {
		docs, info, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ids(docs)...)
		if !info.HasNext {
			break
		}
		p = practiced.PageRequest{Limit: 2, After: info.LastID}
	}
	if !slices.Equal(got, want) {
		t.Errorf("forwards: %v, want %v", got, want)
	}
	got = nil
	p = practiced.PageRequest{Limit: 2, Before: want[len(want)-1], Inclusive: true}
	for {
		docs, info, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(ids(docs), got...)
		if !info.HasPrev {
			break
		}
		p = practiced.PageRequest{Limit: 2, Before: info.FirstID}
	}
	if !slices.Equal(got, want) {
		t.Errorf("backwards: %v, want %v", got, want)
	}
}

// TestSortDocsPutsAPageInOrderOfIDs checks the order SQLite's page of
// documents is put in, whatever order the rows were joined in.
func TestSortDocsPutsAPageInOrderOfIDs(t *testing.T) {
	doc := func(id string) practiced.Doc { return practiced.Doc(`{"id":"` + id + `","n":1}`) }
	for _, tc := range []struct {
		in   []string
		desc bool
		want []string
	}{
		{[]string{"cli_b", "cli_a", "cli_c"}, false, []string{"cli_a", "cli_b", "cli_c"}},
		{[]string{"cli_b", "cli_a", "cli_c"}, true, []string{"cli_c", "cli_b", "cli_a"}},
		{[]string{"cli_a", "cli_b"}, false, []string{"cli_a", "cli_b"}},
		{[]string{"cli_a", "cli_b"}, true, []string{"cli_b", "cli_a"}},
		// Byte by byte, as SQLite's BINARY collation: a digit before an
		// upper-case letter before a lower-case one, and an id before a
		// longer one it begins.
		{[]string{"cli_a", "cli_1", "cli_A", "cli_"}, false, []string{"cli_", "cli_1", "cli_A", "cli_a"}},
	} {
		docs := make([]practiced.Doc, len(tc.in))
		for i, id := range tc.in {
			docs[i] = doc(id)
		}
		sqlstore.SortDocs(docs, tc.desc)
		var got []string
		for _, d := range docs {
			id, _ := sqlstore.DocID(string(d))
			got = append(got, id)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v, desc %v: sorted to %v, want %v", tc.in, tc.desc, got, tc.want)
		}
	}
}
