package sqlstore

import (
	"testing"

	practiced "github.com/practiced/practiced"
)

// A document kept in place of its row's document at another revision,
// the only one its business had kept, is found, and counted once: the
// newer in place of the older, and the older in place of the newer, as
// a row deleted and made again can be numbered lower than it was.
func TestAKeptDocumentReplacedIsFound(t *testing.T) {
	k := newKeptDocs(1 << 20)
	one, two := practiced.Doc(`{"id":"cli_1","notes":"one"}`), practiced.Doc(`{"id":"cli_1","notes":"two"}`)
	for _, step := range []struct {
		revision int64
		doc      practiced.Doc
	}{{1, one}, {2, two}, {1, one}} {
		k.put("biz", "cli_1", step.revision, step.doc)
		docs := make([]practiced.Doc, 1)
		if missing := k.get("biz", []string{"cli_1"}, []int64{step.revision}, docs); len(missing) != 0 || docs[0] != step.doc {
			t.Fatalf("revision %d put: missing %v, document %q", step.revision, missing, docs[0])
		}
		other := 3 - step.revision
		if missing := k.get("biz", []string{"cli_1"}, []int64{other}, make([]practiced.Doc, 1)); len(missing) != 1 {
			t.Fatalf("revision %d put: revision %d is kept still", step.revision, other)
		}
		want := (&keptDoc{id: "cli_1", doc: step.doc}).bytes()
		if k.lru.Len() != 1 || len(k.rows["biz"]) != 1 || k.size != want {
			t.Fatalf("revision %d put: %d kept, %d by id, %d bytes; want 1, 1 and %d", step.revision, k.lru.Len(), len(k.rows["biz"]), k.size, want)
		}
	}
	// A document the caller has already is left as it is, and is not missing.
	docs := []practiced.Doc{`{"id":"cli_1","notes":"sent"}`}
	if missing := k.get("biz", []string{"cli_1"}, []int64{1}, docs); len(missing) != 0 || docs[0] != `{"id":"cli_1","notes":"sent"}` {
		t.Fatalf("a document already given: missing %v, document %q", missing, docs[0])
	}
}
