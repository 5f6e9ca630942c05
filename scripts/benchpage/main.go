// Command benchpage measures the store's read of a page of stored client
// documents, as the API reads one that is not kept: it opens a database
// a demo clinic was loaded into, notes the cursors of the first -spread
// pages of 100 clients, then reads -pages pages after them in turn and
// prints the time and the allocations of a page. A store benchmark
// (BenchmarkStoreListClientDocsDeepPage) loads a new database in every
// run, and on a shared machine its figure moves by a third from one run
// to the next; this reads the same database every time, so two builds
// can be run one after the other, alternately, on one core:
//
//	practiced demo --db sqlite:/tmp/big.db --clients 1000000
//	go build -o /tmp/benchpage ./scripts/benchpage   # and from the other build
//	GOMAXPROCS=1 taskset -c 1 /tmp/benchpage -db sqlite:/tmp/big.db
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/sqlstore"
)

func main() {
	db := flag.String("db", "", "the database (sqlite:PATH or a postgres:// URL)")
	business := flag.String("business", "Coastline Allied Health", "the clinic's name")
	pages := flag.Int("pages", 4000, "pages read")
	spread := flag.Int("spread", 200, "how many of the list's first pages the reads are spread over")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the reads to this file (its allocations are counted with the reads')")
	flag.Parse()
	if *db == "" || *pages < 1 || *spread < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchpage -db URL [-business NAME] [-pages N] [-spread N] [-cpuprofile FILE]")
		os.Exit(2)
	}
	if err := run(*db, *business, *pages, *spread, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "benchpage:", err)
		os.Exit(1)
	}
}

func run(db, business string, pages, spread int, profile string) error {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	biz, err := st.BusinessByName(ctx, business)
	if err != nil {
		return err
	}
	// The ends of the first spread+1 pages, each of 100 clients, so that
	// the page after each of the first spread ends is whole.
	var cursors []string
	p := practiced.PageRequest{Limit: 100}
	for len(cursors) <= spread {
		docs, info, err := st.ListClientDocs(ctx, biz.ID, practiced.PersonFilter{}, p)
		if err != nil {
			return err
		}
		if len(docs) != 100 {
			return fmt.Errorf("the list holds fewer than %d clients", (spread+1)*100)
		}
		cursors = append(cursors, info.LastID)
		p.After = info.LastID
	}
	cursors = cursors[:spread]
	// The same order in every run, and pages next to each other in the
	// list not read one after the other.
	order := rand.New(rand.NewPCG(1, 2)).Perm(spread)
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for i := range pages {
		page := practiced.PageRequest{Limit: 100, After: cursors[order[i%spread]]}
		docs, _, err := st.ListClientDocs(ctx, biz.ID, practiced.PersonFilter{}, page)
		if err != nil {
			return err
		}
		if len(docs) != 100 {
			return fmt.Errorf("a page of %d clients, want 100", len(docs))
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	n := float64(pages)
	fmt.Printf("%d pages of 100 clients: %.1f µs, %.0f allocations and %.0f KB a page\n", pages,
		float64(elapsed.Nanoseconds())/n/1000, float64(after.Mallocs-before.Mallocs)/n, float64(after.TotalAlloc-before.TotalAlloc)/n/1000)
	return nil
}
