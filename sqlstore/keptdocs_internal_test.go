package sqlstore

import (
	"testing"

	practiced "github.com/practiced/practiced"
)

// A document kept in place of its row's older one, the only one its
// business had kept, is found, and counted once.
func TestAKeptDocumentReplacedIsFound(t *testing.T) {
	k := newKeptDocs(1 << 20)
	k.put("biz", "cli_1", 1, `{"id":"cli_1","notes":"one"}`)
	k.put("biz", "cli_1", 2, `{"id":"cli_1","notes":"two"}`)
	k.put("biz", "cli_1", 1, `{"id":"cli_1","notes":"one"}`) // older: not kept
	docs := make([]practiced.Doc, 1)
	if missing := k.get("biz", []string{"cli_1"}, []int64{2}, docs); len(missing) != 0 || docs[0] != `{"id":"cli_1","notes":"two"}` {
		t.Fatalf("revision 2: missing %v, document %q", missing, docs[0])
	}
	if missing := k.get("biz", []string{"cli_1"}, []int64{1}, make([]practiced.Doc, 1)); len(missing) != 1 {
		t.Fatalf("revision 1 is kept still: missing %v", missing)
	}
	// A document the caller has already is left as it is, and is not missing.
	docs[0] = `{"id":"cli_1","notes":"sent"}`
	if missing := k.get("biz", []string{"cli_1"}, []int64{1}, docs); len(missing) != 0 || docs[0] != `{"id":"cli_1","notes":"sent"}` {
		t.Fatalf("a document already given: missing %v, document %q", missing, docs[0])
	}
	want := (&keptDoc{id: "cli_1", doc: `{"id":"cli_1","notes":"two"}`}).bytes()
	if k.lru.Len() != 1 || len(k.rows["biz"]) != 1 || k.size != want {
		t.Fatalf("%d kept, %d by id, %d bytes; want 1, 1 and %d", k.lru.Len(), len(k.rows["biz"]), k.size, want)
	}
}
