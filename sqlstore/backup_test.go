package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// TestBackupUnderWriteLoad takes a backup while eight writers add
// clients, restores it over another database, and compares the restored
// clients with the source one by one: every client answered before the
// backup began is there exactly as stored, and none answered after the
// backup returned.
func TestBackupUnderWriteLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src, err := Open(ctx, filepath.Join(dir, "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	biz, err := src.CreateBusiness(ctx, "Backup Clinic")
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	answered := map[string]time.Time{} // client id → when its write returned
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				now := practiced.NewTime(time.Now())
				c := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: fmt.Sprintf("Writer%d", g),
					LastName: fmt.Sprintf("Write%d", i), CreatedAt: now, UpdatedAt: now}
				if err := src.CreateClient(ctx, biz.ID, &c); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				answered[c.ID] = time.Now()
				mu.Unlock()
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	began := time.Now()
	backup := filepath.Join(dir, "backup.db")
	if err := BackupSQLite(ctx, filepath.Join(dir, "live.db"), backup); err != nil {
		t.Fatal(err)
	}
	ended := time.Now()
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wg.Wait()

	restored := filepath.Join(dir, "restored.db")
	if err := RestoreSQLite(ctx, restored, backup); err != nil {
		t.Fatal(err)
	}
	dst, err := Open(ctx, restored)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()

	got := map[string]practiced.Client{}
	var page practiced.PageRequest
	page.Limit = 100
	for {
		list, info, err := dst.ListClients(ctx, biz.ID, practiced.PersonFilter{}, page)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list {
			got[c.ID] = c
		}
		if !info.HasNext {
			break
		}
		page.After = info.LastID
	}
	var before, after int
	for id, at := range answered {
		c, in := got[id]
		switch {
		case at.Before(began) && !in:
			t.Errorf("client %s, answered before the backup began, is missing from it", id)
		case at.After(ended) && in:
			t.Errorf("client %s, answered after the backup returned, is in it", id)
		}
		if at.Before(began) {
			before++
		}
		if at.After(ended) {
			after++
		}
		if in {
			want, err := src.GetClient(ctx, biz.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, want) {
				t.Errorf("client %s restored as\n%+v\nstored as\n%+v", id, c, want)
			}
		}
	}
	for id := range got {
		if _, ok := answered[id]; !ok {
			t.Errorf("restored client %s was never written", id)
		}
	}
	if before == 0 || after == 0 {
		t.Fatalf("the writers wrote %d clients before the backup and %d after it; the test needs both", before, after)
	}
	t.Logf("%d clients written, %d before the backup, %d in it, %d after it", len(answered), before, len(got), after)
}

func TestRestoreRefusesADatabaseInUse(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	st, err := Open(ctx, live)
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := BackupSQLite(ctx, live, backup); err != nil {
		t.Fatal(err)
	}
	err = RestoreSQLite(ctx, live, backup)
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Fatalf("restore over an open database: %v, want in use", err)
	}
	if _, err := os.Stat(live + ".before-restore"); !os.IsNotExist(err) {
		t.Errorf("a refused restore touched the database: %v", err)
	}
	// While a restore holds the database, it cannot be opened.
	lock, err := lockSQLite(filepath.Join(dir, "other.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, filepath.Join(dir, "other.db")); err == nil || !strings.Contains(err.Error(), "being restored") {
		t.Errorf("opening a database under restore: %v, want being restored", err)
	}
	lock.release()
	st.Close()
	if err := RestoreSQLite(ctx, live, backup); err != nil {
		t.Fatalf("restore once the database is closed: %v", err)
	}
	if _, err := os.Stat(live + ".before-restore"); err != nil {
		t.Errorf("the replaced database was not kept: %v", err)
	}
}

func TestRestoreRefusesABadBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	st, err := Open(ctx, live)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateBusiness(ctx, "Kept Clinic"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	if _, err := execSQLite(other, `CREATE TABLE t (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "newer.db")
	if err := BackupSQLite(ctx, live, newer); err != nil {
		t.Fatal(err)
	}
	if _, err := execSQLite(newer, `INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, want string }{
		{garbage, "not a database"},
		{other, "is not a practiced database"},
		{newer, "has migration 9999, newer than this program's"},
		{filepath.Join(dir, "absent.db"), "absent.db"},
	} {
		err := RestoreSQLite(ctx, live, c.from)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("restore from %s: %v, want %q", filepath.Base(c.from), err, c.want)
		}
	}
	st, err = Open(ctx, live)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.BusinessByName(ctx, "Kept Clinic"); err != nil {
		t.Errorf("after refused restores the database lost its business: %v", err)
	}
}

func TestBackupRefusesToOverwrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	st, err := Open(ctx, live)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	to := filepath.Join(dir, "taken.db")
	if err := os.WriteFile(to, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := BackupSQLite(ctx, live, to); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("backup over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(to); string(b) != "precious" {
		t.Errorf("the existing file now holds %q", b)
	}
	if err := BackupSQLite(ctx, filepath.Join(dir, "absent.db"), filepath.Join(dir, "b.db")); err == nil {
		t.Error("backup of a missing database succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "absent.db")); !os.IsNotExist(err) {
		t.Errorf("backup of a missing database created it: %v", err)
	}
}

// execSQLite runs one statement on the SQLite file at path, creating it.
func execSQLite(path, stmt string) (sql.Result, error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.Exec(stmt)
}
