package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
)

// loadSettings sets the connection it is given to temporary files in
// files and loadSorterThreads sorter threads, and restoreSettings sets it
// back to memory and none.
func TestLoadSettings(t *testing.T) {
	s, err := openSQLite(filepath.Join(t.TempDir(), "t.db"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	conn, err := s.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	setting := func(pragma string) int {
		t.Helper()
		var n int
		if err := conn.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	want := func(when string, tempStore, threads int) {
		t.Helper()
		if n := setting("temp_store"); n != tempStore {
			t.Fatalf("temp_store %s = %d, want %d", when, n, tempStore)
		}
		if n := setting("threads"); n != threads {
			t.Fatalf("threads %s = %d, want %d", when, n, threads)
		}
	}
	want("of a new writer", 2, 0)
	if err := loadSettings(ctx, conn); err != nil {
		t.Fatal(err)
	}
	want("during a load", 1, loadSorterThreads)
	restoreSettings(conn)
	want("after a load", 2, 0)
}
