package httpapi_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
)

// BenchmarkHTTPCreateBusyTime creates one busy time an operation through
// the API's handler, with no connection around it: what a write
// allocates from its request's decoding to its answer, the store and its
// commit included, where the figure does not vary from run to run as the
// time does (go test ./httpapi/ -run '^$' -bench CreateBusyTime -benchmem).
func BenchmarkHTTPCreateBusyTime(b *testing.B) {
	st := testfix.Store(b)
	c := testfix.NewClinic(b, st, "Bench")
	h := httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }})
	prefix := `{"location_id":"` + c.Sydney.ID + `","practitioner_id":"` + c.Alice.ID + `","name":"Benchmark","starts_at":"`
	n := 0
	for b.Loop() {
		// Each busy time starts an hour after the last, so none collide.
		start := testfix.Now.Add(time.Duration(n) * time.Hour).UTC()
		n++
		body := prefix + start.Format(time.RFC3339) + `","ends_at":"` + start.Add(30*time.Minute).Format(time.RFC3339) + `"}`
		req := httptest.NewRequest("POST", "/v1/busy_times", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+c.Token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatalf("answer %d %s, want 201", rec.Code, rec.Body)
		}
	}
}
