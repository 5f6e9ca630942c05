package testfix

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/sqlstore"
)

// schema lists a closed SQLite database's objects and the migrations
// it records, one line each, in a fixed order.
func schema(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var lines []string
	for _, q := range []string{
		`SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`,
		`SELECT 'migration ' || version || ' ' || name FROM schema_migrations ORDER BY version`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return lines
}

// The copied database is the one a new database migrates to: the same
// tables, indexes and triggers, and every migration recorded.
func TestMigratedIsANewDatabaseMigrated(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	st, err := sqlstore.Open(context.Background(), "sqlite:"+fresh)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	want, got := schema(t, fresh), schema(t, emptyDBFile(t))
	if !slices.Equal(got, want) {
		t.Fatalf("the copied database's schema differs from a new one's:\n got %s\nwant %s",
			strings.Join(got, "\n    "), strings.Join(want, "\n    "))
	}
	if !slices.ContainsFunc(want, func(line string) bool { return strings.HasPrefix(line, "migration 30 ") }) {
		t.Fatalf("a new database does not record migration 30:\n%s", strings.Join(want, "\n"))
	}
}

// Each store is a file of its own: what one test writes, another never
// sees.
func TestSQLiteStoresShareNothing(t *testing.T) {
	ctx := context.Background()
	a, b := SQLiteStore(t), SQLiteStore(t)
	if _, err := a.CreateBusiness(ctx, "Only in A"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.BusinessByName(ctx, "Only in A"); err != nil {
		t.Fatalf("store A: %v", err)
	}
	if _, err := b.BusinessByName(ctx, "Only in A"); practiced.ErrorCode(err) != practiced.ENOTFOUND {
		t.Fatalf("store B found store A's business: err = %v, want ENOTFOUND", err)
	}
	c := SQLiteStore(t)
	if _, err := c.BusinessByName(ctx, "Only in A"); practiced.ErrorCode(err) != practiced.ENOTFOUND {
		t.Fatalf("a store opened later found store A's business: err = %v, want ENOTFOUND", err)
	}
}
