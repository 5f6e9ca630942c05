package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// The slot list is written by hand; it must be the very bytes writeJSON
// writes, whatever its strings hold.
func TestAppendSlotsBodyWritesWhatWriteJSONWrites(t *testing.T) {
	at := practiced.NewTime(time.Date(2026, 3, 2, 22, 30, 0, 0, time.UTC))
	slot := func(zone, practitioner string) availabilitySlot {
		return availabilitySlot{StartTimeLocal: "09:30", StartDateLocal: "2026-03-03", LocalTimezone: zone,
			StartDatetimeUTC: at, PractitionerID: practitioner}
	}
	for _, slots := range [][]availabilitySlot{
		{},
		{slot("Australia/Sydney", "")},
		{slot("Australia/Sydney", "pra_01m84ptsfyf29rxmt8p6h38583"), slot("America/Argentina/Buenos_Aires", "pra_2")},
		{slot(`a"b\c<d>&e`, "\x00\x1f\x7f"), slot("Zürich\u2028\u2029", "\xff\xfe")},
	} {
		rec := httptest.NewRecorder()
		writeJSON(rec, http.StatusOK, struct {
			Data []availabilitySlot `json:"data"`
		}{slots})
		if got, want := string(appendSlotsBody(nil, slots)), rec.Body.String(); got != want {
			t.Errorf("appendSlotsBody:\n\tgot  %q\n\twant %q", got, want)
		}
	}
}
