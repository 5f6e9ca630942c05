//go:build linux

package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// The child's instructions: the database, and the statement it runs on
// it with the key's hash as its one parameter.
const (
	keyChildDBEnv  = "PRACTICED_KEYCACHE_DB"
	keyChildSQLEnv = "PRACTICED_KEYCACHE_SQL"
	keyChildArgEnv = "PRACTICED_KEYCACHE_ARG"
)

// A key read on SQLite is kept, with its business's clients number, while
// the database is unchanged, and read again after any commit: the
// store's own, one typed by hand on a connection of its own, and one of
// another process. A key refused is not kept.
func TestKeysKeptWhileTheDatabaseIsUnchanged(t *testing.T) {
	if os.Getenv(keyChildDBEnv) != "" {
		keyCacheChild()
		return
	}
	ctx := context.Background()
	st, path, key := newKeyStore(t)
	id, hash, now := key.ID, key.TokenHash, key.CreatedAt
	type answer struct {
		key     practiced.APIKey
		version int64
		code    string
	}
	read := func() answer {
		t.Helper()
		k, v, err := st.APIKeyAndClientsVersion(ctx, hash)
		if err != nil && practiced.ErrorCode(err) != practiced.EUNAUTHORIZED {
			t.Fatal(err)
		}
		return answer{k, v, practiced.ErrorCode(err)}
	}
	kept := func() bool {
		t.Helper()
		at, ok := st.wal.state()
		if !ok {
			t.Fatal("the WAL index's header cannot be read")
		}
		_, hit := st.keys.get(hash, at)
		return hit
	}
	// check reads the key after a change, which must have moved the
	// database on, and wants its rate and number; the answer is kept,
	// and answered again the same until the next change.
	check := func(change string, rate int, version int64) {
		t.Helper()
		if kept() {
			t.Fatalf("after %s the key read before is still answered", change)
		}
		got := read()
		if got.code != "" || got.key.ID != id || got.key.RatePerMinute != rate || got.version != version {
			t.Fatalf("after %s: read key %s, rate %d, number %d (%q); want %s, %d, %d", change, got.key.ID, got.key.RatePerMinute, got.version, got.code, id, rate, version)
		}
		if !kept() {
			t.Fatalf("after %s the key read is not kept", change)
		}
		if again := read(); !reflect.DeepEqual(again, got) {
			t.Fatalf("after %s the kept key answers %+v, the query %+v", change, again, got)
		}
	}
	check("its creation", 5, 0)

	c := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Kept", LastName: "Key", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateClient(ctx, key.BusinessID, &c); err != nil {
		t.Fatal(err)
	}
	check("a client created", 5, 1)

	hand, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer hand.Close()
	if _, err := hand.ExecContext(ctx, `UPDATE list_versions SET version = version + 7 WHERE business = ? AND list = 'clients'`, key.BusinessID); err != nil {
		t.Fatal(err)
	}
	check("the clients' number moved by hand", 5, 8)

	// A read, by the store or by hand, changes nothing.
	var n int
	if err := hand.QueryRowContext(ctx, `SELECT count(*) FROM clients`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("count of clients: %d, %v", n, err)
	}
	if _, err := st.GetClient(ctx, key.BusinessID, c.ID); err != nil {
		t.Fatal(err)
	}
	if !kept() {
		t.Fatal("a read dropped the key kept")
	}

	inChild(t, path, `UPDATE api_keys SET rate_per_minute = 42 WHERE token_hash = ?`, hash)
	check("the key's rate changed by another process", 42, 8)

	inChild(t, path, `UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00Z' WHERE token_hash = ?`, hash)
	if got := read(); got.code != practiced.EUNAUTHORIZED {
		t.Fatalf("the key revoked by another process reads %+v; want it refused", got)
	}
	if kept() {
		t.Fatal("a key refused is kept")
	}
}

// inChild runs stmt on the database at path, with arg, in another
// process: the test binary run again as keyCacheChild.
func inChild(t *testing.T, path, stmt, arg string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKeysKeptWhileTheDatabaseIsUnchanged$", "-test.count=1")
	cmd.Env = append(os.Environ(), keyChildDBEnv+"="+path, keyChildSQLEnv+"="+stmt, keyChildArgEnv+"="+arg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the other process: %v\n%s", err, out)
	}
}

// keyCacheChild runs the statement it was given, on a connection of its
// own, and ends the process: 0 when the statement changed one row, or,
// for a statement that reads, when it read without error.
func keyCacheChild() {
	db, err := sql.Open("sqlite", os.Getenv(keyChildDBEnv)+"?_pragma=busy_timeout(10000)")
	if err == nil {
		stmt, arg := os.Getenv(keyChildSQLEnv), os.Getenv(keyChildArgEnv)
		if strings.HasPrefix(stmt, "SELECT") || strings.HasPrefix(stmt, "PRAGMA") {
			var rows *sql.Rows
			if rows, err = db.Query(stmt); err == nil {
				for rows.Next() {
				}
				err = errors.Join(rows.Err(), rows.Close())
			}
		} else {
			var res sql.Result
			if res, err = db.Exec(stmt, arg); err == nil {
				if n, _ := res.RowsAffected(); n != 1 {
					err = fmt.Errorf("the statement changed %d rows", n)
				}
			}
		}
		db.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "key cache child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// newKeyStore opens a SQLite store in a new directory with a business
// and one key of 5 requests a minute, and returns the store, the
// database's path and the key.
func newKeyStore(t *testing.T) (*Store, string, practiced.APIKey) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "keys.db")
	st, err := Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	biz, err := st.CreateBusiness(ctx, "Keys")
	if err != nil {
		t.Fatal(err)
	}
	id := tid.New(practiced.PrefixAPIKey)
	key := practiced.APIKey{ID: id, BusinessID: biz.ID, TokenHash: practiced.HashToken("pk_test_" + id), RatePerMinute: 5,
		CreatedAt: practiced.NewTime(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))}
	if err := st.CreateAPIKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	return st, path, key
}

// A key is kept at the state read before its query: a commit made after
// the query, before the answer is kept, is seen by the next read.
func TestAKeyIsKeptAtTheStateBeforeItsQuery(t *testing.T) {
	st, _, key := newKeyStore(t)
	hash := key.TokenHash
	ctx := context.Background()
	keptReadDone = func() {
		keptReadDone = nil
		if _, err := st.w.ExecContext(ctx, `UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00Z' WHERE token_hash = ?`, hash); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { keptReadDone = nil })
	if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); err != nil {
		t.Fatalf("the key read before it was revoked: %v", err)
	}
	if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); practiced.ErrorCode(err) != practiced.EUNAUTHORIZED {
		t.Fatalf("the key revoked after its query and before it was kept reads %v; want it refused", err)
	}
}

// Another process that opens the database, reads it and checkpoints its
// log leaves the WAL index as it was (it does not take itself for the
// database's only user), and what it commits after a checkpoint that
// empties the log is seen.
func TestAnotherProcessLeavesTheWALIndex(t *testing.T) {
	st, path, key := newKeyStore(t)
	hash := key.TokenHash
	ctx := context.Background()
	if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); err != nil {
		t.Fatal(err)
	}
	before, ok := st.wal.state()
	if !ok {
		t.Fatal("the WAL index's header cannot be read")
	}
	inChild(t, path, `SELECT count(*) FROM api_keys`, "")
	if after, ok := st.wal.state(); !ok || after != before {
		t.Fatalf("another process's read moved the WAL index's header from %v to %v (%v)", before, after, ok)
	}
	if _, hit := st.keys.get(hash, before); !hit {
		t.Fatal("the key read is not kept")
	}
	inChild(t, path, `PRAGMA wal_checkpoint(TRUNCATE)`, "")
	inChild(t, path, `UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00Z' WHERE token_hash = ?`, hash)
	inChild(t, path, `PRAGMA wal_checkpoint(TRUNCATE)`, "")
	var live int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM api_keys WHERE revoked_at IS NULL`).Scan(&live); err != nil || live != 0 {
		t.Fatalf("live keys read after another process revoked the one: %d, %v", live, err)
	}
	if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); practiced.ErrorCode(err) != practiced.EUNAUTHORIZED {
		t.Fatalf("the key revoked by another process between two checkpoints reads %v; want it refused", err)
	}
}

// A read that comes once the store is closing queries (and fails as a
// closed database does) rather than read the unmapped header.
func TestAKeyReadAfterCloseFails(t *testing.T) {
	st, _, key := newKeyStore(t)
	hash := key.TokenHash
	ctx := context.Background()
	if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.wal.state(); ok {
		t.Fatal("a closed store reads the WAL index's header")
	}
	if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); err == nil || !strings.Contains(err.Error(), "database is closed") {
		t.Fatalf("a key read after close: %v; want the database closed", err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("closed again: %v", err)
	}
}

// The header is known only when its two copies agree and SQLite has
// written it.
func TestWALIndexHeaderReadWhole(t *testing.T) {
	if _, ok := (*walIndex)(nil).state(); ok {
		t.Fatal("no index tells a state")
	}
	mem := make([]byte, 2*walHeaderWords*4)
	w := &walIndex{mem: mem}
	if _, ok := w.state(); ok {
		t.Fatal("a header never written tells a state")
	}
	for i := range walHeaderWords * 4 {
		mem[i], mem[walHeaderWords*4+i] = byte(i+1), byte(i+1)
	}
	first, ok := w.state()
	if !ok {
		t.Fatal("a header whose copies agree tells no state")
	}
	mem[walHeaderWords*4+20]++
	if _, ok := w.state(); ok {
		t.Fatal("a header whose second copy differs tells a state")
	}
	mem[walHeaderWords*4+20]--
	mem[8]++
	if got, ok := w.state(); ok {
		t.Fatalf("a header whose first copy differs tells %v", got)
	}
	mem[8]--
	if again, ok := w.state(); !ok || again != first {
		t.Fatalf("the header read again tells %v, %v; want %v", again, ok, first)
	}
}

// A database opened through a symbolic link has its WAL index mapped: the
// index SQLite names after the file the link leads to.
func TestWALIndexFoundThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), "sqlite:"+link)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := os.Stat(real + "-shm"); err != nil {
		t.Fatalf("SQLite's index beside the real file: %v", err)
	}
	if _, ok := st.wal.state(); !ok {
		t.Fatal("the WAL index of a database opened through a link is not read")
	}
}
