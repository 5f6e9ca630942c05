package testfix

import (
	"context"
	"errors"

	"github.com/practiced/practiced/ratelimit"
)

// CutOffLimiter is a rate limiter that allows every request while its
// context is live and fails once the context is done, with an error of
// its own that does not say why, as a limiter whose connection to its
// store was cut off may.
type CutOffLimiter struct{}

// Take implements ratelimit.Limiter.
func (CutOffLimiter) Take(ctx context.Context, _ string, perMinute int) (ratelimit.Decision, error) {
	if ctx.Err() != nil {
		return ratelimit.Decision{}, errors.New("the limiter's store: connection closed")
	}
	return ratelimit.Decision{Allowed: true, Limit: perMinute, Remaining: perMinute - 1}, nil
}

// DownLimiter is a rate limiter whose store cannot be reached: every
// Take fails, whatever its context.
type DownLimiter struct{}

// Take implements ratelimit.Limiter.
func (DownLimiter) Take(context.Context, string, int) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("the limiter's store: connection refused")
}
