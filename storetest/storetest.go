// Package storetest is the conformance suite of practiced.Store: the rules
// every store must keep, pinned down through the Store interface alone so
// that the SQLite and PostgreSQL stores pass the very same tests.
//
// A store package runs it from its own tests:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) practiced.Store { … })
//	}
package storetest

import (
	"context"
	"errors"
	"testing"

	practiced "github.com/practiced/practiced"
)

// Run runs the suite as subtests named after the rules they pin down,
// grouped by the part of the interface they concern. open must return a
// fresh, empty, migrated store; it is called once per group, from the
// group's subtest, and Run closes the store when the group ends. The
// rules of a group share its store, each working in businesses of its
// own, and run in parallel with each other and with the other groups, so
// open must be safe to call concurrently.
func Run(t *testing.T, open func(t *testing.T) practiced.Store) {
	groups := []struct {
		name  string
		rules []rule
	}{
		{"Businesses", businessRules},
		{"APIKeys", apiKeyRules},
		{"Seed", seedRules},
		{"TenantIsolation", isolationRules},
		{"Pagination", paginationRules},
		{"ListFilter", listFilterRules},
		{"BusyTimeFilter", busyTimeFilterRules},
		{"FormFilter", formFilterRules},
		{"AppointmentClientFilter", appointmentClientFilterRules},
		{"PersonFilter", personFilterRules},
		{"CreateBusyTimes", createBusyTimesRules},
		{"UpdateClient", updateClientRules},
		{"Forms", formRules},
		{"SetupRecords", setupRules},
		{"MissingRefs", missingRefsRules},
		{"PractitionerSchedule", scheduleRules},
		{"Blocks", blocksRules},
		{"Concurrency", concurrencyRules},
		{"ChangeFeed", changeFeedRules},
		{"FeedOrder", feedOrderRules},
		{"Appointments", appointmentRules},
		{"CancelledAppointments", cancelledRules},
		{"Documents", docRules},
		{"IdempotencyKeys", idempotencyRules},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			st := open(t)
			t.Cleanup(func() {
				if err := st.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			for _, r := range g.rules {
				t.Run(r.name, func(t *testing.T) {
					t.Parallel()
					r.test(t, st)
				})
			}
		})
	}
}

// rule is one subtest: a rule of the Store contract and the test that
// pins it down. A rule shares its store with the other rules of its
// group, so it makes businesses of its own and never counts on the
// store as a whole being empty.
type rule struct {
	name string
	test func(t *testing.T, st practiced.Store)
}

// ctx is the context of every store call: the test's own, cancelled when
// the test ends.
func ctx(t *testing.T) context.Context { return t.Context() }

// wantCode fails the test unless err carries the error code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := practiced.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

// wantInvalidField fails the test unless err is EINVALID on field.
func wantInvalidField(t *testing.T, err error, field string) {
	t.Helper()
	wantCode(t, err, practiced.EINVALID)
	var e *practiced.Error
	errors.As(err, &e)
	if e == nil || e.Fields == nil || !e.Fields.Has(field) {
		var fields []string
		if e != nil && e.Fields != nil {
			fields = e.Fields.Fields()
		}
		t.Fatalf("error %v: failing fields %q, want %q among them", err, fields, field)
	}
}

// must fails the test on a non-nil error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
