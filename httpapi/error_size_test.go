package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
)

// manyUnknown is the answer to a request with n unknown names, named by
// name(i) in sorted order, that fail with msg: the first 100 of them.
func manyUnknown(n int, name func(int) string, msg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"message":"%s %s (and %d more errors; the first 100 of %d failing fields are listed)","errors":{`, name(0), msg, n-1, n)
	for i := range 100 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s":["%s"]`, name(i), msg)
	}
	b.WriteString("}}\n")
	return b.String()
}

func TestManyFailingFieldsGiveASmallAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("60,000 unknown fields in a 1 MiB body", func(t *testing.T) {
		name := func(i int) string { return fmt.Sprintf("field_%05d", i) }
		var b strings.Builder
		b.WriteByte('{')
		for i := range 60000 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%s":0`, name(i))
		}
		b.WriteByte('}')
		if b.Len() > 1<<20 {
			t.Fatalf("the body has %d bytes, more than 1 MiB", b.Len())
		}
		r := e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, b.String())
		wantStatus(t, r, 422)
		want := manyUnknown(60000, name, "is not a known field")
		if string(r.Body) != want {
			t.Fatalf("body of %d bytes:\n%.500s\nwant %d bytes:\n%.500s", len(r.Body), r.Body, len(want), want)
		}
		if len(r.Body) != 4032 {
			t.Fatalf("body of %d bytes, want 4032", len(r.Body))
		}
	})
	t.Run("10,000 unknown query parameters", func(t *testing.T) {
		name := func(i int) string { return fmt.Sprintf("p%05d", i) }
		params := make([]string, 10000)
		for i := range params {
			params[i] = name(i) + "=1"
		}
		r := e.do("GET", "/v1/clients?"+strings.Join(params, "&"), e.a.Token, nil)
		wantStatus(t, r, 422)
		want := manyUnknown(10000, name, "is not a known query parameter")
		if string(r.Body) != want {
			t.Fatalf("body of %d bytes:\n%.500s\nwant %d bytes:\n%.500s", len(r.Body), r.Body, len(want), want)
		}
		if len(r.Body) != 4536 {
			t.Fatalf("body of %d bytes, want 4536", len(r.Body))
		}
	})
	t.Run("100 unknown fields are all listed", func(t *testing.T) {
		body := map[string]any{}
		want := map[string][]string{}
		for i := range 100 {
			body[fmt.Sprintf("f%03d", i)] = 0
			want[fmt.Sprintf("f%03d", i)] = []string{"is not a known field"}
		}
		r := e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, body)
		wantInvalid(t, r, want, "f000 is not a known field (and 99 more errors)")
	})
}
