package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
)

// updatedRecord returns, as JSON text, the record that created answered
// with the fields of changes (a JSON object) replaced and updated_at set:
// what an update that changes exactly those fields answers.
func updatedRecord(t *testing.T, created response, changes, updatedAt string) string {
	t.Helper()
	want := created.JSON(t)
	for k, v := range decodeJSON(t, changes) {
		want[k] = v
	}
	want["updated_at"] = updatedAt
	return jsonText(want)
}

// wantUpdateRefused fails unless an update of the record at path with
// body is refused with the errors want and leaves the record as it was.
func wantUpdateRefused(t *testing.T, e *env, path string, body any, want map[string][]string) {
	t.Helper()
	before := e.do("GET", path, e.a.Token, nil)
	wantInvalid(t, e.do("POST", path, e.a.Token, body), want, "")
	wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusOK, string(before.Body))
}

// wantRecordCount fails unless clinic A has n records of a kind,
// archived ones included.
func wantRecordCount(t *testing.T, e *env, plural string, n int) {
	t.Helper()
	if got := len(listedIDs(t, e, "/v1/"+plural+"?include_archived=true", e.a.Token)); got != n {
		t.Fatalf("%d %s, want %d", got, plural, n)
	}
}

// wantUpdateChanges creates a record of a kind from create, updates it
// with body after pause, and fails unless the update answers, and the
// record then reads, as created with the fields of changes (a JSON
// object) replaced and updated_at the time of the update.
func wantUpdateChanges(t *testing.T, e *env, plural string, create any, pause time.Duration, body, changes string) {
	t.Helper()
	e.clock = testfix.Now
	id, created := setupCreate(t, e, plural, create)
	e.clock = testfix.Now.Add(pause)
	path := "/v1/" + plural + "/" + id
	r := e.do("POST", path, e.a.Token, body)
	want := updatedRecord(t, created, changes, e.clock.UTC().Format(time.RFC3339))
	wantBody(t, r, http.StatusOK, want)
	wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusOK, want)
}

// Records that belong to a client (cases, client packages) are tested
// from bodies in which ANN and BEN stand for clinic A's first two
// clients and B_CLI for clinic B's first.

// createCase is a body that creates a record and the whole record it
// answers with, in which ID stands for the new id and NOW for the time.
type createCase struct{ body, want string }

// runCreateCases creates a record of a kind from each case's body and
// fails unless it answers 201, and then reads, as the case wants.
func runCreateCases(t *testing.T, e *env, plural string, cases []createCase) {
	t.Helper()
	for _, tc := range cases {
		ids := map[string]string{"ANN": e.a.Clients[0].ID}
		id, r := setupCreate(t, e, plural, withIDs(tc.body, ids))
		ids["ID"], ids["NOW"] = id, setupNow
		wantBody(t, r, http.StatusCreated, withIDs(tc.want, ids))
		wantBody(t, e.do("GET", "/v1/"+plural+"/"+id, e.a.Token, nil), http.StatusOK, withIDs(tc.want, ids))
	}
}

// refusedCase is a body that creates nothing, and the errors it is
// refused with.
type refusedCase struct {
	name, body string
	want       map[string][]string
}

// runRefusedCreates fails unless each case's body is refused as the case
// wants, and no record of the kind is made.
func runRefusedCreates(t *testing.T, e *env, plural string, cases []refusedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.NewReplacer("B_CLI", e.b.Clients[0].ID, "ANN", e.a.Clients[0].ID).Replace(tc.body)
			wantInvalid(t, e.do("POST", "/v1/"+plural, e.a.Token, body), tc.want, "")
		})
	}
	wantRecordCount(t, e, plural, 0)
}

// updateCase is a body that updates a record and either the fields the
// answer changes (a JSON object) or the errors it is refused with.
type updateCase struct {
	name, body, want string
	invalid          map[string][]string
}

// runUpdateCases creates a record of a kind from create for each case and
// updates it an hour later with the case's body. It fails unless the
// update answers as the record was with the fields of want changed, or
// is refused with the errors invalid and leaves the record as it was.
func runUpdateCases(t *testing.T, e *env, plural, create string, cases []updateCase) {
	t.Helper()
	ids := map[string]string{"ANN": e.a.Clients[0].ID, "BEN": e.a.Clients[1].ID}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.clock = testfix.Now
			id, created := setupCreate(t, e, plural, withIDs(create, ids))
			e.clock = testfix.Now.Add(time.Hour)
			r := e.do("POST", "/v1/"+plural+"/"+id, e.a.Token, withIDs(tc.body, ids))
			if tc.invalid != nil {
				wantInvalid(t, r, tc.invalid, "")
				wantBody(t, e.do("GET", "/v1/"+plural+"/"+id, e.a.Token, nil), http.StatusOK, string(created.Body))
				return
			}
			want := updatedRecord(t, created, withIDs(tc.want, ids), "2026-03-01T23:00:00Z")
			wantBody(t, r, http.StatusOK, want)
		})
	}
}
