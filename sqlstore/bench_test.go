package sqlstore_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// The store benchmarks run the same workloads on both databases: a page
// of clients deep in a list of 20,000, read alone and right after a
// write, a partial client update, and a repeating busy time of 10
// occurrences that skips conflicts. Run with
//
//	PRACTICED_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable \
//	  go test ./sqlstore/ -run '^$' -bench . -benchmem
//
// Figures are in docs/performance.md.

const benchClients = 20_000

func benchStores(b *testing.B) map[string]practiced.Store {
	stores := map[string]practiced.Store{"sqlite": testfix.SQLiteStore(b)}
	if os.Getenv(testfix.PostgresEnv) != "" {
		stores["postgres"] = testfix.PostgresStore(b)
	}
	return stores
}

// benchClinic seeds a clinic with benchClients clients, with statistics.
func benchClinic(b testing.TB, st practiced.Store) (*testfix.Clinic, []string) {
	c := testfix.NewClinic(b, st, "Bench")
	ids := make([]string, benchClients)
	at := practiced.NewTime(testfix.Now.Add(-time.Hour))
	for start := 0; start < benchClients; start += 5000 {
		var batch []practiced.Client
		for i := start; i < start+5000; i++ {
			ids[i] = tid.New(practiced.PrefixClient)
			batch = append(batch, practiced.Client{ID: ids[i], FirstName: fmt.Sprintf("First%d", i), LastName: "Last",
				Email: fmt.Sprintf("client%d@example.com", i), PhoneNumber: fmt.Sprintf("04%08d", i), CreatedAt: at, UpdatedAt: at})
		}
		if err := st.Seed(context.Background(), c.Business.ID, practiced.SeedData{Clients: batch}); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.(*sqlstore.Store).Analyze(context.Background()); err != nil {
		b.Fatal(err)
	}
	return c, ids
}

func BenchmarkStoreListClientsDeepPage(b *testing.B) {
	for name, st := range benchStores(b) {
		c, ids := benchClinic(b, st)
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				after := ids[(i*997)%(benchClients-100)]
				page, _, err := st.ListClients(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100, After: after})
				if err != nil || len(page) != 100 {
					b.Fatalf("%d clients, %v", len(page), err)
				}
			}
		})
	}
}

// BenchmarkStoreListClientDocsDeepPage reads the pages of
// BenchmarkStoreListClientsDeepPage as the API does: stored documents.
func BenchmarkStoreListClientDocsDeepPage(b *testing.B) {
	benchDocPages(b, nil)
}

// BenchmarkStoreListClientDocsAfterWrite reads the pages of
// BenchmarkStoreListClientDocsDeepPage with a client updated before each,
// as a server that writes reads them: every read begins after a commit.
// Only the reads are timed.
func BenchmarkStoreListClientDocsAfterWrite(b *testing.B) {
	benchDocPages(b, func(ctx context.Context, st practiced.Store, c *testfix.Clinic, ids []string, i int) error {
		_, err := st.UpdateClient(ctx, c.Business.ID, ids[(i*7919)%benchClients], func(cl *practiced.Client) error {
			cl.Notes = fmt.Sprintf("visit %d", i)
			return nil
		})
		return err
	})
}

// BenchmarkStoreListClientDocsSamePageAfterWrite reads one page of 100
// clients deep in the list again and again, one of its clients updated
// before each read, as a clinic's list is opened again after a change:
// on PostgreSQL the page's statement then sends that client's document
// alone (keptdocs.go). Only the reads are timed.
func BenchmarkStoreListClientDocsSamePageAfterWrite(b *testing.B) {
	for name, st := range benchStores(b) {
		c, ids := benchClinic(b, st)
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			const at = benchClients / 2 // the clients follow ids in the list's order
			p := practiced.PageRequest{Limit: 100, After: ids[at]}
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				if _, err := st.UpdateClient(ctx, c.Business.ID, ids[at+1+i%100], func(cl *practiced.Client) error {
					cl.Notes = fmt.Sprintf("visit %d", i)
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				page, _, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, p)
				if err != nil || len(page) != 100 || !strings.Contains(string(page[i%100]), fmt.Sprintf(`"visit %d"`, i)) {
					b.Fatalf("%d clients, %v", len(page), err)
				}
			}
		})
	}
}

// benchDocPages reads pages of 100 clients' documents deep in the list,
// each after a cursor 997 clients on from the last, calling between
// untimed before each page when it is set.
func benchDocPages(b *testing.B, between func(ctx context.Context, st practiced.Store, c *testfix.Clinic, ids []string, i int) error) {
	for name, st := range benchStores(b) {
		c, ids := benchClinic(b, st)
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				if between != nil {
					b.StopTimer()
					if err := between(ctx, st, c, ids, i); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				after := ids[(i*997)%(benchClients-100)]
				page, _, err := st.ListClientDocs(ctx, c.Business.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 100, After: after})
				if err != nil || len(page) != 100 {
					b.Fatalf("%d clients, %v", len(page), err)
				}
			}
		})
	}
}

func BenchmarkStoreUpdateClient(b *testing.B) {
	for name, st := range benchStores(b) {
		c, ids := benchClinic(b, st)
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				_, err := st.UpdateClient(ctx, c.Business.ID, ids[i%benchClients], func(cl *practiced.Client) error {
					cl.Notes = fmt.Sprintf("visit %d", i)
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStoreCreateRepeatingBusyTime(b *testing.B) {
	for name, st := range benchStores(b) {
		c := testfix.NewClinic(b, st, "Bench")
		// Each series starts a day after the one before, in every run of
		// the benchmark (-count), so occurrences never collide.
		series := 0
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				start := testfix.Now.Add(time.Duration(series) * 24 * time.Hour)
				series++
				bts := make([]practiced.BusyTime, 10)
				for k := range bts {
					s := start.Add(time.Duration(k) * 7 * 24 * time.Hour)
					bts[k] = practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: c.Sydney.ID, PractitionerID: c.Alice.ID,
						StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(time.Hour)),
						CreatedAt: practiced.NewTime(testfix.Now), UpdatedAt: practiced.NewTime(testfix.Now)}
				}
				if _, err := st.CreateBusyTimes(ctx, c.Business.ID, bts, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
