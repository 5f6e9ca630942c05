package sqlstore

import (
	"database/sql"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
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

// legacyClientColumns are the columns migration 0030 drops from clients,
// as the migrations before it made them.
var legacyClientColumns = []string{
	"title TEXT NOT NULL DEFAULT ''", "first_name TEXT NOT NULL DEFAULT ''", "last_name TEXT NOT NULL DEFAULT ''",
	"preferred_name TEXT NOT NULL DEFAULT ''", "profession TEXT NOT NULL DEFAULT ''", "date_of_birth TEXT",
	"sex TEXT NOT NULL DEFAULT ''", "gender_identity TEXT NOT NULL DEFAULT ''", "pronouns TEXT NOT NULL DEFAULT ''",
	"privacy_policy_consent TEXT", "marketing_consent TEXT", "no_messages BOOLEAN NOT NULL DEFAULT FALSE",
	"consent_method TEXT", "medications TEXT NOT NULL DEFAULT '[]'", "allergies TEXT NOT NULL DEFAULT '[]'",
	"intolerances TEXT NOT NULL DEFAULT '[]'", "emergency_contact_relationship TEXT NOT NULL DEFAULT ''",
	"notes TEXT NOT NULL DEFAULT ''", "alert TEXT NOT NULL DEFAULT ''", "referral_description TEXT NOT NULL DEFAULT ''",
	"phone_number TEXT NOT NULL DEFAULT ''", "phone_numbers TEXT NOT NULL DEFAULT '[]'", "address TEXT NOT NULL DEFAULT '{}'",
	"ndis_details TEXT", "related_clients TEXT NOT NULL DEFAULT '[]'", "linked_contacts TEXT NOT NULL DEFAULT '[]'",
}

// TestClientsWithoutDocumentsKeepTheirColumnsData puts a database back
// to before migration 0030, its clients' columns restored, and writes
// clients with no document, as on a database from before migration
// 0013: migrating must give each its document from its columns before
// 0030 drops them, so that every field reads back.
func TestClientsWithoutDocumentsKeepTheirColumnsData(t *testing.T) {
	for name, st := range aptEventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			b, err := st.CreateBusiness(ctx, "Clinic "+tid.New("biz"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.w.ExecContext(ctx, `SELECT first_name FROM clients`); err == nil {
				t.Fatal("clients still have a first_name column after migrating")
			}
			beforeClientsDocumentOnly(t, st)
			stamp := practiced.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			n := fillBatch + 3
			ids := make([]string, n)
			for i := range n {
				ids[i] = tid.New("cli")
				if _, err := st.w.ExecContext(ctx, `INSERT INTO clients (business_id, id, first_name, last_name, email, date_of_birth,
					no_messages, phone_numbers, address, notes, tag_ids, created_at, updated_at)
					VALUES ($1, $2, $3, 'Archer', $4, '1990-02-03', $5, $6, $7, 'Knee <left>', '[]', $8, $8)`,
					b.ID, ids[i], "Ann "+strconv.Itoa(i), "ann"+strconv.Itoa(i)+"@example.com", i%2 == 1,
					`[{"type":"mobile","code":"+61","number":"412345678"}]`, `{"line1":"1 Main St","city":"Hobart"}`, tsv(stamp)); err != nil {
					t.Fatal(err)
				}
			}
			caseID := tid.New("case")
			if _, err := st.w.ExecContext(ctx, `INSERT INTO cases (business_id, id, client_id, name, created_at, updated_at)
				VALUES ($1, $2, $3, 'Knee', $4, $4)`, b.ID, caseID, ids[0], tsv(stamp)); err != nil {
				t.Fatal(err)
			}
			if err := st.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := st.w.ExecContext(ctx, `SELECT notes FROM clients`); err == nil {
				t.Error("clients have a notes column after migrating again")
			}
			var caseClient string
			if err := st.w.QueryRowContext(ctx, `SELECT c.id FROM cases k JOIN clients c ON c.business_id = k.business_id AND c.id = k.client_id
				WHERE k.business_id = $1 AND k.id = $2`, b.ID, caseID).Scan(&caseClient); err != nil || caseClient != ids[0] {
				t.Errorf("the case's client after migrating: %q, %v; want %s", caseClient, err, ids[0])
			}
			if _, err := st.w.ExecContext(ctx, `INSERT INTO cases (business_id, id, client_id, name, created_at, updated_at)
				VALUES ($1, $2, 'cli_none', 'Hip', $3, $3)`, b.ID, tid.New("case"), tsv(stamp)); err == nil {
				t.Error("a case of a client that does not exist was stored after migrating: foreign keys are off")
			}
			page := practiced.PageRequest{Limit: n}
			got, _, err := st.ListClients(ctx, b.ID, practiced.PersonFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			docs, _, err := st.ListClientDocs(ctx, b.ID, practiced.PersonFilter{}, page)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != n || len(docs) != n {
				t.Fatalf("%d clients and %d documents, want %d", len(got), len(docs), n)
			}
			for i, c := range got {
				j := slices.Index(ids, c.ID)
				if j < 0 || c.FirstName != "Ann "+strconv.Itoa(j) || c.LastName != "Archer" || c.Email != "ann"+strconv.Itoa(j)+"@example.com" ||
					c.DateOfBirth == nil || *c.DateOfBirth != "1990-02-03" || c.NoMessages != (j%2 == 1) || c.Notes != "Knee <left>" ||
					len(c.PhoneNumbers) != 1 || c.PhoneNumbers[0].Number != "412345678" || c.Address.Line1 != "1 Main St" ||
					c.Address.City != "Hobart" || !c.CreatedAt.Equal(stamp.Time) {
					t.Errorf("client %d read back as %+v", j, c)
				}
				if want := docText(&got[i]); string(docs[i]) != want {
					t.Errorf("document %s, want %s", docs[i], want)
				}
			}
		})
	}
}

// On SQLite, migration 0030 builds the clients' table again with foreign
// keys off; a reference that finds no client (left by an older server)
// stops it, and the database keeps its columns and its clients.
func TestClientsRebuildStopsAtAReferenceToNoClient(t *testing.T) {
	ctx := t.Context()
	st, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "rebuild.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.CreateBusiness(ctx, "Clinic "+tid.New("biz"))
	if err != nil {
		t.Fatal(err)
	}
	beforeClientsDocumentOnly(t, st)
	stamp := tsv(practiced.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	id := tid.New("cli")
	if _, err := st.w.ExecContext(ctx, `INSERT INTO clients (business_id, id, first_name, last_name, address, created_at, updated_at)
		VALUES ($1, $2, 'Ann', 'Archer', '{}', $3, $3)`, b.ID, id, stamp); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `INSERT INTO cases (business_id, id, client_id, name, created_at, updated_at)
		VALUES ($1, $2, 'cli_gone', 'Knee', $3, $3)`, b.ID, tid.New("case"), stamp); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `PRAGMA foreign_keys = ON`); err != nil {
		t.Fatal(err)
	}
	err = st.Migrate(ctx)
	want := "migrate: 0030_clients_by_document.sql: a row of cases (rowid 1) refers to a row of clients that does not exist"
	if err == nil || err.Error() != want {
		t.Fatalf("Migrate: %v, want %s", err, want)
	}
	var first string
	if err := st.w.QueryRowContext(ctx, `SELECT first_name FROM clients WHERE business_id = $1 AND id = $2`, b.ID, id).Scan(&first); err != nil || first != "Ann" {
		t.Errorf("the client's first_name after the stopped migration: %q, %v", first, err)
	}
	var n int
	if err := st.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, clientsDocumentOnly).Scan(&n); err != nil || n != 0 {
		t.Errorf("migration 0030 recorded %d times (%v) after it stopped", n, err)
	}
	var on int
	if err := st.w.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&on); err != nil || on != 1 {
		t.Errorf("foreign keys %d (%v) after the stopped migration, want 1", on, err)
	}
}

// beforeClientsDocumentOnly gives the clients' table back the columns
// migration 0030 dropped and forgets that migration, so that the next
// Migrate runs it again.
func beforeClientsDocumentOnly(t *testing.T, st *Store) {
	t.Helper()
	for _, col := range legacyClientColumns {
		if _, err := st.w.ExecContext(t.Context(), `ALTER TABLE clients ADD COLUMN `+col); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.w.ExecContext(t.Context(), `DELETE FROM schema_migrations WHERE version = $1`, clientsDocumentOnly); err != nil {
		t.Fatal(err)
	}
}

// A SQLite database from before migrations 0031 and 0032, whose events
// were numbered by the writer and, for one written without a number, by
// the trigger of 0016: after the upgrade the series index holds the
// series' busy times only, no trigger is left on the events, and the
// next event takes its business's largest number plus one, so the feed
// goes on 1, 2, 3 … with no gap.
func TestSeriesIndexAndFeedNumbersAcrossUpgrade(t *testing.T) {
	ctx := t.Context()
	st, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "upgrade.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	biz, loc, pra := busyPlace(t, st)
	trigger := ""
	sql0016, err := migrations.ReadFile("migrations/0016_event_sequence.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range splitStatements(string(sql0016)) {
		if strings.HasPrefix(stmt, "CREATE TRIGGER events_take_seq") {
			trigger = stmt
		}
	}
	if trigger == "" {
		t.Fatal("migration 0016 creates no trigger events_take_seq")
	}
	for _, q := range []string{
		`DROP INDEX busy_times_repeat`,
		`CREATE INDEX busy_times_repeat ON busy_times (business_id, repeat_id)`,
		trigger,
		`DELETE FROM schema_migrations WHERE version IN (31, 32)`,
	} {
		if _, err := st.w.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	series := tid.New(practiced.PrefixRepeat)
	bts := []practiced.BusyTime{busyOn(loc, pra, 0, &series), busyOn(loc, pra, 7, &series), busyOn(loc, pra, 1, nil)}
	if _, err := st.CreateBusyTimes(ctx, biz.ID, bts, false); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `INSERT INTO events (business_id, id, type, record_type, record_id, data, created_at)
		VALUES ($1, $2, 'tag.created', 'tag', 'tag_by_hand', '{}', $3)`, biz.ID, tid.New(practiced.PrefixEvent), tsv(busyPlaceTime)); err != nil {
		t.Fatal(err)
	}

	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if n := eventTriggers(t, st); n != 0 {
		t.Errorf("%d triggers on events after the upgrade, want none", n)
	}
	if entries := seriesIndexEntries(t, st); entries != "2" {
		t.Errorf("busy_times_repeat holds %s entries after the upgrade, want the series' 2", entries)
	}
	if _, err := st.CreateBusyTimes(ctx, biz.ID, []practiced.BusyTime{busyOn(loc, pra, 2, nil)}, false); err != nil {
		t.Fatal(err)
	}
	rows, err := st.r.QueryContext(ctx, `SELECT seq FROM events WHERE business_id = $1 ORDER BY seq`, biz.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var seqs []int64
	for rows.Next() {
		var seq sql.NullInt64
		if err := rows.Scan(&seq); err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq.Int64)
	}
	if want := []int64{1, 2, 3, 4, 5}; !slices.Equal(seqs, want) {
		t.Errorf("the feed's numbers after the upgrade: %v, want %v", seqs, want)
	}
}
