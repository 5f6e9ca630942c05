// Package tid makes and checks record identifiers in the TypeID format:
// a short type prefix, an underscore and a UUIDv7 written as 26 characters
// of lower-case Crockford base32. Because UUIDv7 starts with a millisecond
// timestamp, identifiers made later sort after identifiers made earlier.
package tid

import (
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
	var out [SuffixLen]byte
	// Walk the 130-bit number from its least significant end, 5 bits at a time.
	for i := SuffixLen - 1; i >= 0; i-- {
		bit := (SuffixLen - 1 - i) * 5 // position of this group's lowest bit
		var v byte
		for b := 0; b < 5; b++ {
			pos := bit + b
			if pos >= 128 {
				break
			}
			byteIndex := 15 - pos/8
			if u[byteIndex]&(1<<(pos%8)) != 0 {
				v |= 1 << b
			}
		}
		out[i] = alphabet[v]
	}
	return string(out[:])
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
	for i := 0; i < SuffixLen; i++ {
		v := decodeTable[s[i]]
		if v == 0xff {
			return u, fmt.Errorf("invalid character %q", s[i])
		}
		bit := (SuffixLen - 1 - i) * 5
		for b := 0; b < 5; b++ {
			pos := bit + b
			if pos >= 128 {
				break
			}
			if v&(1<<b) != 0 {
				u[15-pos/8] |= 1 << (pos % 8)
			}
		}
	}
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
