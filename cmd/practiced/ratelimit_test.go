package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTwoServersShareARateLimitThroughRedis serves one database from two
// processes' worth of servers sharing Redis: a key of three requests a
// minute is refused its fourth, whichever server it asks.
func TestTwoServersShareARateLimitThroughRedis(t *testing.T) {
	redisURL := os.Getenv("PRACTICED_TEST_REDIS")
	if redisURL == "" {
		t.Skip("PRACTICED_TEST_REDIS is not set: skipping the shared rate-limit test")
	}
	db := "sqlite:" + filepath.Join(t.TempDir(), "limits.db")
	var token syncBuffer
	if err := run(t.Context(), []string{"apikey", "create", "--business", "Limited Clinic", "--rate", "3", "--db", db}, noEnv, &token, io.Discard); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := startServer(t, ctx, "--db", db, "--redis", redisURL)
	b := startServer(t, ctx, "--db", db, "--redis", redisURL)
	get := func(base string) *http.Response {
		req, _ := http.NewRequest("GET", base+"/v1/clients", nil)
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(token.String()))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for i, base := range []string{a.base, b.base, a.base} {
		res := get(base)
		if res.StatusCode != 200 || res.Header.Get("RateLimit-Remaining") != []string{"2", "1", "0"}[i] {
			t.Fatalf("request %d: %d, RateLimit-Remaining %q", i+1, res.StatusCode, res.Header.Get("RateLimit-Remaining"))
		}
	}
	res := get(b.base)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "20" {
		t.Errorf("the fourth request, to the other server: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
}

func TestServeRefusesBadLimits(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "x.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rate-limit", "0"}, "serve: --rate-limit and --page-rate are requests a minute, at least 1"},
		{[]string{"--page-rate", "-1"}, "serve: --rate-limit and --page-rate are requests a minute, at least 1"},
		{[]string{"--trusted-proxy", "10.0.0.0/8, proxy.internal"}, `serve: --trusted-proxy: "proxy.internal" is neither an address nor a CIDR range`},
		{[]string{"--redis", "redis://127.0.0.1:1/0"}, "serve: --redis: redis: "},
	} {
		args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, c.args...)
		err := run(t.Context(), args, noEnv, io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
