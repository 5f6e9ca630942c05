package tid

import (
	"encoding/binary"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/uuid"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	cases := map[string]string{
		"00000000-0000-0000-0000-000000000000": "00000000000000000000000000",
		"ffffffff-ffff-ffff-ffff-ffffffffffff": "7zzzzzzzzzzzzzzzzzzzzzzzzz",
		"01890a5d-ac96-774b-bcce-b302099a8057": "01h455vb4pex5vsknk084sn02q",
	}
	for in, want := range cases {
		u := uuid.MustParse(in)
		got := Encode(u)
		if got != want {
			t.Errorf("Encode(%s) = %s, want %s", in, got, want)
		}
		back, err := Decode(got)
		if err != nil || back != u {
			t.Errorf("Decode(%s) = %s, %v; want %s", got, back, err, in)
		}
	}
}

func TestDecodeRejectsMalformedSuffixes(t *testing.T) {
	for _, s := range []string{"", "0123", "80000000000000000000000000", "0000000000000000000000000u", "0000000000000000000000000I"} {
		if _, err := Decode(s); err == nil {
			t.Errorf("Decode(%q) succeeded, want an error", s)
		}
	}
}

func TestNewIdsSortByCreation(t *testing.T) {
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = New("cli")
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("ids made in sequence do not sort in sequence")
	}
	for _, id := range ids {
		if !Valid(id, "cli") {
			t.Fatalf("New made an invalid id %q", id)
		}
		if Valid(id, "con") {
			t.Fatalf("Valid accepted %q with the wrong prefix", id)
		}
	}
}

// encodeBits and decodeBits are Encode and Decode by their definition,
// a bit at a time: character i from the right holds bits 5i to 5i+4 of
// the 128-bit number, most significant byte first.
func encodeBits(u uuid.UUID) string {
	var out [SuffixLen]byte
	for i := range SuffixLen {
		var v byte
		for b := range 5 {
			if pos := 5*i + b; pos < 128 && u[15-pos/8]&(1<<(pos%8)) != 0 {
				v |= 1 << b
			}
		}
		out[SuffixLen-1-i] = alphabet[v]
	}
	return string(out[:])
}

func decodeBits(s string) uuid.UUID {
	var u uuid.UUID
	for i := range SuffixLen {
		v := decodeTable[s[SuffixLen-1-i]]
		for b := range 5 {
			if pos := 5*i + b; pos < 128 && v&(1<<b) != 0 {
				u[15-pos/8] |= 1 << (pos % 8)
			}
		}
	}
	return u
}

// Encode and Decode agree with their bit-at-a-time definition for every
// number with a single bit set (so each bit lands in its place) and for
// 100,000 random ones, and Decode reads back every suffix Encode writes.
func TestEncodeAndDecodeAreTheirDefinition(t *testing.T) {
	var us []uuid.UUID
	for pos := range 128 {
		var u uuid.UUID
		u[15-pos/8] = 1 << (pos % 8)
		us = append(us, u)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		var u uuid.UUID
		binary.BigEndian.PutUint64(u[:8], r.Uint64())
		binary.BigEndian.PutUint64(u[8:], r.Uint64())
		us = append(us, u)
	}
	for _, u := range us {
		s := Encode(u)
		if want := encodeBits(u); s != want {
			t.Fatalf("Encode(%s) = %s, want %s", u, s, want)
		}
		back, err := Decode(s)
		if err != nil || back != u || back != decodeBits(s) {
			t.Fatalf("Decode(%s) = %s, %v; want %s", s, back, err, u)
		}
	}
}

// benchIDs are random numbers, so that no branch learns a pattern.
func benchIDs() []uuid.UUID {
	r := rand.New(rand.NewPCG(3, 4))
	us := make([]uuid.UUID, 1024)
	for i := range us {
		binary.BigEndian.PutUint64(us[i][:8], r.Uint64())
		binary.BigEndian.PutUint64(us[i][8:], r.Uint64())
	}
	return us
}

func BenchmarkEncode(b *testing.B) {
	us := benchIDs()
	for i := 0; b.Loop(); i++ {
		Encode(us[i%len(us)])
	}
}

func BenchmarkDecode(b *testing.B) {
	var ss []string
	for _, u := range benchIDs() {
		ss = append(ss, Encode(u))
	}
	for i := 0; b.Loop(); i++ {
		if _, err := Decode(ss[i%len(ss)]); err != nil {
			b.Fatal(err)
		}
	}
}
