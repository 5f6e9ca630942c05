package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
)

// loadTempStore sets the connection it is given to files, and
// restoreTempStore sets it back to memory.
func TestLoadTempStore(t *testing.T) {
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
	setting := func() int {
		t.Helper()
		var n int
		if err := conn.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := setting(); n != 2 {
		t.Fatalf("temp_store of a new writer = %d, want 2 (memory)", n)
	}
	if err := loadTempStore(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if n := setting(); n != 1 {
		t.Fatalf("temp_store during a load = %d, want 1 (file)", n)
	}
	restoreTempStore(conn)
	if n := setting(); n != 2 {
		t.Fatalf("temp_store after a load = %d, want 2 (memory)", n)
	}
}
