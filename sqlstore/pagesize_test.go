package sqlstore

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

func pageSizeOf(t *testing.T, st *Store) int {
	t.Helper()
	var n int
	if err := st.r.QueryRow(`PRAGMA page_size`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A new database, from no file or an empty one, is made with pageSize
// pages; a database that exists keeps its own.
func TestNewDatabasesHaveLargerPages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.db")
	raw, err := sql.Open("sqlite", "file:"+old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('here')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	for path, want := range map[string]int{filepath.Join(dir, "new.db"): pageSize, empty: pageSize, old: 4096} {
		st, err := Open(ctx, "sqlite:"+path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := pageSizeOf(t, st); got != want {
			t.Errorf("%s: page size %d, want %d", filepath.Base(path), got, want)
		}
		var mode string
		if err := st.r.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("%s: journal mode %q, %v", filepath.Base(path), mode, err)
		}
		if _, err := st.CreateBusiness(ctx, "Clinic"); err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
		st.Close()
	}
	st, err := Open(ctx, "sqlite:"+old)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v string
	if err := st.r.QueryRow(`SELECT v FROM kept`).Scan(&v); err != nil || v != "here" {
		t.Errorf("the old database's own table: %q, %v", v, err)
	}
}

// A database path holding the characters a URI gives meaning to ("?",
// "#", "%") names exactly that file, opened again with what it holds.
func TestDatabasePathWithURICharacters(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "clinic #1?x=%41.db")
	st, err := Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.CreateBusiness(ctx, "Odd Path Clinic")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch e.Name() {
		case "clinic #1?x=%41.db", "clinic #1?x=%41.db-wal", "clinic #1?x=%41.db-shm", "clinic #1?x=%41.db.lock":
		default:
			t.Errorf("a file %q beside the database", e.Name())
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("the database file: %v", err)
	}
	st, err = Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got, err := st.BusinessByName(ctx, "Odd Path Clinic"); err != nil || got.ID != b.ID {
		t.Errorf("reopened: %+v, %v", got, err)
	}
	if got := pageSizeOf(t, st); got != pageSize {
		t.Errorf("page size %d, want %d", got, pageSize)
	}
}
