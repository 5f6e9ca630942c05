package sqlstore_test

import (
	"fmt"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// BenchmarkStoreAPIKeyByHash looks up a key among 1,000 by the hash of
// its token, as every API request does before anything else, with a
// context that can be cancelled, as a request's is.
func BenchmarkStoreAPIKeyByHash(b *testing.B) {
	for name, st := range benchStores(b) {
		ctx := b.Context()
		biz, err := st.CreateBusiness(ctx, "Keys "+name)
		if err != nil {
			b.Fatal(err)
		}
		const keys = 1000
		for i := range keys {
			k := practiced.APIKey{ID: tid.New(practiced.PrefixAPIKey), BusinessID: biz.ID, TokenHash: fmt.Sprintf("hash%04d", i), CreatedAt: practiced.Now()}
			if err := st.CreateAPIKey(ctx, k); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				k, err := st.APIKeyByHash(ctx, fmt.Sprintf("hash%04d", i%keys))
				if err != nil || k.BusinessID != biz.ID {
					b.Fatalf("%+v, %v", k, err)
				}
			}
		})
	}
}
