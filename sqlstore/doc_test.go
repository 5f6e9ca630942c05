package sqlstore_test

import (
	"context"
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
	t.Run("sqlite", func(t *testing.T) { testDocWithoutID(t, testfix.SQLiteStore(t)) })
	t.Run("postgres", func(t *testing.T) { testDocWithoutID(t, testfix.PostgresStore(t)) })
}

func testDocWithoutID(t *testing.T, st *sqlstore.Store) {
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
}
