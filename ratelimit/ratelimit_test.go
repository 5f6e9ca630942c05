package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"testing"
	"time"
)

func TestMemoryBucket(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	m := NewMemory(func() time.Time { return now })
	ctx := context.Background()
	// 60 a minute: one a second, up to 60 at once.
	for i := range 60 {
		d, _ := m.Take(ctx, "key", 60)
		if !d.Allowed || d.Remaining != 59-i || d.Limit != 60 {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	d, _ := m.Take(ctx, "key", 60)
	if d.Allowed || d.Remaining != 0 || d.RetryAfter != time.Second || d.Reset != time.Minute {
		t.Fatalf("the 61st: %+v, want refused, retry after 1s, full after 60s", d)
	}
	// Another key has its own bucket.
	if d, _ := m.Take(ctx, "other", 60); !d.Allowed || d.Remaining != 59 {
		t.Fatalf("another key: %+v", d)
	}
	now = now.Add(1500 * time.Millisecond)
	if d, _ := m.Take(ctx, "key", 60); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("1.5 s later: %+v", d)
	}
	if d, _ := m.Take(ctx, "key", 60); d.Allowed || d.RetryAfter != 500*time.Millisecond {
		t.Fatalf("and again: %+v, want refused for 0.5 s", d)
	}
	// A minute later the bucket is full, and forgotten by the next sweep.
	now = now.Add(2 * time.Minute)
	if d, _ := m.Take(ctx, "third", 60); !d.Allowed {
		t.Fatal(d)
	}
	m.mu.Lock()
	_, kept := m.buckets["key"]
	m.mu.Unlock()
	if kept {
		t.Error("a full bucket was kept after the sweep")
	}
	// A key whose rate changed starts a bucket of the new size.
	if d, _ := m.Take(ctx, "third", 5); !d.Allowed || d.Remaining != 4 || d.Limit != 5 {
		t.Fatalf("a new rate: %+v", d)
	}
}

// TestRedisSharesBuckets takes from one bucket through two limiters, as
// two server processes would.
func TestRedisSharesBuckets(t *testing.T) {
	url := os.Getenv("PRACTICED_TEST_REDIS")
	if url == "" {
		t.Skip("PRACTICED_TEST_REDIS is not set: skipping the Redis rate-limit test")
	}
	ctx := context.Background()
	var b [6]byte
	rand.Read(b[:])
	prefix := "practiced-test-" + hex.EncodeToString(b[:]) + ":"
	a, err := NewRedis(ctx, url, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	c, err := NewRedis(ctx, url, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	defer a.client.Del(ctx, prefix+"key")
	for i := range 10 {
		l := a
		if i%2 == 1 {
			l = c
		}
		d, err := l.Take(ctx, "key", 10)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Allowed || d.Remaining != 9-i || d.Limit != 10 {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	d, err := c.Take(ctx, "key", 10)
	if err != nil {
		t.Fatal(err)
	}
	if d.Allowed || d.Remaining != 0 || d.RetryAfter <= 5*time.Second || d.RetryAfter > 6*time.Second {
		t.Fatalf("the 11th: %+v, want refused for about 6 s", d)
	}
	ttl, err := a.client.PTTL(ctx, prefix+"key").Result()
	if err != nil || ttl <= 0 || ttl > 62*time.Second {
		t.Errorf("the bucket expires in %v (%v), want within a minute and a second", ttl, err)
	}
	if _, err := NewRedis(ctx, "redis://127.0.0.1:1/0", prefix); err == nil {
		t.Error("a server that is not there was accepted")
	}
	if _, err := NewRedis(ctx, "http://127.0.0.1:6379", prefix); err == nil {
		t.Error("a URL that is not redis:// was accepted")
	}
}

// TestSecondsRoundUp: a wait is stated in whole seconds, never shorter
// than it is, and said in words with the singular for one.
func TestSecondsRoundUp(t *testing.T) {
	for _, c := range []struct {
		d       time.Duration
		seconds int
		words   string
	}{
		{0, 0, "0 seconds"},
		{time.Nanosecond, 1, "1 second"},
		{time.Second, 1, "1 second"},
		{time.Second + time.Nanosecond, 2, "2 seconds"},
		{19200 * time.Millisecond, 20, "20 seconds"},
		{time.Minute, 60, "60 seconds"},
	} {
		if got := Seconds(c.d); got != c.seconds {
			t.Errorf("Seconds(%v) = %d, want %d", c.d, got, c.seconds)
		}
		if got := Wait(c.d); got != c.words {
			t.Errorf("Wait(%v) = %q, want %q", c.d, got, c.words)
		}
	}
}

// failingLimiter fails every request with err, as a limiter whose store
// cannot be reached does; ok, when set, answers instead.
type failingLimiter struct {
	err error
	ok  *Decision
}

func (l failingLimiter) Take(context.Context, string, int) (Decision, error) {
	if l.ok != nil {
		return *l.ok, nil
	}
	return Decision{}, l.err
}

func TestCheckServesWithoutALimitWhenTheLimiterFails(t *testing.T) {
	down := errors.New("dial tcp 127.0.0.1:6379: connection refused")
	var told []error
	failed := func(err error) { told = append(told, err) }

	refused := Decision{Limit: 60, RetryAfter: time.Second}
	d, ok, err := Check(context.Background(), failingLimiter{ok: &refused}, "key", 60, failed)
	if d != refused || !ok || err != nil || told != nil {
		t.Fatalf("a working limiter: %+v, %v, %v; told %v", d, ok, err, told)
	}

	d, ok, err = Check(context.Background(), failingLimiter{err: down}, "key", 60, failed)
	if d != (Decision{}) || ok || err != nil || len(told) != 1 || told[0] != down {
		t.Fatalf("a limiter that is down: %+v, %v, %v; told %v", d, ok, err, told)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, ok, err = Check(ctx, failingLimiter{err: down}, "key", 60, failed)
	if d != (Decision{}) || ok || !errors.Is(err, context.Canceled) || len(told) != 1 {
		t.Fatalf("a client that went away: %+v, %v, %v; told %v", d, ok, err, told)
	}
}
