package httpapi

import (
	"testing"

	practiced "github.com/practiced/practiced"
)

// BenchmarkReadBusyTimeBody reads the body of a new busy time as its
// handler does, from its bytes to the checked fields: the part of a
// write's processor time its request's body costs
// (go test ./httpapi/ -run '^$' -bench ReadBusyTimeBody -benchmem).
func BenchmarkReadBusyTimeBody(b *testing.B) {
	body := []byte(`{"location_id":"loc_01kbm3sw9yfkbsg0ebbyq6q0fz","practitioner_id":"pra_01kbm3sw9zfcksq1g7k4cdc4x9",` +
		`"name":"Benchmark","starts_at":"2026-03-03T09:00:00Z","ends_at":"2026-03-03T09:30:00Z"}`)
	for b.Loop() {
		var errs practiced.FieldErrors
		o, err := decodeObject(body, &errs)
		if err != nil {
			b.Fatal(err)
		}
		readBusyTime(o)
		if err := errs.Err(); err != nil {
			b.Fatal(err)
		}
	}
}
