package practiced

import "testing"

func TestEveryCSSNamedColorIsKnownWithItsValue(t *testing.T) {
	// CSS Color Module Level 4 names 148 colors; these spot-check values.
	if n := len(colorNames); n != 148 {
		t.Errorf("%d named colors, want 148", n)
	}
	for name, want := range map[string]string{"black": "#000000", "white": "#ffffff", "teal": "#008080",
		"rebeccapurple": "#663399", "grey": "#808080", "gray": "#808080", "lightgoldenrodyellow": "#fafad2"} {
		if got := colorNames[name]; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

func TestNormalizeColorAcceptsNamesAndHexInAnyCaseAsLowerCase(t *testing.T) {
	for _, tc := range []struct {
		in, want, hex string
		ok            bool
	}{
		{"teal", "teal", "#008080", true},
		{"RebeccaPurple", "rebeccapurple", "#663399", true},
		{"#2E86AB", "#2e86ab", "#2e86ab", true},
		{"#0f0", "#0f0", "#00ff00", true},
		{"#ABC", "#abc", "#aabbcc", true},
		{"", "", "", false},
		{"reddish", "", "", false},
		{"transparent", "", "", false},
		{"currentcolor", "", "", false},
		{" teal", "", "", false},
		{"#abcd", "", "", false},
		{"#12345g", "", "", false},
		{"2e86ab", "", "", false},
		{"#2e86ab80", "", "", false},
		{"rgb(0,0,0)", "", "", false},
	} {
		got, ok := NormalizeColor(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeColor(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		hex, ok := ColorHex(tc.in)
		if hex != tc.hex || ok != tc.ok {
			t.Errorf("ColorHex(%q) = %q, %v; want %q, %v", tc.in, hex, ok, tc.hex, tc.ok)
		}
	}
}
