package practiced

import (
	"context"
	"time"
)

// IdempotencyTTL is how long the answer to a request with an
// Idempotency-Key is kept and replayed, counted from the request's claim.
const IdempotencyTTL = 24 * time.Hour

// IdempotencyLease is how long a claim holds a key before its request
// has answered. A server that crashes mid-request leaves a claim with no
// answer; once its lease has run out the key is free again. It is longer
// than the HTTP server's write timeout, past which no answer reaches the
// caller anyway.
const IdempotencyLease = 2 * time.Minute

// IdempotencyKey is a key an API key's caller sent with a POST, the
// request it was first sent with, and that request's answer once it has
// one.
type IdempotencyKey struct {
	APIKeyID string
	Key      string
	// RequestHash identifies the request: a hash of its method, path,
	// query and body. The same key with another request is refused.
	RequestHash string
	// ClaimID is unique to the claim, so that only the request holding
	// the key stores an answer for it or releases it.
	ClaimID    string
	CreatedAt  time.Time
	LeaseUntil time.Time
	// Answer is nil while the request is running.
	Answer *IdempotentAnswer
}

// IdempotentAnswer is the answer replayed to a repeated request: its
// status, the headers that describe its body, and the body's bytes.
type IdempotentAnswer struct {
	Status int
	Header map[string]string
	Body   []byte
}

// IdempotencyStore keeps Idempotency-Keys, one per API key and key, in
// the database, so that every server process on it honours them.
type IdempotencyStore interface {
	// ClaimIdempotencyKey claims k.Key for k.APIKeyID in a transaction of
	// its own and returns the key as stored. The claim succeeds, and the
	// stored key is k (its ClaimID is k.ClaimID), unless the key is held:
	// claimed less than IdempotencyTTL before k.CreatedAt, and answered
	// or within its lease. Otherwise the stored key is returned, with its
	// answer, or none while its request runs.
	ClaimIdempotencyKey(ctx context.Context, k IdempotencyKey) (IdempotencyKey, error)
	// SaveIdempotentAnswer stores the answer of the request holding the
	// claim; ENOTFOUND when the claim is no longer held.
	SaveIdempotentAnswer(ctx context.Context, apiKeyID, key, claimID string, a IdempotentAnswer) error
	// ReleaseIdempotencyKey frees a key whose request has no answer to
	// keep, so that it may be sent again at once. A claim no longer held
	// is left alone.
	ReleaseIdempotencyKey(ctx context.Context, apiKeyID, key, claimID string) error
	// PurgeIdempotencyKeys deletes at most limit keys claimed before
	// before, oldest first, and returns how many it deleted.
	PurgeIdempotencyKeys(ctx context.Context, before time.Time, limit int) (int, error)
}
