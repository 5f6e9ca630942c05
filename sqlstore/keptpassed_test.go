//go:build linux

package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"

	practiced "github.com/practiced/practiced"
)

// passStore is newKeyStore with a table of words, whose writes record an
// event as a record's do.
func passStore(t *testing.T) (*Store, string, practiced.APIKey) {
	t.Helper()
	st, path, key := newKeyStore(t)
	if _, err := st.w.Exec(`CREATE TABLE words (word TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return st, path, key
}

// writeWord inserts word and records its event, as the write of a
// record does.
func writeWord(tx *sql.Tx, business, word string) error {
	if err := insertWord(tx, word); err != nil {
		return err
	}
	return recordEvents(context.Background(), tx, business, []newEvent{{recordType: "word", action: "created", recordID: word, data: practiced.Doc(`{}`)}})
}

// readKey reads the key and wants it kept after.
func readKey(t *testing.T, st *Store, key practiced.APIKey) practiced.APIKey {
	t.Helper()
	k, _, err := st.APIKeyAndClientsVersion(context.Background(), key.TokenHash)
	if err != nil {
		t.Fatal(err)
	}
	if !KeyKept(st, key.TokenHash) {
		t.Fatal("the key read is not kept")
	}
	return k
}

// A group whose members all say they leave the kept reads
// (leavesKeptReads), and that wrote an event, keeps them past its
// commit; one member that does not say so, wherever it runs in the
// group, or one that fails, has them read again.
func TestKeptReadsPassACommitThatLeavesThem(t *testing.T) {
	st, _, key := passStore(t)
	biz := key.BusinessID
	leaving := func(word string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			leavesKeptReads(tx)
			return writeWord(tx, biz, word)
		}
	}
	plain := func(word string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error { return writeWord(tx, biz, word) }
	}
	errFailed := errors.New("failed")
	failing := func(word string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			leavesKeptReads(tx)
			if err := writeWord(tx, biz, word); err != nil {
				return err
			}
			return errFailed
		}
	}
	type fn = func(tx *sql.Tx) error
	var want []string
	for _, tc := range []struct {
		name    string
		words   []string // committed
		fns     []fn
		failing int // the member that fails, or -1
		kept    bool
	}{
		{"one member that leaves them", []string{"a"}, []fn{leaving("a")}, -1, true},
		{"three that leave them", []string{"b", "c", "d"}, []fn{leaving("b"), leaving("c"), leaving("d")}, -1, true},
		{"one that does not say so, last", []string{"e", "f", "g"}, []fn{leaving("e"), leaving("f"), plain("g")}, -1, false},
		{"one that does not say so, first", []string{"h", "i"}, []fn{plain("h"), leaving("i")}, -1, false},
		{"one member that does not say so", []string{"j"}, []fn{plain("j")}, -1, false},
		{"one that fails behind a savepoint", []string{"k", "m"}, []fn{leaving("k"), failing("l"), leaving("m")}, 1, false},
	} {
		readKey(t, st, key)
		for i, err := range group(t, st, tc.fns...) {
			if i == tc.failing {
				if !errors.Is(err, errFailed) {
					t.Fatalf("%s: member %d answered %v; want it failed", tc.name, i, err)
				}
			} else if err != nil {
				t.Fatalf("%s: member %d: %v", tc.name, i, err)
			}
		}
		want = append(want, tc.words...)
		if got := words(t, st); !slices.Equal(got, want) {
			t.Fatalf("%s: committed %q; want %q", tc.name, got, want)
		}
		if got := KeyKept(st, key.TokenHash); got != tc.kept {
			t.Fatalf("%s: the key kept after the commit: %v; want %v", tc.name, got, tc.kept)
		}
	}
}

// A commit by another connection right after the group's, before the
// committer reads the state the group left, is not passed over: the key
// it changed is read again. Nor is one after a group that wrote nothing,
// whose commit leaves the header as it was, so that the other's commit
// alone moves it on by one.
func TestKeptReadsNotPassedOverAnotherCommit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		member func(tx *sql.Tx, business string) error
	}{
		{"a group that wrote", func(tx *sql.Tx, business string) error {
			leavesKeptReads(tx)
			return writeWord(tx, business, "a")
		}},
		{"a group that wrote nothing", func(tx *sql.Tx, business string) error {
			leavesKeptReads(tx)
			var n int
			return tx.QueryRow(`SELECT count(*) FROM words`).Scan(&n)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, path, key := passStore(t)
			ctx := context.Background()
			hand, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
			if err != nil {
				t.Fatal(err)
			}
			defer hand.Close()
			if k := readKey(t, st, key); k.RatePerMinute != 5 {
				t.Fatalf("the key reads a rate of %d; want 5", k.RatePerMinute)
			}
			var handErr error
			afterGroupCommit = func() {
				afterGroupCommit = nil
				_, handErr = hand.Exec(`UPDATE api_keys SET rate_per_minute = 9 WHERE token_hash = ?`, key.TokenHash)
			}
			t.Cleanup(func() { afterGroupCommit = nil })
			if err := st.inTx(ctx, func(tx *sql.Tx) error { return tc.member(tx, key.BusinessID) }); err != nil {
				t.Fatal(err)
			}
			if handErr != nil {
				t.Fatal(handErr)
			}
			if KeyKept(st, key.TokenHash) {
				t.Fatal("the key is kept past a commit of another connection")
			}
			if k := readKey(t, st, key); k.RatePerMinute != 9 {
				t.Fatalf("the key reads a rate of %d; want 9, as changed by the other connection", k.RatePerMinute)
			}
		})
	}
}

// A commit that leaves the kept reads moves on only what was kept at the
// state it began from: a key revoked before it, its answer dropped, is
// not answered again after it.
func TestKeptReadsPassedOnlyFromTheStateTheyWereKeptAt(t *testing.T) {
	st, _, key := passStore(t)
	ctx := context.Background()
	readKey(t, st, key)
	if err := st.RevokeAPIKey(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.inTx(ctx, func(tx *sql.Tx) error {
		leavesKeptReads(tx)
		return writeWord(tx, key.BusinessID, "a")
	}); err != nil {
		t.Fatal(err)
	}
	if KeyKept(st, key.TokenHash) {
		t.Fatal("the key read before its revocation is kept again")
	}
	if _, _, err := st.APIKeyAndClientsVersion(ctx, key.TokenHash); practiced.ErrorCode(err) != practiced.EUNAUTHORIZED {
		t.Fatalf("the revoked key reads %v; want it refused", err)
	}
}
