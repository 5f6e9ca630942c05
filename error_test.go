package practiced_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	practiced "github.com/practiced/practiced"
)

// failures runs a check and returns its failures, field → messages.
func failures(check func(*practiced.FieldErrors)) map[string][]string {
	var errs practiced.FieldErrors
	check(&errs)
	return errs.Map()
}

func TestFieldErrorsReportAtMost100Fields(t *testing.T) {
	for _, tc := range []struct {
		fields, messages int
		message          string
	}{
		{1, 1, "f000 fails"},
		{1, 2, "f000 fails (and 1 more error)"},
		{100, 1, "f000 fails (and 99 more errors)"},
		{100, 2, "f000 fails (and 199 more errors)"},
		{101, 1, "f000 fails (and 100 more errors; the first 100 of 101 failing fields are listed)"},
		{250, 2, "f000 fails (and 499 more errors; the first 100 of 250 failing fields are listed)"},
	} {
		t.Run(fmt.Sprintf("%d fields of %d messages", tc.fields, tc.messages), func(t *testing.T) {
			var errs practiced.FieldErrors
			for i := range tc.fields {
				for range tc.messages {
					errs.Add(fmt.Sprintf("f%03d", i), "fails")
				}
			}
			var e *practiced.Error
			if !errors.As(errs.Err(), &e) || e.Code != practiced.EINVALID || e.Message != tc.message {
				t.Fatalf("error %v, want message %q", errs.Err(), tc.message)
			}
			want := map[string][]string{}
			for i := range min(tc.fields, practiced.MaxReportedFields) {
				want[fmt.Sprintf("f%03d", i)] = slices.Repeat([]string{"fails"}, tc.messages)
			}
			if got := e.Fields.Map(); !reflect.DeepEqual(got, want) {
				t.Fatalf("%d fields reported, want %d", len(got), len(want))
			}
			if got := len(errs.Fields()); got != tc.fields || !errs.Has(fmt.Sprintf("f%03d", tc.fields-1)) {
				t.Fatalf("%d failing fields known, want all %d", got, tc.fields)
			}
		})
	}
}
