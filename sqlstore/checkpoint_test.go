package sqlstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
)

// A commit that leaves at least 1,000 pages in the write-ahead log has
// them copied into the database file: a transaction of some 4,000 pages
// is in the file, not only in the log, once it is answered.
func TestTheLogIsCheckpointedAtAThousandPages(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "practiced.db")
	st, err := Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if mode := journalMode(t, st); mode != "wal" {
		t.Fatalf("journal mode %q, want wal", mode)
	}
	biz, err := st.CreateBusiness(ctx, "Checkpointed Clinic")
	if err != nil {
		t.Fatal(err)
	}
	before := fileSize(t, path)
	cs := loadClients(4000)
	for i := range cs {
		cs[i].Notes = strings.Repeat("a longer note ", 300) // a client of about 5 KB, its notes in its document: one a page
	}
	if err := st.Seed(ctx, biz.ID, practiced.SeedData{Clients: cs}); err != nil {
		t.Fatal(err)
	}
	// 4,000 clients, one to a page of 8 KiB, are some 33 MB.
	if after := fileSize(t, path); after-before < 24<<20 {
		t.Errorf("the database file grew by %d bytes with the commit, want the transaction's 33 MB checkpointed into it", after-before)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
