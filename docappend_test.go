package practiced

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// reflectedDoc is the document encoding/json writes for v, the API's
// way (no HTML escaping), with its newline.
func reflectedDoc(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// encodedDoc is what EncodeDoc gives for v.
func encodedDoc(t testing.TB, v any) string {
	t.Helper()
	var got string
	if err := EncodeDoc(v, func(b []byte) { got = string(b) }); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestBusyTimeWritesItsOwnDocument(t *testing.T) {
	if _, ok := any(BusyTime{}).(docAppender); !ok {
		t.Fatal("BusyTime does not write its own document")
	}
	str := func(s string) *string { return &s }
	at := NewTime(time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC))
	odd := `quote " backslash \ tab	 line
 nul` + "\x00 \x1f <b>&amp; é ✓ 🙂 \xff\xfe bad \u2028 \u2029 \u007f end"
	cases := map[string]BusyTime{
		"zero": {},
		"every field": {
			ID: "bti_01", LocationID: "loc_01", PractitionerID: "pra_01", StartsAt: at, EndsAt: NewTime(at.Add(time.Hour)),
			Duration: 60, Name: str("Lunch"), Note: str(odd), CreatedAt: at, BusyTimeTypeID: str("btt_01"),
			RoomID: str("roo_01"), VehicleID: str("veh_01"), ResourceIDs: []string{"res_01", odd}, RepeatID: str("rep_01"),
			UpdatedAt: at, ArchivedAt: &at,
		},
		"empty lists and strings": {ResourceIDs: []string{}, Name: str(""), Note: str(""), Duration: -5},
		"odd strings everywhere":  {ID: odd, LocationID: odd, PractitionerID: odd, Name: str(odd), ResourceIDs: []string{odd, ""}},
		"years past four digits": {StartsAt: Time{time.Date(12026, 1, 1, 0, 0, 0, 0, time.UTC)},
			EndsAt: Time{time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}, ArchivedAt: &Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}
	for name, bt := range cases {
		want := reflectedDoc(t, bt)
		if got := encodedDoc(t, bt); got != want {
			t.Errorf("%s: EncodeDoc wrote\n%s want\n%s", name, got, want)
		}
		if got := encodedDoc(t, &bt); got != want {
			t.Errorf("%s: EncodeDoc of a pointer wrote\n%s want\n%s", name, got, want)
		}
		if doc, err := MarshalDocText(bt); err != nil || doc+"\n" != want {
			t.Errorf("%s: MarshalDocText = %s, %v", name, doc, err)
		}
	}
	if got := encodedDoc(t, (*BusyTime)(nil)); got != "null\n" {
		t.Errorf("EncodeDoc of a nil *BusyTime = %q, want null", got)
	}
}

func FuzzBusyTimeDocument(f *testing.F) {
	f.Add("bti_01", "Lunch", "a \"note\" <b>", "res_01", 60, int64(1772443800))
	f.Add("\xff", "\u2028", "\x00\x1f\\", "", -1, int64(-62135596800))
	f.Add("é", "🙂", "&", "\u007f", 0, int64(253402300800))
	f.Fuzz(func(t *testing.T, id, name, note, resource string, duration int, unix int64) {
		at := Time{time.Unix(unix, 0).UTC()}
		bt := BusyTime{ID: id, LocationID: resource, PractitionerID: name, StartsAt: at, EndsAt: at, Duration: duration,
			Name: &name, Note: &note, CreatedAt: at, ResourceIDs: []string{resource, id}, UpdatedAt: at, ArchivedAt: &at}
		if got, want := encodedDoc(t, bt), reflectedDoc(t, bt); got != want {
			t.Errorf("EncodeDoc wrote\n%s want\n%s", got, want)
		}
	})
}
