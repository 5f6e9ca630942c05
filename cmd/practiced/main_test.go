package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/practiced/practiced/sqlstore"
)

// syncBuffer is a bytes.Buffer safe to write from the server goroutine
// while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func noEnv(string) string { return "" }

// TestServeDemoPrintsAWorkingCurlLine starts the real server as the README
// says, waits for it, and runs the request the printed curl line makes.
func TestServeDemoPrintsAWorkingCurlLine(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "demo.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--demo"}, noEnv, &stdout, &stderr)
	}()

	curl := regexp.MustCompile(`curl -H 'Authorization: Bearer (pk_[A-Za-z0-9_-]+)' '([^']+)'`)
	var m []string
	deadline := time.Now().Add(60 * time.Second)
	for m == nil {
		if time.Now().After(deadline) {
			t.Fatalf("no curl line printed; stdout %q stderr %q", stdout.String(), stderr.String())
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped early: %v; stderr %s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		m = curl.FindStringSubmatch(stdout.String())
	}
	token, url := m[1], m[2]
	base := strings.TrimSuffix(url[:strings.Index(url, "/v1/")], "/")

	waitHealthy(t, base)
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Data  []map[string]any       `json:"data"`
		Links struct{ Next *string } `json:"links"`
	}
	err = json.NewDecoder(res.Body).Decode(&page)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("curl line answered %d, %v", res.StatusCode, err)
	}
	if len(page.Data) != 2 || page.Links.Next == nil {
		t.Fatalf("want 2 clients and a next link, got %d and %v", len(page.Data), page.Links.Next)
	}
	if strings.Contains(stderr.String(), token) {
		t.Fatal("the API key appears in the log")
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after shutdown", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not shut down")
	}
}

func waitHealthy(t *testing.T, base string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s/healthz never answered 200", base)
}

// TestAPIKeyCreateAndRevoke checks the stdout contract of
// apikey create and that revoke makes the key useless.
func TestAPIKeyCreateAndRevoke(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "keys.db")
	ctx := context.Background()
	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"apikey", "create", "--business", "Harbour Physio", "--db", db}, noEnv, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(stdout.String())
	if !regexp.MustCompile(`^pk_[A-Za-z0-9_-]{43}$`).MatchString(token) {
		t.Fatalf("stdout is %q, want the token alone", stdout.String())
	}
	keyID := regexp.MustCompile(`key_[0-9a-z]{26}`).FindString(stderr.String())
	if keyID == "" {
		t.Fatalf("stderr %q names no key id", stderr.String())
	}
	if err := run(ctx, []string{"apikey", "revoke", keyID, "--db", db}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	err := run(ctx, []string{"apikey", "revoke", keyID, "--db", db}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("second revoke: %v, want not found", err)
	}
}

func TestDBDefaultsToEnvironment(t *testing.T) {
	if got := defaultDB(noEnv); got != "sqlite:practiced.db" {
		t.Fatalf("default %q", got)
	}
	env := func(k string) string {
		if k == "PRACTICED_DB" {
			return "sqlite:/x.db"
		}
		return ""
	}
	if got := defaultDB(env); got != "sqlite:/x.db" {
		t.Fatalf("with PRACTICED_DB %q", got)
	}
}

func TestUnknownCommandFails(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"frobnicate"}, noEnv, io.Discard, &stderr)
	if err == nil || !strings.Contains(stderr.String(), "usage:") {
		t.Fatalf("err %v, stderr %q", err, stderr.String())
	}
}

func openStore(url string) (*sqlstore.Store, error) {
	return sqlstore.Open(context.Background(), url)
}

func TestHelpOfEverySubcommandIsNoError(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"serve", "--help"}, {"migrate", "-h"}, {"demo", "--help"}, {"apikey", "--help"}, {"apikey", "create", "--help"}, {"apikey", "list", "-h"}, {"version", "--help"}, {"backup", "-h"}, {"restore", "--help"}, {"healthcheck", "--help"}} {
		var stdout, stderr syncBuffer
		if err := run(t.Context(), args, noEnv, &stdout, &stderr); err != nil {
			t.Errorf("%v: err = %v, want nil", args, err)
		}
		if out := strings.ToLower(stdout.String() + stderr.String()); !strings.Contains(out, "usage") {
			t.Errorf("%v printed %q, want its usage", args, out)
		}
	}
}

// TestAPIKeyListShowsEveryKeyButNoToken creates a read-write and a
// read-only key, revokes the first, and reads the list.
func TestAPIKeyListShowsEveryKeyButNoToken(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "keys.db")
	ctx := t.Context()
	var ids, tokens []string
	keyID := regexp.MustCompile(`created API key (key_\S+) `)
	for _, extra := range [][]string{nil, {"--read-only", "--rate", "120"}} {
		var stdout, stderr syncBuffer
		args := append([]string{"apikey", "create", "--business", "Harbour Physio", "--db", db}, extra...)
		if err := run(ctx, args, noEnv, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		m := keyID.FindStringSubmatch(stderr.String())
		if m == nil {
			t.Fatalf("no key id in %q", stderr.String())
		}
		ids, tokens = append(ids, m[1]), append(tokens, strings.TrimSpace(stdout.String()))
	}
	if err := run(ctx, []string{"apikey", "revoke", ids[0], "--db", db}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	var stdout syncBuffer
	if err := run(ctx, []string{"apikey", "list", "--business", "Harbour Physio", "--db", db}, noEnv, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^ID +ACCESS +RATE +CREATED +REVOKED$`),
		regexp.MustCompile(`^` + ids[0] + ` +read-write +default +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`),
		regexp.MustCompile(`^` + ids[1] + ` +read-only +120/min +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ +-$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("apikey list printed %q, want %d lines", stdout.String(), len(want))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d = %q, want %s", i, lines[i], re)
		}
	}
	for _, token := range tokens {
		if strings.Contains(stdout.String(), token) {
			t.Error("apikey list shows a token")
		}
	}
	err := run(ctx, []string{"apikey", "list", "--business", "Nobody", "--db", db}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "apikey list: ") {
		t.Errorf("apikey list of an unknown business: err = %v, want apikey list: …", err)
	}
	for _, rate := range []string{"0", "-5", "many"} {
		err := run(ctx, []string{"apikey", "create", "--business", "Harbour Physio", "--rate", rate, "--db", db}, noEnv, io.Discard, io.Discard)
		if err == nil {
			t.Errorf("apikey create --rate %s was accepted", rate)
		}
	}
}

// TestServeOnABusyAddressFailsBeforeLoading takes an address, then asks
// serve --demo for it: serve fails at once and leaves no database.
func TestServeOnABusyAddressFailsBeforeLoading(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	path := filepath.Join(t.TempDir(), "demo.db")
	err = run(t.Context(), []string{"serve", "--demo", "--db", "sqlite:" + path, "--addr", ln.Addr().String()}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("err = %v, want address already in use", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("serve left a database behind: %v", err)
	}
}

// TestServeWithoutAKeySaysHowToCreateOne serves a new database, then one
// with a key, and reads what serve prints on each.
func TestServeWithoutAKeySaysHowToCreateOne(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "keys.db")
	serveOnce := func() string {
		ctx, cancel := context.WithCancel(t.Context())
		var stdout, stderr syncBuffer
		done := make(chan error, 1)
		go func() {
			done <- run(ctx, []string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, noEnv, &stdout, &stderr)
		}()
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(stdout.String(), "practiced is serving"); {
			if time.Now().After(deadline) {
				t.Fatalf("serve printed %q; stderr %q", stdout.String(), stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("serve: %v", err)
		}
		return stdout.String()
	}
	hint := "no API key yet; create one with:\n  practiced apikey create --business NAME --db '" + db + "'\n"
	if out := serveOnce(); !strings.Contains(out, hint) {
		t.Errorf("serve on a new database printed %q, want the hint %q", out, hint)
	}
	if err := run(t.Context(), []string{"apikey", "create", "--business", "Harbour Physio", "--db", db}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if out := serveOnce(); strings.Contains(out, "no API key yet") {
		t.Errorf("serve with a key printed the hint: %q", out)
	}
}
