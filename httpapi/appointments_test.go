package httpapi_test

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// Appointments: booking, rescheduling and cancelling (docs/api.md and
// docs/availability.md). The fixture's clock is Monday 2 March 2026, 09:00 in Sydney
// (2026-03-01T22:00:00Z); Sydney is UTC+11 then, so 12:00 on Tuesday is
// 2026-03-03T01:00:00Z.

const clock = "2026-03-01T22:00:00Z"

// aptNames lets bodies and expected records name the fixture's records:
// SYDNEY, ADELAIDE, ALICE, BOB, CONSULT, GROUP, ANN, BEN, CAT, CANCEL,
// and the other business's B_SYDNEY, B_ALICE, B_CONSULT, B_ANN; extra
// adds name, id pairs (longer names first where one starts another).
func aptNames(e *env, extra ...string) *strings.Replacer {
	a, b := e.a, e.b
	pairs := append(extra,
		"B_SYDNEY", b.Sydney.ID, "B_ALICE", b.Alice.ID, "B_CONSULT", b.Consult.ID, "B_ANN", b.Clients[0].ID,
		"SYDNEY", a.Sydney.ID, "ADELAIDE", a.Adelaide.ID, "ALICE", a.Alice.ID, "BOB", a.Bob.ID,
		"CONSULT", a.Consult.ID, "GROUP", a.Group.ID, "ANN", a.Clients[0].ID, "BEN", a.Clients[1].ID,
		"CAT", a.Clients[2].ID, "CANCEL", a.Cancel.ID)
	return strings.NewReplacer(pairs...)
}

// body decodes a JSON body written with names.
func body(t *testing.T, names *strings.Replacer, text string) map[string]any {
	t.Helper()
	return decodeJSON(t, names.Replace(text))
}

// book is a booking body of one client at loc with pra, plus extra.
func book(loc practiced.Location, pra practiced.Practitioner, starts string, clientID string, extra map[string]any) map[string]any {
	b := map[string]any{"location_id": loc.ID, "practitioner_id": pra.ID, "starts_at": starts,
		"clients": []any{map[string]any{"client_id": clientID}}}
	maps.Copy(b, extra)
	return b
}

// booked books through the API, failing the test unless it is a 201, and
// returns the appointment.
func (e *env) booked(t *testing.T, b map[string]any) map[string]any {
	t.Helper()
	r := e.do("POST", "/v1/appointments", e.a.Token, b)
	wantStatus(t, r, http.StatusCreated)
	return r.JSON(t)
}

// attendeeIDs returns an appointment's appointment_client_ids.
func attendeeIDs(a map[string]any) []string {
	var ids []string
	for _, id := range a["appointment_client_ids"].([]any) {
		ids = append(ids, id.(string))
	}
	return ids
}

// newCase and newPackage seed records of a client of A.
func newCase(t *testing.T, e *env, clientID string) practiced.Case {
	c := practiced.Case{ID: tid.New(practiced.PrefixCase), ClientID: clientID, Name: "Left knee", Status: "open",
		CreatedAt: seeded, UpdatedAt: seeded}
	seedData(t, e, e.a, practiced.SeedData{Cases: []practiced.Case{c}})
	return c
}

func newPackage(t *testing.T, e *env, clientID string) practiced.ClientPackage {
	p := practiced.ClientPackage{ID: tid.New(practiced.PrefixClientPackage), ClientID: clientID, Name: "Five sessions",
		SessionsTotal: 5, CreatedAt: seeded, UpdatedAt: seeded}
	seedData(t, e, e.a, practiced.SeedData{ClientPackages: []practiced.ClientPackage{p}})
	return p
}

func TestBookAppointmentAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	annCase, annPkg := newCase(t, e, e.a.Clients[0].ID), newPackage(t, e, e.a.Clients[0].ID)
	names := aptNames(e, "ANNCASE", annCase.ID, "ANNPKG", annPkg.ID)
	for _, tc := range []struct {
		name string
		loc  practiced.Location
		body string // PRA is the test's own practitioner
		// want is the appointment without its ids and stamps; attendees
		// are the attendee records in order, without theirs.
		want      string
		attendees []string
	}{
		{"a service gives the length and places", e.a.Sydney,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":"CONSULT","starts_at":"2026-03-03T01:00:00Z",
			  "clients":[{"client_id":"ANN"}]}`,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":"CONSULT","starts_at":"2026-03-03T01:00:00Z",
			  "ends_at":"2026-03-03T01:30:00Z","duration":30,"max_clients":1,"notes":"","cancelled_at":null}`,
			[]string{`{"client_id":"ANN","case_id":null,"client_package_id":null,"note":""}`}},
		{"a bare duration has one place", e.a.Adelaide,
			`{"location_id":"ADELAIDE","practitioner_id":"PRA","duration":45,"starts_at":"2026-03-03T12:00:00+10:30",
			  "clients":[{"client_id":"BEN","note":"Wheelchair access"}],"notes":"Bring scans"}`,
			`{"location_id":"ADELAIDE","practitioner_id":"PRA","service_id":null,"starts_at":"2026-03-03T01:30:00Z",
			  "ends_at":"2026-03-03T02:15:00Z","duration":45,"max_clients":1,"notes":"Bring scans","cancelled_at":null}`,
			[]string{`{"client_id":"BEN","case_id":null,"client_package_id":null,"note":"Wheelchair access"}`}},
		{"duration overrides the service's length", e.a.Sydney,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":"CONSULT","duration":50,"starts_at":"2026-03-03T01:00:00Z",
			  "clients":[{"client_id":"ANN","case_id":"ANNCASE","client_package_id":"ANNPKG"}],"allow_overlap":false}`,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":"CONSULT","starts_at":"2026-03-03T01:00:00Z",
			  "ends_at":"2026-03-03T01:50:00Z","duration":50,"max_clients":1,"notes":"","cancelled_at":null}`,
			[]string{`{"client_id":"ANN","case_id":"ANNCASE","client_package_id":"ANNPKG","note":""}`}},
		{"a group service books several clients", e.a.Sydney,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":"GROUP","starts_at":"2026-03-03T01:00:00Z",
			  "clients":[{"client_id":"CAT"},{"client_id":"ANN","case_id":"ANNCASE"},{"client_id":"BEN","note":null}]}`,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":"GROUP","starts_at":"2026-03-03T01:00:00Z",
			  "ends_at":"2026-03-03T02:00:00Z","duration":60,"max_clients":4,"notes":"","cancelled_at":null}`,
			[]string{
				`{"client_id":"CAT","case_id":null,"client_package_id":null,"note":""}`,
				`{"client_id":"ANN","case_id":"ANNCASE","client_package_id":null,"note":""}`,
				`{"client_id":"BEN","case_id":null,"client_package_id":null,"note":""}`,
			}},
		{"notes of 2000 characters", e.a.Sydney,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","duration":30,"starts_at":"2026-03-03T01:00:00Z",
			  "clients":[{"client_id":"ANN","note":"` + strings.Repeat("é", 2000) + `"}],"notes":"` + strings.Repeat("😀", 2000) + `"}`,
			`{"location_id":"SYDNEY","practitioner_id":"PRA","service_id":null,"starts_at":"2026-03-03T01:00:00Z",
			  "ends_at":"2026-03-03T01:30:00Z","duration":30,"max_clients":1,"notes":"` + strings.Repeat("😀", 2000) + `","cancelled_at":null}`,
			[]string{`{"client_id":"ANN","case_id":null,"client_package_id":null,"note":"` + strings.Repeat("é", 2000) + `"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pra := freshPractitioner(t, e)
			fill := func(s string) string { return names.Replace(strings.ReplaceAll(s, `"PRA"`, `"`+pra.ID+`"`)) }
			r := e.do("POST", "/v1/appointments", e.a.Token, decodeJSON(t, fill(tc.body)))
			wantStatus(t, r, http.StatusCreated)
			got := r.JSON(t)
			id, _ := got["id"].(string)
			if !tid.Valid(id, "apt") {
				t.Fatalf("id %q is not an apt_ id", id)
			}
			ids := attendeeIDs(got)
			if len(ids) != len(tc.attendees) || !slices.IsSorted(ids) {
				t.Fatalf("appointment_client_ids %v: want %d ids in id order", ids, len(tc.attendees))
			}
			want := decodeJSON(t, fill(tc.want))
			want["id"], want["appointment_client_ids"] = id, ids
			want["created_at"], want["updated_at"], want["archived_at"] = clock, clock, nil
			wantBody(t, r, http.StatusCreated, jsonText(want))
			wantBody(t, e.do("GET", "/v1/appointments/"+id, e.a.Token, nil), http.StatusOK, jsonText(want))

			// The attendees are booked in the order sent, with the
			// appointment's times.
			listed := e.listAll(t, "/v1/appointment_clients?appointment_id="+id, e.a.Token)
			if len(listed) != len(tc.attendees) {
				t.Fatalf("%d attendees listed, want %d", len(listed), len(tc.attendees))
			}
			for i, text := range tc.attendees {
				w := decodeJSON(t, fill(text))
				maps.Copy(w, map[string]any{"id": ids[i], "appointment_id": id, "status": "booked", "do_not_invoice": false,
					"confirmed": false, "confirmed_at": nil, "cancellation_reason_id": nil, "cancellation_note": "",
					"cancelled_at": nil, "arrived_at": nil, "starts_at": want["starts_at"], "ends_at": want["ends_at"],
					"created_at": clock, "updated_at": clock, "archived_at": nil})
				if canonicalJSON(t, []byte(jsonText(listed[i]))) != canonicalJSON(t, []byte(jsonText(w))) {
					t.Fatalf("attendee %d:\n%s\nwant\n%s", i, jsonText(listed[i]), jsonText(w))
				}
				wantBody(t, e.do("GET", "/v1/appointment_clients/"+ids[i], e.a.Token, nil), http.StatusOK, jsonText(w))
			}
		})
	}
}

func TestBookAppointmentRefusesInvalidBodiesAndBooksNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	benCase, benPkg := newCase(t, e, e.a.Clients[1].ID), newPackage(t, e, e.a.Clients[1].ID)
	names := aptNames(e, "BENCASE", benCase.ID, "BENPKG", benPkg.ID, "NOCLIENT", tid.New("cli"), "NOCASE", tid.New("cas"))
	type errs = map[string][]string
	ok := `"location_id":"SYDNEY","practitioner_id":"ALICE","starts_at":"2026-03-03T01:00:00Z"`
	for _, tc := range []struct {
		name string
		body string
		want errs
	}{
		{"empty body", `{}`, errs{"location_id": {"is required"}, "practitioner_id": {"is required"}, "starts_at": {"is required"},
			"duration": {"is required when service_id is not given"}, "clients": {"is required"}}},
		{"nulls", `{"location_id":null,"practitioner_id":null,"starts_at":null,"service_id":null,"duration":null,"clients":null}`,
			errs{"location_id": {"is required and cannot be null"}, "practitioner_id": {"is required and cannot be null"},
				"starts_at": {"is required and cannot be null"}, "duration": {"is required when service_id is not given"},
				"clients": {"is required and cannot be null"}}},
		{"ids of the wrong kind", `{"location_id":"ALICE","practitioner_id":"SYDNEY","service_id":"ANN","starts_at":"2026-03-03T01:00:00Z",
			"clients":[{"client_id":"CONSULT","case_id":"BENPKG","client_package_id":"BENCASE"}]}`,
			errs{"location_id": {"must be an id starting with loc_"}, "practitioner_id": {"must be an id starting with pra_"},
				"service_id": {"must be an id starting with ser_"}, "clients.0.client_id": {"must be an id starting with cli_"},
				"clients.0.case_id": {"must be an id starting with cas_"}, "clients.0.client_package_id": {"must be an id starting with cpk_"}}},
		{"numbers for ids", `{"location_id":1,"practitioner_id":2,"duration":30,"starts_at":"2026-03-03T01:00:00Z","clients":[{"client_id":3}]}`,
			errs{"location_id": {`must be an id string such as "loc_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`},
				"practitioner_id":     {`must be an id string such as "pra_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`},
				"clients.0.client_id": {`must be an id string such as "cli_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`}}},
		{"records that do not exist, or are the other business's",
			`{"location_id":"B_SYDNEY","practitioner_id":"B_ALICE","service_id":"B_CONSULT","starts_at":"2026-03-03T01:00:00Z",
			  "clients":[{"client_id":"NOCLIENT","case_id":"NOCASE"},{"client_id":"B_ANN"}]}`,
			errs{"location_id": {"does not exist"}, "practitioner_id": {"does not exist"}, "service_id": {"does not exist"},
				"clients.0.client_id": {"does not exist"}, "clients.0.case_id": {"does not exist"}, "clients.1.client_id": {"does not exist"}}},
		{"the practitioner does not work at the location",
			`{"location_id":"ADELAIDE","practitioner_id":"BOB","service_id":"CONSULT","starts_at":"2026-03-03T01:00:00Z","clients":[{"client_id":"ANN"}]}`,
			errs{"practitioner_id": {"does not work at the location ADELAIDE"}}},
		{"the service is not offered at the location",
			`{"location_id":"ADELAIDE","practitioner_id":"ALICE","service_id":"GROUP","starts_at":"2026-03-03T01:00:00Z","clients":[{"client_id":"ANN"}]}`,
			errs{"service_id": {"is not offered at the location ADELAIDE"}}},
		{"durations out of range", `{` + ok + `,"duration":4,"clients":[{"client_id":"ANN"}]}`,
			errs{"duration": {"must be between 5 and 480"}}},
		{"a duration over eight hours", `{` + ok + `,"duration":481,"clients":[{"client_id":"ANN"}]}`,
			errs{"duration": {"must be between 5 and 480"}}},
		{"a fractional duration", `{` + ok + `,"duration":30.5,"clients":[{"client_id":"ANN"}]}`,
			errs{"duration": {"must be a whole number, not a number"}}},
		{"a duration as a string", `{` + ok + `,"duration":"30","clients":[{"client_id":"ANN"}]}`,
			errs{"duration": {"must be a whole number, not a string"}}},
		{"a date where a timestamp is due", `{"location_id":"SYDNEY","practitioner_id":"ALICE","starts_at":"2026-03-03","duration":30,"clients":[{"client_id":"ANN"}]}`,
			errs{"starts_at": {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"}}},
		{"no clients", `{` + ok + `,"duration":30,"clients":[]}`, errs{"clients": {"must have at least one client"}}},
		{"clients not an array", `{` + ok + `,"duration":30,"clients":{"client_id":"ANN"}}`, errs{"clients": {"must be an array, not an object"}}},
		{"a client that is not an object", `{` + ok + `,"duration":30,"clients":["ANN"]}`, errs{"clients.0": {"must be an object, not a string"}}},
		{"a client without client_id, with an unknown field", `{` + ok + `,"service_id":"GROUP","clients":[{"client_id":"ANN"},{"name":"Ben"}]}`,
			errs{"clients.1.client_id": {"is required"}, "clients.1.name": {"is not a known field"}}},
		{"a client twice", `{` + ok + `,"service_id":"GROUP","clients":[{"client_id":"ANN"},{"client_id":"BEN"},{"client_id":"ANN"}]}`,
			errs{"clients.2.client_id": {"repeats a client given earlier"}}},
		{"more clients than the service's places", `{` + ok + `,"service_id":"CONSULT","clients":[{"client_id":"ANN"},{"client_id":"BEN"}]}`,
			errs{"clients": {"must have one client: the service CONSULT has one place"}}},
		{"more clients than a group's places", `{` + ok + `,"service_id":"GROUP","clients":[{"client_id":"ANN"},{"client_id":"BEN"},{"client_id":"CAT"},
			{"client_id":"NOCLIENT"},{"client_id":"B_ANN"}]}`,
			errs{"clients": {"must have at most 4 clients: the service GROUP has 4 places"},
				"clients.3.client_id": {"does not exist"}, "clients.4.client_id": {"does not exist"}}},
		{"more than one client without a service", `{` + ok + `,"duration":30,"clients":[{"client_id":"ANN"},{"client_id":"BEN"}]}`,
			errs{"clients": {"must have one client: an appointment without a service has one place"}}},
		{"another client's case and package", `{` + ok + `,"duration":30,"clients":[{"client_id":"ANN","case_id":"BENCASE","client_package_id":"BENPKG"}]}`,
			errs{"clients.0.case_id": {"is not a case of the client ANN"}, "clients.0.client_package_id": {"is not a package of the client ANN"}}},
		{"texts over 2000 characters", `{` + ok + `,"duration":30,"notes":"` + strings.Repeat("a", 2001) + `","clients":[{"client_id":"ANN","note":"` + strings.Repeat("b", 2001) + `"}]}`,
			errs{"notes": {"must be at most 2000 characters (it has 2001)"}, "clients.0.note": {"must be at most 2000 characters (it has 2001)"}}},
		{"allow_overlap not a boolean", `{` + ok + `,"duration":30,"allow_overlap":"yes","clients":[{"client_id":"ANN"}]}`,
			errs{"allow_overlap": {"must be a boolean, not a string"}}},
		{"unknown fields", `{` + ok + `,"duration":30,"client_id":"ANN","ends_at":"2026-03-03T02:00:00Z","clients":[{"client_id":"ANN"}]}`,
			errs{"client_id": {"is not a known field"}, "ends_at": {"is not a known field"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/v1/appointments", e.a.Token, body(t, names, tc.body))
			want := errs{}
			for f, msgs := range tc.want {
				for _, m := range msgs {
					want[f] = append(want[f], names.Replace(m))
				}
			}
			wantInvalid(t, r, want, "")
		})
	}
	for _, c := range []*testfix.Clinic{e.a, e.b} {
		if n := len(e.listAll(t, "/v1/appointments?include_cancelled=true&include_archived=true", c.Token)); n != 0 {
			t.Fatalf("%d appointments booked by refused requests", n)
		}
		if n := len(e.listAll(t, "/v1/appointment_clients?include_archived=true", c.Token)); n != 0 {
			t.Fatalf("%d attendees booked by refused requests", n)
		}
	}
}

func TestBookingRefusesConflictsWithThePractitionersSchedule(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	// Each case has a practitioner of its own, with what blocks them; the
	// booking is at 12:00-12:30 Sydney time (01:00-01:30Z), by Consult
	// (no buffers) unless the case says otherwise.
	type blocker struct {
		busy     bool // a busy time, else an appointment
		from     string
		minutes  int
		service  *practiced.Service
		status   string // the appointment's attendee's status
		archived bool
		other    bool // another practitioner's
	}
	for _, tc := range []struct {
		name     string
		service  *practiced.Service
		blockers []blocker
		// conflicts lists the indexes of blockers the 422 names; none
		// means the booking is made.
		conflicts []int
	}{
		{"a busy time overlapping", nil, []blocker{{busy: true, from: "2026-03-03T01:15:00Z", minutes: 60}}, []int{0}},
		{"a busy time around it", nil, []blocker{{busy: true, from: "2026-03-03T00:00:00Z", minutes: 180}}, []int{0}},
		{"a busy time ending as it starts", nil, []blocker{{busy: true, from: "2026-03-03T00:00:00Z", minutes: 60}}, nil},
		{"a busy time starting as it ends", nil, []blocker{{busy: true, from: "2026-03-03T01:30:00Z", minutes: 60}}, nil},
		{"an archived busy time", nil, []blocker{{busy: true, from: "2026-03-03T01:00:00Z", minutes: 30, archived: true}}, nil},
		{"another practitioner's busy time", nil, []blocker{{busy: true, from: "2026-03-03T01:00:00Z", minutes: 30, other: true}}, nil},
		{"an appointment overlapping", nil, []blocker{{from: "2026-03-03T00:45:00Z", minutes: 30, status: "booked"}}, []int{0}},
		{"an appointment at the same time, arrived", nil, []blocker{{from: "2026-03-03T01:00:00Z", minutes: 30, status: "arrived"}}, []int{0}},
		{"a completed appointment", nil, []blocker{{from: "2026-03-03T01:00:00Z", minutes: 30, status: "completed"}}, []int{0}},
		{"a cancelled appointment", nil, []blocker{{from: "2026-03-03T01:00:00Z", minutes: 30, status: "cancelled"}}, nil},
		{"an appointment ending as it starts", nil, []blocker{{from: "2026-03-03T00:30:00Z", minutes: 30, status: "booked"}}, nil},
		{"the booking's buffers reach a busy time", &a.Group, []blocker{{busy: true, from: "2026-03-03T02:00:00Z", minutes: 30}}, []int{0}},
		{"the booking's buffers reach past a busy time ten minutes away", &a.Group,
			[]blocker{{busy: true, from: "2026-03-03T00:30:00Z", minutes: 20}, {busy: true, from: "2026-03-03T02:10:00Z", minutes: 20}}, nil},
		{"an appointment's own buffers reach the booking", nil,
			[]blocker{{from: "2026-03-03T01:35:00Z", minutes: 60, service: &a.Group, status: "booked"}}, []int{0}},
		{"several at once", nil, []blocker{
			{busy: true, from: "2026-03-03T01:00:00Z", minutes: 10},
			{from: "2026-03-03T01:10:00Z", minutes: 10, status: "booked"},
			{busy: true, from: "2026-03-03T01:20:00Z", minutes: 10},
			{from: "2026-03-03T01:25:00Z", minutes: 30, status: "no_show"},
		}, []int{0, 2, 1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pra := freshPractitioner(t, e)
			var d practiced.SeedData
			var ids []string
			for _, b := range tc.blockers {
				owner := pra
				if b.other {
					owner = a.Alice
				}
				if b.busy {
					bt := newBusyTime(owner, a.Sydney, mustUTC(b.from), b.minutes)
					if b.archived {
						bt.ArchivedAt = &seeded
					}
					d.BusyTimes = append(d.BusyTimes, bt)
					ids = append(ids, "busy time "+bt.ID)
					continue
				}
				apt := newAppointment(owner, a.Sydney, b.service, mustUTC(b.from), b.minutes)
				ac := newAppointmentClient(apt, a.Clients[2].ID, b.status)
				if b.status == "cancelled" {
					ac.CancelledAt, ac.CancellationNote = &seeded, "Unwell"
				}
				d.Appointments = append(d.Appointments, apt)
				d.AppointmentClients = append(d.AppointmentClients, ac)
				ids = append(ids, "appointment "+apt.ID)
			}
			seedData(t, e, a, d)
			extra := map[string]any{"service_id": a.Consult.ID}
			if tc.service != nil {
				extra["service_id"] = tc.service.ID
			}
			req := book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[0].ID, extra)
			r := e.do("POST", "/v1/appointments", a.Token, req)
			if tc.conflicts == nil {
				wantStatus(t, r, http.StatusCreated)
				return
			}
			var named []string
			for _, i := range tc.conflicts {
				named = append(named, ids[i])
			}
			list := strings.Join(named[:min(3, len(named))], ", ")
			if len(named) > 3 {
				list += " and 1 more"
			}
			msg := "conflicts with the practitioner's " + list + " (send allow_overlap: true to book it anyway)"
			wantInvalid(t, r, oneError("starts_at", msg), "starts_at "+msg)

			// allow_overlap books it anyway.
			req["allow_overlap"] = true
			wantStatus(t, e.do("POST", "/v1/appointments", a.Token, req), http.StatusCreated)
		})
	}
}

func TestBookingAtAGroupAppointmentsTimePointsToJoiningIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	group := e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"service_id": a.Group.ID}))
	r := e.do("POST", "/v1/appointments", a.Token, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[1].ID, map[string]any{"service_id": a.Group.ID}))
	msg := "conflicts with the practitioner's appointment " + group["id"].(string) + "; to join the group appointment " + group["id"].(string) +
		", add the clients with POST /v1/appointment_clients (send allow_overlap: true to book it anyway)"
	wantInvalid(t, r, oneError("starts_at", msg), "starts_at "+msg)
}

func TestBookingAcrossLocationsConflictsAndAnotherPractitionerDoesNot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	first := e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"duration": 60}))
	// 12:30 in Adelaide is 01:00Z too: a practitioner is in one place at a time.
	r := e.do("POST", "/v1/appointments", a.Token, book(a.Adelaide, pra, "2026-03-03T11:30:00+10:30", a.Clients[1].ID, map[string]any{"duration": 30}))
	msg := "conflicts with the practitioner's appointment " + first["id"].(string) + " (send allow_overlap: true to book it anyway)"
	wantInvalid(t, r, oneError("starts_at", msg), "starts_at "+msg)
	other := freshPractitioner(t, e)
	e.booked(t, book(a.Adelaide, other, "2026-03-03T11:30:00+10:30", a.Clients[1].ID, map[string]any{"duration": 30}))
}

func TestGetAppointmentIsNotFoundForMalformedUnknownOrOtherBusinessIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bApt := newAppointment(e.b.Alice, e.b.Sydney, nil, mustUTC("2026-03-03T01:00:00Z"), 30)
	bAc := newAppointmentClient(bApt, e.b.Clients[0].ID, practiced.StatusBooked)
	seedData(t, e, e.b, practiced.SeedData{Appointments: []practiced.Appointment{bApt}, AppointmentClients: []practiced.AppointmentClient{bAc}})
	for _, tc := range []struct {
		method, path string
		body         any
		msg          string
	}{
		{"GET", "/v1/appointments/" + bApt.ID, nil, "Appointment not found."},
		{"GET", "/v1/appointments/" + tid.New("apt"), nil, "Appointment not found."},
		{"GET", "/v1/appointments/apt_123", nil, "Appointment not found."},
		{"GET", "/v1/appointments/" + bAc.ID, nil, "Appointment not found."},
		{"POST", "/v1/appointments/" + bApt.ID, map[string]any{"notes": "x"}, "Appointment not found."},
		{"POST", "/v1/appointments/" + bApt.ID, map[string]any{"bogus": 1}, "Appointment not found."},
		{"POST", "/v1/appointments/" + bApt.ID + "/cancel", map[string]any{"cancellation_note": "x"}, "Appointment not found."},
		{"POST", "/v1/appointments/" + bApt.ID + "/archive", nil, "Appointment not found."},
		{"POST", "/v1/appointments/" + bApt.ID + "/unarchive", nil, "Appointment not found."},
		{"GET", "/v1/appointment_clients/" + bAc.ID, nil, "Appointment client not found."},
		{"GET", "/v1/appointment_clients/" + bApt.ID, nil, "Appointment client not found."},
		{"GET", "/v1/appointment_clients/apc_", nil, "Appointment client not found."},
		{"POST", "/v1/appointment_clients/" + bAc.ID, map[string]any{"status": "arrived"}, "Appointment client not found."},
		{"POST", "/v1/appointment_clients/" + tid.New("apc"), map[string]any{"status": "arrived"}, "Appointment client not found."},
		{"POST", "/v1/appointment_clients/" + bAc.ID + "/archive", nil, "Appointment client not found."},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			wantBody(t, e.do(tc.method, tc.path, e.a.Token, tc.body), http.StatusNotFound, messageJSON(tc.msg))
		})
	}
	got, err := e.st.GetAppointmentClient(context.Background(), e.b.Business.ID, bAc.ID)
	if err != nil || got.Status != practiced.StatusBooked || got.ArchivedAt != nil {
		t.Fatalf("clinic B's attendee changed through clinic A's key: %+v, %v", got, err)
	}
}

func TestReadOnlyKeyCannotBookOrChangeAppointments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	apt := e.booked(t, book(a.Sydney, a.Alice, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"service_id": a.Group.ID}))
	id, apc := apt["id"].(string), attendeeIDs(apt)[0]
	for _, tc := range []struct {
		path string
		body any
	}{
		{"/v1/appointments", book(a.Sydney, a.Bob, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"duration": 30})},
		{"/v1/appointments/" + id, map[string]any{"notes": "x"}},
		{"/v1/appointments/" + id + "/cancel", map[string]any{"cancellation_note": "x"}},
		{"/v1/appointments/" + id + "/archive", nil},
		{"/v1/appointment_clients", map[string]any{"appointment_id": id, "client_id": a.Clients[1].ID}},
		{"/v1/appointment_clients/" + apc, map[string]any{"status": "arrived"}},
		{"/v1/appointment_clients/" + apc + "/archive", nil},
	} {
		t.Run(tc.path, func(t *testing.T) {
			wantBody(t, e.do("POST", tc.path, a.ReadOnlyToken, tc.body), http.StatusForbidden, messageJSON("This API key is read-only."))
		})
	}
	wantBody(t, e.do("GET", "/v1/appointments/"+id, a.ReadOnlyToken, nil), http.StatusOK, jsonText(apt))
}
