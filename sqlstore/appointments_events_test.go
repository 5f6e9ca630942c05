package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// The change feed of appointments: which events each change writes, in
// the transaction of the change. The store conformance suite cannot see
// events through the Store interface, so these tests read the table.

// aptEventStores opens a fresh SQLite store and, when PRACTICED_TEST_POSTGRES
// is set, a PostgreSQL store in a schema of its own.
func aptEventStores(t *testing.T) map[string]*Store {
	t.Helper()
	out := map[string]*Store{}
	st, err := Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	out["sqlite"] = st
	base := os.Getenv("PRACTICED_TEST_POSTGRES")
	if base == "" {
		return out
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := "s_" + tid.New("s")[2:]
	if _, err := admin.ExecContext(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	pg, err := Open(t.Context(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	out["postgres"] = pg
	return out
}

// aptFeedEvent is one event: "<type> <record_id>" and its data.
type aptFeedEvent struct {
	what string
	data map[string]any
}

// aptFeed reads the events of a business after the event id *after, in
// feed order, and moves *after to the last.
func aptFeed(t *testing.T, st *Store, biz string, after *string) []aptFeedEvent {
	t.Helper()
	rows, err := st.r.QueryContext(t.Context(), `SELECT id, type, record_id, data FROM events
		WHERE business_id = $1 AND seq > COALESCE((SELECT seq FROM events WHERE business_id = $1 AND id = $2), 0) ORDER BY seq`, biz, *after)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []aptFeedEvent
	for rows.Next() {
		var id, typ, rec, data string
		if err := rows.Scan(&id, &typ, &rec, &data); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, aptFeedEvent{what: typ + " " + rec, data: m})
		*after = id
	}
	return out
}

func aptWantFeed(t *testing.T, step string, got []aptFeedEvent, want ...string) []aptFeedEvent {
	t.Helper()
	var whats []string
	for _, e := range got {
		whats = append(whats, e.what)
	}
	if !slices.Equal(whats, want) {
		t.Fatalf("%s: events\n\t%q\nwant\n\t%q", step, whats, want)
	}
	return got
}

func TestAppointmentChangesWriteTheirEvents(t *testing.T) {
	for name, st := range aptEventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			b, err := st.CreateBusiness(ctx, "Clinic "+tid.New("biz"))
			if err != nil {
				t.Fatal(err)
			}
			biz := b.ID
			stamp := practiced.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			loc := practiced.Location{ID: tid.New("loc"), Name: "North", Timezone: "Australia/Sydney", CreatedAt: stamp, UpdatedAt: stamp}
			pra := practiced.Practitioner{ID: tid.New("pra"), FirstName: "Alice", LastName: "Nguyen", LocationIDs: []string{loc.ID}, CreatedAt: stamp, UpdatedAt: stamp}
			var clients []practiced.Client
			for range 3 {
				clients = append(clients, practiced.Client{ID: tid.New("cli"), FirstName: "Ann", LastName: "Archer", CreatedAt: stamp, UpdatedAt: stamp})
			}
			if err := st.Seed(ctx, biz, practiced.SeedData{Locations: []practiced.Location{loc}, Practitioners: []practiced.Practitioner{pra}, Clients: clients}); err != nil {
				t.Fatal(err)
			}
			after := ""
			aptFeed(t, st, biz, &after) // none yet

			start := time.Date(2026, 3, 3, 1, 0, 0, 0, time.UTC)
			a := practiced.Appointment{ID: tid.New("apt"), LocationID: loc.ID, PractitionerID: pra.ID, StartsAt: practiced.NewTime(start),
				EndsAt: practiced.NewTime(start.Add(time.Hour)), MaxClients: 3, CreatedAt: stamp, UpdatedAt: stamp}
			var acs []practiced.AppointmentClient
			for _, c := range clients[:2] {
				acs = append(acs, practiced.AppointmentClient{ID: tid.New("apc"), ClientID: c.ID, Status: practiced.StatusBooked, CreatedAt: stamp, UpdatedAt: stamp})
			}
			if err := st.CreateAppointment(ctx, biz, &a, acs, func(practiced.Appointment, practiced.Schedule) error { return nil }); err != nil {
				t.Fatal(err)
			}
			got := aptWantFeed(t, "booking", aptFeed(t, st, biz, &after),
				"appointment.created "+a.ID, "appointment.booked "+a.ID, "appointment_client.created "+acs[0].ID, "appointment_client.created "+acs[1].ID)
			if ids := got[0].data["appointment_client_ids"]; !slices.Equal(aptStrings(ids), []string{acs[0].ID, acs[1].ID}) {
				t.Fatalf("appointment.created carries appointment_client_ids %v", ids)
			}
			if got[2].data["starts_at"] != "2026-03-03T01:00:00Z" || got[2].data["appointment_id"] != a.ID {
				t.Fatalf("appointment_client.created carries %v", got[2].data)
			}

			refused := func(practiced.Appointment, practiced.Schedule) error { return practiced.Invalid("starts_at", "no") }
			b2 := a
			b2.ID = tid.New("apt")
			if err := st.CreateAppointment(ctx, biz, &b2, nil, refused); err == nil {
				t.Fatal("a refused booking was stored")
			}
			aptWantFeed(t, "a refused booking", aptFeed(t, st, biz, &after))

			now := practiced.NewTime(time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC))
			update := func(change func(*practiced.Appointment, *[]practiced.AppointmentClient) error) {
				t.Helper()
				if _, _, err := st.UpdateAppointment(ctx, biz, a.ID, now, change, nil); err != nil {
					t.Fatal(err)
				}
			}
			update(func(*practiced.Appointment, *[]practiced.AppointmentClient) error { return nil })
			aptWantFeed(t, "a change that changes nothing", aptFeed(t, st, biz, &after))

			joined := practiced.AppointmentClient{ID: tid.New("apc"), ClientID: clients[2].ID, Status: practiced.StatusBooked, CreatedAt: now, UpdatedAt: now}
			update(func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				*acs = append(*acs, joined)
				return nil
			})
			got = aptWantFeed(t, "a client joins", aptFeed(t, st, biz, &after), "appointment_client.created "+joined.ID, "appointment.updated "+a.ID)
			if n := len(aptStrings(got[1].data["appointment_client_ids"])); n != 3 {
				t.Fatalf("appointment.updated lists %d attendees, want 3", n)
			}

			update(func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				return practiced.TransitionAppointmentClient(&(*acs)[0], practiced.StatusArrived, now)
			})
			got = aptWantFeed(t, "an arrival", aptFeed(t, st, biz, &after), "appointment_client.updated "+acs[0].ID, "appointment_client.arrived "+acs[0].ID)
			if got[0].data["status"] != "arrived" || got[0].data["arrived_at"] != "2026-03-01T22:00:00Z" || got[0].data["updated_at"] != "2026-03-01T22:00:00Z" {
				t.Fatalf("appointment_client.updated carries %v", got[0].data)
			}

			update(func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				return practiced.MoveAppointment(a, *acs, start.Add(2*time.Hour), 45, a.PractitionerID, a.LocationID, []string{"starts_at"})
			})
			got = aptWantFeed(t, "a move", aptFeed(t, st, biz, &after), "appointment_client.updated "+acs[0].ID,
				"appointment_client.updated "+acs[1].ID, "appointment_client.updated "+joined.ID, "appointment.updated "+a.ID, "appointment.rescheduled "+a.ID)
			if got[2].data["starts_at"] != "2026-03-03T03:00:00Z" || got[3].data["ends_at"] != "2026-03-03T03:45:00Z" {
				t.Fatalf("a move's events carry %v and %v", got[2].data, got[3].data)
			}

			update(func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
				return practiced.CancelAppointment(a, *acs, nil, "Closed", now)
			})
			got = aptWantFeed(t, "a cancellation", aptFeed(t, st, biz, &after),
				"appointment_client.updated "+acs[0].ID, "appointment_client.cancelled "+acs[0].ID,
				"appointment_client.updated "+acs[1].ID, "appointment_client.cancelled "+acs[1].ID,
				"appointment_client.updated "+joined.ID, "appointment_client.cancelled "+joined.ID,
				"appointment.updated "+a.ID, "appointment.cancelled "+a.ID)
			if got[0].data["status"] != "cancelled" || got[6].data["cancelled_at"] != "2026-03-01T22:00:00Z" {
				t.Fatalf("a cancellation's events carry %v and %v", got[0].data, got[6].data)
			}

			if _, err := st.ArchiveAppointment(ctx, biz, a.ID, true, now); err != nil {
				t.Fatal(err)
			}
			if _, err := st.ArchiveAppointmentClient(ctx, biz, joined.ID, true, now); err != nil {
				t.Fatal(err)
			}
			got = aptWantFeed(t, "archiving", aptFeed(t, st, biz, &after), "appointment.archived "+a.ID, "appointment_client.archived "+joined.ID)
			if got[1].data["starts_at"] != "2026-03-03T03:00:00Z" {
				t.Fatalf("appointment_client.archived carries %v", got[1].data)
			}
		})
	}
}

func aptStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
