package httpapi

import (
	"encoding/json"
	"testing"
)

// TestPlainStringReadsAsUnmarshal checks the copy of an escape-free JSON
// string against encoding/json, and that anything else is left to it.
func TestPlainStringReadsAsUnmarshal(t *testing.T) {
	for _, v := range []string{`""`, `"Ada"`, `"Zoë Ngā"`, `"0412 345 678"`, `"a/b"`} {
		got, ok := plainString(json.RawMessage(v))
		var want string
		if err := json.Unmarshal([]byte(v), &want); err != nil {
			t.Fatal(err)
		}
		if !ok || got != want {
			t.Errorf("plainString(%s) = %q, %v; want %q", v, got, ok, want)
		}
	}
	for _, v := range []string{`"a\"b"`, `"\u00e9"`, `"tab\t"`, "\"\xff\"", `12`, `null`, `"`, `["a"]`} {
		if got, ok := plainString(json.RawMessage(v)); ok {
			t.Errorf("plainString(%s) = %q, want it left to encoding/json", v, got)
		}
	}
}
