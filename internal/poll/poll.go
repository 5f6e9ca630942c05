// Package poll runs the rounds of a background worker: the webhook
// outbox and the queue of messages to clients.
package poll

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Run calls round until ctx ends: again at once while a round did some
// work, else after interval. A round's error is logged under name and
// the next round comes after interval.
func Run(ctx context.Context, name string, interval time.Duration, logger *slog.Logger, round func(context.Context) (int, error)) {
	for {
		n, err := round(ctx)
		if err != nil && ctx.Err() == nil {
			logger.Error(name, "error", err.Error())
		}
		if n > 0 && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// Backoff is the wait after the attempt-th failed attempt: first,
// doubling each time up to most, plus up to a tenth of it at random, so
// that many attempts failing together do not all come back at once.
func Backoff(attempt int, first, most time.Duration) time.Duration {
	d := first
	for i := 1; i < attempt && d < most; i++ {
		d *= 2
	}
	d = min(d, most)
	return d + time.Duration(rand.Int64N(int64(d)/10+1))
}
