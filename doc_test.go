package practiced

import (
	"math"
	"strings"
	"testing"
)

func TestMarshalDoc(t *testing.T) {
	v := map[string]any{"note": "a & b <c>", "id": "bt_1"}
	const want = `{"id":"bt_1","note":"a & b <c>"}`
	doc, err := MarshalDoc(v)
	if err != nil || string(doc) != want {
		t.Fatalf("MarshalDoc = %s, %v; want %s", doc, err, want)
	}
	text, err := MarshalDocText(v)
	if err != nil || text != want {
		t.Fatalf("MarshalDocText = %s, %v; want %s", text, err, want)
	}
	var answer string
	if err := EncodeDoc(v, func(b []byte) { answer = string(b) }); err != nil || answer != want+"\n" {
		t.Fatalf("EncodeDoc gave %q, %v; want %q", answer, err, want+"\n")
	}
	// The buffers are used again: what was returned stays as it was.
	long := map[string]string{"note": strings.Repeat("x", 5000)}
	if _, err := MarshalDoc(long); err != nil {
		t.Fatal(err)
	}
	if other, _ := MarshalDoc(map[string]int{"n": 1}); string(other) != `{"n":1}` {
		t.Errorf("MarshalDoc after a longer one = %s", other)
	}
	if string(doc) != want || text != want {
		t.Errorf("earlier documents changed to %s and %s", doc, text)
	}
}

func TestEncodeDocFailsWithoutCallingUse(t *testing.T) {
	called := false
	err := EncodeDoc(math.NaN(), func([]byte) { called = true })
	if err == nil || !strings.Contains(err.Error(), "unsupported value: NaN") || called {
		t.Errorf("EncodeDoc(NaN) = %v, use called %v; want the encoder's error, use not called", err, called)
	}
	if doc, err := MarshalDoc(math.Inf(1)); err == nil || doc != nil {
		t.Errorf("MarshalDoc(+Inf) = %q, %v; want nil and an error", doc, err)
	}
}
