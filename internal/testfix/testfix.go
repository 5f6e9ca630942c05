// Package testfix builds small, fully known clinics for tests: a store on
// a temporary SQLite file, businesses with API keys, and records whose ids
// the tests can name.
package testfix

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// Now is the fixed "now" of every fixture: Monday 2 March 2026, 09:00 in
// Sydney (22:00 UTC the day before).
var Now = time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)

// Store opens a fresh, empty store, closed when the test ends: SQLite in
// a temporary directory, or PostgreSQL when PRACTICED_TEST_STORE is
// "postgres" (see PostgresStore).
func Store(t testing.TB) *sqlstore.Store {
	t.Helper()
	if os.Getenv("PRACTICED_TEST_STORE") == "postgres" {
		return PostgresStore(t)
	}
	return SQLiteStore(t)
}

// SQLiteStore opens a fresh SQLite store in a temporary directory: a
// copy of an empty database migrated once by the test binary (see
// emptyDBFile), which Open finds up to date.
func SQLiteStore(t testing.TB) *sqlstore.Store {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), "sqlite:"+emptyDBFile(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// emptyDBFile writes a new copy of the empty, migrated database into
// the test's temporary directory and returns its path.
func emptyDBFile(t testing.TB) string {
	t.Helper()
	data, err := migrated()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// emptyDB holds the file of an empty SQLite database with every
// migration applied. Migrating a new database commits each migration
// on its own, about a second under the race detector; a test copies
// this file instead. Tests of the migrations themselves open new
// databases with sqlstore.Open.
var emptyDB struct {
	once sync.Once
	data []byte
	err  error
}

// migrated returns the file of an empty, migrated SQLite database,
// made the first time it is asked for.
func migrated() ([]byte, error) {
	emptyDB.once.Do(func() {
		emptyDB.data, emptyDB.err = migrate()
	})
	return emptyDB.data, emptyDB.err
}

// migrate migrates a new database and returns its backup's file, which
// holds the whole database whatever its write-ahead log still held.
func migrate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "practiced-testfix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "empty.db")
	st, err := sqlstore.Open(ctx, "sqlite:"+path)
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	backup := filepath.Join(dir, "backup.db")
	if err := sqlstore.BackupSQLite(ctx, path, backup); err != nil {
		return nil, err
	}
	return os.ReadFile(backup)
}

// Clinic is one business with a small set of records.
type Clinic struct {
	Business      practiced.Business
	Token         string // read-write API key
	ReadOnlyToken string
	Sydney        practiced.Location // Australia/Sydney, open Mon-Fri 09:00-17:00
	Adelaide      practiced.Location // Australia/Adelaide, open every day 08:00-18:00
	Alice         practiced.Practitioner
	Bob           practiced.Practitioner // works at Sydney only
	Consult       practiced.Service      // 30 minutes, no buffers
	Group         practiced.Service      // 60 minutes, 4 places, 10-minute buffers
	Tag           practiced.Named
	Referral      practiced.Named
	Cancel        practiced.Named
	MeetingType   practiced.Named
	Payer         practiced.Contact
	Emergency     practiced.Contact
	Clients       []practiced.Client // three clients: Ann, Ben, Cat
	Template      practiced.FormTemplate
}

// NewClinic creates a business named name with a known set of records.
func NewClinic(t testing.TB, st practiced.Store, name string) *Clinic {
	t.Helper()
	ctx := context.Background()
	biz, err := st.CreateBusiness(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	c := &Clinic{Business: biz}
	c.Token = Key(t, st, biz.ID, false)
	c.ReadOnlyToken = Key(t, st, biz.ID, true)

	created := practiced.NewTime(Now.Add(-30 * 24 * time.Hour))
	weekdays := practiced.OpeningHours{}
	for wd := time.Monday; wd <= time.Friday; wd++ {
		weekdays.Days[wd] = practiced.DayHours{Active: true, OpensAt: "09:00", ClosesAt: "17:00"}
	}
	everyDay := practiced.OpeningHours{}
	for wd := range everyDay.Days {
		everyDay.Days[wd] = practiced.DayHours{Active: true, OpensAt: "08:00", ClosesAt: "18:00"}
	}
	c.Sydney = practiced.Location{ID: tid.New("loc"), Name: "Sydney CBD", Timezone: "Australia/Sydney",
		OpeningHours: weekdays, Address: practiced.Address{Line1: "1 George St", City: "Sydney", State: "NSW", PostalCode: "2000", CountryCode: "AU"},
		CreatedAt: created, UpdatedAt: created}
	c.Adelaide = practiced.Location{ID: tid.New("loc"), Name: "Adelaide", Timezone: "Australia/Adelaide",
		OpeningHours: everyDay, OnlineAppointmentBooking: true, CreatedAt: created, UpdatedAt: created}
	c.Consult = practiced.Service{ID: tid.New("ser"), Name: "Consultation", Duration: 30, MaxClients: 1, BookingHorizonDays: 90,
		LocationIDs: []string{c.Sydney.ID, c.Adelaide.ID}, CreatedAt: created, UpdatedAt: created}
	c.Group = practiced.Service{ID: tid.New("ser"), Name: "Pilates class", Duration: 60, MaxClients: 4, BufferBefore: 10, BufferAfter: 10,
		BookingHorizonDays: 90, LocationIDs: []string{c.Sydney.ID}, CreatedAt: created, UpdatedAt: created}
	c.Alice = practiced.Practitioner{ID: tid.New("pra"), FirstName: "Alice", LastName: "Nguyen", Designation: "Physiotherapist",
		LocationIDs: []string{c.Sydney.ID, c.Adelaide.ID}, ServiceIDs: []string{c.Consult.ID, c.Group.ID}, CreatedAt: created, UpdatedAt: created}
	c.Bob = practiced.Practitioner{ID: tid.New("pra"), FirstName: "Bob", LastName: "Smith", Designation: "Psychologist",
		LocationIDs: []string{c.Sydney.ID}, ServiceIDs: []string{c.Consult.ID}, CreatedAt: created, UpdatedAt: created}
	named := func(prefix, name string) practiced.Named {
		return practiced.Named{ID: tid.New(prefix), Name: name, CreatedAt: created, UpdatedAt: created}
	}
	c.Tag = named("tag", "VIP")
	c.Referral = named("ret", "GP referral")
	c.Cancel = named("cnr", "Illness")
	c.MeetingType = named("btt", "Meeting")
	c.Payer = practiced.Contact{ID: tid.New("con"), Type: "third_party_payer", Company: "Medibank", CreatedAt: created, UpdatedAt: created}
	c.Emergency = practiced.Contact{ID: tid.New("con"), Type: "emergency", FirstName: "Eve", LastName: "Ng", CreatedAt: created, UpdatedAt: created}
	for _, n := range [][2]string{{"Ann", "Archer"}, {"Ben", "Baker"}, {"Cat", "Cole"}} {
		c.Clients = append(c.Clients, practiced.Client{ID: tid.New("cli"), FirstName: n[0], LastName: n[1],
			Email: n[0] + "@example.com", CreatedAt: created, UpdatedAt: created})
	}
	c.Template = practiced.FormTemplate{ID: tid.New("fte"), Name: "Intake", Content: []practiced.Page{{Sections: []practiced.Section{{
		Title: "About you", Questions: []practiced.Question{{ID: "email", Type: "short_text", Label: "E-mail", Required: true}},
	}}}}, CreatedAt: created, UpdatedAt: created}

	err = st.Seed(ctx, biz.ID, practiced.SeedData{
		Locations:           []practiced.Location{c.Sydney, c.Adelaide},
		Services:            []practiced.Service{c.Consult, c.Group},
		Practitioners:       []practiced.Practitioner{c.Alice, c.Bob},
		Tags:                []practiced.Named{c.Tag},
		ReferralTypes:       []practiced.Named{c.Referral},
		CancellationReasons: []practiced.Named{c.Cancel},
		BusyTimeTypes:       []practiced.Named{c.MeetingType},
		Contacts:            []practiced.Contact{c.Payer, c.Emergency},
		Clients:             c.Clients,
		FormTemplates:       []practiced.FormTemplate{c.Template},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Key creates an API key for a business and returns its token.
func Key(t testing.TB, st practiced.Store, businessID string, readOnly bool) string {
	t.Helper()
	token := "pk_test_" + tid.New("key")
	err := st.CreateAPIKey(context.Background(), practiced.APIKey{
		ID: tid.New(practiced.PrefixAPIKey), BusinessID: businessID, TokenHash: practiced.HashToken(token),
		ReadOnly: readOnly, CreatedAt: practiced.NewTime(Now),
	})
	if err != nil {
		t.Fatal(err)
	}
	return token
}
