package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

func TestAppointmentListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ann, ben, cat := a.Clients[0].ID, a.Clients[1].ID, a.Clients[2].ID
	var d practiced.SeedData
	seat := func(apt practiced.Appointment, clientID, status string) {
		ac := newAppointmentClient(apt, clientID, status)
		if status == practiced.StatusCancelled {
			ac.CancelledAt, ac.CancellationNote = &seeded, "Unwell"
		}
		d.AppointmentClients = append(d.AppointmentClients, ac)
	}
	apt1 := newAppointment(a.Alice, a.Sydney, &a.Consult, mustUTC("2026-03-03T01:00:00Z"), 30)
	apt2 := newAppointment(a.Bob, a.Sydney, nil, mustUTC("2026-03-04T01:00:00Z"), 30)
	apt2.MaxClients = 2
	apt2.UpdatedAt = practiced.NewTime(testfix.Now)
	apt3 := newAppointment(a.Alice, a.Adelaide, nil, mustUTC("2026-03-05T01:00:00Z"), 30)
	apt3.CancelledAt = &seeded
	apt4 := newAppointment(a.Alice, a.Sydney, nil, mustUTC("2026-03-06T01:00:00Z"), 30)
	apt4.ArchivedAt = &seeded
	apt5 := newAppointment(a.Alice, a.Sydney, nil, mustUTC("2026-03-07T01:00:00Z"), 30) // no attendees
	apt6 := newAppointment(a.Bob, a.Sydney, nil, mustUTC("2026-03-08T01:00:00Z"), 30)   // every attendee cancelled
	d.Appointments = []practiced.Appointment{apt1, apt2, apt3, apt4, apt5, apt6}
	seat(apt1, ann, practiced.StatusBooked)
	seat(apt2, ben, practiced.StatusArrived)
	seat(apt2, ann, practiced.StatusCancelled)
	seat(apt3, cat, practiced.StatusCancelled)
	seat(apt4, ann, practiced.StatusBooked)
	seat(apt6, cat, practiced.StatusCancelled)
	seedData(t, e, a, d)
	bApt := newAppointment(e.b.Alice, e.b.Sydney, nil, mustUTC("2026-03-03T01:00:00Z"), 30)
	seedData(t, e, e.b, practiced.SeedData{Appointments: []practiced.Appointment{bApt}})

	runFilterCases(t, e, "/v1/appointments", []filterCase{
		{"no filter hides cancelled and archived ones", nil, []string{apt1.ID, apt2.ID, apt5.ID}},
		{"include_cancelled", qv("include_cancelled", "true"), []string{apt1.ID, apt2.ID, apt3.ID, apt5.ID, apt6.ID}},
		{"include_cancelled=false", qv("include_cancelled", "false"), []string{apt1.ID, apt2.ID, apt5.ID}},
		{"include_archived", qv("include_archived", "true"), []string{apt1.ID, apt2.ID, apt4.ID, apt5.ID}},
		{"both", qv("include_archived", "true", "include_cancelled", "1"), []string{apt1.ID, apt2.ID, apt3.ID, apt4.ID, apt5.ID, apt6.ID}},
		{"practitioner", qv("practitioner_id", a.Alice.ID), []string{apt1.ID, apt5.ID}},
		{"location", qv("location_id", a.Adelaide.ID, "include_cancelled", "true"), []string{apt3.ID}},
		{"client, in any status", qv("client_id", ann), []string{apt1.ID, apt2.ID}},
		{"client of cancelled appointments", qv("client_id", cat, "include_cancelled", "true"), []string{apt3.ID, apt6.ID}},
		{"starts_after is inclusive", qv("starts_after", "2026-03-04T01:00:00Z"), []string{apt2.ID, apt5.ID}},
		{"starts_before is exclusive", qv("starts_before", "2026-03-04T12:00:00+11:00"), []string{apt1.ID}},
		{"a window", qv("starts_after", "2026-03-03T01:00:01Z", "starts_before", "2026-03-09T00:00:00Z", "include_cancelled", "true"),
			[]string{apt2.ID, apt3.ID, apt5.ID, apt6.ID}},
		{"updated_since", qv("updated_since", "2026-03-01T00:00:00Z"), []string{apt2.ID}},
		{"practitioner and client", qv("practitioner_id", a.Bob.ID, "client_id", ben), []string{apt2.ID}},
		{"the other business's practitioner matches nothing", qv("practitioner_id", e.b.Alice.ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/appointments", []invalidQueryCase{
		{"practitioner_id=" + a.Sydney.ID, "practitioner_id", "must be an id starting with pra_"},
		{"location_id=sydney", "location_id", "must be an id starting with loc_"},
		{"client_id=" + a.Payer.ID, "client_id", "must be an id starting with cli_"},
		{"include_cancelled=maybe", "include_cancelled", "must be true or false"},
		{"starts_after=2026-03-03", "starts_after", "must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
		{"starts_before=soon", "starts_before", "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"},
		{"status=booked", "status", "is not a known query parameter"},
		{"limit=101", "limit", "must be between 1 and 100"},
	})

	// Pages of two walk the whole list once, in id order.
	want := []string{apt1.ID, apt2.ID, apt3.ID, apt4.ID, apt5.ID, apt6.ID}
	var got []string
	next := e.srv.URL + "/v1/appointments?include_cancelled=true&include_archived=true&limit=2"
	for next != "" {
		p := e.do("GET", next, a.Token, nil).page(t)
		got = append(got, pageIDs(p)...)
		next = ""
		if p.Links.Next != nil {
			next = *p.Links.Next
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paged through %v, want %v", got, want)
	}
	// Each record carries its attendees, in id order.
	for _, m := range e.listAll(t, "/v1/appointments?include_cancelled=true", a.Token) {
		if m["id"] == apt2.ID {
			wantIDs := []string{d.AppointmentClients[1].ID, d.AppointmentClients[2].ID}
			if ids := attendeeIDs(m); !slices.Equal(ids, wantIDs) {
				t.Fatalf("apt2's appointment_client_ids %v, want %v", ids, wantIDs)
			}
		}
	}
}

// envOn is newEnv on a given store.
func envOn(t *testing.T, st *sqlstore.Store) *env {
	t.Helper()
	e := &env{t: t, st: st, clock: testfix.Now}
	e.a = testfix.NewClinic(t, st, "Clinic A")
	e.b = testfix.NewClinic(t, st, "Clinic B")
	e.srv = httptest.NewServer(httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return e.clock }}))
	t.Cleanup(e.srv.Close)
	return e
}

// eachStore runs f on SQLite and, when PRACTICED_TEST_POSTGRES is set,
// on PostgreSQL.
func eachStore(t *testing.T, f func(t *testing.T, e *env)) {
	for _, s := range []struct {
		name string
		open func(testing.TB) *sqlstore.Store
	}{{"sqlite", testfix.SQLiteStore}, {"postgres", testfix.PostgresStore}} {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			f(t, envOn(t, s.open(t)))
		})
	}
}

// race sends n requests at once and returns their statuses.
func race(e *env, n int, req func(i int) (string, any)) []int {
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			path, body := req(i)
			<-start
			statuses[i] = e.do("POST", path, e.a.Token, body).Status
		})
	}
	close(start)
	wg.Wait()
	return statuses
}

func count(statuses []int, status int) int {
	n := 0
	for _, s := range statuses {
		if s == status {
			n++
		}
	}
	return n
}

func TestParallelBookingsOfOneSlotBookExactlyOne(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, e *env) {
		a := e.a
		const callers = 20
		statuses := race(e, callers, func(i int) (string, any) {
			return "/v1/appointments", book(a.Sydney, a.Alice, "2026-03-03T01:00:00Z", a.Clients[i%3].ID,
				map[string]any{"service_id": a.Consult.ID})
		})
		if count(statuses, http.StatusCreated) != 1 || count(statuses, http.StatusUnprocessableEntity) != callers-1 {
			t.Fatalf("statuses %v: want one 201 and %d 422s", statuses, callers-1)
		}
		if n := len(e.listAll(t, "/v1/appointments?practitioner_id="+a.Alice.ID, a.Token)); n != 1 {
			t.Fatalf("%d appointments stored, want 1", n)
		}
	})
}

func TestParallelJoinsNeverOverfillAGroup(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, e *env) {
		a := e.a
		var more []practiced.Client
		for range 10 {
			more = append(more, newClient("Guest", "Test", ""))
		}
		seedData(t, e, a, practiced.SeedData{Clients: more})
		apt := e.booked(t, map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "service_id": a.Group.ID,
			"starts_at": "2026-03-03T01:00:00Z", "clients": []any{map[string]any{"client_id": a.Clients[0].ID}, map[string]any{"client_id": a.Clients[1].ID}}})
		statuses := race(e, len(more), func(i int) (string, any) {
			return "/v1/appointment_clients", map[string]any{"appointment_id": apt["id"], "client_id": more[i].ID}
		})
		if count(statuses, http.StatusCreated) != 2 || count(statuses, http.StatusUnprocessableEntity) != len(more)-2 {
			t.Fatalf("statuses %v: want two 201s for the two free places and %d 422s", statuses, len(more)-2)
		}
		got := e.get(t, "/v1/appointments/"+apt["id"].(string))
		if n := len(attendeeIDs(got)); n != 4 {
			t.Fatalf("%d attendees, want the group's 4 places", n)
		}
	})
}
