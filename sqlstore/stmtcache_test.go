package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func keepingDB(t *testing.T, size, conns int) *sql.DB {
	t.Helper()
	c, err := newKeepingConnector("file:"+filepath.Join(t.TempDir(), "cache.db"), size)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	t.Cleanup(func() { db.Close() })
	return db
}

// kept reports how many statements the connection conn keeps.
func kept(t *testing.T, conn *sql.Conn) int {
	t.Helper()
	n := -1
	if err := conn.Raw(func(dc any) error {
		n = dc.(*keepingConn).kept()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestKeptStatementsEvict runs more distinct queries than a connection
// keeps, from several goroutines on several connections; every answer
// must be right and no connection keeps more than its size.
func TestKeptStatementsEvict(t *testing.T) {
	db := keepingDB(t, 4, 3)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				n := (g + i) % 10
				var got int
				if err := db.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + ?", n), 1).Scan(&got); err != nil || got != n+1 {
					errs <- fmt.Errorf("query %d: got %d, %v", n, got, err)
					return
				}
				rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT %d UNION ALL SELECT ?", n), n)
				if err != nil {
					errs <- err
					return
				}
				count := 0
				for rows.Next() {
					count++
				}
				rows.Close()
				if count != 2 || rows.Err() != nil {
					errs <- fmt.Errorf("query %d: %d rows, %v", n, count, rows.Err())
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if n := kept(t, conn); n != 4 {
		t.Errorf("a connection keeps %d statements, want 4", n)
	}
}

// TestKeptStatementRunAgainWhileItsRowsAreOpen runs a query again, and
// writes with it, while the rows of its kept statement are still being
// read on the same connection: each run needs a statement of its own.
func TestKeptStatementRunAgainWhileItsRowsAreOpen(t *testing.T) {
	db := keepingDB(t, 8, 1)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE TABLE n (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for v := range 3 {
		if _, err := db.ExecContext(ctx, "INSERT INTO n (v) VALUES (?)", v); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = "SELECT v FROM n WHERE v >= ? ORDER BY v"
	outer, err := tx.QueryContext(ctx, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []string
	for outer.Next() {
		var a int
		if err := outer.Scan(&a); err != nil {
			t.Fatal(err)
		}
		inner, err := tx.QueryContext(ctx, q, a)
		if err != nil {
			t.Fatal(err)
		}
		for inner.Next() {
			var b int
			if err := inner.Scan(&b); err != nil {
				t.Fatal(err)
			}
			pairs = append(pairs, fmt.Sprintf("%d%d", a, b))
		}
		if err := inner.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(pairs, " "), "00 01 02 11 12 22"; got != want {
		t.Errorf("pairs %s, want %s", got, want)
	}
	// The kept statement is free again: the same query runs from it.
	var first int
	if err := tx.QueryRowContext(ctx, q, 1).Scan(&first); err != nil || first != 1 {
		t.Errorf("after the rows closed: %d, %v", first, err)
	}
}

// TestKeptStatementErrorsAndClose: a statement that fails to prepare is
// not kept and says why; a long statement runs without being kept; a
// closed connection keeps nothing.
func TestKeptStatementErrorsAndClose(t *testing.T) {
	db := keepingDB(t, 8, 1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO missing VALUES (1)"); err == nil || !strings.Contains(err.Error(), "no such table: missing") {
		t.Errorf("a statement on a missing table: %v", err)
	}
	if n := kept(t, conn); n != 0 {
		t.Errorf("%d statements kept after a failed prepare", n)
	}
	long := "SELECT 1" + strings.Repeat(" ", maxKeptQuery)
	var one int
	if err := conn.QueryRowContext(ctx, long).Scan(&one); err != nil || one != 1 {
		t.Errorf("a long statement: %d, %v", one, err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT 2").Scan(&one); err != nil || one != 2 {
		t.Errorf("SELECT 2: %d, %v", one, err)
	}
	if n := kept(t, conn); n != 1 {
		t.Errorf("%d statements kept, want 1 (the long one is not)", n)
	}
	var kc *keepingConn
	conn.Raw(func(dc any) error { kc = dc.(*keepingConn); return nil })
	conn.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if kc.kept() != 0 {
		t.Errorf("a closed connection keeps %d statements", kc.kept())
	}
}

// A kept statement whose rows are open is not evicted, even when the
// cache is over its size; statements with many parameters are not kept.
func TestKeptStatementInUseIsNotEvicted(t *testing.T) {
	db := keepingDB(t, 1, 1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, "SELECT 1 UNION ALL SELECT 2")
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal("no first row")
	}
	for _, n := range []int{3, 4} {
		var got int
		if err := conn.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", n)).Scan(&got); err != nil || got != n {
			t.Fatalf("SELECT %d while other rows are open: %d, %v", n, got, err)
		}
	}
	var second int
	if !rows.Next() || rows.Scan(&second) != nil || second != 2 {
		t.Fatalf("the open rows lost their place: %d, %v", second, rows.Err())
	}
	rows.Close()
	var got int
	if err := conn.QueryRowContext(ctx, "SELECT 5").Scan(&got); err != nil || got != 5 {
		t.Fatalf("SELECT 5: %d, %v", got, err)
	}
	if n := kept(t, conn); n != 1 {
		t.Errorf("%d statements kept, want 1", n)
	}
	many := "SELECT 0" + strings.Repeat(" + ?", maxKeptParams+1)
	params := make([]any, maxKeptParams+1)
	for i := range params {
		params[i] = 1
	}
	if err := conn.QueryRowContext(ctx, many, params...).Scan(&got); err != nil || got != maxKeptParams+1 {
		t.Fatalf("a statement of many parameters: %d, %v", got, err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT 5").Scan(&got); err != nil || got != 5 {
		t.Fatalf("SELECT 5: %d, %v", got, err)
	}
	if n := kept(t, conn); n != 1 {
		t.Errorf("%d statements kept after one of %d parameters, want 1", n, maxKeptParams+1)
	}
}
