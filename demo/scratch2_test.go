package demo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/practiced/practiced/sqlstore"
)

func TestScratchMillion(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	biz, _ := st.CreateBusiness(ctx, "Demo")
	start := time.Now()
	last := start
	sum, err := Load(ctx, st, biz.ID, Options{Seed: 1, Clients: scratchN(), Now: time.Date(2026, 3, 4, 1, 30, 0, 0, time.UTC),
		Progress: func(d, n int) {
			if d%100000 == 0 {
				t.Logf("%d/%d %v (+%v)", d, n, time.Since(start), time.Since(last))
				last = time.Now()
			}
		}})
	t.Logf("%+v %v %v", sum, err, time.Since(start))
}

func scratchN() int {
	if os.Getenv("SCRATCHN") != "" {
		n := 0
		for _, c := range os.Getenv("SCRATCHN") {
			n = n*10 + int(c-'0')
		}
		return n
	}
	return 1_000_000
}
