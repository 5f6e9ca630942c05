package httpapi_test

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// Records for seeding, built around the fixture's clock. Ids come from
// tid.New, so records made later sort after records made earlier.

// seeded is when seeded records were created and last updated, unless a
// test says otherwise.
var seeded = practiced.NewTime(testfix.Now.Add(-24 * time.Hour))

func seedData(t *testing.T, e *env, c *testfix.Clinic, d practiced.SeedData) {
	t.Helper()
	if err := e.st.Seed(context.Background(), c.Business.ID, d); err != nil {
		t.Fatal(err)
	}
}

func newBusyTime(pra practiced.Practitioner, loc practiced.Location, start time.Time, minutes int) practiced.BusyTime {
	return practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: loc.ID, PractitionerID: pra.ID,
		StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(time.Duration(minutes) * time.Minute)),
		CreatedAt: seeded, UpdatedAt: seeded}
}

func newClient(first, last, email string) practiced.Client {
	return practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: first, LastName: last, Email: email,
		CreatedAt: seeded, UpdatedAt: seeded}
}

func newContact(kind, first, last string) practiced.Contact {
	return practiced.Contact{ID: tid.New(practiced.PrefixContact), Type: kind, FirstName: first, LastName: last,
		CreatedAt: seeded, UpdatedAt: seeded}
}

func newLocation(name, zone string, hours practiced.OpeningHours) practiced.Location {
	return practiced.Location{ID: tid.New(practiced.PrefixLocation), Name: name, Timezone: zone, OpeningHours: hours,
		CreatedAt: seeded, UpdatedAt: seeded}
}

func newPractitioner(first string, locations ...practiced.Location) practiced.Practitioner {
	p := practiced.Practitioner{ID: tid.New(practiced.PrefixPractitioner), FirstName: first, LastName: "Test",
		CreatedAt: seeded, UpdatedAt: seeded}
	for _, l := range locations {
		p.LocationIDs = append(p.LocationIDs, l.ID)
	}
	return p
}

func newForm(c *testfix.Clinic, clientID string) practiced.Form {
	return practiced.Form{ID: tid.New(practiced.PrefixForm), ClientID: clientID, FormTemplateID: c.Template.ID,
		Name: c.Template.Name, Status: practiced.FormNotStarted, SentStatus: practiced.SentNotSent,
		Content: c.Template.Content, CreatedAt: seeded, UpdatedAt: seeded}
}

func newAppointment(pra practiced.Practitioner, loc practiced.Location, service *practiced.Service, start time.Time, minutes int) practiced.Appointment {
	a := practiced.Appointment{ID: tid.New(practiced.PrefixAppointment), LocationID: loc.ID, PractitionerID: pra.ID,
		StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(time.Duration(minutes) * time.Minute)),
		MaxClients: 1, CreatedAt: seeded, UpdatedAt: seeded}
	if service != nil {
		a.ServiceID = &service.ID
		a.MaxClients = service.MaxClients
	}
	return a
}

func newAppointmentClient(a practiced.Appointment, clientID, status string) practiced.AppointmentClient {
	return practiced.AppointmentClient{ID: tid.New(practiced.PrefixAppointmentClient), AppointmentID: a.ID, ClientID: clientID,
		Status: status, StartsAt: a.StartsAt, EndsAt: a.EndsAt, CreatedAt: seeded, UpdatedAt: seeded}
}

// stamp lets a list's seeder set each record's updated_at and archived_at.
type stamp func(i int, updated *practiced.Time, archived **practiced.Time)

// listSpec describes one paginated list for the tests every list shares.
type listSpec struct {
	name     string
	maxLimit int
	// fixture returns the ids the clinic's fixture already holds in the list.
	fixture func(c *testfix.Clinic) []string
	// seed adds n records to c's business and returns their ids in
	// creation order.
	seed func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string
}

func (l listSpec) path() string { return "/v1/" + l.name }

var everyList = []listSpec{
	{"busy_times", 100, func(c *testfix.Clinic) []string { return nil },
		func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string {
			var d practiced.SeedData
			for i := range n {
				b := newBusyTime(c.Alice, c.Sydney, testfix.Now.Add(time.Duration(i)*time.Hour), 30)
				st(i, &b.UpdatedAt, &b.ArchivedAt)
				d.BusyTimes = append(d.BusyTimes, b)
			}
			seedData(t, e, c, d)
			return idsOf(d.BusyTimes, func(b practiced.BusyTime) string { return b.ID })
		}},
	{"forms", 10, func(c *testfix.Clinic) []string { return nil },
		func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string {
			var d practiced.SeedData
			for i := range n {
				f := newForm(c, c.Clients[i%3].ID)
				st(i, &f.UpdatedAt, &f.ArchivedAt)
				d.Forms = append(d.Forms, f)
			}
			seedData(t, e, c, d)
			return idsOf(d.Forms, func(f practiced.Form) string { return f.ID })
		}},
	{"appointment_clients", 100, func(c *testfix.Clinic) []string { return nil },
		func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string {
			var d practiced.SeedData
			for i := range n {
				a := newAppointment(c.Alice, c.Sydney, &c.Consult, testfix.Now.Add(time.Duration(i)*time.Hour), 30)
				ac := newAppointmentClient(a, c.Clients[i%3].ID, practiced.StatusBooked)
				st(i, &ac.UpdatedAt, &ac.ArchivedAt)
				d.Appointments = append(d.Appointments, a)
				d.AppointmentClients = append(d.AppointmentClients, ac)
			}
			seedData(t, e, c, d)
			return idsOf(d.AppointmentClients, func(a practiced.AppointmentClient) string { return a.ID })
		}},
	{"clients", 100, func(c *testfix.Clinic) []string {
		return idsOf(c.Clients, func(c practiced.Client) string { return c.ID })
	},
		func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string {
			var d practiced.SeedData
			for i := range n {
				cl := newClient(fmt.Sprintf("Client%02d", i), "Seeded", "")
				st(i, &cl.UpdatedAt, &cl.ArchivedAt)
				d.Clients = append(d.Clients, cl)
			}
			seedData(t, e, c, d)
			return idsOf(d.Clients, func(c practiced.Client) string { return c.ID })
		}},
	{"locations", 100, func(c *testfix.Clinic) []string { return []string{c.Sydney.ID, c.Adelaide.ID} },
		func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string {
			var d practiced.SeedData
			for i := range n {
				l := newLocation(fmt.Sprintf("Branch %02d", i), "Australia/Perth", practiced.OpeningHours{})
				st(i, &l.UpdatedAt, &l.ArchivedAt)
				d.Locations = append(d.Locations, l)
			}
			seedData(t, e, c, d)
			return idsOf(d.Locations, func(l practiced.Location) string { return l.ID })
		}},
	{"contacts", 100, func(c *testfix.Clinic) []string { return []string{c.Payer.ID, c.Emergency.ID} },
		func(t *testing.T, e *env, c *testfix.Clinic, n int, st stamp) []string {
			var d practiced.SeedData
			for i := range n {
				ct := newContact("other", fmt.Sprintf("Contact%02d", i), "Seeded")
				st(i, &ct.UpdatedAt, &ct.ArchivedAt)
				d.Contacts = append(d.Contacts, ct)
			}
			seedData(t, e, c, d)
			return idsOf(d.Contacts, func(c practiced.Contact) string { return c.ID })
		}},
}

func idsOf[T any](records []T, id func(T) string) []string {
	out := make([]string, len(records))
	for i, r := range records {
		out[i] = id(r)
	}
	return out
}

func noStamp(int, *practiced.Time, **practiced.Time) {}

// wantLinkCarries fails unless link is an absolute URL of the server and
// path, with a cursor and exactly the parameters of request otherwise.
func wantLinkCarries(t *testing.T, e *env, link, path string, request url.Values) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	base, _ := url.Parse(e.srv.URL)
	if u.Scheme != base.Scheme || u.Host != base.Host || u.Path != path {
		t.Fatalf("link %q is not an absolute URL of %s%s", link, e.srv.URL, path)
	}
	q := u.Query()
	if q.Get("cursor") == "" || len(q["cursor"]) != 1 {
		t.Fatalf("link %q carries no single cursor", link)
	}
	q.Del("cursor")
	want := url.Values{}
	for k, v := range request {
		if k != "cursor" {
			want[k] = v
		}
	}
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("link %q carries %v, want %v", link, q, want)
	}
}

func TestEveryListWalksNextAndPrevOverEveryRecordOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Sizes chosen so some lists end exactly on a page boundary and some
	// do not.
	seededCount := map[string]int{"busy_times": 23, "forms": 20, "appointment_clients": 21, "clients": 22, "locations": 11, "contacts": 18}
	for _, l := range everyList {
		t.Run(l.name, func(t *testing.T) {
			ids := l.seed(t, e, e.a, seededCount[l.name], noStamp)
			if !slices.IsSorted(ids) {
				t.Fatalf("tid.New ids are not in creation order: %v", ids)
			}
			l.seed(t, e, e.b, 4, noStamp) // never seen through A's key
			want := append(l.fixture(e.a), ids...)
			slices.Sort(want)

			const limit = 5
			params := url.Values{
				"limit":            {fmt.Sprint(limit)},
				"include_archived": {"false"},
				"updated_since":    {"2000-01-01T10:00:00+10:00"},
			}
			// A filter every record of the list passes, so that links
			// carry it too.
			for k, v := range matchEvery(e.a)[l.name] {
				params[k] = v
			}
			var pages [][]string
			next := e.srv.URL + l.path() + "?" + params.Encode()
			var prevOfLast string
			for next != "" {
				if len(pages) > len(want) {
					t.Fatal("next links never end")
				}
				p := e.do("GET", next, e.a.Token, nil).page(t)
				pages = append(pages, pageIDs(p))
				first := len(pages) == 1
				if first != (p.Links.Prev == nil) {
					t.Fatalf("page %d: prev %v; want null exactly on the first page", len(pages), p.Links.Prev)
				}
				if p.Links.Prev != nil {
					wantLinkCarries(t, e, *p.Links.Prev, l.path(), params)
					prevOfLast = *p.Links.Prev
				}
				next = ""
				if p.Links.Next != nil {
					wantLinkCarries(t, e, *p.Links.Next, l.path(), params)
					next = *p.Links.Next
				}
			}
			wantPages := (len(want) + limit - 1) / limit
			if len(pages) != wantPages {
				t.Fatalf("%d pages, want %d: %v", len(pages), wantPages, pages)
			}
			for i, p := range pages {
				if size := min(limit, len(want)-i*limit); len(p) != size {
					t.Fatalf("page %d holds %d records, want %d", i+1, len(p), size)
				}
			}
			if got := slices.Concat(pages...); !reflect.DeepEqual(got, want) {
				t.Fatalf("walking next gave\n  %v\nwant every record once in id order\n  %v", got, want)
			}

			// Back from the last page: the same pages, in reverse.
			var back [][]string
			prev := prevOfLast
			for prev != "" {
				if len(back) > len(pages) {
					t.Fatal("prev links never end")
				}
				p := e.do("GET", prev, e.a.Token, nil).page(t)
				back = append(back, pageIDs(p))
				if p.Links.Next == nil {
					t.Fatalf("page reached by prev has no next link")
				}
				wantLinkCarries(t, e, *p.Links.Next, l.path(), params)
				prev = ""
				if p.Links.Prev != nil {
					wantLinkCarries(t, e, *p.Links.Prev, l.path(), params)
					prev = *p.Links.Prev
				}
			}
			slices.Reverse(back)
			if !reflect.DeepEqual(back, pages[:len(pages)-1]) {
				t.Fatalf("walking prev gave\n  %v\nwant\n  %v", back, pages[:len(pages)-1])
			}
		})
	}
}

// matchEvery returns, per list, filters that every record the list
// tests seed for c (and the fixture's) pass.
func matchEvery(c *testfix.Clinic) map[string]url.Values {
	return map[string]url.Values{
		"busy_times":          {"practitioner_id": {c.Alice.ID}, "ends_after": {"2000-01-01T00:00:00Z"}},
		"forms":               {"filter[sent_status]": {"not_sent"}, "status": {"not_started"}},
		"appointment_clients": {"status": {"booked"}, "starts_after": {"2000-01-01T00:00:00-05:00"}},
		"clients":             {"q": {"E"}},
		"contacts":            {"q": {"e"}},
	}
}

func TestListPageSizeDefaultsToTen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, l := range everyList {
		t.Run(l.name, func(t *testing.T) {
			ids := l.seed(t, e, e.a, 12, noStamp)
			want := append(l.fixture(e.a), ids...)
			slices.Sort(want)
			p := e.do("GET", l.path(), e.a.Token, nil).page(t)
			if got := pageIDs(p); !reflect.DeepEqual(got, want[:10]) {
				t.Fatalf("first page %v, want %v", got, want[:10])
			}
			if p.Links.Prev != nil || p.Links.Next == nil {
				t.Fatalf("links %v %v, want prev null and a next link", p.Links.Prev, p.Links.Next)
			}
			wantLinkCarries(t, e, *p.Links.Next, l.path(), url.Values{})
			last := e.do("GET", *p.Links.Next, e.a.Token, nil).page(t)
			if got := pageIDs(last); !reflect.DeepEqual(got, want[10:]) {
				t.Fatalf("second page %v, want %v", got, want[10:])
			}
			if last.Links.Next != nil {
				t.Fatalf("last page has a next link %s", *last.Links.Next)
			}
			// A list that fits one page has no links at all.
			one := e.do("GET", l.path()+"?limit=100&include_archived=true", e.a.Token, nil)
			if l.maxLimit < 100 {
				one = e.do("GET", l.path()+"?limit=10&filter%5Bclient_id%5D="+e.a.Clients[0].ID, e.a.Token, nil)
			}
			if p := one.page(t); p.Links.Prev != nil || p.Links.Next != nil {
				t.Fatalf("a single page has links %v %v", p.Links.Prev, p.Links.Next)
			}
		})
	}
}

func TestListLimitOutOfRangeIs422(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, l := range everyList {
		between := fmt.Sprintf("must be between 1 and %d", l.maxLimit)
		cases := []struct{ limit, msg string }{
			{"0", between},
			{"-1", between},
			{fmt.Sprint(l.maxLimit + 1), between},
			{"101", between},
			{"1000000000000000000000", "must be a whole number"},
			{"abc", "must be a whole number"},
			{"1.5", "must be a whole number"},
			{"", "must be a whole number"},
			{"10&limit=20", "must be given once"},
		}
		for _, tc := range cases {
			t.Run(l.name+"/limit="+tc.limit, func(t *testing.T) {
				r := e.do("GET", l.path()+"?limit="+tc.limit, e.a.Token, nil)
				wantInvalid(t, r, oneError("limit", tc.msg), "limit "+tc.msg)
			})
		}
		for _, ok := range []int{1, l.maxLimit} {
			t.Run(fmt.Sprintf("%s/limit=%d is accepted", l.name, ok), func(t *testing.T) {
				e.do("GET", l.path()+fmt.Sprintf("?limit=%d", ok), e.a.Token, nil).page(t)
			})
		}
	}
}

func TestListCursorMustComeFromTheSameListAndFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var busy []practiced.BusyTime
	for i := range 6 {
		busy = append(busy, newBusyTime(e.a.Alice, e.a.Sydney, testfix.Now.Add(time.Duration(i)*time.Hour), 30))
	}
	seedData(t, e, e.a, practiced.SeedData{BusyTimes: busy})
	first := e.do("GET", "/v1/busy_times?limit=2&include_archived=false", e.a.Token, nil).page(t)
	cursor, _ := url.Parse(*first.Links.Next)
	c := cursor.Query().Get("cursor")
	const invalid = "is not a valid cursor; use the links of a previous page unchanged"
	const foreign = "was made for another list or other filters; use the links of a previous page unchanged"
	for _, tc := range []struct{ name, path, msg string }{
		{"garbage", "/v1/busy_times?cursor=zzz", invalid},
		{"not base64", "/v1/busy_times?cursor=%21%21%21", invalid},
		{"base64 of an empty object", "/v1/busy_times?cursor=e30", invalid},
		{"base64 of a non-object", "/v1/busy_times?cursor=WzFd", invalid},
		{"empty", "/v1/busy_times?cursor=", invalid},
		{"truncated", "/v1/busy_times?include_archived=false&cursor=" + c[:len(c)-4], invalid},
		{"on another list", "/v1/clients?include_archived=false&cursor=" + c, foreign},
		{"on the forms list", "/v1/forms?include_archived=false&cursor=" + c, foreign},
		{"without its filter", "/v1/busy_times?cursor=" + c, foreign},
		{"with the filter changed", "/v1/busy_times?include_archived=true&cursor=" + c, foreign},
		{"with a filter added", "/v1/busy_times?include_archived=false&practitioner_id=" + e.a.Alice.ID + "&cursor=" + c, foreign},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do("GET", tc.path, e.a.Token, nil), oneError("cursor", tc.msg), "cursor "+tc.msg)
		})
	}
	t.Run("with another limit", func(t *testing.T) {
		p := e.do("GET", "/v1/busy_times?include_archived=false&limit=3&cursor="+url.QueryEscape(c), e.a.Token, nil).page(t)
		want := []string{busy[2].ID, busy[3].ID, busy[4].ID}
		if got := pageIDs(p); !reflect.DeepEqual(got, want) {
			t.Fatalf("page %v, want %v", got, want)
		}
	})
	t.Run("of another business", func(t *testing.T) {
		// B's key may present A's cursor: it only says where to start,
		// and B has no busy times.
		p := e.do("GET", "/v1/busy_times?include_archived=false&cursor="+url.QueryEscape(c), e.b.Token, nil).page(t)
		if len(p.Data) != 0 {
			t.Fatalf("B sees %v", pageIDs(p))
		}
	})
}

func TestListsHideArchivedRecordsUnlessAsked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	archivedAt := practiced.NewTime(testfix.Now.Add(-time.Hour))
	for _, l := range everyList {
		t.Run(l.name, func(t *testing.T) {
			ids := l.seed(t, e, e.a, 6, func(i int, _ *practiced.Time, archived **practiced.Time) {
				if i%2 == 1 {
					*archived = &archivedAt
				}
			})
			live := append(l.fixture(e.a), ids[0], ids[2], ids[4])
			all := append(l.fixture(e.a), ids...)
			slices.Sort(live)
			slices.Sort(all)
			for _, tc := range []struct {
				query string
				want  []string
			}{
				{"", live},
				{"include_archived=false", live},
				{"include_archived=0", live},
				{"include_archived=true", all},
				{"include_archived=1", all},
			} {
				got := pageIDs(e.do("GET", l.path()+"?limit=10&"+tc.query, e.a.Token, nil).page(t))
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("?%s: %v, want %v", tc.query, got, tc.want)
				}
			}
			for _, bad := range []string{"yes", "TRUE", ""} {
				r := e.do("GET", l.path()+"?include_archived="+bad, e.a.Token, nil)
				wantInvalid(t, r, oneError("include_archived", "must be true or false"), "")
			}
		})
	}
}

func TestListsUpdatedSinceKeepsRecordsUpdatedAtOrAfter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	base := testfix.Now.Add(-10 * time.Hour)
	for _, l := range everyList {
		t.Run(l.name, func(t *testing.T) {
			// Record i was last updated i hours after base.
			ids := l.seed(t, e, e.a, 5, func(i int, updated *practiced.Time, _ **practiced.Time) {
				*updated = practiced.NewTime(base.Add(time.Duration(i) * time.Hour))
			})
			for _, tc := range []struct {
				since string
				want  []string
			}{
				{"2026-03-01T14:00:00Z", ids[2:]},      // base+2h exactly: included
				{"2026-03-01T14:00:01Z", ids[3:]},      // a second later
				{"2026-03-02T01:00:00+11:00", ids[2:]}, // the same instant with an offset
				{"2026-03-01T16:00:00Z", ids[4:]},
				{"2026-03-01T16:00:01Z", []string{}},
			} {
				got := pageIDs(e.do("GET", l.path()+"?limit=10&updated_since="+url.QueryEscape(tc.since), e.a.Token, nil).page(t))
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("updated_since=%s: %v, want %v", tc.since, got, tc.want)
				}
			}
			for _, tc := range []struct{ since, msg string }{
				{"2026-03-01", "must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
				{"2026-03-01T14:00:00", "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"},
				{"yesterday", "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"},
			} {
				r := e.do("GET", l.path()+"?updated_since="+url.QueryEscape(tc.since), e.a.Token, nil)
				wantInvalid(t, r, oneError("updated_since", tc.msg), "")
			}
		})
	}
}

func TestListPagePastEitherEndLinksBackToRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	c := e.a.Clients // three clients
	archive := func(id string) {
		t.Helper()
		_, err := e.st.UpdateClient(ctx, e.a.Business.ID, id, func(c *practiced.Client) error {
			c.ArchivedAt = &seeded
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	first := e.do("GET", "/v1/clients?limit=2", e.a.Token, nil).page(t)
	second := e.do("GET", *first.Links.Next, e.a.Token, nil).page(t)
	if got := pageIDs(second); !reflect.DeepEqual(got, []string{c[2].ID}) {
		t.Fatalf("second page %v", got)
	}
	prevOfSecond := *second.Links.Prev

	// The records after the first page are archived: its next link now
	// leads to an empty page, which links back and nowhere further.
	archive(c[2].ID)
	past := e.do("GET", *first.Links.Next, e.a.Token, nil).page(t)
	if len(past.Data) != 0 || past.Links.Next != nil || past.Links.Prev == nil {
		t.Fatalf("page past the end: %v, links %v %v", pageIDs(past), past.Links.Prev, past.Links.Next)
	}
	back := e.do("GET", *past.Links.Prev, e.a.Token, nil).page(t)
	if got := pageIDs(back); !reflect.DeepEqual(got, []string{c[0].ID, c[1].ID}) || back.Links.Prev != nil || back.Links.Next != nil {
		t.Fatalf("back from past the end: %v, links %v %v", got, back.Links.Prev, back.Links.Next)
	}

	// The records before the second page are archived: its prev link
	// now leads to an empty page, which links forward.
	unarchived := newClient("Dee", "Late", "")
	seedData(t, e, e.a, practiced.SeedData{Clients: []practiced.Client{unarchived}})
	archive(c[0].ID)
	archive(c[1].ID)
	before := e.do("GET", prevOfSecond, e.a.Token, nil).page(t)
	if len(before.Data) != 0 || before.Links.Prev != nil || before.Links.Next == nil {
		t.Fatalf("page before the start: %v, links %v %v", pageIDs(before), before.Links.Prev, before.Links.Next)
	}
	forward := e.do("GET", *before.Links.Next, e.a.Token, nil).page(t)
	if got := pageIDs(forward); !reflect.DeepEqual(got, []string{unarchived.ID}) || forward.Links.Prev != nil || forward.Links.Next != nil {
		t.Fatalf("forward from before the start: %v, links %v %v", got, forward.Links.Prev, forward.Links.Next)
	}
}
