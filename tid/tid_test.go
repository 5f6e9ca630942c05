package tid

import (
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
