// Package ratelimit limits how often a caller may be served: a token
// bucket per key (an API key, a client's address) that holds up to a
// rate's worth of a minute of requests and refills steadily. Buckets live
// in the process (Memory) or, shared by every server process, in Redis
// (Redis).
package ratelimit

import (
	"context"
	"math"
	"strconv"
	"sync"
	"time"
)

// Decision is the answer for one request.
type Decision struct {
	Allowed   bool
	Limit     int           // the bucket's size: the rate a minute
	Remaining int           // whole requests left in the bucket after this one
	Reset     time.Duration // until the bucket is full again
	// RetryAfter is, when not Allowed, how long until one request would be.
	RetryAfter time.Duration
}

// Seconds is d in whole seconds, rounded up: how Retry-After and
// RateLimit-Reset state a wait, so that a client waiting that long is
// never early.
func Seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// Wait says d, rounded up as Seconds does, in words: "1 second",
// "20 seconds".
func Wait(d time.Duration) string {
	n := Seconds(d)
	if n == 1 {
		return "1 second"
	}
	return strconv.Itoa(n) + " seconds"
}

// Limiter takes one request's token from the bucket of key, whose rate is
// perMinute requests a minute.
type Limiter interface {
	Take(ctx context.Context, key string, perMinute int) (Decision, error)
}

// Check takes one request's token from key's bucket under the policy
// every limit of the server keeps when its limiter fails. When the
// request's context has ended (its client went away), err is the
// context's error. When the limiter fails otherwise, the request is to
// be served without a limit: failed is called with the limiter's error,
// for the log, and ok is false. Else ok is true and d is the decision.
func Check(ctx context.Context, l Limiter, key string, perMinute int, failed func(error)) (d Decision, ok bool, err error) {
	d, err = l.Take(ctx, key, perMinute)
	if err == nil {
		return d, true, nil
	}
	if ctx.Err() != nil {
		return Decision{}, false, ctx.Err()
	}
	failed(err)
	return Decision{}, false, nil
}

// decide is the token bucket's arithmetic, shared by both limiters: a
// bucket of perMinute tokens that had tokens at last and is asked at now.
// It returns the decision and the bucket's new token count.
func decide(tokens float64, last, now time.Time, perMinute int) (Decision, float64) {
	size := float64(perMinute)
	perSecond := size / 60
	if elapsed := now.Sub(last).Seconds(); elapsed > 0 {
		tokens = math.Min(size, tokens+elapsed*perSecond)
	}
	d := Decision{Limit: perMinute}
	if tokens >= 1 {
		d.Allowed = true
		tokens--
	} else {
		d.RetryAfter = seconds((1 - tokens) / perSecond)
	}
	d.Remaining = int(math.Floor(tokens))
	d.Reset = seconds((size - tokens) / perSecond)
	return d, tokens
}

// seconds turns a float of seconds into a Duration, rounded up to the
// millisecond so a caller that waits it is never early.
func seconds(s float64) time.Duration {
	return time.Duration(math.Ceil(s*1000)) * time.Millisecond
}

// Memory keeps buckets in the process. Buckets full again are forgotten,
// so memory holds only the callers of the last minute.
type Memory struct {
	now     func() time.Time
	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
	rate   int
}

// NewMemory returns an in-process limiter; now tells the time (nil means
// time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, buckets: map[string]*bucket{}}
}

// Take implements Limiter.
func (m *Memory) Take(_ context.Context, key string, perMinute int) (Decision, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.swept) > time.Minute {
		m.sweep(now)
	}
	b, ok := m.buckets[key]
	if !ok || b.rate != perMinute {
		b = &bucket{tokens: float64(perMinute), last: now, rate: perMinute}
		m.buckets[key] = b
	}
	d, tokens := decide(b.tokens, b.last, now, perMinute)
	b.tokens, b.last = tokens, now
	return d, nil
}

// sweep forgets the buckets that have refilled.
func (m *Memory) sweep(now time.Time) {
	for k, b := range m.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*float64(b.rate)/60 >= float64(b.rate) {
			delete(m.buckets, k)
		}
	}
	m.swept = now
}
