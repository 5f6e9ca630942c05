package importer

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/practiced/practiced/internal/testfix"
)

// clinikoRows is a Cliniko-shaped export of n patients.
func clinikoRows(n int) string {
	var b strings.Builder
	b.WriteString("Title,First name,Last name,Date of birth,Sex,Email,Mobile,Address 1,City,State,Post code,Country,Occupation\n")
	for i := range n {
		fmt.Fprintf(&b, "Ms,Ada%d,Lovelace,%02d/%02d/19%02d,Female,ada%d@example.com,0412 %03d %03d,%d King St,Newtown,NSW,2042,Australia,Engineer\n",
			i, i%28+1, i%12+1, i%90+10, i, i%1000, i/1000%1000, i)
	}
	return b.String()
}

// BenchmarkImportClients imports 10,000 Cliniko-shaped clients into
// SQLite, checking and storing; BenchmarkImportClientsDryRun only checks.
// Both import into a database that already holds clients, where
// BenchmarkImportClientsIntoNewDatabase imports into a new one each time.
// A load builds a table's indexes after its rows only from 50,000 rows on
// (laterIndexRows in sqlstore/seed.go), so all three keep them up row by
// row.
func BenchmarkImportClients(b *testing.B)                { benchImport(b, false, false) }
func BenchmarkImportClientsDryRun(b *testing.B)          { benchImport(b, true, false) }
func BenchmarkImportClientsIntoNewDatabase(b *testing.B) { benchImport(b, false, true) }

// benchImport imports 10,000 clients a round, into a new database each
// round when fresh (opening it is not timed).
func benchImport(b *testing.B, dry, fresh bool) {
	const n = 10_000
	csv := clinikoRows(n)
	st := testfix.SQLiteStore(b)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if fresh {
			b.StopTimer()
			st = testfix.SQLiteStore(b)
			b.StartTimer()
		}
		biz, err := st.CreateBusiness(ctx, fmt.Sprint("Bench ", i))
		if err != nil {
			b.Fatal(err)
		}
		rows, err := Import(ctx, Options{Store: st, Business: biz.ID, Kind: "clients", DryRun: dry,
			Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(csv)), nil }})
		if err != nil || rows != n {
			b.Fatalf("%d rows, %v", rows, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/row")
}
