package storetest

import (
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// uniqueName returns a business name no other rule uses.
func uniqueName(name string) string { return name + " " + tid.New("n") }

var businessRules = []rule{
	{"CreateBusiness returns the business with a new id and the creation time", func(t *testing.T, st practiced.Store) {
		name := uniqueName("Clinic A")
		before := time.Now().Truncate(time.Second)
		b, err := st.CreateBusiness(ctx(t), name)
		must(t, err)
		after := time.Now()
		if !tid.Valid(b.ID, practiced.PrefixBusiness) || b.Name != name {
			t.Errorf("CreateBusiness = %+v, want a %s_ id and the name", b, practiced.PrefixBusiness)
		}
		if b.CreatedAt.Before(before) || b.CreatedAt.After(after) {
			t.Errorf("created_at %s, want between %s and %s", b.CreatedAt, before.UTC().Format(time.RFC3339), after.UTC().Format(time.RFC3339))
		}
		wantEqual(t, "created_at in whole seconds, UTC", b.CreatedAt, practiced.NewTime(b.CreatedAt.Time))
		b2, err := st.CreateBusiness(ctx(t), uniqueName("Clinic B"))
		must(t, err)
		if b2.ID == b.ID {
			t.Errorf("two businesses share the id %s", b.ID)
		}
	}},
	{"BusinessByName finds the business of that exact name", func(t *testing.T, st practiced.Store) {
		a, err := st.CreateBusiness(ctx(t), uniqueName("Clinic A"))
		must(t, err)
		b, err := st.CreateBusiness(ctx(t), uniqueName("Clinic B"))
		must(t, err)
		for _, want := range []practiced.Business{a, b} {
			got, err := st.BusinessByName(ctx(t), want.Name)
			must(t, err)
			wantEqual(t, "BusinessByName "+want.Name, got, want)
		}
		for _, name := range []string{strings.ToLower(a.Name), a.Name[:len(a.Name)-1], a.Name + " ", a.Name[:len(a.Name)-1] + "%"} {
			_, err := st.BusinessByName(ctx(t), name)
			wantCode(t, err, practiced.ENOTFOUND)
		}
	}},
	{"BusinessByName of an unknown name is ENOTFOUND", func(t *testing.T, st practiced.Store) {
		_, err := st.BusinessByName(ctx(t), uniqueName("Nobody"))
		wantCode(t, err, practiced.ENOTFOUND)
	}},
	{"a duplicate business name is ECONFLICT and the first business stays", func(t *testing.T, st practiced.Store) {
		a, err := st.CreateBusiness(ctx(t), uniqueName("Clinic A"))
		must(t, err)
		_, err = st.CreateBusiness(ctx(t), a.Name)
		wantCode(t, err, practiced.ECONFLICT)
		got, err := st.BusinessByName(ctx(t), a.Name)
		must(t, err)
		wantEqual(t, "BusinessByName", got, a)
	}},
}

// newKey stores an API key of the business and returns it.
func newKey(t *testing.T, st practiced.Store, biz string, readOnly bool) practiced.APIKey {
	t.Helper()
	k := practiced.APIKey{ID: tid.New(practiced.PrefixAPIKey), BusinessID: biz, TokenHash: "sha256-of-" + tid.New("tok"),
		ReadOnly: readOnly, CreatedAt: at(-time.Hour)}
	must(t, st.CreateAPIKey(ctx(t), k))
	return k
}

var apiKeyRules = []rule{
	{"APIKeyByHash returns the stored key", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		rw, ro := newKey(t, st, biz, false), newKey(t, st, biz, true)
		for _, want := range []practiced.APIKey{rw, ro} {
			got, err := st.APIKeyByHash(ctx(t), want.TokenHash)
			must(t, err)
			wantEqual(t, "APIKeyByHash", got, want)
		}
	}},
	{"APIKeyByHash of an unknown hash is EUNAUTHORIZED", func(t *testing.T, st practiced.Store) {
		k := newKey(t, st, newBusiness(t, st), false)
		for _, hash := range []string{"sha256-of-nothing", "", k.TokenHash[:len(k.TokenHash)-1]} {
			_, err := st.APIKeyByHash(ctx(t), hash)
			wantCode(t, err, practiced.EUNAUTHORIZED)
		}
	}},
	{"a revoked key is EUNAUTHORIZED and the business's other keys still work", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		k1, k2 := newKey(t, st, biz, false), newKey(t, st, biz, false)
		must(t, st.RevokeAPIKey(ctx(t), k1.ID))
		_, err := st.APIKeyByHash(ctx(t), k1.TokenHash)
		wantCode(t, err, practiced.EUNAUTHORIZED)
		got, err := st.APIKeyByHash(ctx(t), k2.TokenHash)
		must(t, err)
		wantEqual(t, "the other key", got, k2)
	}},
	{"ListAPIKeys lists the business's keys by id, revoked ones with their revocation time, and no other business's", func(t *testing.T, st practiced.Store) {
		biz, other := newBusiness(t, st), newBusiness(t, st)
		k1, k2, k3 := newKey(t, st, biz, false), newKey(t, st, biz, true), newKey(t, st, biz, false)
		newKey(t, st, other, false)
		before := practiced.Now()
		must(t, st.RevokeAPIKey(ctx(t), k2.ID))
		got, err := st.ListAPIKeys(ctx(t), biz)
		must(t, err)
		if len(got) != 3 || got[1].RevokedAt == nil || got[1].RevokedAt.Before(before.Time) {
			t.Fatalf("ListAPIKeys = %+v; want three keys, the second revoked at or after %s", got, before)
		}
		k2.RevokedAt = got[1].RevokedAt
		wantEqual(t, "ListAPIKeys", got, []practiced.APIKey{k1, k2, k3})
		none, err := st.ListAPIKeys(ctx(t), newBusiness(t, st))
		must(t, err)
		wantEqual(t, "ListAPIKeys of a business without keys", none, []practiced.APIKey{})
	}},
	{"HasLiveAPIKey is true while any key is not revoked", func(t *testing.T, st practiced.Store) {
		// The rules of a group share the store, so this one looks only
		// at what it can know: after its own key, some key is live.
		k := newKey(t, st, newBusiness(t, st), false)
		live, err := st.HasLiveAPIKey(ctx(t))
		must(t, err)
		if !live {
			t.Errorf("HasLiveAPIKey = false with key %s live", k.ID)
		}
	}},
	{"revoking a key twice, or an unknown key, is ENOTFOUND", func(t *testing.T, st practiced.Store) {
		k := newKey(t, st, newBusiness(t, st), false)
		must(t, st.RevokeAPIKey(ctx(t), k.ID))
		wantCode(t, st.RevokeAPIKey(ctx(t), k.ID), practiced.ENOTFOUND)
		wantCode(t, st.RevokeAPIKey(ctx(t), tid.New(practiced.PrefixAPIKey)), practiced.ENOTFOUND)
	}},
	{"a key without a token hash is refused", func(t *testing.T, st practiced.Store) {
		biz := newBusiness(t, st)
		k := practiced.APIKey{ID: tid.New(practiced.PrefixAPIKey), BusinessID: biz, CreatedAt: at(0)}
		if err := st.CreateAPIKey(ctx(t), k); err == nil {
			t.Error("CreateAPIKey without a token hash succeeded")
		}
		_, err := st.APIKeyByHash(ctx(t), "")
		wantCode(t, err, practiced.EUNAUTHORIZED)
	}},
}
