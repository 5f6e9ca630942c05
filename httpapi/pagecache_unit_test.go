package httpapi

import (
	"bytes"
	"testing"
)

// TestPageCacheVersionsAndBound checks that a page is answered only at
// the number it was kept at, that a page of an earlier number never
// replaces a later one, and that the least recently used pages go once
// the kept bytes pass the bound.
func TestPageCacheVersionsAndBound(t *testing.T) {
	c := newPageCache(800)
	k := func(q string) pageKey {
		return pageKey{business: "bus_1", path: "/v1/clients", base: "http://h", query: q}
	}
	page := func(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }
	c.put(k("a"), 5, page(100, 'a'))
	if _, ok := c.get(k("a"), 6); ok {
		t.Fatal("a page kept at 5 was answered at 6")
	}
	if b, ok := c.get(k("a"), 5); !ok || b[0] != 'a' {
		t.Fatal("the page kept at 5 was not answered at 5")
	}
	c.put(k("a"), 4, page(100, 'o'))
	if b, ok := c.get(k("a"), 5); !ok || b[0] != 'a' {
		t.Fatal("a page of an earlier number replaced a later one")
	}
	c.put(k("a"), 6, page(100, 'n'))
	if b, ok := c.get(k("a"), 6); !ok || b[0] != 'n' {
		t.Fatal("a later page did not replace an earlier one")
	}
	if _, ok := c.get(pageKey{business: "bus_2", path: "/v1/clients", base: "http://h", query: "a"}, 6); ok {
		t.Fatal("another business was answered this one's page")
	}
	c.put(k("big"), 1, page(101, 'b')) // over an eighth of the bound
	if _, ok := c.get(k("big"), 1); ok {
		t.Fatal("a page over an eighth of the bound was kept")
	}
	for _, q := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		c.get(k("a"), 6) // a stays the most recently used
		c.put(k(q), 1, page(100, q[0]))
	}
	if c.size > c.max {
		t.Fatalf("%d bytes kept, bound %d", c.size, c.max)
	}
	if _, ok := c.get(k("a"), 6); !ok {
		t.Fatal("the most recently used page went")
	}
	if _, ok := c.get(k("b"), 1); ok {
		t.Fatal("the least recently used page stayed past the bound")
	}
	if len(c.byKey) != c.lru.Len() {
		t.Fatalf("%d keys, %d pages", len(c.byKey), c.lru.Len())
	}
}
