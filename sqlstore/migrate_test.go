package sqlstore

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// migrationName is the shape of every migration's file name.
var migrationName = regexp.MustCompile(`^[0-9]{4}_[a-z0-9]+(_[a-z0-9]+)*\.sql$`)

// firstGapless is the first migration number from which numbers go up by
// one; the numbers before it were released with gaps.
const firstGapless = 11

func TestMigrationNames(t *testing.T) {
	names := map[int]string{} // by number, shared and dialect files alike
	err := fs.WalkDir(migrations, "migrations", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := path.Base(p)
		if !migrationName.MatchString(name) {
			t.Errorf("%s: a migration is named NNNN_snake_case_words.sql", p)
			return nil
		}
		v, _ := strconv.Atoi(name[:4])
		if other, ok := names[v]; ok && other != name {
			t.Errorf("%s repeats the number of %s", p, other)
		}
		names[v] = name
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for v := range names {
		if v >= firstGapless {
			numbers = append(numbers, v)
		}
	}
	sort.Ints(numbers)
	for i, v := range numbers {
		if want := firstGapless + i; v != want {
			t.Errorf("migration %s: number %04d comes next, not %04d", names[v], want, v)
			break
		}
	}
}

// TestSettleCancelledAppointmentsMigration runs 0012 again on
// appointments whose attendees were cancelled behind the store's back,
// as before the store settled every appointment it writes.
func TestSettleCancelledAppointmentsMigration(t *testing.T) {
	for name, st := range aptEventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			b, err := st.CreateBusiness(ctx, "Clinic "+tid.New("biz"))
			if err != nil {
				t.Fatal(err)
			}
			stamp := practiced.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			loc := practiced.Location{ID: tid.New("loc"), Name: "North", Timezone: "Australia/Sydney", CreatedAt: stamp, UpdatedAt: stamp}
			pra := practiced.Practitioner{ID: tid.New("pra"), FirstName: "Alice", LastName: "Nguyen", LocationIDs: []string{loc.ID}, CreatedAt: stamp, UpdatedAt: stamp}
			cli := practiced.Client{ID: tid.New("cli"), FirstName: "Ann", LastName: "Archer", CreatedAt: stamp, UpdatedAt: stamp}
			d := practiced.SeedData{Locations: []practiced.Location{loc}, Practitioners: []practiced.Practitioner{pra}, Clients: []practiced.Client{cli}}
			apt := func(attendees int) (practiced.Appointment, []string) {
				start := stamp.Add(time.Duration(len(d.Appointments)+1) * time.Hour)
				a := practiced.Appointment{ID: tid.New("apt"), LocationID: loc.ID, PractitionerID: pra.ID, StartsAt: practiced.NewTime(start),
					EndsAt: practiced.NewTime(start.Add(30 * time.Minute)), MaxClients: 2, CreatedAt: stamp,
					UpdatedAt: practiced.NewTime(stamp.Add(time.Duration(len(d.Appointments)) * time.Minute))}
				d.Appointments = append(d.Appointments, a)
				var ids []string
				for range attendees {
					c := practiced.AppointmentClient{ID: tid.New("apc"), AppointmentID: a.ID, ClientID: cli.ID, Status: practiced.StatusBooked,
						CreatedAt: stamp, UpdatedAt: stamp}
					d.AppointmentClients = append(d.AppointmentClients, c)
					ids = append(ids, c.ID)
				}
				return a, ids
			}
			timed, timedIDs := apt(2)
			untimed, untimedIDs := apt(1)
			half, halfIDs := apt(2)
			empty, _ := apt(0)
			if err := st.Seed(ctx, b.ID, d); err != nil {
				t.Fatal(err)
			}
			first, last := stamp.Add(-2*time.Hour), stamp.Add(-time.Hour)
			for id, at := range map[string]any{timedIDs[0]: ts(last), timedIDs[1]: ts(first), untimedIDs[0]: nil, halfIDs[0]: ts(first)} {
				if _, err := st.w.ExecContext(ctx, `UPDATE appointment_clients SET status = 'cancelled', cancelled_at = $1
					WHERE business_id = $2 AND id = $3`, at, b.ID, id); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.w.ExecContext(ctx, `DELETE FROM schema_migrations WHERE version = 12`); err != nil {
				t.Fatal(err)
			}
			if err := st.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name string
				id   string
				want *practiced.Time
			}{
				{"every attendee cancelled", timed.ID, &practiced.Time{Time: last}},
				{"every attendee cancelled without a time", untimed.ID, &untimed.UpdatedAt},
				{"one attendee left", half.ID, nil},
				{"no attendees", empty.ID, nil},
			} {
				got, err := st.GetAppointment(ctx, b.ID, tc.id)
				if err != nil {
					t.Fatal(err)
				}
				if (got.CancelledAt == nil) != (tc.want == nil) || got.CancelledAt != nil && !got.CancelledAt.Equal(tc.want.Time) {
					t.Errorf("%s: cancelled_at %v, want %v", tc.name, got.CancelledAt, tc.want)
				}
			}
		})
	}
}

// TestFillDocs clears the stored documents, as on a database from before
// migration 0013, and checks that migrating gives every row its document
// again, in batches, whatever the number of rows.
func TestFillDocs(t *testing.T) {
	for name, st := range aptEventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			b, err := st.CreateBusiness(ctx, "Clinic "+tid.New("biz"))
			if err != nil {
				t.Fatal(err)
			}
			stamp := practiced.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			loc := practiced.Location{ID: tid.New("loc"), Name: "North", Timezone: "Australia/Sydney", CreatedAt: stamp, UpdatedAt: stamp}
			pra := practiced.Practitioner{ID: tid.New("pra"), FirstName: "Alice", LastName: "Nguyen", LocationIDs: []string{loc.ID}, CreatedAt: stamp, UpdatedAt: stamp}
			d := practiced.SeedData{Locations: []practiced.Location{loc}, Practitioners: []practiced.Practitioner{pra}}
			for i := range fillBatch + 3 {
				d.Clients = append(d.Clients, practiced.Client{ID: tid.New("cli"), FirstName: "Ann <" + strconv.Itoa(i) + ">",
					LastName: "Archer", CreatedAt: stamp, UpdatedAt: stamp})
			}
			if err := st.Seed(ctx, b.ID, d); err != nil {
				t.Fatal(err)
			}
			for _, f := range docTables() {
				if _, err := st.w.ExecContext(ctx, `UPDATE `+f.table+` SET doc = NULL`); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			page := practiced.PageRequest{Limit: len(d.Clients)}
			clients, _, err := st.ListClients(ctx, b.ID, practiced.PersonFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			docs, _, err := st.ListClientDocs(ctx, b.ID, practiced.PersonFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != len(d.Clients) || len(clients) != len(d.Clients) {
				t.Fatalf("%d documents and %d clients, want %d", len(docs), len(clients), len(d.Clients))
			}
			for i := range clients {
				if want := docText(&clients[i]); string(docs[i]) != want {
					t.Errorf("document %s, want %s", docs[i], want)
				}
			}
			locs, _, err := st.ListLocationDocs(ctx, b.ID, practiced.ListFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			got, err := st.GetLocation(ctx, b.ID, loc.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(locs) != 1 || string(locs[0]) != docText(&got) {
				t.Errorf("location documents %s, want [%s]", locs, docText(&got))
			}
		})
	}
}
