package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// spec describes one record a list test needs: whether it is archived and
// when it was last updated (updated when zero).
type spec struct {
	archived  bool
	updatedAt practiced.Time
}

// listCase is one of the store's lists, seen only through ids, so that the
// pagination and common filter rules can be checked on every list alike.
type listCase struct {
	name   string
	prefix string
	// seed stores one record per spec, in order, with what they depend
	// on, and returns their ids in the same order (which is id order).
	seed func(t *testing.T, st practiced.Store, biz string, specs []spec) []string
	list func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error)
}

// stamp gives a record the archival and update time of s.
func (s spec) stamp(updatedAt *practiced.Time, archived **practiced.Time) {
	*updatedAt = updated
	if !s.updatedAt.IsZero() {
		*updatedAt = s.updatedAt
	}
	if s.archived {
		*archived = archivedAt()
	}
}

var listCases = []listCase{
	{
		name: "busy times", prefix: practiced.PrefixBusyTime,
		seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
			loc := newLocation(biz, "Room")
			pra := newPractitioner(biz, "Pat", loc.ID)
			d := practiced.SeedData{Locations: []practiced.Location{loc}, Practitioners: []practiced.Practitioner{pra}}
			for i, s := range specs {
				b := newBusyTime(biz, loc.ID, pra.ID, time.Duration(i)*time.Hour, time.Duration(i)*time.Hour+30*time.Minute)
				s.stamp(&b.UpdatedAt, &b.ArchivedAt)
				d.BusyTimes = append(d.BusyTimes, b)
			}
			seed(t, st, biz, d)
			return idsOf(d.BusyTimes)
		},
		list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
			v, info, err := st.ListBusyTimes(ctx, biz, practiced.BusyTimeFilter{ListFilter: f}, p)
			return idsOf(v), info, err
		},
	},
	{
		name: "forms", prefix: practiced.PrefixForm,
		seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
			cli := newClient(biz, "Ann", "Archer")
			fte := newFormTemplate(biz, "Intake")
			d := practiced.SeedData{Clients: []practiced.Client{cli}, FormTemplates: []practiced.FormTemplate{fte}}
			for _, s := range specs {
				f := newForm(biz, cli.ID, fte.ID)
				s.stamp(&f.UpdatedAt, &f.ArchivedAt)
				d.Forms = append(d.Forms, f)
			}
			seed(t, st, biz, d)
			return idsOf(d.Forms)
		},
		list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
			v, info, err := st.ListForms(ctx, biz, practiced.FormFilter{ListFilter: f}, p)
			return idsOf(v), info, err
		},
	},
	{
		name: "appointment clients", prefix: practiced.PrefixAppointmentClient,
		seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
			loc := newLocation(biz, "Room")
			pra := newPractitioner(biz, "Pat", loc.ID)
			cli := newClient(biz, "Ann", "Archer")
			apt := newAppointment(biz, loc.ID, pra.ID, nil, hm(9, 0), hm(10, 0))
			apt.MaxClients = len(specs)
			d := practiced.SeedData{Locations: []practiced.Location{loc}, Practitioners: []practiced.Practitioner{pra},
				Clients: []practiced.Client{cli}, Appointments: []practiced.Appointment{apt}}
			for _, s := range specs {
				ac := newAppointmentClient(biz, apt, cli.ID, practiced.StatusBooked)
				s.stamp(&ac.UpdatedAt, &ac.ArchivedAt)
				d.AppointmentClients = append(d.AppointmentClients, ac)
			}
			seed(t, st, biz, d)
			return idsOf(d.AppointmentClients)
		},
		list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
			v, info, err := st.ListAppointmentClients(ctx, biz, practiced.AppointmentClientFilter{ListFilter: f}, p)
			return idsOf(v), info, err
		},
	},
	{
		name: "clients", prefix: practiced.PrefixClient,
		seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
			var d practiced.SeedData
			for i, s := range specs {
				c := newClient(biz, "Client", fmt.Sprint(i))
				s.stamp(&c.UpdatedAt, &c.ArchivedAt)
				d.Clients = append(d.Clients, c)
			}
			seed(t, st, biz, d)
			return idsOf(d.Clients)
		},
		list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
			v, info, err := st.ListClients(ctx, biz, practiced.PersonFilter{ListFilter: f}, p)
			return idsOf(v), info, err
		},
	},
	{
		name: "contacts", prefix: practiced.PrefixContact,
		seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
			var d practiced.SeedData
			for i, s := range specs {
				c := newContact(biz, "Contact", fmt.Sprint(i))
				s.stamp(&c.UpdatedAt, &c.ArchivedAt)
				d.Contacts = append(d.Contacts, c)
			}
			seed(t, st, biz, d)
			return idsOf(d.Contacts)
		},
		list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
			v, info, err := st.ListContacts(ctx, biz, practiced.PersonFilter{ListFilter: f}, p)
			return idsOf(v), info, err
		},
	},
	{
		name: "locations", prefix: practiced.PrefixLocation,
		seed: func(t *testing.T, st practiced.Store, biz string, specs []spec) []string {
			var d practiced.SeedData
			for i, s := range specs {
				l := newLocation(biz, fmt.Sprint("Room ", i))
				s.stamp(&l.UpdatedAt, &l.ArchivedAt)
				d.Locations = append(d.Locations, l)
			}
			seed(t, st, biz, d)
			return idsOf(d.Locations)
		},
		list: func(ctx context.Context, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
			v, info, err := st.ListLocations(ctx, biz, f, p)
			return idsOf(v), info, err
		},
	},
}

// forEachList runs test once per list, each on a business of its own.
func forEachList(t *testing.T, st practiced.Store, test func(t *testing.T, lc listCase, biz string)) {
	for _, lc := range listCases {
		t.Run(lc.name, func(t *testing.T) { test(t, lc, newBusiness(t, st)) })
	}
}

// wantPage fails the test unless the page p of the list is want with the
// given page info.
func wantPage(t *testing.T, lc listCase, st practiced.Store, biz string, f practiced.ListFilter, p practiced.PageRequest, want []string, hasPrev, hasNext bool) {
	t.Helper()
	wantPageOf(t, "", func(p practiced.PageRequest) ([]string, practiced.PageInfo, error) {
		return lc.list(ctx(t), st, biz, f, p)
	}, p, want, hasPrev, hasNext)
}

// wantPageOf fails the test unless the page p that list answers is want
// with the given page info; what, if set, names the list.
func wantPageOf(t *testing.T, what string, list func(practiced.PageRequest) ([]string, practiced.PageInfo, error), p practiced.PageRequest, want []string, hasPrev, hasNext bool) {
	t.Helper()
	if what != "" {
		what += ", "
	}
	what += fmt.Sprintf("page %+v", p)
	got, info, err := list(p)
	must(t, err)
	wantIDs(t, what, got, want)
	if info.HasPrev != hasPrev || info.HasNext != hasNext {
		t.Errorf("%s: %+v, want {HasPrev:%v HasNext:%v}", what, info, hasPrev, hasNext)
	}
}

// specs returns n live records' specs.
func specs(n int) []spec { return make([]spec, n) }

var paginationRules = []rule{
	{"walking After to the end and Before back yields every record once in id order", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, specs(7))
			if !slices.IsSorted(ids) {
				t.Fatalf("ids made in order do not sort in order: %v", ids)
			}
			const limit = 3
			var forward []string
			p := practiced.PageRequest{Limit: limit}
			for page := 0; ; page++ {
				got, info, err := lc.list(ctx(t), st, biz, practiced.ListFilter{}, p)
				must(t, err)
				if len(got) > limit {
					t.Fatalf("page %d forward holds %d records, limit %d", page, len(got), limit)
				}
				forward = append(forward, got...)
				last := len(forward) == len(ids)
				if info.HasPrev != (page > 0) || info.HasNext != !last {
					t.Errorf("page %d forward (%d records): %+v, want {HasPrev:%v HasNext:%v}", page, len(got), info, page > 0, !last)
				}
				if !info.HasNext || len(got) == 0 || page > len(ids) {
					break
				}
				p.After = got[len(got)-1]
			}
			wantIDs(t, "walking forward", forward, ids)

			var backward []string
			p = practiced.PageRequest{Limit: limit, Before: ids[len(ids)-1], Inclusive: true}
			for page := 0; ; page++ {
				got, info, err := lc.list(ctx(t), st, biz, practiced.ListFilter{}, p)
				must(t, err)
				if len(got) > limit {
					t.Fatalf("page %d backward holds %d records, limit %d", page, len(got), limit)
				}
				backward = append(slices.Clone(got), backward...)
				first := len(backward) == len(ids)
				if info.HasNext != (page > 0) || info.HasPrev != !first {
					t.Errorf("page %d backward (%d records): %+v, want {HasPrev:%v HasNext:%v}", page, len(got), info, !first, page > 0)
				}
				if !info.HasPrev || len(got) == 0 || page > len(ids) {
					break
				}
				p = practiced.PageRequest{Limit: limit, Before: got[0]}
			}
			wantIDs(t, "walking backward", backward, ids)
		})
	}},
	{"Inclusive includes the After id", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, specs(5))
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: ids[2], Inclusive: true}, ids[2:4], true, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: ids[0], Inclusive: true}, ids[0:2], false, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: ids[4], Inclusive: true}, ids[4:], true, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: ids[2]}, ids[3:5], true, false)
		})
	}},
	{"Inclusive includes the Before id", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, specs(5))
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, Before: ids[2], Inclusive: true}, ids[1:3], true, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, Before: ids[4], Inclusive: true}, ids[3:5], true, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, Before: ids[0], Inclusive: true}, ids[:1], false, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, Before: ids[2]}, ids[0:2], false, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 10, Before: ids[4], Inclusive: true}, ids, false, false)
		})
	}},
	{"After the last id gives an empty page with HasPrev", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, specs(3))
			beyond := tid.New(lc.prefix) // made later, so it sorts after every id
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: ids[2]}, nil, true, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: beyond}, nil, true, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, After: beyond, Inclusive: true}, nil, true, false)
		})
	}},
	{"Before the first id gives an empty page with HasNext", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			before := tid.New(lc.prefix) // made earlier, so it sorts before every id
			ids := lc.seed(t, st, biz, specs(3))
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, Before: ids[0]}, nil, false, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 2, Before: before, Inclusive: true}, nil, false, true)
		})
	}},
	{"the limit caps the page and HasNext tells what is left", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, specs(4))
			for limit := 1; limit <= 5; limit++ {
				n := min(limit, len(ids))
				wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: limit}, ids[:n], false, limit < len(ids))
				wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: limit, Before: ids[3], Inclusive: true},
					ids[len(ids)-n:], limit < len(ids), false)
			}
		})
	}},
	{"an empty list is one empty page", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 5}, nil, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{IncludeArchived: true}, practiced.PageRequest{Limit: 5, After: tid.New(lc.prefix)}, nil, false, false)
		})
	}},
	{"page info counts only the records the filter lets through", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, []spec{{archived: true}, {}, {}, {}, {archived: true}})
			live := ids[1:4]
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3}, live, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 1, After: ids[1], Inclusive: true}, ids[1:2], false, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 1, After: ids[3], Inclusive: true}, ids[3:4], true, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3, Before: ids[3], Inclusive: true}, live, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3, After: ids[0]}, live, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3, Before: ids[4]}, live, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{IncludeArchived: true}, practiced.PageRequest{Limit: 3, After: ids[0]}, ids[1:4], true, true)
		})
	}},
	{"a cursor out of the list still tells what lies on its other side", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, []spec{{}, {archived: true}, {}, {}})
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3, After: ids[1]}, ids[2:4], true, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 1, After: ids[1]}, ids[2:3], true, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3, Before: ids[1]}, ids[0:1], false, true)
			wantPage(t, lc, st, biz, practiced.ListFilter{}, practiced.PageRequest{Limit: 3, After: ids[2]}, ids[3:4], true, false)
		})
	}},
}

var listFilterRules = []rule{
	{"archived records are hidden unless IncludeArchived", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, []spec{{}, {archived: true}, {}, {archived: true}})
			wantPage(t, lc, st, biz, practiced.ListFilter{}, allOnPage, []string{ids[0], ids[2]}, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{IncludeArchived: true}, allOnPage, ids, false, false)
		})
	}},
	{"UpdatedSince keeps the records updated at or after it", func(t *testing.T, st practiced.Store) {
		forEachList(t, st, func(t *testing.T, lc listCase, biz string) {
			ids := lc.seed(t, st, biz, []spec{
				{updatedAt: at(hm(8, 0))}, {updatedAt: at(hm(10, 0))}, {updatedAt: at(hm(9, 59) + 59*time.Second)},
				{updatedAt: at(hm(12, 0))}, {updatedAt: at(hm(10, 0) + time.Second), archived: true},
			})
			since := t0.Add(hm(10, 0))
			wantPage(t, lc, st, biz, practiced.ListFilter{UpdatedSince: &since}, allOnPage, []string{ids[1], ids[3]}, false, false)
			wantPage(t, lc, st, biz, practiced.ListFilter{UpdatedSince: &since, IncludeArchived: true}, allOnPage,
				[]string{ids[1], ids[3], ids[4]}, false, false)
			// The same instant in another zone.
			sydney := since.In(time.FixedZone("AEDT", 11*60*60))
			wantPage(t, lc, st, biz, practiced.ListFilter{UpdatedSince: &sydney}, allOnPage, []string{ids[1], ids[3]}, false, false)
			later := t0.Add(hm(13, 0))
			wantPage(t, lc, st, biz, practiced.ListFilter{UpdatedSince: &later}, allOnPage, nil, false, false)
		})
	}},
}
