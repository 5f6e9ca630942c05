package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/practiced/practiced/sqlstore"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
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
