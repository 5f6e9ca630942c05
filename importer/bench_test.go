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
func BenchmarkImportClients(b *testing.B)       { benchImport(b, false) }
func BenchmarkImportClientsDryRun(b *testing.B) { benchImport(b, true) }

func benchImport(b *testing.B, dry bool) {
	const n = 10_000
	csv := clinikoRows(n)
	st := testfix.SQLiteStore(b)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
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

// BenchmarkImportClientsIntoNewDatabase imports 10,000 Cliniko-shaped
// clients into a new SQLite database each time; BenchmarkImportClients
// imports into a database that already holds clients. A load builds a
// table's indexes after its rows only from 50,000 rows on
// (laterIndexRows in sqlstore/seed.go), so both keep them up row by row.
func BenchmarkImportClientsIntoNewDatabase(b *testing.B) {
	const n = 10_000
	csv := clinikoRows(n)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		st := testfix.SQLiteStore(b)
		biz, err := st.CreateBusiness(ctx, "Bench")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rows, err := Import(ctx, Options{Store: st, Business: biz.ID, Kind: "clients",
			Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(csv)), nil }})
		if err != nil || rows != n {
			b.Fatalf("%d rows, %v", rows, err)
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/row")
}
