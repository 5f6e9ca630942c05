package sqlstore

import (
	"strings"
	"testing"
)

func TestAppendCopyText(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, `\N`},
		{"", ""},
		{"plain text, with ünïcode", "plain text, with ünïcode"},
		{"a\\b", `a\\b`},
		{"line one\nline two\r\n\tindented", `line one\nline two\r\n\tindented`},
		{"\\\n\r\t", `\\\n\r\t`},
		{`{"notes":"say \"hi\"\n"}`, `{"notes":"say \\"hi\\"\\n"}`},
		{"ends with a tab\t", `ends with a tab\t`},
		{42, "42"},
		{int64(-7), "-7"},
		{true, "true"},
	} {
		got, err := appendCopyText([]byte("x|"), c.v)
		if err != nil || string(got) != "x|"+c.want {
			t.Errorf("appendCopyText(%q) = %q, %v; want %q", c.v, got, err, "x|"+c.want)
		}
	}
	if _, err := appendCopyText(nil, 1.5); err == nil || err.Error() != "copy a value of type float64" {
		t.Errorf("a float: %v", err)
	}
}

func BenchmarkAppendCopyText(b *testing.B) {
	doc := strings.Repeat(`{"first_name":"Ava","address":{"line1":"12 Beach Rd"}},`, 25)
	var buf []byte
	for b.Loop() {
		buf, _ = appendCopyText(buf[:0], doc)
	}
}

func TestJSONList(t *testing.T) {
	type phone struct {
		Number string `json:"number"`
	}
	for _, c := range []struct {
		got, want string
	}{
		{jsonList([]string(nil)), `[]`},
		{jsonList([]string{}), `[]`},
		{jsonList([]string{"tag_1", `say "hi"`}), `["tag_1","say \"hi\""]`},
		{jsonList([]phone{{"0491 570 156"}}), `[{"number":"0491 570 156"}]`},
		{jsonList([]phone{}), `[]`},
	} {
		if c.got != c.want {
			t.Errorf("jsonList = %s, want %s", c.got, c.want)
		}
	}
}
