package sqlstore

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// journalMode is the journal mode the store's writer sees.
func journalMode(t *testing.T, s *Store) string {
	t.Helper()
	var mode string
	if err := s.w.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	return mode
}

// loadClients makes n clients for a load.
func loadClients(n int) []practiced.Client {
	at := practiced.NewTime(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	cs := make([]practiced.Client, n)
	for i := range cs {
		cs[i] = practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: fmt.Sprint("First", i), LastName: "Last",
			Email: fmt.Sprintf("client%d@example.com", i), Notes: strings.Repeat("a note ", 100), CreatedAt: at, UpdatedAt: at}
	}
	return cs
}

// A new database opened for a load keeps a rollback journal and is the
// one process's alone; closed, it is in the write-ahead log with its
// 8 KiB pages and everything the load wrote.
func TestANewDatabaseIsMadeForItsLoad(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "load.db")
	st, err := OpenWith(ctx, "sqlite:"+path, Options{Load: true})
	if err != nil {
		t.Fatal(err)
	}
	if mode := journalMode(t, st); mode != "delete" {
		t.Errorf("journal mode during the load: %q, want delete", mode)
	}
	// FULL would not sync the directory once a commit deletes its
	// journal; EXTRA (3) does.
	var sync int
	if err := st.w.QueryRow("PRAGMA synchronous").Scan(&sync); err != nil || sync != 3 {
		t.Errorf("synchronous during the load: %d, %v; want 3 (EXTRA)", sync, err)
	}
	if other, err := Open(ctx, "sqlite:"+path); err == nil {
		other.Close()
		t.Error("a second store opened the database of a load")
	} else if !strings.Contains(err.Error(), "being restored or loaded by another process") {
		t.Errorf("a second store: %v, want the database being loaded", err)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := BackupSQLite(ctx, path, backup); err == nil || !strings.Contains(err.Error(), "being restored or loaded by another process") {
		t.Errorf("a backup during the load: %v, want the database being loaded", err)
	}
	biz, err := st.CreateBusiness(ctx, "Loading Clinic")
	if err != nil {
		t.Fatal(err)
	}
	clients := loadClients(3000)
	err = st.SeedAll(ctx, biz.ID, func() (practiced.SeedData, bool, error) {
		if len(clients) == 0 {
			return practiced.SeedData{}, false, nil
		}
		d := practiced.SeedData{Clients: clients[:1000]}
		clients = clients[1000:]
		return d, true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Errorf("closing the store again: %v", err)
	}
	if _, err := os.Stat(path + "-journal"); !os.IsNotExist(err) {
		t.Errorf("the rollback journal is left behind: %v", err)
	}
	// Bytes 18 and 19 of the file's header are 2 in the write-ahead log,
	// 1 with a rollback journal.
	header, err := os.ReadFile(path)
	if err != nil || len(header) < 20 || header[18] != 2 || header[19] != 2 {
		t.Errorf("the closed database's header: %v; want 2 and 2 at bytes 18 and 19, the write-ahead log", err)
	}

	st, err = Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if mode := journalMode(t, st); mode != "wal" {
		t.Errorf("journal mode after the load: %q, want wal", mode)
	}
	var pageSize, n int
	if err := st.r.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil || pageSize != 8192 {
		t.Errorf("page size %d, %v; want 8192", pageSize, err)
	}
	if err := st.r.QueryRow("SELECT COUNT(*) FROM clients WHERE business_id = ?", biz.ID).Scan(&n); err != nil || n != 3000 {
		t.Errorf("%d clients, %v; want 3000", n, err)
	}
}

// A database that exists opens for a load as for anything else: in the
// write-ahead log, shared with other processes.
func TestAnExistingDatabaseLoadsInItsLog(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	st, err := Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, err = OpenWith(ctx, "sqlite:"+path, Options{Load: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if mode := journalMode(t, st); mode != "wal" {
		t.Errorf("journal mode: %q, want wal", mode)
	}
	other, err := Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatalf("a second store on the database: %v", err)
	}
	other.Close()
}

// Killed in the middle of its load, a new database keeps what was
// committed and nothing of the load: the next open rolls the journal
// back. The child (this test binary again) commits a business and 500
// clients, then loads batches of clients in one transaction until it is
// killed, printing the size of the database file after each batch; the
// test kills it once the load has grown the file, so that pages of the
// uncommitted load are in the database itself.
const loadKillDBEnv = "PRACTICED_LOADKILL_DB"

func TestAKilledLoadLeavesItsNewDatabaseAsCommitted(t *testing.T) {
	if path := os.Getenv(loadKillDBEnv); path != "" {
		loadKillChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "killed.db")
	cmd, out := startChild(t, "TestAKilledLoadLeavesItsNewDatabaseAsCommitted", loadKillDBEnv+"="+path)
	defer cmd.Wait()
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	var biz string
	var committed int64
	for sc.Scan() {
		line := sc.Text()
		if b, ok := strings.CutPrefix(line, "committed "); ok {
			if _, err := fmt.Sscan(b, &biz, &committed); err != nil {
				t.Fatalf("the child printed %q", line)
			}
			continue
		}
		var size int64
		if _, err := fmt.Sscanf(line, "loading %d", &size); err != nil {
			t.Fatalf("the child printed %q", line)
		}
		if size > 2*committed {
			break
		}
	}
	if biz == "" {
		t.Fatalf("the child ended before its load grew the database: %v", sc.Err())
	}
	if _, err := os.Stat(path + "-journal"); err != nil {
		t.Fatalf("no rollback journal during the load: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()

	ctx := context.Background()
	st, err := Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var check string
	var n int
	if err := st.r.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
	if err := st.r.QueryRow("SELECT COUNT(*) FROM clients WHERE business_id = ?", biz).Scan(&n); err != nil || n != 500 {
		t.Errorf("%d clients after the kill, %v; want the 500 committed", n, err)
	}
	if mode := journalMode(t, st); mode != "wal" {
		t.Errorf("journal mode after the kill: %q, want wal", mode)
	}
}

// loadKillChild commits a business and 500 clients to the new database
// at path, then loads clients until it is killed.
func loadKillChild(path string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "load child:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	st, err := OpenWith(ctx, "sqlite:"+path, Options{Load: true})
	if err != nil {
		fail(err)
	}
	biz, err := st.CreateBusiness(ctx, "Killed Clinic")
	if err != nil {
		fail(err)
	}
	if err := st.Seed(ctx, biz.ID, practiced.SeedData{Clients: loadClients(500)}); err != nil {
		fail(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		fail(err)
	}
	fmt.Printf("committed %s %d\n", biz.ID, fi.Size())
	err = st.SeedAll(ctx, biz.ID, func() (practiced.SeedData, bool, error) {
		fi, err := os.Stat(path)
		if err != nil {
			return practiced.SeedData{}, false, err
		}
		fmt.Printf("loading %d\n", fi.Size())
		return practiced.SeedData{Clients: loadClients(2000)}, true, nil
	})
	fail(fmt.Errorf("the load ended before the kill: %v", err))
}
