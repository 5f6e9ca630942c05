package main

import (
	"context"
	"database/sql"
	"os/exec"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/practiced/practiced/internal/testfix"
)

// TestPostgresDumpAndRestore backs a PostgreSQL database up and restores
// it the way docs/deploy.md says, with pg_dump and pg_restore, and
// compares every table of the two databases row by row. The restored
// database then serves: the server starts on it and applies nothing.
func TestPostgresDumpAndRestore(t *testing.T) {
	from := testfix.PostgresURL(t)
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: skipping the PostgreSQL restore test", tool)
		}
	}
	st, err := openStore(from)
	if err != nil {
		t.Fatal(err)
	}
	testfix.NewClinic(t, st, "Dumped Clinic")
	st.Close()

	dump := filepath.Join(t.TempDir(), "practiced.dump")
	if out, err := exec.Command("pg_dump", "--format=custom", "--no-owner", "--file", dump, "--dbname", from).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v: %s", err, out)
	}
	to := testfix.PostgresURL(t)
	if out, err := exec.Command("pg_restore", "--no-owner", "--exit-on-error", "--dbname", to, dump).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v: %s", err, out)
	}

	src, dst := pgOpen(t, from), pgOpen(t, to)
	rows, err := src.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("the source database has %d tables: %v", len(tables), tables)
	}
	rowsIn := 0
	for _, table := range tables {
		// Each row as text, in one sorted list: equal lists are equal
		// tables, record by record.
		q := `SELECT COUNT(*), COALESCE(string_agg(r::text, E'\n' ORDER BY r::text), '') FROM "` + table + `" r`
		var n1, n2 int
		var a, b string
		if err := src.QueryRow(q).Scan(&n1, &a); err != nil {
			t.Fatal(err)
		}
		if err := dst.QueryRow(q).Scan(&n2, &b); err != nil {
			t.Fatalf("%s in the restored database: %v", table, err)
		}
		if n1 != n2 || a != b {
			t.Errorf("table %s: %d rows in the source, %d restored, or their values differ", table, n1, n2)
		}
		rowsIn += n1
	}
	if rowsIn == 0 {
		t.Fatal("the source database is empty; the comparison proves nothing")
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	startServer(t, ctx, "--db", to)
}

func pgOpen(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
