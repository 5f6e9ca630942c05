package practiced_test

import (
	"regexp"
	"slices"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// TestKindsNameEachKindOnce pins the registry's own rules: every kind
// has a three-letter prefix, a snake_case type and its plural, all
// unique, and Kinds is in the order of Type, which is the order the
// change feed lists record types in.
func TestKindsNameEachKindOnce(t *testing.T) {
	prefix := regexp.MustCompile(`^[a-z]{3}$`)
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	seen := map[string]string{}
	for _, k := range append(slices.Clone(practiced.Kinds), practiced.KindEvent) {
		if !prefix.MatchString(k.Prefix) {
			t.Errorf("%s: prefix %q is not three lower-case letters", k.Type, k.Prefix)
		}
		if !snake.MatchString(k.Type) || !snake.MatchString(k.Plural) {
			t.Errorf("%s: type %q or plural %q is not snake_case", k.Type, k.Type, k.Plural)
		}
		if k.Name == "" {
			t.Errorf("%s: no name", k.Type)
		}
		for _, name := range []string{"prefix " + k.Prefix, "type " + k.Type, "plural " + k.Plural, "name " + k.Name} {
			if other, dup := seen[name]; dup {
				t.Errorf("%s is both %s's and %s's", name, other, k.Type)
			}
			seen[name] = k.Type
		}
		if k.HasColor && !k.Named {
			t.Errorf("%s: only named records carry a color", k.Type)
		}
	}
	if !slices.IsSorted(practiced.RecordTypes) {
		t.Errorf("RecordTypes %v are not in order", practiced.RecordTypes)
	}
	if len(practiced.RecordTypes) != len(practiced.Kinds) {
		t.Errorf("%d record types for %d kinds", len(practiced.RecordTypes), len(practiced.Kinds))
	}
}

func TestKindOfReadsTheIDsPrefix(t *testing.T) {
	for _, k := range practiced.Kinds {
		got, ok := practiced.KindOf(tid.New(k.Prefix))
		if !ok || got != k {
			t.Errorf("KindOf(a %s id) = %+v, %v; want %+v", k.Name, got, ok, k)
		}
	}
	for _, id := range []string{"", "cli", "xyz_01h455vb4pex5vsknk084sn02q", tid.New(practiced.PrefixEvent), tid.New(practiced.PrefixBusiness)} {
		if k, ok := practiced.KindOf(id); ok {
			t.Errorf("KindOf(%q) = %+v, want no kind", id, k)
		}
	}
	named := 0
	for _, k := range practiced.Kinds {
		if _, ok := practiced.NamedKindOf(tid.New(k.Prefix)); ok != k.Named {
			t.Errorf("NamedKindOf(a %s id) ok = %v, want %v", k.Name, ok, k.Named)
		}
		if k.Named {
			named++
		}
	}
	if named != 4 || len(practiced.NamedKinds) != 4 {
		t.Errorf("%d named kinds, NamedKinds has %d; want the four of tags, referral types, cancellation reasons and busy time types", named, len(practiced.NamedKinds))
	}
}
