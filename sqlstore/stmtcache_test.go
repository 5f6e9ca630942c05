package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestStmtCacheEvicts runs more distinct queries than the cache keeps,
// from several goroutines at once, so that statements are evicted while
// other calls use them; every answer must still be right.
func TestStmtCacheEvicts(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(3)
	r := &reader{DB: db, stmts: newStmtCache(db, 4)}
	ctx := context.Background()

	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				n := (g + i) % 10
				var got int
				if err := r.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + $1", n), 1).Scan(&got); err != nil || got != n+1 {
					errs <- fmt.Errorf("query %d: got %d, %v", n, got, err)
					return
				}
				rows, err := r.QueryContext(ctx, fmt.Sprintf("SELECT %d UNION ALL SELECT $1", n), n)
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
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	if n := r.stmts.lru.Len(); n != 4 {
		t.Errorf("the cache keeps %d statements, want 4", n)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if n := r.stmts.lru.Len(); n != 0 {
		t.Errorf("the closed cache keeps %d statements", n)
	}
	if _, err := r.QueryContext(ctx, "SELECT 1"); err == nil {
		t.Error("a closed reader ran a query")
	}
}
