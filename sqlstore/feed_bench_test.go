package sqlstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	practiced "github.com/practiced/practiced"
)

// BenchmarkStoreUpdateClientConcurrently updates clients of one business
// from many goroutines at once: the business's writers take turns at
// commit to number their events in feed order (migration 0016), so this
// is what that costs a busy clinic.
func BenchmarkStoreUpdateClientConcurrently(b *testing.B) {
	for name, st := range benchStores(b) {
		c, ids := benchClinic(b, st)
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			var n atomic.Int64
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1)
					_, err := st.UpdateClient(ctx, c.Business.ID, ids[i%benchClients], func(cl *practiced.Client) error {
						cl.Notes = fmt.Sprintf("visit %d", i)
						return nil
					})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
