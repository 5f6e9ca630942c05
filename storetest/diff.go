package storetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// wantEqual fails the test when got and want differ anywhere, listing
// every differing field by its path.
func wantEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if d := diff(got, want); len(d) > 0 {
		t.Errorf("%s differs:\n\t%s", what, strings.Join(d, "\n\t"))
	}
}

// wantIDs fails the test unless got holds exactly the ids of want, in
// that order.
func wantIDs(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n\tgot  %s\n\twant %s", what, idList(got), idList(want))
	}
}

// wantSameIDs is wantIDs for results whose order is not part of the
// contract.
func wantSameIDs(t *testing.T, what string, got, want []string) {
	t.Helper()
	wantIDs(t, what, slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)))
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "[]"
	}
	return "[" + strings.Join(ids, " ") + "]"
}

// diff lists how got differs from want, one line per differing leaf.
// Times must be the same instant in UTC. A nil list differs from an empty
// one, because lists are never null in the API. A form's or a location's
// BusinessID may read back empty (reads need not fill it), but never as
// another value.
func diff(got, want any) []string {
	var out []string
	diffValue(&out, "", reflect.ValueOf(got), reflect.ValueOf(want))
	return out
}

const maxDiffs = 30

var timeType = reflect.TypeFor[time.Time]()

func diffValue(out *[]string, path string, g, w reflect.Value) {
	if len(*out) >= maxDiffs {
		return
	}
	report := func(format string, args ...any) {
		*out = append(*out, strings.TrimPrefix(path, ".")+": "+fmt.Sprintf(format, args...))
	}
	if g.Type() == timeType {
		gt, wt := g.Interface().(time.Time), w.Interface().(time.Time)
		if !gt.Equal(wt) || gt.Location() != wt.Location() {
			report("got %s (%s), want %s (%s)", gt.Format(time.RFC3339Nano), gt.Location(), wt.Format(time.RFC3339Nano), wt.Location())
		}
		return
	}
	switch g.Kind() {
	case reflect.Struct:
		for i := 0; i < g.NumField(); i++ {
			f := g.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			p := path + "." + f.Name
			if f.Anonymous && f.Type == timeType {
				p = path // practiced.Time is its time
			}
			if f.Name == "BusinessID" && g.Field(i).String() == "" {
				continue
			}
			diffValue(out, p, g.Field(i), w.Field(i))
		}
	case reflect.Pointer:
		switch {
		case g.IsNil() && w.IsNil():
		case g.IsNil() || w.IsNil():
			report("got %s, want %s", show(g), show(w))
		default:
			diffValue(out, path, g.Elem(), w.Elem())
		}
	case reflect.Slice:
		switch {
		case g.IsNil() && w.IsNil():
		case g.IsNil() || w.IsNil():
			report("got %s, want %s", show(g), show(w))
		case g.Type().Elem().Kind() == reflect.Uint8:
			if !bytes.Equal(g.Bytes(), w.Bytes()) {
				report("got %q, want %q", g.Bytes(), w.Bytes())
			}
		case g.Len() != w.Len():
			report("got %d items %s, want %d items %s", g.Len(), show(g), w.Len(), show(w))
		default:
			for i := 0; i < g.Len(); i++ {
				diffValue(out, fmt.Sprintf("%s[%d]", path, i), g.Index(i), w.Index(i))
			}
		}
	case reflect.Array:
		for i := 0; i < g.Len(); i++ {
			diffValue(out, fmt.Sprintf("%s[%d]", path, i), g.Index(i), w.Index(i))
		}
	case reflect.Map, reflect.Interface:
		if !reflect.DeepEqual(g.Interface(), w.Interface()) {
			report("got %s, want %s", show(g), show(w))
		}
	default:
		if g.Interface() != w.Interface() {
			report("got %s, want %s", show(g), show(w))
		}
	}
}

// show writes a value for a difference report: nil as nil, pointers as
// what they point to.
func show(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
	}
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() == reflect.Slice && v.Len() == 0 {
		return "[] (empty)"
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	if b, err := json.Marshal(v.Interface()); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%+v", v.Interface())
}
