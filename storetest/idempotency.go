package storetest

import (
	"bytes"
	"maps"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// idemNow is the time of the claims of the idempotency rules but the
// purge rule's, whose keys are years older.
var idemNow = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// newClaim returns a claim of key for the API key at now, with a new
// claim id.
func newClaim(apiKeyID, key, hash string, now time.Time) practiced.IdempotencyKey {
	return practiced.IdempotencyKey{APIKeyID: apiKeyID, Key: key, RequestHash: hash, ClaimID: tid.New("clm"),
		CreatedAt: now, LeaseUntil: now.Add(practiced.IdempotencyLease)}
}

// wantClaim fails the test unless got is the claim want as stored: the
// same key, request, claim and times, and an answer equal to want's.
func wantClaim(t *testing.T, what string, got, want practiced.IdempotencyKey) {
	t.Helper()
	if got.APIKeyID != want.APIKeyID || got.Key != want.Key || got.RequestHash != want.RequestHash || got.ClaimID != want.ClaimID ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.LeaseUntil.Equal(want.LeaseUntil) {
		t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	switch {
	case got.Answer == nil && want.Answer == nil:
	case got.Answer == nil || want.Answer == nil:
		t.Fatalf("%s: answer %+v, want %+v", what, got.Answer, want.Answer)
	case got.Answer.Status != want.Answer.Status || !maps.Equal(got.Answer.Header, want.Answer.Header) ||
		!bytes.Equal(got.Answer.Body, want.Answer.Body):
		t.Fatalf("%s: answer %+v, want %+v", what, *got.Answer, *want.Answer)
	}
}

var idempotencyRules = []rule{
	{"the first claim of a key holds it; a second claim gets the first, running", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		first := newClaim(apiKey, "order-1", "hash-a", idemNow)
		got, err := st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		wantClaim(t, "first claim", got, first)
		got, err = st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, "order-1", "hash-b", idemNow.Add(time.Second)))
		must(t, err)
		wantClaim(t, "second claim", got, first)
	}},
	{"a saved answer is returned byte for byte to later claims", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		first := newClaim(apiKey, "order-1", "hash-a", idemNow)
		_, err := st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		answer := practiced.IdempotentAnswer{Status: 201,
			Header: map[string]string{"Content-Type": "application/json", "Location": "/v1/clients/cli_1"},
			Body:   []byte("{\"name\":\"Zoë & <Co>\"}\n\x00\xff")}
		must(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-1", first.ClaimID, answer))
		first.Answer = &answer
		got, err := st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, "order-1", "hash-a", idemNow.Add(time.Hour)))
		must(t, err)
		wantClaim(t, "claim after the answer", got, first)

		empty := newClaim(apiKey, "order-2", "hash-a", idemNow)
		_, err = st.ClaimIdempotencyKey(ctx(t), empty)
		must(t, err)
		none := practiced.IdempotentAnswer{Status: 204, Header: map[string]string{}, Body: []byte{}}
		must(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-2", empty.ClaimID, none))
		empty.Answer = &none
		got, err = st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, "order-2", "hash-a", idemNow))
		must(t, err)
		wantClaim(t, "claim after an empty answer", got, empty)
	}},
	{"only the claim holding a key saves its answer", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		first := newClaim(apiKey, "order-1", "hash-a", idemNow)
		_, err := st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		answer := practiced.IdempotentAnswer{Status: 200, Header: map[string]string{}, Body: []byte("{}")}
		wantCode(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-1", tid.New("clm"), answer), practiced.ENOTFOUND)
		wantCode(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-9", first.ClaimID, answer), practiced.ENOTFOUND)
		must(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-1", first.ClaimID, answer))
		wantCode(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-1", first.ClaimID, answer), practiced.ENOTFOUND)
	}},
	{"a released key is free at once; a release by another claim leaves it held", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		first := newClaim(apiKey, "order-1", "hash-a", idemNow)
		_, err := st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		must(t, st.ReleaseIdempotencyKey(ctx(t), apiKey, "order-1", tid.New("clm")))
		got, err := st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, "order-1", "hash-a", idemNow))
		must(t, err)
		wantClaim(t, "claim after another claim's release", got, first)
		must(t, st.ReleaseIdempotencyKey(ctx(t), apiKey, "order-1", first.ClaimID))
		second := newClaim(apiKey, "order-1", "hash-b", idemNow)
		got, err = st.ClaimIdempotencyKey(ctx(t), second)
		must(t, err)
		wantClaim(t, "claim after the release", got, second)
	}},
	{"an answered key is held for IdempotencyTTL, then free", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		first := newClaim(apiKey, "order-1", "hash-a", idemNow)
		_, err := st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		answer := practiced.IdempotentAnswer{Status: 201, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte("{}")}
		must(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-1", first.ClaimID, answer))
		first.Answer = &answer
		got, err := st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, "order-1", "hash-a", idemNow.Add(practiced.IdempotencyTTL-time.Second)))
		must(t, err)
		wantClaim(t, "claim a second before the day is out", got, first)
		later := newClaim(apiKey, "order-1", "hash-a", idemNow.Add(practiced.IdempotencyTTL))
		got, err = st.ClaimIdempotencyKey(ctx(t), later)
		must(t, err)
		wantClaim(t, "claim a day later", got, later)
	}},
	{"an unanswered claim holds its key until its lease runs out", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		first := newClaim(apiKey, "order-1", "hash-a", idemNow)
		_, err := st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		got, err := st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, "order-1", "hash-a", first.LeaseUntil.Add(-time.Second)))
		must(t, err)
		wantClaim(t, "claim within the lease", got, first)
		after := newClaim(apiKey, "order-1", "hash-a", first.LeaseUntil)
		got, err = st.ClaimIdempotencyKey(ctx(t), after)
		must(t, err)
		wantClaim(t, "claim when the lease ran out", got, after)
		answer := practiced.IdempotentAnswer{Status: 200, Header: map[string]string{}, Body: []byte("{}")}
		wantCode(t, st.SaveIdempotentAnswer(ctx(t), apiKey, "order-1", first.ClaimID, answer), practiced.ENOTFOUND)
	}},
	{"the keys of different API keys do not collide", func(t *testing.T, st practiced.Store) {
		a, b := tid.New(practiced.PrefixAPIKey), tid.New(practiced.PrefixAPIKey)
		ca := newClaim(a, "order-1", "hash-a", idemNow)
		cb := newClaim(b, "order-1", "hash-a", idemNow)
		got, err := st.ClaimIdempotencyKey(ctx(t), ca)
		must(t, err)
		wantClaim(t, "claim of the first API key", got, ca)
		got, err = st.ClaimIdempotencyKey(ctx(t), cb)
		must(t, err)
		wantClaim(t, "claim of the second API key", got, cb)
		answer := practiced.IdempotentAnswer{Status: 200, Header: map[string]string{}, Body: []byte("{}")}
		must(t, st.SaveIdempotentAnswer(ctx(t), a, "order-1", ca.ClaimID, answer))
		must(t, st.ReleaseIdempotencyKey(ctx(t), b, "order-1", cb.ClaimID))
		ca.Answer = &answer
		got, err = st.ClaimIdempotencyKey(ctx(t), newClaim(a, "order-1", "hash-a", idemNow))
		must(t, err)
		wantClaim(t, "first API key's key after the second's release", got, ca)
	}},
	{"of concurrent claims of one key exactly one holds it", func(t *testing.T, st practiced.Store) {
		apiKey := tid.New(practiced.PrefixAPIKey)
		const n = 12
		claims := make([]practiced.IdempotencyKey, n)
		got := make([]practiced.IdempotencyKey, n)
		for i := range claims {
			claims[i] = newClaim(apiKey, "order-1", "hash-a", idemNow)
		}
		for i, err := range gather(n, func(i int) error {
			var err error
			got[i], err = st.ClaimIdempotencyKey(ctx(t), claims[i])
			return err
		}) {
			must(t, err)
			if got[i].ClaimID != got[0].ClaimID {
				t.Fatalf("claim %d got the key held by %s, claim 0 by %s", i, got[i].ClaimID, got[0].ClaimID)
			}
		}
		winners := 0
		for i := range claims {
			if claims[i].ClaimID == got[0].ClaimID {
				winners++
			}
		}
		if winners != 1 {
			t.Fatalf("%d claims hold the key, want 1", winners)
		}
	}},
	{"PurgeIdempotencyKeys deletes at most limit keys older than before", func(t *testing.T, st practiced.Store) {
		// The other rules' keys are years newer than these.
		old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
		apiKey := tid.New(practiced.PrefixAPIKey)
		var keep practiced.IdempotencyKey
		for i := range 6 {
			c := newClaim(apiKey, "order-"+string(rune('a'+i)), "hash-a", old.Add(time.Duration(i)*time.Hour))
			_, err := st.ClaimIdempotencyKey(ctx(t), c)
			must(t, err)
			keep = c
		}
		before := old.Add(5 * time.Hour) // all but the last
		for _, want := range []int{3, 2, 0} {
			n, err := st.PurgeIdempotencyKeys(ctx(t), before, 3)
			must(t, err)
			if n != want {
				t.Fatalf("PurgeIdempotencyKeys deleted %d, want %d", n, want)
			}
		}
		got, err := st.ClaimIdempotencyKey(ctx(t), newClaim(apiKey, keep.Key, "hash-b", keep.CreatedAt))
		must(t, err)
		wantClaim(t, "the newest key", got, keep)
		first := newClaim(apiKey, "order-a", "hash-b", keep.CreatedAt)
		got, err = st.ClaimIdempotencyKey(ctx(t), first)
		must(t, err)
		wantClaim(t, "a purged key", got, first)
	}},
}
