package httpapi_test

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// benchSchedule seeds n practitioners at the Sydney location, each with
// appointments and busy times spread over March 2026, and returns their ids.
func benchSchedule(b testing.TB, st practiced.Store, c *testfix.Clinic, n, appointments, busy int) []string {
	return benchScheduleFrom(b, st, c, n, appointments, busy, time.Date(2026, 3, 1, 13, 0, 0, 0, time.UTC)) // 00:00 on 2 March in Sydney
}

// benchScheduleFrom is benchSchedule for the 31 days from start.
func benchScheduleFrom(b testing.TB, st practiced.Store, c *testfix.Clinic, n, appointments, busy int, start time.Time) []string {
	r := rand.New(rand.NewSource(int64(n)))
	at := func() time.Time { return start.Add(time.Duration(5*r.Intn(31*24*12)) * time.Minute) }
	created := practiced.NewTime(testfix.Now.Add(-time.Hour))
	var ids []string
	var seed practiced.SeedData
	for p := 0; p < n; p++ {
		pra := practiced.Practitioner{ID: tid.New("pra"), FirstName: "P", LastName: fmt.Sprint(p),
			LocationIDs: []string{c.Sydney.ID}, ServiceIDs: []string{c.Consult.ID}, CreatedAt: created, UpdatedAt: created}
		seed.Practitioners = append(seed.Practitioners, pra)
		ids = append(ids, pra.ID)
		for i := 0; i < appointments; i++ {
			s := at()
			apt := practiced.Appointment{ID: tid.New("apt"), LocationID: c.Sydney.ID, PractitionerID: pra.ID, ServiceID: &c.Consult.ID,
				StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(time.Duration(15*(1+r.Intn(4))) * time.Minute)),
				MaxClients: 1, CreatedAt: created, UpdatedAt: created}
			seed.Appointments = append(seed.Appointments, apt)
			seed.AppointmentClients = append(seed.AppointmentClients, practiced.AppointmentClient{ID: tid.New("apc"), AppointmentID: apt.ID,
				ClientID: c.Clients[i%len(c.Clients)].ID, Status: practiced.StatusBooked, CreatedAt: created, UpdatedAt: created})
		}
		for i := 0; i < busy; i++ {
			s := at()
			seed.BusyTimes = append(seed.BusyTimes, practiced.BusyTime{ID: tid.New("bti"), LocationID: c.Sydney.ID, PractitionerID: pra.ID,
				StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(30 * time.Minute)), CreatedAt: created, UpdatedAt: created})
		}
	}
	if err := st.Seed(context.Background(), c.Business.ID, seed); err != nil {
		b.Fatal(err)
	}
	return ids
}

func benchSlots(b *testing.B, practitioners, appointments, busy int, extra url.Values) {
	st := testfix.Store(b)
	c := testfix.NewClinic(b, st, "Bench")
	ids := benchSchedule(b, st, c, practitioners, appointments, busy)
	if a, ok := any(st).(interface{ Analyze(context.Context) error }); ok {
		a.Analyze(context.Background())
	}
	srv := httptest.NewServer(httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }}))
	defer srv.Close()
	q := url.Values{"location_id": {c.Sydney.ID}, "service_id": {c.Consult.ID}, "from": {"2026-03-02"}, "to": {"2026-04-01"}}
	if practitioners == 1 {
		q.Set("practitioner_id", ids[0])
	}
	for k, v := range extra {
		q[k] = v
	}
	req, _ := http.NewRequest("GET", srv.URL+"/v1/availability_slots?"+q.Encode(), nil)
	req.Header.Set("Authorization", "Bearer "+c.Token)
	cpu := testfix.ProcessCPU()
	for b.Loop() {
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("%v %v", res.Status, err)
		}
		res.Body.Close()
	}
	// The machine is shared, so the time a request takes varies with the
	// load; the CPU time it takes (client and server together) varies less.
	b.ReportMetric(float64((testfix.ProcessCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
}

// A month for one practitioner with 2,000 appointments and 500 busy
// times in range, through HTTP and the store.
func BenchmarkHTTPSlotsOnePractitionerBusyMonth(b *testing.B) { benchSlots(b, 1, 2000, 500, nil) }

// A month for a location with 20 practitioners, each with a realistic
// 120 appointments and 30 busy times.
func BenchmarkHTTPSlotsTwentyPractitionersMonth(b *testing.B) { benchSlots(b, 20, 120, 30, nil) }

// The first slot of each of 20 practitioners.
func BenchmarkHTTPFirstAvailableTwentyPractitioners(b *testing.B) {
	benchSlots(b, 20, 120, 30, url.Values{"first_available": {"true"}, "to": nil})
}

// TestWriteBenchDatabase writes the benchmark clinic to the database
// PRACTICED_BENCH_DB names as --db does (sqlite:PATH or a PostgreSQL
// URL), for load tests of a real server (see
// scripts/bench-availability.sh), and prints the key and the query.
func TestWriteBenchDatabase(t *testing.T) {
	dsn := os.Getenv("PRACTICED_BENCH_DB")
	if dsn == "" {
		t.Skip("PRACTICED_BENCH_DB is not set: no benchmark database to write")
	}
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := testfix.NewClinic(t, st, "Bench "+tid.New("biz"))
	// The month starts next Monday in Sydney, so none of it is past.
	sydney, _ := time.LoadLocation("Australia/Sydney")
	day := time.Now().In(sydney).AddDate(0, 0, 1)
	for day.Weekday() != time.Monday {
		day = day.AddDate(0, 0, 1)
	}
	start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, sydney)
	one := benchScheduleFrom(t, st, c, 1, 2000, 500, start)
	benchScheduleFrom(t, st, c, 19, 120, 30, start)
	if err := st.Analyze(context.Background()); err != nil {
		t.Fatal(err)
	}
	from, to := start.Format(time.DateOnly), start.AddDate(0, 0, 30).Format(time.DateOnly)
	month := "&service_id=" + c.Consult.ID + "&from=" + from + "&to=" + to
	fmt.Printf("TOKEN=%s\n", c.Token)
	fmt.Printf("ONE=/v1/availability_slots?location_id=%s&practitioner_id=%s%s\n", c.Sydney.ID, one[0], month)
	fmt.Printf("ALL=/v1/availability_slots?location_id=%s%s\n", c.Sydney.ID, month)
	fmt.Printf("FIRST=/v1/availability_slots?location_id=%s&service_id=%s&first_available=true&from=%s\n", c.Sydney.ID, c.Consult.ID, from)
}
