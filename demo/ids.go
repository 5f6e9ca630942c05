package demo

import (
	"crypto/aes"
	"crypto/cipher"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"

	"github.com/practiced/practiced/tid"
)

// idKey makes a load's ids unguessable. The seeded generator decides
// which records a load makes and in what order, so its draws are the same
// for every load of one seed; each id's random bits are those draws
// encrypted with AES under a key from crypto/rand, new for every load.
// Within a load an id is still a function of its draws (a client's id can
// be made again wherever it is needed), and AES is a permutation, so
// different draws never give one id; but no one who knows the seed can
// tell the ids of another install, or of another load in the same one.
type idKey struct{ block cipher.Block }

// newIDKey returns the key given (16 bytes), or a random one when key is
// nil.
func newIDKey(key []byte) (*idKey, error) {
	if key == nil {
		key = make([]byte, 16)
		if _, err := crand.Read(key); err != nil {
			return nil, err
		}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("demo: id key: %w", err)
	}
	return &idKey{block: block}, nil
}

// newID makes an id whose UUIDv7 timestamp is at, plus a millisecond
// within that second drawn from r, and whose remaining bits are r's next
// draws under k, so ids sort by creation time like the ones the API hands
// out.
func (k *idKey) newID(r *rand.Rand, prefix string, at time.Time) string {
	ms := uint64(at.Unix())*1000 + r.Uint64N(1000)
	var plain, bits [16]byte
	binary.BigEndian.PutUint64(plain[:8], r.Uint64())
	binary.BigEndian.PutUint64(plain[8:], r.Uint64())
	k.block.Encrypt(bits[:], plain[:])
	hi, lo := binary.BigEndian.Uint64(bits[:8]), binary.BigEndian.Uint64(bits[8:])
	var u uuid.UUID
	u[0] = byte(ms >> 40)
	u[1] = byte(ms >> 32)
	u[2] = byte(ms >> 24)
	u[3] = byte(ms >> 16)
	u[4] = byte(ms >> 8)
	u[5] = byte(ms)
	u[6] = 0x70 | byte(hi>>8)&0x0f // version 7
	u[7] = byte(hi)
	binary.BigEndian.PutUint64(u[8:], lo)
	u[8] = 0x80 | u[8]&0x3f // RFC 9562 variant
	return prefix + "_" + tid.Encode(u)
}

// mix is SplitMix64's finaliser. It turns related inputs (a seed, a record
// index) into unrelated generator seeds and jitter.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Stream numbers keep the generators of different parts of a load apart, so
// that, say, adding a question to a form template does not reshuffle every
// client.
const (
	streamSetup = iota + 1
	streamClients
	streamActivity
)

func newRand(seed int64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(uint64(seed)), mix(stream)))
}

// between returns a whole-second time drawn uniformly from [a, b], or a
// when b is not after a.
func between(r *rand.Rand, a, b time.Time) time.Time {
	a = a.Truncate(time.Second)
	d := int64(b.Sub(a) / time.Second)
	if d <= 0 {
		return a
	}
	return a.Add(time.Duration(r.Int64N(d+1)) * time.Second)
}

// minTime and maxTime pick the earlier and later of two times.
func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// chance reports true with probability percent/100.
func chance(r *rand.Rand, percent int) bool { return r.IntN(100) < percent }

// pick returns a random element of list.
func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// days is one day as a duration, as in 3*days.
const days = 24 * time.Hour
