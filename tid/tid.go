// Package tid makes and checks record identifiers in the TypeID format:
// a short type prefix, an underscore and a UUIDv7 written as 26 characters
// of lower-case Crockford base32. Because UUIDv7 starts with a millisecond
// timestamp, identifiers made later sort after identifiers made earlier.
package tid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// SuffixLen is the length of the base32 part of an identifier.
const SuffixLen = 26

var decodeTable = func() [256]byte {
	var t [256]byte
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = byte(i)
	}
	return t
}()

// New returns a fresh identifier with the given prefix, such as
// "cli_01j9z3k6q8e4x5v7w2m0n1p3r4".
func New(prefix string) string {
	return prefix + "_" + Encode(uuid.Must(uuid.NewV7()))
}

// Encode writes the 128 bits of u as 26 base32 characters. The 130 bits
// the characters can hold are filled from the right, so the first
// character is always in 0-7.
func Encode(u uuid.UUID) string {
	hi, lo := binary.BigEndian.Uint64(u[:8]), binary.BigEndian.Uint64(u[8:])
	var out [SuffixLen]byte
	// Character i, from the right, holds bits 5i to 5i+4 of the number.
	for i := range SuffixLen {
		out[SuffixLen-1-i] = alphabet[group(hi, lo, uint(5*i))]
	}
	return string(out[:])
}

// group returns the five bits of the 128-bit number hi:lo from bit at up
// (bits past the 128th are zero). Below bit 64 a group may span both
// halves; a shift of 64 or more gives zero, so hi adds nothing at 0.
func group(hi, lo uint64, at uint) byte {
	if at >= 64 {
		return byte(hi>>(at-64)) & 31
	}
	return byte(lo>>at|hi<<(64-at)) & 31
}

// Decode reads a 26-character suffix back into the UUID it encodes.
func Decode(s string) (uuid.UUID, error) {
	var u uuid.UUID
	if len(s) != SuffixLen {
		return u, fmt.Errorf("suffix must be %d characters", SuffixLen)
	}
	if decodeTable[s[0]] > 7 {
		return u, errors.New("suffix out of range")
	}
	var hi, lo uint64
	for i := 0; i < SuffixLen; i++ {
		v := decodeTable[s[i]]
		if v == 0xff {
			return u, fmt.Errorf("invalid character %q", s[i])
		}
		// Shift the 128-bit number hi:lo left by five and add v; the
		// first character's top two bits, checked zero above, fall off.
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(v)
	}
	binary.BigEndian.PutUint64(u[:8], hi)
	binary.BigEndian.PutUint64(u[8:], lo)
	return u, nil
}

// Valid reports whether s is a well-formed identifier with the given prefix.
func Valid(s, prefix string) bool {
	p, suffix, ok := strings.Cut(s, "_")
	if !ok || p != prefix {
		return false
	}
	_, err := Decode(suffix)
	return err == nil
}

// Prefix returns the type prefix of s, or "" when s has no underscore.
func Prefix(s string) string {
	p, _, ok := strings.Cut(s, "_")
	if !ok {
		return ""
	}
	return p
}
