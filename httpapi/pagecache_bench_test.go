package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/ratelimit"
)

// discardWriter is a ResponseWriter that keeps the status and drops the
// body, so that a benchmark of a handler times the server's own work and
// not the copying of what it answers.
type discardWriter struct {
	header http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.header }

func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

// BenchmarkHTTPClientsPageKept asks for a page of 100 clients that the
// server keeps, with nothing changed since it was read: what a request
// costs the server besides writing the page's bytes (the key's read, the
// middleware, the rate limit, the log line, which goes to io.Discard).
// The request's context can be cancelled, as net/http's are. It fails
// unless the store read the page once, before the timed requests.
func BenchmarkHTTPClientsPageKept(b *testing.B) {
	st := testfix.Store(b)
	c := testfix.NewClinic(b, st, "Bench")
	var seed practiced.SeedData
	for i := range 100 {
		seed.Clients = append(seed.Clients, newClient("Client", fmt.Sprint(i), ""))
	}
	if err := st.Seed(context.Background(), c.Business.ID, seed); err != nil {
		b.Fatal(err)
	}
	cs := &countedStore{Store: st}
	h := httpapi.NewServer(cs, httpapi.Options{Now: func() time.Time { return testfix.Now },
		Limiter: ratelimit.NewMemory(nil), RatePerMinute: 1_000_000_000})
	req := httptest.NewRequest("GET", "/v1/clients?limit=100", nil).WithContext(b.Context())
	req.Header.Set("Authorization", "Bearer "+c.Token)
	ask := func() int {
		w := &discardWriter{header: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
		return w.n
	}
	size := ask() // reads the page and keeps it
	for b.Loop() {
		if n := ask(); n != size {
			b.Fatalf("%d bytes, the first answer %d", n, size)
		}
	}
	if n := cs.reads.Load(); n != 1 {
		b.Fatalf("the page was read %d times, want once", n)
	}
}
