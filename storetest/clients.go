package storetest

import (
	"errors"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

var updateClientRules = []rule{
	{"change sees the stored client, and what it leaves is written and returned", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		var seen practiced.Client
		got, err := st.UpdateClient(ctx(t), r.biz, r.cli1.ID, func(c *practiced.Client) error {
			seen = *c
			c.FirstName = "Anne"
			c.Email = "anne@example.com"
			c.DateOfBirth = nil
			c.Intolerances = append(c.Intolerances, "fructose")
			c.Address.Line2 = nil
			c.Address.City = "Glebe"
			c.TagIDs = []string{r.tag1.ID}
			c.NDISDetails = nil
			c.MarketingConsent = ptr("granted")
			c.LinkedContacts = nil
			return nil
		})
		must(t, err)
		wantEqual(t, "client passed to change", seen, r.cli1)

		want := r.cli1
		want.FirstName = "Anne"
		want.Email = "anne@example.com"
		want.DateOfBirth = nil
		want.Intolerances = []string{"lactose", "gluten", "fructose"}
		want.Address.Line2 = nil
		want.Address.City = "Glebe"
		want.TagIDs = []string{r.tag1.ID}
		want.NDISDetails = nil
		want.MarketingConsent = ptr("granted")
		want.LinkedContacts = []practiced.LinkedContact{}
		want.UpdatedAt = got.UpdatedAt // checked by its own rule
		wantEqual(t, "UpdateClient result", got, want)
		stored, err := st.GetClient(ctx(t), r.biz, r.cli1.ID)
		must(t, err)
		wantEqual(t, "GetClient after UpdateClient", stored, want)
		other, err := st.GetClient(ctx(t), r.biz, r.cli2.ID)
		must(t, err)
		wantEqual(t, "the other client", other, r.cli2)
	}},
	{"updated_at becomes the time of the update when change leaves it", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := newClient(c.biz, "Ann", "Archer")
		seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cli}})
		before := time.Now().Truncate(time.Second)
		got, err := st.UpdateClient(ctx(t), c.biz, cli.ID, func(c *practiced.Client) error { c.Notes = "seen"; return nil })
		must(t, err)
		after := time.Now()
		if got.UpdatedAt.Before(before) || got.UpdatedAt.After(after) {
			t.Errorf("updated_at %s, want between %s and %s", got.UpdatedAt, before.UTC().Format(time.RFC3339), after.UTC().Format(time.RFC3339))
		}
		wantEqual(t, "updated_at in whole seconds, UTC", got.UpdatedAt, practiced.NewTime(got.UpdatedAt.Time))
		if !got.CreatedAt.Equal(cli.CreatedAt.Time) {
			t.Errorf("created_at %s, want it kept at %s", got.CreatedAt, cli.CreatedAt)
		}
		stored, err := st.GetClient(ctx(t), c.biz, cli.ID)
		must(t, err)
		wantEqual(t, "stored updated_at", stored.UpdatedAt, got.UpdatedAt)
		listed, _, err := st.ListClients(ctx(t), c.biz, practiced.PersonFilter{ListFilter: practiced.ListFilter{UpdatedSince: &before}}, allOnPage)
		must(t, err)
		wantIDs(t, "ListClients updated since the update began", idsOf(listed), []string{cli.ID})
	}},
	{"updated_at set by change is kept", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		cli := newClient(c.biz, "Ann", "Archer")
		seed(t, st, c.biz, practiced.SeedData{Clients: []practiced.Client{cli}})
		stamp := at(hm(9, 30))
		got, err := st.UpdateClient(ctx(t), c.biz, cli.ID, func(c *practiced.Client) error { c.Notes = "imported"; c.UpdatedAt = stamp; return nil })
		must(t, err)
		wantEqual(t, "updated_at", got.UpdatedAt, stamp)
		stored, err := st.GetClient(ctx(t), c.biz, cli.ID)
		must(t, err)
		wantEqual(t, "stored updated_at", stored.UpdatedAt, stamp)
	}},
	{"an error from change is returned as it is and nothing is written", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		refused := practiced.Invalid("first_name", "cannot be emptied")
		_, err := st.UpdateClient(ctx(t), r.biz, r.cli1.ID, func(c *practiced.Client) error {
			c.FirstName = ""
			c.Intolerances = append(c.Intolerances, "everything")
			c.Notes = "written?"
			return refused
		})
		if err != refused {
			t.Errorf("UpdateClient error %#v, want the error change returned, %#v", err, refused)
		}
		got, err := st.GetClient(ctx(t), r.biz, r.cli1.ID)
		must(t, err)
		wantEqual(t, "client after a refused change", got, r.cli1)

		plain := errors.New("plain failure")
		_, err = st.UpdateClient(ctx(t), r.biz, r.cli1.ID, func(c *practiced.Client) error { c.Alert = "x"; return plain })
		if err != plain {
			t.Errorf("UpdateClient error %v, want the error change returned, %v", err, plain)
		}
	}},
	{"an unknown client is ENOTFOUND and change is not called", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		called := false
		_, err := st.UpdateClient(ctx(t), c.biz, tid.New(practiced.PrefixClient), func(*practiced.Client) error { called = true; return nil })
		wantCode(t, err, practiced.ENOTFOUND)
		if called {
			t.Error("change was called for an unknown client")
		}
	}},
	{"archived clients can be updated", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		got, err := st.UpdateClient(ctx(t), r.biz, r.cli2.ID, func(c *practiced.Client) error { c.Notes = "moved away"; return nil })
		must(t, err)
		if got.Notes != "moved away" || got.ArchivedAt == nil {
			t.Errorf("UpdateClient of an archived client = notes %q, archived_at %v; want the change and still archived", got.Notes, got.ArchivedAt)
		}
	}},
}
