package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// TestCommitCountersNeverDeadlockPostgres writes, from many connections
// at once in one business, changes that reach the numbers kept at
// commit (the feed's sequence and list_versions) in opposite orders:
// appointments booked (the appointment, then its attendee) and
// attendees changed with their appointment (the attendee first). Every
// write must succeed: the counters take their locks in one order.
func TestCommitCountersNeverDeadlockPostgres(t *testing.T) {
	st := testfix.PostgresStore(t)
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Counters")
	biz := c.Business.ID
	now := practiced.NewTime(testfix.Now)
	book := func(i int) (practiced.Appointment, error) {
		start := testfix.Now.Add(time.Duration(i) * time.Hour)
		a := practiced.Appointment{ID: tid.New(practiced.PrefixAppointment), LocationID: c.Sydney.ID, PractitionerID: c.Alice.ID,
			StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(30 * time.Minute)), Duration: 30, MaxClients: 1,
			CreatedAt: now, UpdatedAt: now}
		ac := practiced.AppointmentClient{ID: tid.New(practiced.PrefixAppointmentClient), AppointmentID: a.ID,
			ClientID: c.Clients[i%len(c.Clients)].ID, Status: practiced.StatusBooked, CreatedAt: now, UpdatedAt: now}
		return a, st.CreateAppointment(ctx, biz, &a, []practiced.AppointmentClient{ac}, nil)
	}
	var existing []practiced.Appointment
	for i := range 8 {
		a, err := book(1000 + i)
		if err != nil {
			t.Fatal(err)
		}
		existing = append(existing, a)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				var err error
				if g%2 == 0 {
					_, err = book(g*100 + i)
				} else {
					_, _, err = st.UpdateAppointment(ctx, biz, existing[g].ID, now, func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
						(*acs)[0].Note = fmt.Sprint("note ", i)
						a.Notes = fmt.Sprint("notes ", i)
						return nil
					}, nil)
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
