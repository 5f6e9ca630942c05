package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Appointment clients: joining a group, and the status state machine of
// docs/states.md through POST /v1/appointment_clients/{id}.

// seededAttendee seeds an appointment of A with one attendee in status,
// carrying the times that status implies.
func seededAttendee(t *testing.T, e *env, status string) (practiced.Appointment, practiced.AppointmentClient) {
	t.Helper()
	a := e.a
	apt := newAppointment(a.Alice, a.Sydney, &a.Consult, mustUTC("2026-03-03T01:00:00Z"), 30)
	ac := newAppointmentClient(apt, a.Clients[0].ID, status)
	switch status {
	case practiced.StatusArrived, practiced.StatusCompleted:
		ac.ArrivedAt = &seeded
	case practiced.StatusCancelled:
		ac.CancelledAt, ac.CancellationNote = &seeded, "Unwell"
		apt.CancelledAt = &seeded
	}
	seedData(t, e, a, practiced.SeedData{Appointments: []practiced.Appointment{apt}, AppointmentClients: []practiced.AppointmentClient{ac}})
	return apt, ac
}

func TestAppointmentClientStatusChangesFollowTheStateMachine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// For each move: the fields of the attendee after it (the rest keep
	// their values), or the exact message of the 422 on status.
	type fields = map[string]any
	for _, tc := range []struct {
		from, to string
		want     fields
		refused  string
	}{
		{"booked", "booked", fields{}, ""},
		{"booked", "arrived", fields{"status": "arrived", "arrived_at": clock, "updated_at": clock}, ""},
		{"booked", "completed", nil, "cannot change from booked to completed (from booked it can change to arrived, no_show or cancelled)"},
		{"booked", "no_show", fields{"status": "no_show", "updated_at": clock}, ""},
		{"booked", "cancelled", fields{"status": "cancelled", "cancelled_at": clock, "cancellation_note": "Unwell", "updated_at": clock}, ""},
		{"arrived", "booked", fields{"status": "booked", "arrived_at": nil, "updated_at": clock}, ""},
		{"arrived", "arrived", fields{}, ""},
		{"arrived", "completed", fields{"status": "completed", "updated_at": clock}, ""},
		{"arrived", "no_show", nil, "cannot change from arrived to no_show (from arrived it can change to completed, cancelled or booked)"},
		{"arrived", "cancelled", fields{"status": "cancelled", "cancelled_at": clock, "cancellation_note": "Unwell", "updated_at": clock}, ""},
		{"completed", "booked", nil, "cannot change from completed to booked (completed is final)"},
		{"completed", "arrived", nil, "cannot change from completed to arrived (completed is final)"},
		{"completed", "completed", fields{}, ""},
		{"completed", "no_show", nil, "cannot change from completed to no_show (completed is final)"},
		{"completed", "cancelled", nil, "cannot change from completed to cancelled (completed is final)"},
		{"no_show", "booked", fields{"status": "booked", "updated_at": clock}, ""},
		{"no_show", "arrived", nil, "cannot change from no_show to arrived (from no_show it can change to booked)"},
		{"no_show", "completed", nil, "cannot change from no_show to completed (from no_show it can change to booked)"},
		{"no_show", "no_show", fields{}, ""},
		{"no_show", "cancelled", nil, "cannot change from no_show to cancelled (from no_show it can change to booked)"},
		{"cancelled", "booked", nil, "cannot change from cancelled to booked (cancelled is final)"},
		{"cancelled", "arrived", nil, "cannot change from cancelled to arrived (cancelled is final)"},
		{"cancelled", "completed", nil, "cannot change from cancelled to completed (cancelled is final)"},
		{"cancelled", "no_show", nil, "cannot change from cancelled to no_show (cancelled is final)"},
		{"cancelled", "cancelled", fields{}, ""},
	} {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			apt, ac := seededAttendee(t, e, tc.from)
			path := "/v1/appointment_clients/" + ac.ID
			before := e.get(t, path)
			aptBefore := e.get(t, "/v1/appointments/"+apt.ID)
			req := map[string]any{"status": tc.to}
			if tc.to == "cancelled" {
				req["cancellation_note"] = "Unwell"
			}
			r := e.do("POST", path, e.a.Token, req)
			if tc.refused != "" {
				wantInvalid(t, r, oneError("status", tc.refused), "status "+tc.refused)
				wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusOK, jsonText(before))
				return
			}
			want := with(before)
			for k, v := range tc.want {
				want[k] = v
			}
			wantBody(t, r, http.StatusOK, jsonText(want))
			wantBody(t, e.do("GET", path, e.a.Token, nil), http.StatusOK, jsonText(want))
			// Cancelling the only attendee cancels the appointment.
			wantApt := aptBefore
			if tc.to == "cancelled" && tc.from != "cancelled" {
				wantApt = with(aptBefore, "cancelled_at", clock, "updated_at", clock)
			}
			wantBody(t, e.do("GET", "/v1/appointments/"+apt.ID, e.a.Token, nil), http.StatusOK, jsonText(wantApt))
		})
	}
}

func TestAppointmentClientUpdateChangesOnlyTheFieldsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	annCase, annPkg := newCase(t, e, a.Clients[0].ID), newPackage(t, e, a.Clients[0].ID)
	apt, ac := seededAttendee(t, e, practiced.StatusBooked)
	path := "/v1/appointment_clients/" + ac.ID
	cur := e.get(t, path)
	steps := []struct {
		name string
		body map[string]any
		set  []any // fields changed, with their new values
	}{
		{"an empty body changes nothing", map[string]any{}, nil},
		{"confirming stamps confirmed_at", map[string]any{"confirmed": true}, []any{"confirmed", true, "confirmed_at", clock, "updated_at", clock}},
		{"confirming again keeps it", map[string]any{"confirmed": true}, nil},
		{"note, do_not_invoice, case and package", map[string]any{"note": "Bring scans", "do_not_invoice": true,
			"case_id": annCase.ID, "client_package_id": annPkg.ID},
			[]any{"note", "Bring scans", "do_not_invoice", true, "case_id", annCase.ID, "client_package_id", annPkg.ID}},
		{"null clears the note, case and package", map[string]any{"note": nil, "case_id": nil, "client_package_id": nil},
			[]any{"note", "", "case_id", nil, "client_package_id", nil}},
		{"unconfirming clears confirmed_at", map[string]any{"confirmed": false, "do_not_invoice": false},
			[]any{"confirmed", false, "confirmed_at", nil, "do_not_invoice", false}},
		{"cancelling with a reason", map[string]any{"status": "cancelled", "cancellation_reason_id": a.Cancel.ID},
			[]any{"status", "cancelled", "cancelled_at", clock, "cancellation_reason_id", a.Cancel.ID}},
		{"a cancelled attendee's reason may be replaced by a note", map[string]any{"cancellation_reason_id": nil, "cancellation_note": "Flu"},
			[]any{"cancellation_reason_id", nil, "cancellation_note", "Flu"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			cur = with(cur, st.set...)
			wantBody(t, e.do("POST", path, a.Token, st.body), http.StatusOK, jsonText(cur))
			wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, jsonText(cur))
		})
	}
	if got := e.get(t, "/v1/appointments/"+apt.ID)["cancelled_at"]; got != clock {
		t.Fatalf("appointment cancelled_at %v after its only attendee was cancelled, want %s", got, clock)
	}
}

func TestAppointmentClientUpdateRefusesInvalidValuesAndChangesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	benCase, benPkg := newCase(t, e, a.Clients[1].ID), newPackage(t, e, a.Clients[1].ID)
	_, bookedAc := seededAttendee(t, e, practiced.StatusBooked)
	_, cancelledAc := seededAttendee(t, e, practiced.StatusCancelled)
	type errs = map[string][]string
	for _, tc := range []struct {
		name string
		ac   practiced.AppointmentClient
		body any
		want errs
	}{
		{"nulls", bookedAc, map[string]any{"status": nil, "confirmed": nil, "do_not_invoice": nil},
			errs{"status": {"cannot be null"}, "confirmed": {"cannot be null"}, "do_not_invoice": {"cannot be null"}}},
		{"values of the wrong shape", bookedAc, map[string]any{"status": "late", "confirmed": "yes", "note": 3, "do_not_invoice": 1,
			"case_id": benPkg.ID, "client_package_id": benCase.ID, "cancellation_reason_id": "illness", "cancellation_note": false},
			errs{"status": {"must be one of: booked, arrived, completed, no_show, cancelled"}, "confirmed": {"must be a boolean, not a string"},
				"note": {"must be a string, not a number"}, "do_not_invoice": {"must be a boolean, not a number"},
				"case_id": {"must be an id starting with cas_"}, "client_package_id": {"must be an id starting with cpk_"},
				"cancellation_reason_id": {"must be an id starting with cnr_"}, "cancellation_note": {"must be a string, not a boolean"}}},
		{"another client's case and package, an unknown reason", bookedAc, map[string]any{"case_id": benCase.ID, "client_package_id": benPkg.ID,
			"status": "cancelled", "cancellation_reason_id": e.b.Cancel.ID},
			errs{"case_id": {"is not a case of the client " + a.Clients[0].ID}, "client_package_id": {"is not a package of the client " + a.Clients[0].ID},
				"cancellation_reason_id": {"does not exist"}}},
		{"records that do not exist", bookedAc, map[string]any{"case_id": tid.New("cas"), "client_package_id": tid.New("cpk")},
			errs{"case_id": {"does not exist"}, "client_package_id": {"does not exist"}}},
		{"cancelling without a reason or note", bookedAc, map[string]any{"status": "cancelled"},
			errs{"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}}},
		{"cancelling with a blank note", bookedAc, map[string]any{"status": "cancelled", "cancellation_note": "  "},
			errs{"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}}},
		{"a cancellation reason without cancelling", bookedAc, map[string]any{"cancellation_reason_id": a.Cancel.ID, "cancellation_note": "Flu"},
			errs{"cancellation_reason_id": {"is only for a cancelled attendee: send it with status cancelled"},
				"cancellation_note": {"is only for a cancelled attendee: send it with status cancelled"}}},
		{"a cancellation reason with another move", bookedAc, map[string]any{"status": "arrived", "cancellation_note": "Flu"},
			errs{"cancellation_note": {"is only for a cancelled attendee: send it with status cancelled"}}},
		{"clearing a cancelled attendee's only reason", cancelledAc, map[string]any{"cancellation_note": ""},
			errs{"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}}},
		{"texts over 2000 characters and unknown fields", bookedAc, map[string]any{"note": strings.Repeat("a", 2001),
			"cancellation_note": strings.Repeat("b", 2001), "client_id": a.Clients[1].ID, "appointment_id": "x", "arrived_at": clock},
			errs{"note": {"must be at most 2000 characters (it has 2001)"}, "cancellation_note": {"must be at most 2000 characters (it has 2001)"},
				"client_id": {"is not a known field"}, "appointment_id": {"is not a known field"}, "arrived_at": {"is not a known field"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/v1/appointment_clients/" + tc.ac.ID
			before := e.get(t, path)
			wantInvalid(t, e.do("POST", path, a.Token, tc.body), tc.want, "")
			wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, jsonText(before))
		})
	}
}

func TestJoiningAGroupAppointmentTakesAFreePlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	more := []practiced.Client{newClient("Dan", "Dale", "dan@example.com"), newClient("Eve", "Eads", "eve@example.com")}
	seedData(t, e, a, practiced.SeedData{Clients: more})
	annCase := newCase(t, e, a.Clients[0].ID)
	pra := freshPractitioner(t, e)
	apt := e.booked(t, map[string]any{"location_id": a.Sydney.ID, "practitioner_id": pra.ID, "service_id": a.Group.ID,
		"starts_at": "2026-03-03T01:00:00Z", "clients": []any{map[string]any{"client_id": a.Clients[1].ID}}})
	id := apt["id"].(string)
	e.clock = later

	// Ann joins: a 201 with the whole attendee, and the appointment lists her.
	r := e.do("POST", "/v1/appointment_clients", a.Token, map[string]any{"appointment_id": id, "client_id": a.Clients[0].ID,
		"case_id": annCase.ID, "note": "First class"})
	wantStatus(t, r, http.StatusCreated)
	ann := r.JSON(t)
	annID, _ := ann["id"].(string)
	if !tid.Valid(annID, "apc") {
		t.Fatalf("id %q is not an apc_ id", annID)
	}
	wantBody(t, r, http.StatusCreated, jsonText(map[string]any{"id": annID, "appointment_id": id, "client_id": a.Clients[0].ID,
		"case_id": annCase.ID, "client_package_id": nil, "status": "booked", "do_not_invoice": false, "note": "First class",
		"confirmed": false, "confirmed_at": nil, "cancellation_reason_id": nil, "cancellation_note": "", "cancelled_at": nil,
		"arrived_at": nil, "starts_at": "2026-03-03T01:00:00Z", "ends_at": "2026-03-03T02:00:00Z",
		"created_at": laterText, "updated_at": laterText, "archived_at": nil}))
	wantBody(t, e.do("GET", "/v1/appointment_clients/"+annID, a.Token, nil), http.StatusOK, jsonText(ann))
	wantBody(t, e.do("GET", "/v1/appointments/"+id, a.Token, nil), http.StatusOK,
		jsonText(with(apt, "appointment_client_ids", []string{attendeeIDs(apt)[0], annID}, "updated_at", laterText)))

	join := func(clientID string) response {
		return e.do("POST", "/v1/appointment_clients", a.Token, map[string]any{"appointment_id": id, "client_id": clientID})
	}
	again := join(a.Clients[0].ID)
	wantInvalid(t, again, oneError("client_id", "already attends the appointment (as "+annID+")"), "")
	wantStatus(t, join(a.Clients[2].ID), http.StatusCreated)
	dan := join(more[0].ID)
	wantStatus(t, dan, http.StatusCreated)
	full := join(more[1].ID)
	wantInvalid(t, full, oneError("appointment_id", "has no free place: 4 of its 4 places are taken"), "")

	// A cancelled attendee frees a place, and may book again.
	wantStatus(t, e.do("POST", "/v1/appointment_clients/"+dan.JSON(t)["id"].(string), a.Token,
		map[string]any{"status": "cancelled", "cancellation_note": "Moved away"}), http.StatusOK)
	wantStatus(t, join(more[0].ID), http.StatusCreated)
	wantInvalid(t, join(more[1].ID), oneError("appointment_id", "has no free place: 4 of its 4 places are taken"), "")
	if n := len(e.listAll(t, "/v1/appointment_clients?appointment_id="+id, a.Token)); n != 5 {
		t.Fatalf("%d attendees, want 5 (4 places taken and one cancelled)", n)
	}
}

func TestJoiningRefusesFullCancelledAndInvalidRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	single, _ := seededAttendee(t, e, practiced.StatusBooked)
	gone, _ := seededAttendee(t, e, practiced.StatusCancelled)
	benCase := newCase(t, e, a.Clients[1].ID)
	bApt := newAppointment(e.b.Alice, e.b.Sydney, &e.b.Group, mustUTC("2026-03-03T01:00:00Z"), 60)
	seedData(t, e, e.b, practiced.SeedData{Appointments: []practiced.Appointment{bApt}})
	type errs = map[string][]string
	for _, tc := range []struct {
		name string
		body any
		want errs
	}{
		{"an appointment with one place", map[string]any{"appointment_id": single.ID, "client_id": a.Clients[1].ID},
			errs{"appointment_id": {"has no free place: 1 of its 1 places are taken"}}},
		{"a cancelled appointment", map[string]any{"appointment_id": gone.ID, "client_id": a.Clients[1].ID},
			errs{"appointment_id": {"is cancelled: a cancelled appointment takes no new clients"}}},
		{"empty body", map[string]any{}, errs{"appointment_id": {"is required"}, "client_id": {"is required"}}},
		{"nulls and wrong kinds", map[string]any{"appointment_id": nil, "client_id": a.Payer.ID, "case_id": 4},
			errs{"appointment_id": {"is required and cannot be null"}, "client_id": {"must be an id starting with cli_"},
				"case_id": {`must be an id string such as "cas_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`}}},
		{"the other business's records", map[string]any{"appointment_id": bApt.ID, "client_id": e.b.Clients[0].ID},
			errs{"appointment_id": {"does not exist"}, "client_id": {"does not exist"}}},
		{"another client's case, a long note, unknown fields", map[string]any{"appointment_id": single.ID, "client_id": a.Clients[0].ID,
			"case_id": benCase.ID, "note": strings.Repeat("x", 2001), "status": "arrived"},
			errs{"case_id": {"is not a case of the client " + a.Clients[0].ID}, "note": {"must be at most 2000 characters (it has 2001)"},
				"status": {"is not a known field"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do("POST", "/v1/appointment_clients", a.Token, tc.body), tc.want, "")
		})
	}
	for _, apt := range []practiced.Appointment{single, gone} {
		if n := len(e.listAll(t, "/v1/appointment_clients?appointment_id="+apt.ID, a.Token)); n != 1 {
			t.Fatalf("appointment %s has %d attendees after refused joins, want 1", apt.ID, n)
		}
	}
}

func TestCancellingTheLastAttendeeCancelsTheAppointment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	apt := e.booked(t, map[string]any{"location_id": a.Sydney.ID, "practitioner_id": pra.ID, "service_id": a.Group.ID,
		"starts_at": "2026-03-03T01:00:00Z", "clients": []any{map[string]any{"client_id": a.Clients[0].ID}, map[string]any{"client_id": a.Clients[1].ID}}})
	id, ids := apt["id"].(string), attendeeIDs(apt)
	cancel := map[string]any{"status": "cancelled", "cancellation_reason_id": a.Cancel.ID}

	e.clock = later
	wantStatus(t, e.do("POST", "/v1/appointment_clients/"+ids[0], a.Token, cancel), http.StatusOK)
	wantBody(t, e.do("GET", "/v1/appointments/"+id, a.Token, nil), http.StatusOK, jsonText(apt))
	runFilterCases(t, e, "/v1/appointments", []filterCase{{"still listed", qv("practitioner_id", pra.ID), []string{id}}})

	e.clock = later.Add(time.Hour)
	wantStatus(t, e.do("POST", "/v1/appointment_clients/"+ids[1], a.Token, cancel), http.StatusOK)
	wantBody(t, e.do("GET", "/v1/appointments/"+id, a.Token, nil), http.StatusOK,
		jsonText(with(apt, "cancelled_at", "2026-03-02T00:00:00Z", "updated_at", "2026-03-02T00:00:00Z")))
	runFilterCases(t, e, "/v1/appointments", []filterCase{
		{"hidden once cancelled", qv("practitioner_id", pra.ID), nil},
		{"shown with include_cancelled", qv("practitioner_id", pra.ID, "include_cancelled", "true"), []string{id}},
	})
	e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[2].ID, map[string]any{"duration": 60}))
}
