package main

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestServeProfilesOnlyOnTheirOwnAddress starts serve with --pprof and
// checks that the profiles answer on that address and not on the API's.
func TestServeProfilesOnlyOnTheirOwnAddress(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--pprof", "127.0.0.1:0"}, noEnv, &stdout, &stderr)
	}()
	lines := regexp.MustCompile(`(?s)profiles at (http://\S+/debug/pprof/)\n.*practiced is serving (http://\S+)/v1\n`)
	var m []string
	for deadline := time.Now().Add(30 * time.Second); m == nil; m = lines.FindStringSubmatch(stdout.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("serve printed %q; stderr %q", stdout.String(), stderr.String())
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped early: %v; stderr %s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	profiles, api := m[1], m[2]
	waitHealthy(t, api)
	for _, c := range []struct {
		url  string
		want int
	}{
		{profiles, http.StatusOK},
		{profiles + "goroutine?debug=1", http.StatusOK},
		{api + "/debug/pprof/", http.StatusNotFound},
	} {
		res, err := http.Get(c.url)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("GET %s = %d, want %d", c.url, res.StatusCode, c.want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v after shutdown", err)
	}
}

func TestServeRefusesABadProfileAddress(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	var stdout, stderr syncBuffer
	err := run(t.Context(), []string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--pprof", "127.0.0.1:-1"}, noEnv, &stdout, &stderr)
	if err == nil || !regexp.MustCompile(`^serve: --pprof: `).MatchString(err.Error()) {
		t.Fatalf("err = %v, want serve: --pprof: …", err)
	}
}
