//go:build linux

package sqlstore_test

import (
	"context"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
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

// A busy time's write changes neither the place of the next busy time
// nor the request's key, so both stay kept past its commit, one after
// another; a client's write has the key read again with the clients'
// new number, and the place as well.
func TestABusyTimesWriteLeavesThePlaceAndTheKeyKept(t *testing.T) {
	ctx := context.Background()
	st := testfix.SQLiteStore(t)
	c := testfix.NewClinic(t, st, "Passed")
	biz, loc, pra := c.Business.ID, c.Sydney.ID, c.Alice.ID
	hash := practiced.HashToken(c.Token)
	read := func() (practiced.BusyTimePlace, int64) {
		t.Helper()
		p, err := st.BusyTimePlace(ctx, biz, loc, pra)
		if err != nil {
			t.Fatal(err)
		}
		_, version, err := st.APIKeyAndClientsVersion(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		return p, version
	}
	place, version := read()
	if !place.WorksThere {
		t.Fatalf("the place reads %+v; want the practitioner working there", place)
	}
	now := practiced.NewTime(testfix.Now)
	start := testfix.Now.Add(24 * time.Hour)
	for i := range 3 {
		if !sqlstore.PlaceKept(st, biz, loc, pra) || !sqlstore.KeyKept(st, hash) {
			t.Fatalf("before busy time %d: place kept %v, key kept %v; want both", i, sqlstore.PlaceKept(st, biz, loc, pra), sqlstore.KeyKept(st, hash))
		}
		at := start.Add(time.Duration(i) * time.Hour)
		bt := practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: loc, PractitionerID: pra,
			StartsAt: practiced.NewTime(at), EndsAt: practiced.NewTime(at.Add(30 * time.Minute)), CreatedAt: now, UpdatedAt: now}
		if _, err := st.CreateBusyTimes(ctx, biz, []practiced.BusyTime{bt}, i == 2); err != nil {
			t.Fatal(err)
		}
		if _, err := st.GetBusyTime(ctx, biz, bt.ID); err != nil {
			t.Fatalf("busy time %d: %v", i, err)
		}
	}
	if !sqlstore.PlaceKept(st, biz, loc, pra) || !sqlstore.KeyKept(st, hash) {
		t.Fatal("the place or the key is not kept past the busy times' writes")
	}
	cl := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Passed", LastName: "Over", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateClient(ctx, biz, &cl); err != nil {
		t.Fatal(err)
	}
	if sqlstore.PlaceKept(st, biz, loc, pra) || sqlstore.KeyKept(st, hash) {
		t.Fatal("the place or the key is still kept after a client's write")
	}
	if p, v := read(); p != place || v != version+1 {
		t.Fatalf("after a client's write: place %+v, clients number %d; want %+v, %d", p, v, place, version+1)
	}
}
