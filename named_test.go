package practiced_test

import (
	"encoding/json"
	"testing"

	practiced "github.com/practiced/practiced"
)

func TestNamedRecordsCarryAColorOnlyWhereTheirKindHasOne(t *testing.T) {
	for _, tc := range []struct {
		id, color string
		want      string
	}{
		{"tag_x", "", `{"id":"tag_x","name":"N","color":"","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
		{"btt_x", "#aabbcc", `{"id":"btt_x","name":"N","color":"#aabbcc","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
		{"ret_x", "#aabbcc", `{"id":"ret_x","name":"N","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
		{"cnr_x", "", `{"id":"cnr_x","name":"N","created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","archived_at":null}`},
	} {
		b, err := json.Marshal(practiced.Named{ID: tc.id, Name: "N", Color: tc.color})
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.id, b, err, tc.want)
		}
	}
	for _, tc := range []struct {
		id   string
		want string
		ok   bool
	}{{"tag_01h455vb4pex5vsknk084sn02q", "tags", true}, {"busy_time_type_x", "", false}, {"btt", "", false}, {"cli_x", "", false}} {
		k, ok := practiced.NamedKindOf(tc.id)
		if k.Plural != tc.want || ok != tc.ok {
			t.Errorf("NamedKindOf(%q) = %q, %v; want %q, %v", tc.id, k.Plural, ok, tc.want, tc.ok)
		}
	}
}
