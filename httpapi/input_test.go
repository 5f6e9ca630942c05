package httpapi

import (
	"bytes"
	"encoding/json"
	"testing"

	practiced "github.com/practiced/practiced"
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

// unmarshalObject is how a request body was read before splitObject,
// and what it must match: encoding/json into a map of raw values.
func unmarshalObject(body []byte) (map[string]json.RawMessage, string) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if body[0] != '{' || json.Unmarshal(body, &fields) != nil {
		if !json.Valid(body) {
			return nil, "The request body is not valid JSON."
		}
		return nil, "The request body must be a JSON object."
	}
	return fields, ""
}

// sameAsUnmarshal fails t unless decodeObject reads body as
// unmarshalObject does: the same error, or the same names with the same
// bytes.
func sameAsUnmarshal(t *testing.T, body []byte) {
	t.Helper()
	want, wantErr := unmarshalObject(body)
	var errs practiced.FieldErrors
	o, err := decodeObject(body, &errs)
	if wantErr != "" || err != nil {
		if err == nil || practiced.ErrorMessage(err) != wantErr || practiced.ErrorCode(err) != practiced.EBADREQUEST {
			t.Fatalf("decodeObject(%q) = %v, want the bad request %q", body, err, wantErr)
		}
		return
	}
	if len(o.fields) != len(want) {
		t.Fatalf("decodeObject(%q) has %d fields, want %d: %q against %q", body, len(o.fields), len(want), o.fields, want)
	}
	for name, v := range want {
		got, ok := o.fields[name]
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("decodeObject(%q): field %q is %q (sent: %v), want %q", body, name, got, ok, v)
		}
	}
}

var objectSeeds = []string{
	``, `  `, `{}`, " \t\r\n{ \t\r\n} \n", `{"a":1}`, `{"a" : 1 , "b" :"x"}`,
	`{"a":1,"a":2}`, `{"a":{"a":[1,{"b":"}"}],"c":"]"},"d":[]}`, `{"a":"\"}\\"}`,
	`{"\u0061":1,"a":2}`, `{"a\"b":true,"a\\":false,"é":null}`, "{\"\xff\":1}",
	`{"n":-1.5e+10,"t":true,"f":false,"z":null}`, `{"s":"\ud83d\ude00 \u00e9"}`,
	`{"a":[ 1 , 2 ] ,"b":{ }}`, `{"emoji":"😀","x":"\/"}`,
	`[]`, `"x"`, `null`, `12`, `{"a":`, `{"a":1,}`, `{a:1}`, `{"a":1}x`, `{"a":1}{}`,
	"\f{\"a\":1}\v", "\u00a0{}", `{"a":01}`,
}

// TestObjectSplitAsUnmarshal checks decodeObject against encoding/json
// on objects with every kind of value, escaped and repeated names, odd
// spacing, and bodies that are not objects or not JSON at all.
func TestObjectSplitAsUnmarshal(t *testing.T) {
	for _, s := range objectSeeds {
		sameAsUnmarshal(t, []byte(s))
	}
	// The values are the bytes sent, and a later field's value never
	// shows through an earlier one's.
	var errs practiced.FieldErrors
	o, err := decodeObject([]byte(`{"a":[1, 2],"b":"x"}`), &errs)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(o.fields["a"]); got != `[1, 2]` || cap(o.fields["a"]) != len(got) {
		t.Errorf(`field a is %q with room for %d bytes, want "[1, 2]" and no room`, got, cap(o.fields["a"]))
	}
}

func FuzzObjectSplitAsUnmarshal(f *testing.F) {
	for _, s := range objectSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameAsUnmarshal(t, body)
	})
}
