package demo_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/demo"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// testNow is a Wednesday: 12:30 in Sydney, 12:00 in Adelaide, 09:30 in Perth.
var testNow = time.Date(2026, 3, 4, 1, 30, 0, 0, time.UTC)

type loaded struct {
	name string
	st   *sqlstore.Store
	biz  string
	path string
	now  time.Time
	sum  demo.Summary
}

// fixtureDir holds the databases of loads shared between tests.
var fixtureDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "demo-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtureDir = dir
	code := m.Run()
	for _, l := range fixtures {
		l.st.Close()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	fixtureOnce sync.Once
	fixtures    []loaded
	fixtureErr  error
)

// shared returns loads that tests only read, made once: the default load
// with seed 1, and a small one with another seed around the end of
// daylight saving time in Sydney and Adelaide (5 April 2026).
func shared(t *testing.T) []loaded {
	t.Helper()
	fixtureOnce.Do(func() {
		for _, f := range []struct {
			name string
			opt  demo.Options
		}{
			{"default", demo.Options{Seed: 1, IDKey: testIDKey, Progress: func(done, total int) { defaultProgress = append(defaultProgress, [2]int{done, total}) }}},
			{"dst", demo.Options{Seed: 4, Clients: 60, Now: time.Date(2026, 4, 7, 3, 0, 0, 0, time.UTC)}},
		} {
			l, err := loadIn(filepath.Join(fixtureDir, f.name+".db"), f.opt)
			if err != nil {
				fixtureErr = err
				return
			}
			l.name = f.name
			fixtures = append(fixtures, l)
		}
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtures
}

// defaultProgress records the Progress calls of the shared default load.
var defaultProgress [][2]int

func load(t testing.TB, opt demo.Options) loaded {
	t.Helper()
	l, err := loadIn(filepath.Join(t.TempDir(), "demo.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.st.Close() })
	return l
}

// loadIn loads a demo into a new business of a new database at path.
func loadIn(path string, opt demo.Options) (loaded, error) {
	return loadWith(path, sqlstore.Options{}, opt)
}

// loadWith is loadIn with the store opened with sopt.
func loadWith(path string, sopt sqlstore.Options, opt demo.Options) (loaded, error) {
	ctx := context.Background()
	st, err := sqlstore.OpenWith(ctx, "sqlite:"+path, sopt)
	if err != nil {
		return loaded{}, err
	}
	biz, err := st.CreateBusiness(ctx, demo.BusinessName)
	if err != nil {
		st.Close()
		return loaded{}, err
	}
	if opt.Now.IsZero() {
		opt.Now = testNow
	}
	sum, err := demo.Load(ctx, st, biz.ID, opt)
	if err != nil {
		st.Close()
		return loaded{}, err
	}
	return loaded{st: st, biz: biz.ID, path: path, now: opt.Now, sum: sum}, nil
}

// all walks a list a page of 100 at a time.
func all[T any](t testing.TB, list func(practiced.PageRequest) ([]T, practiced.PageInfo, error), id func(T) string) []T {
	t.Helper()
	var out []T
	p := practiced.PageRequest{Limit: 100}
	for {
		page, info, err := list(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page...)
		if !info.HasNext || len(page) == 0 {
			return out
		}
		p.After = id(page[len(page)-1])
	}
}

// snapshot is everything the store lists of a business, archived records
// included, plus each practitioner and service and each practitioner's
// schedule over the demo window.
type snapshot struct {
	Locations          []practiced.Location
	Practitioners      []practiced.Practitioner
	Services           []practiced.Service
	Clients            []practiced.Client
	Contacts           []practiced.Contact
	AppointmentClients []practiced.AppointmentClient
	BusyTimes          []practiced.BusyTime
	Forms              []practiced.Form
	Schedules          map[string]practiced.Schedule
}

func snap(t testing.TB, l loaded) snapshot {
	t.Helper()
	ctx := context.Background()
	st, biz := l.st, l.biz
	every := practiced.ListFilter{IncludeArchived: true}
	var s snapshot
	s.Locations = all(t, func(p practiced.PageRequest) ([]practiced.Location, practiced.PageInfo, error) {
		return st.ListLocations(ctx, biz, every, p)
	}, func(v practiced.Location) string { return v.ID })
	s.Clients = all(t, func(p practiced.PageRequest) ([]practiced.Client, practiced.PageInfo, error) {
		return st.ListClients(ctx, biz, practiced.PersonFilter{ListFilter: every}, p)
	}, func(v practiced.Client) string { return v.ID })
	s.Contacts = all(t, func(p practiced.PageRequest) ([]practiced.Contact, practiced.PageInfo, error) {
		return st.ListContacts(ctx, biz, practiced.PersonFilter{ListFilter: every}, p)
	}, func(v practiced.Contact) string { return v.ID })
	s.AppointmentClients = all(t, func(p practiced.PageRequest) ([]practiced.AppointmentClient, practiced.PageInfo, error) {
		return st.ListAppointmentClients(ctx, biz, practiced.AppointmentClientFilter{ListFilter: every}, p)
	}, func(v practiced.AppointmentClient) string { return v.ID })
	s.BusyTimes = all(t, func(p practiced.PageRequest) ([]practiced.BusyTime, practiced.PageInfo, error) {
		return st.ListBusyTimes(ctx, biz, practiced.BusyTimeFilter{ListFilter: every}, p)
	}, func(v practiced.BusyTime) string { return v.ID })
	s.Forms = all(t, func(p practiced.PageRequest) ([]practiced.Form, practiced.PageInfo, error) {
		return st.ListForms(ctx, biz, practiced.FormFilter{ListFilter: every}, p)
	}, func(v practiced.Form) string { return v.ID })

	// Practitioners and services have no list; every one works at or is
	// offered at some location.
	var pracIDs, serIDs []string
	for _, l := range s.Locations {
		pracIDs = append(pracIDs, l.PractitionerIDs...)
		serIDs = append(serIDs, l.ServiceIDs...)
	}
	s.Schedules = map[string]practiced.Schedule{}
	for _, id := range uniq(pracIDs) {
		p, err := st.GetPractitioner(ctx, biz, id)
		if err != nil {
			t.Fatal(err)
		}
		s.Practitioners = append(s.Practitioners, p)
		sch, err := st.PractitionerSchedule(ctx, biz, id, l.now.AddDate(0, 0, -30), l.now.AddDate(0, 0, 30))
		if err != nil {
			t.Fatal(err)
		}
		s.Schedules[id] = sch
	}
	for _, id := range uniq(serIDs) {
		v, err := st.GetService(ctx, biz, id)
		if err != nil {
			t.Fatal(err)
		}
		s.Services = append(s.Services, v)
	}
	return s
}

func uniq(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// demoTables are the tables a load writes to.
var demoTables = []string{
	"locations", "services", "service_locations", "practitioners", "practitioner_locations",
	"practitioner_services", "tags", "referral_types", "cancellation_reasons", "busy_time_types",
	"contacts", "clients", "cases", "client_packages", "appointments", "appointment_clients",
	"form_templates", "forms", "busy_times",
}

func openDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// dump returns every row of the business in table, without its
// business_id, as sorted text.
func dump(t testing.TB, db *sql.DB, biz, table string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT * FROM `+table+` WHERE business_id = $1`, biz)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, c := range cols {
			// A form's link secret is the credential of its hosted page:
			// it comes from crypto/rand, never from the seed.
			if c != "business_id" && c != "link_secret" {
				fmt.Fprintf(&b, "%s=%v|", c, vals[i])
			}
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func count(t testing.TB, db *sql.DB, biz, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM `+table+` WHERE business_id = $1`, biz).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// testIDKey fixes the ids of the loads a test compares record by record.
var testIDKey = []byte("0123456789abcdef")

// TestEveryLoadMakesNewIDs loads the same seed twice without an id key,
// as practiced demo does: the two clinics are alike, but share no id.
func TestEveryLoadMakesNewIDs(t *testing.T) {
	a := shared(t)[0] // the same seed, under testIDKey
	b := load(t, demo.Options{Seed: 1})
	c := load(t, demo.Options{Seed: 1})
	if a.sum != b.sum || b.sum != c.sum {
		t.Fatalf("summaries differ:\n%+v\n%+v\n%+v", a.sum, b.sum, c.sum)
	}
	ids := func(l loaded) map[string]bool {
		out := map[string]bool{}
		db := openDB(t, l.path)
		for _, table := range []string{"locations", "services", "practitioners", "tags", "referral_types", "cancellation_reasons",
			"busy_time_types", "contacts", "clients", "cases", "client_packages", "appointments", "appointment_clients",
			"busy_times", "forms", "form_templates"} {
			rows, err := db.Query(`SELECT id FROM `+table+` WHERE business_id = $1`, l.biz)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id string
				rows.Scan(&id)
				out[id] = true
			}
			rows.Close()
		}
		return out
	}
	ia, ib, ic := ids(a), ids(b), ids(c)
	if len(ia) < 500 || len(ib) != len(ia) || len(ic) != len(ia) {
		t.Fatalf("%d, %d and %d ids", len(ia), len(ib), len(ic))
	}
	for id := range ib {
		if ia[id] || ic[id] {
			t.Fatalf("id %s was made by two loads", id)
		}
	}
}

func TestSameSeedGivesIdenticalRecords(t *testing.T) {
	a := shared(t)[0]
	b := load(t, demo.Options{Seed: 1, IDKey: testIDKey})
	if a.sum != b.sum {
		t.Fatalf("summaries differ:\n%+v\n%+v", a.sum, b.sum)
	}
	ja, _ := json.Marshal(snap(t, a))
	jb, _ := json.Marshal(snap(t, b))
	if string(ja) != string(jb) {
		t.Fatal("the store lists different records for the same seed")
	}
	dba, dbb := openDB(t, a.path), openDB(t, b.path)
	for _, table := range demoTables {
		ra, rb := dump(t, dba, a.biz, table), dump(t, dbb, b.biz, table)
		if !slices.Equal(ra, rb) {
			t.Errorf("%s: rows differ for the same seed", table)
		}
	}

	secrets := func(db *sql.DB, biz string) map[string]string {
		rows, err := db.Query(`SELECT id, link_secret FROM forms WHERE business_id = $1`, biz)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var id, secret string
			if err := rows.Scan(&id, &secret); err != nil {
				t.Fatal(err)
			}
			out[id] = secret
		}
		return out
	}
	sa, sb := secrets(dba, a.biz), secrets(dbb, b.biz)
	if len(sa) == 0 || len(sa) != len(sb) {
		t.Fatalf("%d and %d forms with secrets", len(sa), len(sb))
	}
	for id, secret := range sa {
		if len(secret) < 26 || sb[id] == secret {
			t.Errorf("form %s: link secrets %q and %q; want two different random secrets for the same seed", id, secret, sb[id])
		}
	}

	c := shared(t)[1]
	if slices.Equal(dump(t, dba, a.biz, "locations"), dump(t, openDB(t, c.path), c.biz, "locations")) {
		t.Error("seeds 1 and 4 gave the same locations")
	}
}

func TestDefaultSummaryMatchesStore(t *testing.T) {
	l := shared(t)[0]
	if !slices.Equal(defaultProgress, [][2]int{{250, 250}}) {
		t.Errorf("progress calls = %v, want [[250 250]]", defaultProgress)
	}
	s := snap(t, l)
	appointments := map[string]bool{}
	for _, ac := range s.AppointmentClients {
		appointments[ac.AppointmentID] = true
	}
	listed := map[string]int{
		"Locations": len(s.Locations), "Practitioners": len(s.Practitioners), "Services": len(s.Services),
		"Clients": len(s.Clients), "Contacts": len(s.Contacts), "Appointments": len(appointments),
		"AppointmentClients": len(s.AppointmentClients), "BusyTimes": len(s.BusyTimes), "Forms": len(s.Forms),
	}
	db := openDB(t, l.path)
	counted := map[string]string{
		"Locations": "locations", "Practitioners": "practitioners", "Services": "services", "Clients": "clients",
		"Contacts": "contacts", "Appointments": "appointments", "AppointmentClients": "appointment_clients",
		"BusyTimes": "busy_times", "Forms": "forms", "FormTemplates": "form_templates", "Tags": "tags",
		"ReferralTypes": "referral_types", "CancellationReasons": "cancellation_reasons",
		"BusyTimeTypes": "busy_time_types", "Cases": "cases", "ClientPackages": "client_packages",
	}
	sum := map[string]int{}
	raw, _ := json.Marshal(l.sum)
	json.Unmarshal(raw, &sum)
	for field, table := range counted {
		if n := count(t, db, l.biz, table); n != sum[field] {
			t.Errorf("Summary.%s = %d, but %s holds %d rows", field, sum[field], table, n)
		}
		if n, ok := listed[field]; ok && n != sum[field] {
			t.Errorf("Summary.%s = %d, but the store lists %d", field, sum[field], n)
		}
	}
	want := demo.Summary{Locations: 3, Practitioners: 8, Services: 8, Clients: 250, Contacts: 60, Appointments: 300,
		BusyTimes: 40, Forms: 40, FormTemplates: 3, Tags: 6, ReferralTypes: 4, CancellationReasons: 4, BusyTimeTypes: 3}
	got := l.sum
	got.AppointmentClients, got.Cases, got.ClientPackages = 0, 0, 0
	if got != want {
		t.Errorf("summary = %+v, want %+v", got, want)
	}
	if l.sum.AppointmentClients <= l.sum.Appointments || l.sum.Cases == 0 || l.sum.ClientPackages == 0 {
		t.Errorf("summary = %+v: want group attendances, cases and packages", l.sum)
	}
	t.Logf("%+v", l.sum)
}

func TestEveryStatusOccurs(t *testing.T) {
	s := snap(t, shared(t)[0])
	statuses := map[string]bool{}
	for _, ac := range s.AppointmentClients {
		statuses[ac.Status] = true
	}
	for _, want := range practiced.AppointmentClientStatuses {
		if !statuses[want] {
			t.Errorf("no appointment client is %s", want)
		}
	}
	states := map[[2]string]bool{}
	for _, f := range s.Forms {
		states[[2]string{f.Status, f.SentStatus}] = true
	}
	for _, want := range [][2]string{
		{practiced.FormNotStarted, practiced.SentNotSent},
		{practiced.FormNotStarted, practiced.SentSent},
		{practiced.FormNotStarted, practiced.SentViewed},
		{practiced.FormInProgress, practiced.SentViewed},
		{practiced.FormCompleted, practiced.SentViewed},
	} {
		if !states[want] {
			t.Errorf("no form is %s and %s", want[0], want[1])
		}
	}
	if len(states) != 5 {
		t.Errorf("form states = %v, want only the five possible ones", states)
	}
}

func TestStatusesFitTheirTimes(t *testing.T) {
	for _, l := range shared(t) {
		t.Run(l.name, func(t *testing.T) { statusesFitTheirTimes(t, l) })
	}
}

func statusesFitTheirTimes(t *testing.T, l loaded) {
	s := snap(t, l)
	for _, ac := range s.AppointmentClients {
		past := !ac.StartsAt.After(l.now)
		switch {
		case past && ac.Status == practiced.StatusBooked:
			t.Errorf("%s: started at %s but is still booked", ac.ID, ac.StartsAt)
		case !past && ac.Status != practiced.StatusBooked && ac.Status != practiced.StatusCancelled:
			t.Errorf("%s: starts at %s but is %s", ac.ID, ac.StartsAt, ac.Status)
		case ac.Status == practiced.StatusCompleted && ac.EndsAt.After(l.now):
			t.Errorf("%s: completed before it ended", ac.ID)
		}
		if ac.Confirmed != (ac.ConfirmedAt != nil) {
			t.Errorf("%s: confirmed %v with confirmed_at %v", ac.ID, ac.Confirmed, ac.ConfirmedAt)
		}
		cancelled := ac.Status == practiced.StatusCancelled
		if cancelled != (ac.CancelledAt != nil) || cancelled && ac.CancellationReasonID == nil && ac.CancellationNote == "" {
			t.Errorf("%s: %s with cancelled_at %v, reason %v, note %q", ac.ID, ac.Status, ac.CancelledAt, ac.CancellationReasonID, ac.CancellationNote)
		}
		arrived := ac.Status == practiced.StatusArrived || ac.Status == practiced.StatusCompleted
		if arrived != (ac.ArrivedAt != nil) {
			t.Errorf("%s: %s with arrived_at %v", ac.ID, ac.Status, ac.ArrivedAt)
		}
		for _, ts := range []*practiced.Time{ac.ConfirmedAt, ac.CancelledAt, ac.ArrivedAt, &ac.UpdatedAt} {
			if ts != nil && (ts.Before(ac.CreatedAt.Time) || !ts.Before(l.now)) {
				t.Errorf("%s: time %s outside [%s, now)", ac.ID, ts, ac.CreatedAt)
			}
		}
	}
	for _, f := range s.Forms {
		sent := f.SentStatus != practiced.SentNotSent
		if sent != (f.SentAt != nil) || (f.SentStatus == practiced.SentViewed) != (f.ViewedAt != nil) ||
			(f.Status == practiced.FormCompleted) != (f.CompletedAt != nil) {
			t.Errorf("%s: %s/%s with sent_at %v, viewed_at %v, completed_at %v", f.ID, f.Status, f.SentStatus, f.SentAt, f.ViewedAt, f.CompletedAt)
		}
		if f.HostedFormURL != "" {
			t.Errorf("%s: hosted_form_url %q is the API layer's to fill", f.ID, f.HostedFormURL)
		}
		answers := 0
		for _, p := range f.Content {
			for _, sec := range p.Sections {
				for _, q := range sec.Questions {
					if q.Answer != nil {
						answers++
						if !json.Valid(q.Answer) {
							t.Errorf("%s: answer to %s is not JSON: %s", f.ID, q.ID, q.Answer)
						}
					} else if f.Status == practiced.FormCompleted && q.Required && q.ClientField == nil {
						t.Errorf("%s: completed without an answer to required %s", f.ID, q.ID)
					}
				}
			}
		}
		if (answers > 0) != (f.Status != practiced.FormNotStarted) {
			t.Errorf("%s: %s with %d answers", f.ID, f.Status, answers)
		}
	}
}

func TestAppointmentsKeepToOpenHoursWithoutOverlap(t *testing.T) {
	for _, l := range shared(t) {
		t.Run(l.name, func(t *testing.T) { appointmentsKeepToOpenHoursWithoutOverlap(t, l) })
	}
}

func appointmentsKeepToOpenHoursWithoutOverlap(t *testing.T, l loaded) {
	s := snap(t, l)
	locs := map[string]practiced.Location{}
	for _, loc := range s.Locations {
		locs[loc.ID] = loc
	}
	services := map[string]practiced.Service{}
	for _, v := range s.Services {
		services[v.ID] = v
	}
	seen := 0
	for _, p := range s.Practitioners {
		sch := s.Schedules[p.ID]
		apts := sch.Appointments
		seen += len(apts)
		for i, a := range apts {
			loc := locs[a.LocationID]
			zone, err := time.LoadLocation(loc.Timezone)
			if err != nil {
				t.Fatal(err)
			}
			start, end := a.StartsAt.In(zone), a.EndsAt.In(zone)
			if wd := start.Weekday(); wd == time.Saturday || wd == time.Sunday {
				t.Errorf("%s: on a %s in %s", a.ID, wd, loc.Timezone)
			}
			hours := loc.OpeningHours.Days[start.Weekday()]
			if !hours.Active || start.Format("15:04") < hours.OpensAt || end.Format("15:04") > hours.ClosesAt || end.YearDay() != start.YearDay() {
				t.Errorf("%s: %s-%s outside opening hours %+v", a.ID, start.Format("Mon 15:04"), end.Format("15:04"), hours)
			}
			if !slices.Contains(p.LocationIDs, a.LocationID) || a.ServiceID == nil || !slices.Contains(p.ServiceIDs, *a.ServiceID) {
				t.Errorf("%s: practitioner %s does not work at %s or offer %v", a.ID, p.ID, a.LocationID, a.ServiceID)
			}
			if v := services[*a.ServiceID]; a.Duration != v.Duration || a.MaxClients != v.MaxClients {
				t.Errorf("%s: %d min for %d, want %d min for %d", a.ID, a.Duration, a.MaxClients, v.Duration, v.MaxClients)
			}
			if a.StartsAt.Before(l.now.AddDate(0, 0, -28)) || a.EndsAt.After(l.now.AddDate(0, 0, 28)) {
				t.Errorf("%s: at %s, outside four weeks of now", a.ID, a.StartsAt)
			}
			for _, o := range apts[i+1:] {
				if a.StartsAt.Before(o.EndsAt.Time) && o.StartsAt.Before(a.EndsAt.Time) {
					t.Errorf("practitioner %s: %s and %s overlap", p.ID, a.ID, o.ID)
				}
			}
			for _, bt := range sch.BusyTimes {
				if a.StartsAt.Before(bt.EndsAt.Time) && bt.StartsAt.Before(a.EndsAt.Time) {
					t.Errorf("practitioner %s: %s overlaps busy time %s", p.ID, a.ID, bt.ID)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no appointments in the practitioners' schedules")
	}
	byClient := map[string][]practiced.AppointmentClient{}
	for _, ac := range s.AppointmentClients {
		if ac.Status != practiced.StatusCancelled {
			byClient[ac.ClientID] = append(byClient[ac.ClientID], ac)
		}
	}
	for client, acs := range byClient {
		for i, a := range acs {
			for _, o := range acs[i+1:] {
				if a.StartsAt.Before(o.EndsAt.Time) && o.StartsAt.Before(a.EndsAt.Time) {
					t.Errorf("client %s is booked into %s and %s at once", client, a.AppointmentID, o.AppointmentID)
				}
			}
		}
	}
	series := map[string]int{}
	for _, bt := range s.BusyTimes {
		if bt.RepeatID != nil {
			if !tid.Valid(*bt.RepeatID, practiced.PrefixRepeat) {
				t.Errorf("%s: repeat id %s", bt.ID, *bt.RepeatID)
			}
			series[*bt.RepeatID]++
		}
	}
	if len(series) == 0 {
		t.Error("no repeating busy time series")
	}
	for id, n := range series {
		if n < 4 {
			t.Errorf("series %s has %d occurrences", id, n)
		}
	}
}

func TestReferencesStayInBusiness(t *testing.T) {
	for _, l := range shared(t) {
		t.Run(l.name, func(t *testing.T) { referencesStayInBusiness(t, l) })
	}
}

func referencesStayInBusiness(t *testing.T, l loaded) {
	s := snap(t, l)
	var refs []string
	ref := func(owner, prefix string, id *string) {
		if id == nil {
			return
		}
		if tid.Prefix(*id) != prefix {
			t.Errorf("%s refers to %s, want a %s id", owner, *id, prefix)
		}
		refs = append(refs, *id)
	}
	for _, c := range s.Clients {
		ref(c.ID, practiced.PrefixContact, c.EmergencyContactID)
		ref(c.ID, practiced.PrefixContact, c.InvoiceContactID)
		ref(c.ID, practiced.PrefixReferralType, c.ReferralTypeID)
		ref(c.ID, practiced.PrefixClient, c.ReferredByID)
		for _, tag := range c.TagIDs {
			ref(c.ID, practiced.PrefixTag, &tag)
		}
		if nd := c.NDISDetails; nd != nil {
			ref(c.ID, practiced.PrefixContact, nd.PlanManagerID)
			ref(c.ID, practiced.PrefixContact, nd.PlanNomineeID)
		}
		for _, rc := range c.RelatedClients {
			ref(c.ID, practiced.PrefixClient, &rc.RelatedClientID)
		}
		for _, lc := range c.LinkedContacts {
			ref(c.ID, practiced.PrefixContact, &lc.ContactID)
		}
	}
	for _, c := range s.Contacts {
		for _, tag := range c.TagIDs {
			ref(c.ID, practiced.PrefixTag, &tag)
		}
	}
	for _, p := range s.Practitioners {
		for _, w := range p.WorkingHours {
			ref(p.ID, practiced.PrefixLocation, &w.LocationID)
		}
		for _, e := range p.Exceptions {
			ref(p.ID, practiced.PrefixLocation, e.LocationID)
		}
	}
	acs := map[string]practiced.AppointmentClient{}
	for _, ac := range s.AppointmentClients {
		acs[ac.ID] = ac
		ref(ac.ID, practiced.PrefixAppointment, &ac.AppointmentID)
		ref(ac.ID, practiced.PrefixClient, &ac.ClientID)
		ref(ac.ID, practiced.PrefixCase, ac.CaseID)
		ref(ac.ID, practiced.PrefixClientPackage, ac.ClientPackageID)
		ref(ac.ID, practiced.PrefixCancellationReason, ac.CancellationReasonID)
	}
	for _, f := range s.Forms {
		ref(f.ID, practiced.PrefixClient, &f.ClientID)
		ref(f.ID, practiced.PrefixLocation, f.LocationID)
		ref(f.ID, practiced.PrefixFormTemplate, &f.FormTemplateID)
		ref(f.ID, practiced.PrefixAppointmentClient, f.AppointmentClientID)
		if f.AppointmentClientID != nil && acs[*f.AppointmentClientID].ClientID != f.ClientID {
			t.Errorf("%s: for client %s but tied to another client's appointment", f.ID, f.ClientID)
		}
	}
	for _, bt := range s.BusyTimes {
		ref(bt.ID, practiced.PrefixLocation, &bt.LocationID)
		ref(bt.ID, practiced.PrefixPractitioner, &bt.PractitionerID)
		ref(bt.ID, practiced.PrefixBusyTimeType, bt.BusyTimeTypeID)
	}
	missing, err := l.st.MissingRefs(context.Background(), l.biz, uniq(refs))
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("references to nothing in the business: %v", missing)
	}

	// A case or package an appointment client uses is its client's own.
	db := openDB(t, l.path)
	for _, table := range []string{"cases", "client_packages"} {
		col := map[string]string{"cases": "case_id", "client_packages": "client_package_id"}[table]
		var n int
		err := db.QueryRow(`SELECT COUNT(*) FROM appointment_clients ac JOIN `+table+` x
			ON x.business_id = ac.business_id AND x.id = ac.`+col+`
			WHERE ac.business_id = $1 AND x.client_id <> ac.client_id`, l.biz).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			t.Errorf("%d appointment clients use another client's %s", n, table)
		}
	}
}

// TestRecordsWereCreatedBeforeNow checks the timestamps and ids of every
// listed record: whole seconds, created ≤ updated ≤ now, and an id that
// is a UUIDv7 of the creation time, so ids sort by creation.
// The demo names one clinic group: its locations are named after the
// business it is loaded into, and every color is a CSS color name, as a
// clinic would pick it.
func TestLocationsAndColorsReadAsOneClinicWouldWriteThem(t *testing.T) {
	l := shared(t)[0]
	s := snap(t, l)
	ctx := context.Background()
	every := practiced.ListFilter{IncludeArchived: true}
	for _, loc := range s.Locations {
		if !strings.HasPrefix(loc.Name, demo.BusinessName+" — ") {
			t.Errorf("location %q is not named after the business %q", loc.Name, demo.BusinessName)
		}
	}
	colors := map[string]string{}
	for _, v := range s.Services {
		colors["service "+v.Name] = v.Color
	}
	for _, f := range s.Forms {
		colors["form "+f.Name] = f.Color
	}
	templates := all(t, func(p practiced.PageRequest) ([]practiced.FormTemplate, practiced.PageInfo, error) {
		return l.st.ListFormTemplates(ctx, l.biz, every, p)
	}, func(v practiced.FormTemplate) string { return v.ID })
	for _, v := range templates {
		colors["form template "+v.Name] = v.Color
	}
	for _, k := range []practiced.Kind{practiced.KindTag, practiced.KindBusyTimeType} {
		named := all(t, func(p practiced.PageRequest) ([]practiced.Named, practiced.PageInfo, error) {
			return l.st.ListNamed(ctx, l.biz, k.Prefix, every, p)
		}, func(v practiced.Named) string { return v.ID })
		for _, v := range named {
			colors[k.Type+" "+v.Name] = v.Color
		}
	}
	if len(colors) < 20 {
		t.Fatalf("%d records with a color, want every service, form, form template, tag and busy time type", len(colors))
	}
	for what, c := range colors {
		if n, ok := practiced.NormalizeColor(c); !ok || n != c || strings.HasPrefix(c, "#") {
			t.Errorf("%s has the color %q, want a CSS color name in lower case", what, c)
		}
	}
}

// Every phone number the demo writes is in the shape the API keeps: E.164
// for a phone field, a "+61" code and national significant number for a
// PhoneNumber, so that a search finds it however it is typed.
func TestPhoneNumbersAreStoredAsTheAPIStoresThem(t *testing.T) {
	s := snap(t, shared(t)[0])
	e164 := func(what, v string) {
		if n, ok := practiced.NormalizePhone(v, "AU"); !ok || n != v {
			t.Errorf("%s: phone %q, want it in E.164 (%q)", what, v, n)
		}
	}
	numbers := func(what string, list []practiced.PhoneNumber) {
		for _, p := range list {
			if code, n, ok := practiced.NormalizePhoneNumber(p.Code, p.Number, "AU"); !ok || code != p.Code || n != p.Number {
				t.Errorf("%s: phone number %+v, want code %q and number %q", what, p, code, n)
			}
		}
	}
	for _, l := range s.Locations {
		e164(l.ID, l.Phone)
	}
	for _, p := range s.Practitioners {
		e164(p.ID, p.Phone)
	}
	phones := 0
	for _, c := range s.Clients {
		if c.PhoneNumber != "" {
			e164(c.ID, c.PhoneNumber)
			phones++
		}
		numbers(c.ID, c.PhoneNumbers)
	}
	for _, c := range s.Contacts {
		numbers(c.ID, c.PhoneNumbers)
	}
	if phones == 0 {
		t.Error("no client has a phone_number")
	}
}

// The clients are stored in the order they were created, which is the
// order of their ids, as a clinic adds them: SQLite's rows of them, in
// the order of their rowids, are in the order of their ids.
func TestClientsAreStoredInTheOrderOfTheirIDs(t *testing.T) {
	for _, l := range shared(t) {
		t.Run(l.name, func(t *testing.T) {
			rows, err := openDB(t, l.path).Query(`SELECT id FROM clients WHERE business_id = $1 ORDER BY rowid`, l.biz)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var ids []string
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if len(ids) != l.sum.Clients {
				t.Fatalf("%d clients stored, want %d", len(ids), l.sum.Clients)
			}
			for i := 1; i < len(ids); i++ {
				if ids[i] <= ids[i-1] {
					t.Fatalf("client %d of the table, %s, comes after %s", i, ids[i], ids[i-1])
				}
			}
		})
	}
}

func TestRecordsWereCreatedBeforeNow(t *testing.T) {
	for _, l := range shared(t) {
		t.Run(l.name, func(t *testing.T) { recordsWereCreatedBeforeNow(t, l) })
	}
}

func recordsWereCreatedBeforeNow(t *testing.T, l loaded) {
	s := snap(t, l)
	type rec struct {
		id, prefix       string
		created, updated practiced.Time
		archived         *practiced.Time
	}
	var recs []rec
	for _, v := range s.Locations {
		recs = append(recs, rec{v.ID, practiced.PrefixLocation, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
	}
	for _, v := range s.Practitioners {
		recs = append(recs, rec{v.ID, practiced.PrefixPractitioner, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
	}
	for _, v := range s.Services {
		recs = append(recs, rec{v.ID, practiced.PrefixService, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
	}
	archivedClients, archivedContacts := 0, 0
	for _, v := range s.Clients {
		recs = append(recs, rec{v.ID, practiced.PrefixClient, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
		if v.ArchivedAt != nil {
			archivedClients++
		}
		for _, p := range v.PhoneNumbers {
			if !tid.Valid(p.ID, practiced.PrefixPhoneNumber) || p.Code != "+61" {
				t.Errorf("%s: phone number %+v", v.ID, p)
			}
		}
		if v.Address.CountryCode != "AU" {
			t.Errorf("%s: country %q", v.ID, v.Address.CountryCode)
		}
	}
	for _, v := range s.Contacts {
		recs = append(recs, rec{v.ID, practiced.PrefixContact, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
		if v.ArchivedAt != nil {
			archivedContacts++
		}
	}
	for _, v := range s.AppointmentClients {
		recs = append(recs, rec{v.ID, practiced.PrefixAppointmentClient, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
	}
	for _, v := range s.BusyTimes {
		recs = append(recs, rec{v.ID, practiced.PrefixBusyTime, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
	}
	for _, v := range s.Forms {
		recs = append(recs, rec{v.ID, practiced.PrefixForm, v.CreatedAt, v.UpdatedAt, v.ArchivedAt})
	}
	// Schedules carry no creation times, and appointments have no list.
	rows, err := openDB(t, l.path).Query(`SELECT id, created_at, updated_at FROM appointments WHERE business_id = $1`, l.biz)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, created, updated string
		if err := rows.Scan(&id, &created, &updated); err != nil {
			t.Fatal(err)
		}
		c, err1 := time.Parse(time.RFC3339, created)
		u, err2 := time.Parse(time.RFC3339, updated)
		if err1 != nil || err2 != nil {
			t.Fatalf("appointment %s: times %q, %q", id, created, updated)
		}
		recs = append(recs, rec{id, practiced.PrefixAppointment, practiced.NewTime(c), practiced.NewTime(u), nil})
	}
	rows.Close()
	for _, r := range recs {
		if !tid.Valid(r.id, r.prefix) {
			t.Errorf("%s: not a valid %s id", r.id, r.prefix)
			continue
		}
		_, suffix, _ := strings.Cut(r.id, "_")
		u, _ := tid.Decode(suffix)
		ms := int64(u[0])<<40 | int64(u[1])<<32 | int64(u[2])<<24 | int64(u[3])<<16 | int64(u[4])<<8 | int64(u[5])
		if u.Version() != 7 || ms/1000 != r.created.Unix() {
			t.Errorf("%s: version %d, timestamp %d ms; created at %s", r.id, u.Version(), ms, r.created)
		}
		if r.updated.Before(r.created.Time) || !r.updated.Before(l.now) || r.created.Nanosecond() != 0 || r.updated.Nanosecond() != 0 {
			t.Errorf("%s: created %s, updated %s, now %s", r.id, r.created, r.updated, l.now.Format(time.RFC3339))
		}
		if r.archived != nil && !r.archived.Equal(r.updated.Time) {
			t.Errorf("%s: archived at %s but last updated at %s", r.id, r.archived, r.updated)
		}
	}
	if archivedClients != 1 || archivedContacts != 1 {
		t.Errorf("%d archived clients and %d archived contacts, want one of each", archivedClients, archivedContacts)
	}
}

// emptyBusiness opens a new SQLite store at path with one empty
// business.
func emptyBusiness(t *testing.T, path string) (*sqlstore.Store, string) {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, newBusiness(t, st)
}

// newBusiness creates an empty business in st and returns its id.
func newBusiness(t *testing.T, st practiced.Store) string {
	t.Helper()
	biz, err := st.CreateBusiness(context.Background(), "Demo")
	if err != nil {
		t.Fatal(err)
	}
	return biz.ID
}

func TestLoadRejectsANegativeClientCount(t *testing.T) {
	st, biz := emptyBusiness(t, filepath.Join(t.TempDir(), "demo.db"))
	if _, err := demo.Load(context.Background(), st, biz, demo.Options{Clients: -1}); err == nil {
		t.Fatal("Load accepted -1 clients")
	}
}

// TestLoadMillionClients is the load a large demo asks for. It takes
// tens of seconds, so it runs only when PRACTICED_DEMO_MILLION=1.
func TestLoadMillionClients(t *testing.T) {
	if os.Getenv("PRACTICED_DEMO_MILLION") != "1" {
		t.Skip("set PRACTICED_DEMO_MILLION=1 to load a million clients")
	}
	const n = 1_000_000
	last := 0
	start := time.Now()
	// Into a new database made for the load, as practiced demo loads.
	l, err := loadWith(filepath.Join(t.TempDir(), "demo.db"), sqlstore.Options{Load: true}, demo.Options{Seed: 1, Clients: n, Progress: func(done, total int) {
		if total != n || done <= last {
			t.Errorf("progress(%d, %d) after %d", done, total, last)
		}
		last = done
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.st.Close(); err != nil {
		t.Fatalf("closing the store: %v", err)
	}
	took := time.Since(start)
	t.Logf("loaded %+v in %v", l.sum, took)
	if last != n {
		t.Errorf("last progress at %d, want %d", last, n)
	}
	db := openDB(t, l.path)
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("the loaded database's journal mode is %q, %v; want wal", mode, err)
	}
	if got := count(t, db, l.biz, "clients"); got != n {
		t.Errorf("%d clients stored, want %d", got, n)
	}
	if l.sum.Appointments > 400 {
		t.Errorf("%d appointments, want at most 400", l.sum.Appointments)
	}
}

// failingSeed is a store whose batch of clients number at fails. With
// wait set, the failure first waits until another transaction of the
// load asks for a batch after it (for at most wait), and then wait/10
// more: a transaction that asks then finds every batch taken, and one
// that committed on finding that would keep its clients.
type failingSeed struct {
	*sqlstore.Store
	at      int
	wait    time.Duration
	mu      sync.Mutex
	batches int
	asked   chan struct{} // closed when a transaction asks after the failing batch
}

func (f *failingSeed) SeedAll(ctx context.Context, biz string, next func() (practiced.SeedData, bool, error)) error {
	return f.Store.SeedAll(ctx, biz, func() (practiced.SeedData, bool, error) {
		f.mu.Lock()
		if f.batches >= f.at && f.asked != nil {
			close(f.asked)
			f.asked = nil
		}
		f.mu.Unlock()
		d, ok, err := next()
		if !ok || len(d.Clients) == 0 {
			return d, ok, err
		}
		f.mu.Lock()
		f.batches++
		n, asked := f.batches, f.asked
		f.mu.Unlock()
		if n != f.at {
			return d, ok, err
		}
		if f.wait > 0 {
			select {
			case <-asked:
			case <-time.After(f.wait):
			}
			time.Sleep(f.wait / 10)
		}
		return practiced.SeedData{}, false, errors.New("disk full")
	})
}

// twoWriters is a store that says it writes transactions side by side,
// so that a load writes its clients in two, whether or not it can.
type twoWriters struct{ practiced.Store }

func (twoWriters) OneWriter() bool { return false }

// Two transactions of clients on a store with one connection for writing,
// such as a PostgreSQL pool of one: the first takes every batch and
// commits, and the second, which waited for the connection, finds
// nothing left.
func TestTwoTransactionsOnOneConnection(t *testing.T) {
	st, biz := emptyBusiness(t, filepath.Join(t.TempDir(), "demo.db"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sum, err := demo.Load(ctx, twoWriters{st}, biz, demo.Options{Seed: 1, Clients: 15_000})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(clientDocs(t, st, biz)); sum.Clients != 15_000 || n != 15_000 {
		t.Fatalf("%d clients stored, %d in the summary, want 15,000", n, sum.Clients)
	}
}

// clientDocs walks all of a business's clients, archived ones too,
// through the store, a page of 100 at a time, and returns their
// documents.
func clientDocs(t testing.TB, st practiced.Store, biz string) []string {
	t.Helper()
	var out []string
	p := practiced.PageRequest{Limit: 100}
	for {
		page, info, err := st.ListClientDocs(context.Background(), biz, practiced.PersonFilter{ListFilter: practiced.ListFilter{IncludeArchived: true}}, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range page {
			out = append(out, string(d))
		}
		if !info.HasNext {
			return out
		}
		p.After = info.LastID
	}
}

// A batch of clients that fails ends the load with its error and leaves
// no client stored, on SQLite, where the clients go in one transaction,
// and on PostgreSQL, where they go in two side by side: the third batch
// of four and, on PostgreSQL, the last one, failing once the other
// transaction has found every batch taken. Progress counted the batches
// written before the failing one (on PostgreSQL the other transaction
// may still write one as the failure stops it, the last of 5,000).
func TestALoadStopsAtAFailingBatch(t *testing.T) {
	for _, name := range []string{"sqlite", "postgres"} {
		for _, fail := range []struct {
			at   int
			wait time.Duration
		}{{3, 0}, {4, 2 * time.Second}} {
			if name == "sqlite" && fail.wait > 0 {
				continue // one transaction: no other to wait for
			}
			t.Run(fmt.Sprintf("%s batch %d", name, fail.at), func(t *testing.T) {
				ctx := context.Background()
				var st *sqlstore.Store
				var biz string
				if name == "sqlite" {
					st, biz = emptyBusiness(t, filepath.Join(t.TempDir(), "demo.db"))
				} else {
					st = testfix.PostgresStore(t)
					biz = newBusiness(t, st)
				}
				var mu sync.Mutex
				reported := 0
				_, err := demo.Load(ctx, &failingSeed{Store: st, at: fail.at, wait: fail.wait, asked: make(chan struct{})}, biz, demo.Options{Seed: 1, Clients: 35_000, Progress: func(done, total int) {
					mu.Lock()
					defer mu.Unlock()
					if total != 35_000 || done <= reported {
						t.Errorf("progress(%d, %d) after %d", done, total, reported)
					}
					reported = done
				}})
				if err == nil || !strings.Contains(err.Error(), "disk full") {
					t.Fatalf("Load = %v, want the failing batch's error", err)
				}
				if docs := clientDocs(t, st, biz); len(docs) != 0 {
					t.Errorf("%d clients stored, want none", len(docs))
				}
				before := (fail.at - 1) * 10_000
				if name == "sqlite" && reported != before || reported%5_000 != 0 || reported < 10_000 || reported > 30_000 {
					t.Errorf("%d clients reported written; want the whole batches written before the failing one (%d on SQLite)", reported, before)
				}
			})
		}
	}
}

// Clients written on PostgreSQL in two transactions side by side are the
// clients written on SQLite in one, document for document.
func TestClientsInTwoTransactionsAreTheClientsInOne(t *testing.T) {
	pg := testfix.PostgresStore(t)
	sq, sqBiz := emptyBusiness(t, filepath.Join(t.TempDir(), "demo.db"))
	opt := demo.Options{Seed: 1, IDKey: testIDKey, Clients: 25_000, Now: testNow}
	var docs [2][]string
	for i, in := range []struct {
		st  practiced.Store
		biz string
	}{{sq, sqBiz}, {pg, newBusiness(t, pg)}} {
		if _, err := demo.Load(context.Background(), in.st, in.biz, opt); err != nil {
			t.Fatal(err)
		}
		docs[i] = clientDocs(t, in.st, in.biz)
	}
	if len(docs[0]) != 25_000 || !slices.Equal(docs[0], docs[1]) {
		t.Fatalf("%d clients on SQLite and %d on PostgreSQL, or different ones; want the same 25,000", len(docs[0]), len(docs[1]))
	}
}
