//go:build linux

package sqlstore_test

import (
	"context"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// The place of a new busy time is read once while the database is
// unchanged, and read again after a change of the location, of where the
// practitioner works, or of anything else.
func TestBusyTimePlaceKeptWhileTheDatabaseIsUnchanged(t *testing.T) {
	ctx := context.Background()
	st := testfix.SQLiteStore(t)
	c := testfix.NewClinic(t, st, "Places")
	biz, loc, pra := c.Business.ID, c.Adelaide.ID, c.Bob.ID
	// check runs stmt by hand, unless empty, then reads the place, which
	// must not be kept before the read and must be after it, and wants it.
	check := func(stmt string, want practiced.BusyTimePlace) {
		t.Helper()
		if stmt != "" {
			if err := sqlstore.WriterExec(st, stmt, biz, loc, pra); err != nil {
				t.Fatal(err)
			}
		}
		if sqlstore.PlaceKept(st, biz, loc, pra) {
			t.Fatalf("after %q the place read before is still kept", stmt)
		}
		for range 2 {
			got, err := st.BusyTimePlace(ctx, biz, loc, pra)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("after %q the place reads %+v; want %+v", stmt, got, want)
			}
			if !sqlstore.PlaceKept(st, biz, loc, pra) {
				t.Fatalf("after %q the place read is not kept", stmt)
			}
		}
	}
	check("", practiced.BusyTimePlace{LocationFound: true, Timezone: "Australia/Adelaide", PractitionerFound: true})
	check(`INSERT INTO practitioner_locations (business_id, practitioner_id, location_id) VALUES ($1, $3, $2)`,
		practiced.BusyTimePlace{LocationFound: true, Timezone: "Australia/Adelaide", PractitionerFound: true, WorksThere: true})
	check(`UPDATE locations SET timezone = 'Australia/Perth' WHERE business_id = $1 AND id = $2 AND $3 <> ''`,
		practiced.BusyTimePlace{LocationFound: true, Timezone: "Australia/Perth", PractitionerFound: true, WorksThere: true})
	// A change of another table moves the database on as well.
	check(`UPDATE businesses SET name = 'Places moved' WHERE id = $1 AND $2 <> '' AND $3 <> ''`,
		practiced.BusyTimePlace{LocationFound: true, Timezone: "Australia/Perth", PractitionerFound: true, WorksThere: true})
	check(`DELETE FROM practitioner_locations WHERE business_id = $1 AND location_id = $2 AND practitioner_id = $3`,
		practiced.BusyTimePlace{LocationFound: true, Timezone: "Australia/Perth", PractitionerFound: true})
}
