package sqlstore_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// BenchmarkStoreConcurrentBusyTimes creates one busy time per operation
// from 16 goroutines per core at once, the shape of a busy clinic's API:
// many small write transactions, each of which must be durable before it
// is answered. On SQLite they share commits (see docs/durability.md).
//
//	go test ./sqlstore/ -run '^$' -bench ConcurrentBusyTimes -benchtime 5s
func BenchmarkStoreConcurrentBusyTimes(b *testing.B) {
	for name, st := range benchStores(b) {
		c := testfix.NewClinic(b, st, "Bench")
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			var n atomic.Int64
			cpu := testfix.ProcessCPU()
			b.SetParallelism(16)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					// Each busy time starts an hour after the last, so none collide.
					s := testfix.Now.Add(time.Duration(n.Add(1)) * time.Hour)
					bt := practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: c.Sydney.ID, PractitionerID: c.Alice.ID,
						StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(time.Hour)),
						CreatedAt: practiced.NewTime(testfix.Now), UpdatedAt: practiced.NewTime(testfix.Now)}
					if _, err := st.CreateBusyTimes(ctx, c.Business.ID, []practiced.BusyTime{bt}, false); err != nil {
						b.Error(err)
						return
					}
				}
			})
			// The processor time of a write varies less than its wall
			// time, which the fsyncs and the machine's other work add to.
			b.ReportMetric(float64((testfix.ProcessCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
