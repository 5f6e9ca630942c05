package storetest

import (
	"context"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

var docRules = []rule{
	{"EveryStoredDocumentIsItsRecordAsReadThroughItsColumns", testDocsMatchRecords},
}

// docList reads one kind's list both ways: as records and as stored
// documents.
type docList struct {
	name  string
	typed func(ctx context.Context, st practiced.Store, biz string, p practiced.PageRequest) ([]any, practiced.PageInfo, error)
	docs  func(ctx context.Context, st practiced.Store, biz string, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error)
}

// docListOf pairs a typed list with its list of documents.
func docListOf[T any](name string,
	typed func(ctx context.Context, st practiced.Store, biz string, p practiced.PageRequest) ([]T, practiced.PageInfo, error),
	docs func(ctx context.Context, st practiced.Store, biz string, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error),
) docList {
	return docList{name: name, docs: docs,
		typed: func(ctx context.Context, st practiced.Store, biz string, p practiced.PageRequest) ([]any, practiced.PageInfo, error) {
			recs, info, err := typed(ctx, st, biz, p)
			return anys(recs), info, err
		}}
}

// docLists are the lists of every kind that keeps stored documents.
var docLists = func() []docList {
	type ctx = context.Context
	type st = practiced.Store
	type page = practiced.PageRequest
	person := practiced.PersonFilter{ListFilter: everything}
	out := []docList{
		docListOf("clients",
			func(c ctx, s st, b string, p page) ([]practiced.Client, practiced.PageInfo, error) {
				return s.ListClients(c, b, person, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListClientDocs(c, b, person, p)
			}),
		docListOf("contacts",
			func(c ctx, s st, b string, p page) ([]practiced.Contact, practiced.PageInfo, error) {
				return s.ListContacts(c, b, person, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListContactDocs(c, b, person, p)
			}),
		docListOf("locations",
			func(c ctx, s st, b string, p page) ([]practiced.Location, practiced.PageInfo, error) {
				return s.ListLocations(c, b, everything, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListLocationDocs(c, b, everything, p)
			}),
		docListOf("practitioners",
			func(c ctx, s st, b string, p page) ([]practiced.Practitioner, practiced.PageInfo, error) {
				return s.ListPractitioners(c, b, practiced.PractitionerFilter{ListFilter: everything}, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListPractitionerDocs(c, b, practiced.PractitionerFilter{ListFilter: everything}, p)
			}),
		docListOf("services",
			func(c ctx, s st, b string, p page) ([]practiced.Service, practiced.PageInfo, error) {
				return s.ListServices(c, b, practiced.ServiceFilter{ListFilter: everything}, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListServiceDocs(c, b, practiced.ServiceFilter{ListFilter: everything}, p)
			}),
		docListOf("cases",
			func(c ctx, s st, b string, p page) ([]practiced.Case, practiced.PageInfo, error) {
				return s.ListCases(c, b, practiced.CaseFilter{ListFilter: everything}, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListCaseDocs(c, b, practiced.CaseFilter{ListFilter: everything}, p)
			}),
		docListOf("client_packages",
			func(c ctx, s st, b string, p page) ([]practiced.ClientPackage, practiced.PageInfo, error) {
				return s.ListClientPackages(c, b, practiced.ClientPackageFilter{ListFilter: everything}, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListClientPackageDocs(c, b, practiced.ClientPackageFilter{ListFilter: everything}, p)
			}),
		docListOf("busy_times",
			func(c ctx, s st, b string, p page) ([]practiced.BusyTime, practiced.PageInfo, error) {
				return s.ListBusyTimes(c, b, practiced.BusyTimeFilter{ListFilter: everything}, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListBusyTimeDocs(c, b, practiced.BusyTimeFilter{ListFilter: everything}, p)
			}),
		docListOf("form_templates",
			func(c ctx, s st, b string, p page) ([]practiced.FormTemplate, practiced.PageInfo, error) {
				return s.ListFormTemplates(c, b, everything, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListFormTemplateDocs(c, b, everything, p)
			}),
	}
	for _, k := range practiced.NamedKinds {
		out = append(out, docListOf(k.Plural,
			func(c ctx, s st, b string, p page) ([]practiced.Named, practiced.PageInfo, error) {
				return s.ListNamed(c, b, k.Prefix, everything, p)
			},
			func(c ctx, s st, b string, p page) ([]practiced.Doc, practiced.PageInfo, error) {
				return s.ListNamedDocs(c, b, k.Prefix, everything, p)
			}))
	}
	return out
}()

// checkDocs checks that every stored document of the business is
// practiced.MarshalDoc of its record as the typed list reads it, on pages
// of two in both directions, with the same page information.
func checkDocs(t *testing.T, st practiced.Store, biz, step string) {
	t.Helper()
	ctx := context.Background()
	for _, l := range docLists {
		pages := []practiced.PageRequest{{Limit: 1000}, {Limit: 2}}
		recs, _, err := l.typed(ctx, st, biz, pages[0])
		if err != nil {
			t.Fatalf("%s: %s: %v", step, l.name, err)
		}
		if len(recs) > 0 {
			first, last := idsOf(recs[:1])[0], idsOf(recs[len(recs)-1:])[0]
			pages = append(pages, practiced.PageRequest{Limit: 2, Before: last, Inclusive: true},
				practiced.PageRequest{Limit: 2, After: first}, practiced.PageRequest{Limit: 2, Before: last})
		}
		for _, p := range pages {
			recs, recInfo, err := l.typed(ctx, st, biz, p)
			if err != nil {
				t.Fatalf("%s: %s: %v", step, l.name, err)
			}
			docs, docInfo, err := l.docs(ctx, st, biz, p)
			if err != nil {
				t.Fatalf("%s: %s documents: %v", step, l.name, err)
			}
			if docInfo != recInfo {
				t.Errorf("%s: %s %+v: documents' page %+v, records' page %+v", step, l.name, p, docInfo, recInfo)
			}
			if len(docs) != len(recs) {
				t.Fatalf("%s: %s %+v: %d documents, %d records", step, l.name, p, len(docs), len(recs))
			}
			for i := range recs {
				want, err := practiced.MarshalDoc(recs[i])
				if err != nil {
					t.Fatal(err)
				}
				if string(docs[i]) != string(want) {
					t.Errorf("%s: %s: stored document\n%s\nrecord read through its columns\n%s", step, l.name, docs[i], want)
				}
			}
		}
	}
}

func testDocsMatchRecords(t *testing.T, st practiced.Store) {
	r := newRich(t, st)
	checkDocs(t, st, r.biz, "seeded")

	// Creates, with text the HTML-escaping encoder would change, and
	// records that join the locations.
	cli := newClient(r.biz, "Zoë <&>", "O'Brien")
	cli.Notes = "a < b && c > d"
	must(t, st.CreateClient(ctx(t), r.biz, &cli))
	con := newContact(r.biz, "Carl", "Contact")
	must(t, st.CreateContact(ctx(t), r.biz, &con))
	loc := newLocation(r.biz, "Perth")
	must(t, st.CreateLocation(ctx(t), r.biz, &loc))
	svc := newService(r.biz, "Massage", 30, 0, 0, loc.ID, r.loc1.ID)
	must(t, st.CreateService(ctx(t), r.biz, &svc))
	pra := newPractitioner(r.biz, "Dana", loc.ID)
	must(t, st.CreatePractitioner(ctx(t), r.biz, &pra))
	tag := newNamed(r.biz, practiced.PrefixTag, "New & shiny")
	must(t, st.CreateNamed(ctx(t), r.biz, &tag))
	cas := practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: cli.ID, Name: "Back", Status: "open", CreatedAt: created, UpdatedAt: updated}
	must(t, st.CreateCase(ctx(t), r.biz, &cas))
	cpk := practiced.ClientPackage{ID: tid.New(practiced.PrefixClientPackage), ClientID: cli.ID, Name: "Ten", SessionsTotal: 10,
		CreatedAt: created, UpdatedAt: updated}
	must(t, st.CreateClientPackage(ctx(t), r.biz, &cpk))
	fte := newFormTemplate(r.biz, "Follow-up")
	must(t, st.CreateFormTemplate(ctx(t), r.biz, &fte))
	_, err := st.CreateBusyTimes(ctx(t), r.biz, []practiced.BusyTime{newBusyTime(r.biz, loc.ID, pra.ID, hm(8, 0), hm(8, 30))}, false)
	must(t, err)
	checkDocs(t, st, r.biz, "created")

	// Updates, and practitioners and services joining and leaving
	// locations.
	_, err = st.UpdateClient(ctx(t), r.biz, cli.ID, func(c *practiced.Client) error {
		c.TagIDs = []string{tag.ID}
		c.Alert = "<b>"
		return nil
	})
	must(t, err)
	_, err = st.UpdatePractitioner(ctx(t), r.biz, pra.ID, func(p *practiced.Practitioner) error {
		p.LocationIDs = []string{r.loc1.ID, r.loc2.ID}
		return nil
	})
	must(t, err)
	_, err = st.UpdateService(ctx(t), r.biz, svc.ID, func(v *practiced.Service) error {
		v.LocationIDs = []string{loc.ID}
		return nil
	})
	must(t, err)
	_, err = st.UpdateLocation(ctx(t), r.biz, r.loc1.ID, func(l *practiced.Location) error {
		l.Name = "Sydney > CBD"
		return nil
	})
	must(t, err)
	_, err = st.UpdateFormTemplate(ctx(t), r.biz, fte.ID, func(f *practiced.FormTemplate) error {
		f.CompletionMessage = "Done & dusted"
		return nil
	})
	must(t, err)
	checkDocs(t, st, r.biz, "updated")

	// Archiving and unarchiving.
	_, err = st.ArchiveClient(ctx(t), r.biz, cli.ID, true, at(hm(1, 0)))
	must(t, err)
	_, err = st.ArchiveLocation(ctx(t), r.biz, loc.ID, true, at(hm(1, 0)))
	must(t, err)
	_, err = st.ArchivePractitioner(ctx(t), r.biz, r.pra3.ID, false, at(hm(1, 0)))
	must(t, err)
	_, err = st.ArchiveNamed(ctx(t), r.biz, r.tag2.ID, false, at(hm(1, 0)))
	must(t, err)
	_, err = st.ArchiveBusyTime(ctx(t), r.biz, r.bti1.ID, true, at(hm(1, 0)))
	must(t, err)
	checkDocs(t, st, r.biz, "archived")

	// A later seed whose practitioners join stored locations.
	late := newPractitioner(r.biz, "Eli", r.loc2.ID, loc.ID)
	seed(t, st, r.biz, practiced.SeedData{Practitioners: []practiced.Practitioner{late}})
	checkDocs(t, st, r.biz, "seeded again")
}
