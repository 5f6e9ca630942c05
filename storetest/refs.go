package storetest

import (
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

var missingRefsRules = []rule{
	{"a record of every kind is found, live or archived; an unstored id of every kind is missing", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		stored := r.ids()
		seen := map[string]bool{}
		for _, id := range stored {
			seen[tid.Prefix(id)] = true
		}
		var unstored []string
		for _, k := range practiced.Kinds {
			if !seen[k.Prefix] {
				t.Fatalf("the fixture has no %s", k.Name)
			}
			unstored = append(unstored, tid.New(k.Prefix))
		}
		missing, err := st.MissingRefs(ctx(t), r.biz, append(append([]string{}, stored...), unstored...))
		must(t, err)
		wantSameIDs(t, "MissingRefs", missing, unstored)
		for _, k := range practiced.Kinds { // one kind at a time
			var ids []string
			for _, id := range stored {
				if tid.Prefix(id) == k.Prefix {
					ids = append(ids, id)
				}
			}
			extra := tid.New(k.Prefix)
			missing, err := st.MissingRefs(ctx(t), r.biz, append(ids, extra))
			must(t, err)
			wantSameIDs(t, "MissingRefs of "+k.Plural, missing, []string{extra})
		}
	}},
	{"an id of an unknown prefix, or of another kind's prefix, is missing", func(t *testing.T, st practiced.Store) {
		r := newRich(t, st)
		_, suffix, _ := strings.Cut(r.loc1.ID, "_")
		odd := []string{
			"xyz_" + suffix,                       // unknown prefix
			"LOC_" + suffix,                       // prefixes are lower case
			practiced.PrefixClient + "_" + suffix, // a location's suffix under the client prefix
			suffix,                                // no prefix
			"",
			"loc_",
			"loc_' OR '1'='1",
		}
		missing, err := st.MissingRefs(ctx(t), r.biz, append([]string{r.loc1.ID, r.cli1.ID}, odd...))
		must(t, err)
		wantSameIDs(t, "MissingRefs", missing, odd)
	}},
	{"another business's ids are missing", func(t *testing.T, st practiced.Store) {
		a, b := newRich(t, st), newRich(t, st)
		missing, err := st.MissingRefs(ctx(t), a.biz, b.ids())
		must(t, err)
		wantSameIDs(t, "MissingRefs in a of b's ids", missing, b.ids())
		missing, err = st.MissingRefs(ctx(t), b.biz, b.ids())
		must(t, err)
		wantSameIDs(t, "MissingRefs in b of b's ids", missing, nil)
	}},
	{"no ids, none missing", func(t *testing.T, st practiced.Store) {
		c := newClinic(t, st)
		missing, err := st.MissingRefs(ctx(t), c.biz, nil)
		must(t, err)
		if len(missing) != 0 {
			t.Errorf("MissingRefs of no ids = %q, want none", missing)
		}
	}},
}
