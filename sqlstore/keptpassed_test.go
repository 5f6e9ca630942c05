//go:build linux

package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"testing"
)

// A group whose members all say they leave the kept reads
// (leavesKeptReads) keeps them past its commit; one member that does not
// say so, wherever it runs in the group, has them read again.
func TestKeptReadsPassACommitThatLeavesThem(t *testing.T) {
	st, _, key := newKeyStore(t)
	if _, err := st.w.Exec(`CREATE TABLE words (word TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	leaving := func(word string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			leavesKeptReads(tx)
			return insertWord(tx, word)
		}
	}
	plain := func(word string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error { return insertWord(tx, word) }
	}
	var want []string
	for _, tc := range []struct {
		name  string
		words []string
		fns   []func(tx *sql.Tx) error
		kept  bool
	}{
		{"one member that leaves them", []string{"a"}, []func(tx *sql.Tx) error{leaving("a")}, true},
		{"three that leave them", []string{"b", "c", "d"}, []func(tx *sql.Tx) error{leaving("b"), leaving("c"), leaving("d")}, true},
		{"one that does not say so, last", []string{"e", "f", "g"}, []func(tx *sql.Tx) error{leaving("e"), leaving("f"), plain("g")}, false},
		{"one that does not say so, first", []string{"h", "i"}, []func(tx *sql.Tx) error{plain("h"), leaving("i")}, false},
		{"one member that does not say so", []string{"j"}, []func(tx *sql.Tx) error{plain("j")}, false},
	} {
		if _, _, err := st.APIKeyAndClientsVersion(ctx, key.TokenHash); err != nil {
			t.Fatal(err)
		}
		if !KeyKept(st, key.TokenHash) {
			t.Fatalf("%s: the key read is not kept", tc.name)
		}
		for i, err := range group(t, st, tc.fns...) {
			if err != nil {
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
// it changed is read again.
func TestKeptReadsNotPassedOverAnotherCommit(t *testing.T) {
	st, path, key := newKeyStore(t)
	ctx := context.Background()
	hand, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer hand.Close()
	if _, err := st.w.Exec(`CREATE TABLE words (word TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	rate := func() int {
		t.Helper()
		k, _, err := st.APIKeyAndClientsVersion(ctx, key.TokenHash)
		if err != nil {
			t.Fatal(err)
		}
		return k.RatePerMinute
	}
	if got := rate(); got != 5 || !KeyKept(st, key.TokenHash) {
		t.Fatalf("the key reads a rate of %d, kept %v; want 5, kept", got, KeyKept(st, key.TokenHash))
	}
	var handErr error
	afterGroupCommit = func() {
		afterGroupCommit = nil
		_, handErr = hand.Exec(`UPDATE api_keys SET rate_per_minute = 9 WHERE token_hash = ?`, key.TokenHash)
	}
	t.Cleanup(func() { afterGroupCommit = nil })
	if err := st.inTx(ctx, func(tx *sql.Tx) error {
		leavesKeptReads(tx)
		return insertWord(tx, "a")
	}); err != nil {
		t.Fatal(err)
	}
	if handErr != nil {
		t.Fatal(handErr)
	}
	if KeyKept(st, key.TokenHash) {
		t.Fatal("the key is kept past a commit of another connection")
	}
	if got := rate(); got != 9 {
		t.Fatalf("the key reads a rate of %d; want 9, as changed by the other connection", got)
	}
}
