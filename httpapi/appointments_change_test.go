package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
)

// Rescheduling, cancelling and archiving appointments.

// later is the clock of changes made after booking, so that updated_at
// tells them apart.
var later = testfix.Now.Add(time.Hour)

const laterText = "2026-03-01T23:00:00Z"

// get reads one record through the API.
func (e *env) get(t *testing.T, path string) map[string]any {
	t.Helper()
	r := e.do("GET", path, e.a.Token, nil)
	wantStatus(t, r, http.StatusOK)
	return r.JSON(t)
}

// with returns a copy of m with the given fields replaced.
func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestRescheduleMovesTheAppointmentAndItsAttendees(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra, pra2 := freshPractitioner(t, e), freshPractitioner(t, e)
	apt := e.booked(t, map[string]any{"location_id": a.Sydney.ID, "practitioner_id": pra.ID, "service_id": a.Group.ID,
		"starts_at": "2026-03-03T01:00:00Z", "clients": []any{map[string]any{"client_id": a.Clients[0].ID}, map[string]any{"client_id": a.Clients[1].ID}}})
	other := e.booked(t, book(a.Sydney, pra, "2026-03-03T04:00:00Z", a.Clients[2].ID, map[string]any{"duration": 30}))
	id := apt["id"].(string)
	path := "/v1/appointments/" + id
	e.clock = later

	steps := []struct {
		name string
		body map[string]any
		want map[string]any // the appointment after the step
	}{
		{"an empty body changes nothing", map[string]any{}, apt},
		{"moving 15 minutes later overlaps only itself", map[string]any{"starts_at": "2026-03-03T12:15:00+11:00"},
			with(apt, "starts_at", "2026-03-03T01:15:00Z", "ends_at", "2026-03-03T02:15:00Z", "updated_at", laterText)},
		{"a new length keeps the start", map[string]any{"duration": 90},
			with(apt, "starts_at", "2026-03-03T01:15:00Z", "ends_at", "2026-03-03T02:45:00Z", "duration", 90, "updated_at", laterText)},
		{"notes alone", map[string]any{"notes": "Room 2"},
			with(apt, "starts_at", "2026-03-03T01:15:00Z", "ends_at", "2026-03-03T02:45:00Z", "duration", 90, "notes", "Room 2", "updated_at", laterText)},
		{"null notes clear them", map[string]any{"notes": nil},
			with(apt, "starts_at", "2026-03-03T01:15:00Z", "ends_at", "2026-03-03T02:45:00Z", "duration", 90, "updated_at", laterText)},
		{"to another practitioner, buffers kept clear of the other appointment", map[string]any{"practitioner_id": pra2.ID, "starts_at": "2026-03-03T02:50:00Z", "duration": 60},
			with(apt, "practitioner_id", pra2.ID, "starts_at", "2026-03-03T02:50:00Z", "ends_at", "2026-03-03T03:50:00Z", "updated_at", laterText)},
		{"next to another appointment of the new practitioner once it is theirs", map[string]any{"practitioner_id": pra.ID, "starts_at": "2026-03-03T02:50:00Z"},
			with(apt, "starts_at", "2026-03-03T02:50:00Z", "ends_at", "2026-03-03T03:50:00Z", "updated_at", laterText)},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			r := e.do("POST", path, a.Token, st.body)
			wantBody(t, r, http.StatusOK, jsonText(st.want))
			wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, jsonText(st.want))
			for _, ac := range e.listAll(t, "/v1/appointment_clients?appointment_id="+id, a.Token) {
				if ac["starts_at"] != st.want["starts_at"] || ac["ends_at"] != st.want["ends_at"] {
					t.Fatalf("attendee %s at %s-%s, want the appointment's %s-%s", ac["id"], ac["starts_at"], ac["ends_at"], st.want["starts_at"], st.want["ends_at"])
				}
				moved := st.want["starts_at"] != apt["starts_at"]
				if wantUpdated := map[bool]string{true: laterText, false: clock}[moved]; ac["updated_at"] != wantUpdated {
					t.Fatalf("attendee updated_at %s, want %s", ac["updated_at"], wantUpdated)
				}
			}
		})
	}

	// Its buffers (10 minutes) reach the other appointment at 04:00Z.
	moved := e.get(t, path)
	r := e.do("POST", path, a.Token, map[string]any{"starts_at": "2026-03-03T03:00:00Z"})
	msg := "conflicts with the practitioner's appointment " + other["id"].(string) + " (send allow_overlap: true to book it anyway)"
	wantInvalid(t, r, oneError("starts_at", msg), "starts_at "+msg)
	wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, jsonText(moved))
	r = e.do("POST", path, a.Token, map[string]any{"starts_at": "2026-03-03T03:00:00Z", "allow_overlap": true})
	wantBody(t, r, http.StatusOK, jsonText(with(moved, "starts_at", "2026-03-03T03:00:00Z", "ends_at", "2026-03-03T04:00:00Z")))
}

func TestRescheduleRefusesInvalidChangesAndChangesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	group := e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"service_id": a.Group.ID}))
	bobs := e.booked(t, book(a.Sydney, a.Bob, "2026-03-03T01:00:00Z", a.Clients[1].ID, map[string]any{"duration": 30}))
	gone := e.booked(t, book(a.Sydney, pra, "2026-03-04T01:00:00Z", a.Clients[2].ID, map[string]any{"duration": 30}))
	wantStatus(t, e.do("POST", "/v1/appointments/"+gone["id"].(string)+"/cancel", a.Token, map[string]any{"cancellation_note": "Unwell"}), http.StatusOK)
	gone = e.get(t, "/v1/appointments/"+gone["id"].(string))
	type errs = map[string][]string
	for _, tc := range []struct {
		name string
		apt  map[string]any
		body map[string]any
		want errs
	}{
		{"nulls", group, map[string]any{"starts_at": nil, "duration": nil, "practitioner_id": nil, "location_id": nil},
			errs{"starts_at": {"cannot be null"}, "duration": {"cannot be null"}, "practitioner_id": {"cannot be null"}, "location_id": {"cannot be null"}}},
		{"values of the wrong shape", group, map[string]any{"starts_at": "tomorrow", "duration": 481, "practitioner_id": a.Sydney.ID,
			"location_id": 7, "notes": strings.Repeat("n", 2001), "allow_overlap": 1},
			errs{"starts_at": {"must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"}, "duration": {"must be between 5 and 480"},
				"practitioner_id": {"must be an id starting with pra_"},
				"location_id":     {`must be an id string such as "loc_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`},
				"notes":           {"must be at most 2000 characters (it has 2001)"}, "allow_overlap": {"must be a boolean, not a number"}}},
		{"fields that cannot change", group, map[string]any{"service_id": a.Consult.ID, "clients": []any{}, "max_clients": 2},
			errs{"service_id": {"is not a known field"}, "clients": {"is not a known field"}, "max_clients": {"is not a known field"}}},
		{"records that do not exist", group, map[string]any{"practitioner_id": e.b.Alice.ID, "location_id": e.b.Sydney.ID},
			errs{"practitioner_id": {"does not exist"}, "location_id": {"does not exist"}}},
		{"a practitioner who does not work at the location", bobs, map[string]any{"practitioner_id": a.Bob.ID, "location_id": a.Adelaide.ID},
			errs{"practitioner_id": {"does not work at the location " + a.Adelaide.ID}}},
		{"a location the practitioner does not work at", bobs, map[string]any{"location_id": a.Adelaide.ID},
			errs{"location_id": {"is not a location the practitioner " + a.Bob.ID + " works at"}}},
		{"a location that does not offer the service", group, map[string]any{"location_id": a.Adelaide.ID},
			errs{"location_id": {"does not offer the appointment's service " + a.Group.ID}}},
		{"moving a cancelled appointment", gone, map[string]any{"starts_at": "2026-03-05T01:00:00Z", "duration": 45},
			errs{"starts_at": {"cannot change: the appointment is cancelled"}, "duration": {"cannot change: the appointment is cancelled"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/v1/appointments/" + tc.apt["id"].(string)
			wantInvalid(t, e.do("POST", path, a.Token, tc.body), tc.want, "")
			wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, jsonText(tc.apt))
		})
	}
	// The notes of a cancelled appointment may still change.
	r := e.do("POST", "/v1/appointments/"+gone["id"].(string), a.Token, map[string]any{"notes": "Called to rebook"})
	wantBody(t, r, http.StatusOK, jsonText(with(gone, "notes", "Called to rebook")))
}

func TestCancelAppointmentCancelsEveryAttendeeAndFreesTheTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	apt := e.booked(t, map[string]any{"location_id": a.Sydney.ID, "practitioner_id": pra.ID, "service_id": a.Group.ID,
		"starts_at": "2026-03-03T01:00:00Z", "clients": []any{map[string]any{"client_id": a.Clients[0].ID},
			map[string]any{"client_id": a.Clients[1].ID}, map[string]any{"client_id": a.Clients[2].ID}}})
	id, ids := apt["id"].(string), attendeeIDs(apt)
	wantStatus(t, e.do("POST", "/v1/appointment_clients/"+ids[1], a.Token, map[string]any{"status": "arrived"}), http.StatusOK)
	wantStatus(t, e.do("POST", "/v1/appointment_clients/"+ids[2], a.Token, map[string]any{"status": "cancelled", "cancellation_note": "Unwell"}), http.StatusOK)
	before := make([]map[string]any, 3)
	for i, apc := range ids {
		before[i] = e.get(t, "/v1/appointment_clients/"+apc)
	}
	path := "/v1/appointments/" + id + "/cancel"

	type errs = map[string][]string
	for _, tc := range []struct {
		name string
		body any
		want errs
	}{
		{"no reason nor note", nil, errs{"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}}},
		{"a blank note and a null reason", map[string]any{"cancellation_note": " ", "cancellation_reason_id": nil},
			errs{"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}}},
		{"a reason that does not exist", map[string]any{"cancellation_reason_id": e.b.Cancel.ID}, errs{"cancellation_reason_id": {"does not exist"}}},
		{"a reason of the wrong kind", map[string]any{"cancellation_reason_id": a.Tag.ID}, errs{"cancellation_reason_id": {"must be an id starting with cnr_"}}},
		{"a long note and an unknown field", map[string]any{"cancellation_note": strings.Repeat("x", 2001), "status": "cancelled"},
			errs{"cancellation_note": {"must be at most 2000 characters (it has 2001)"}, "status": {"is not a known field"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do("POST", path, a.Token, tc.body), tc.want, "")
			wantBody(t, e.do("GET", "/v1/appointments/"+id, a.Token, nil), http.StatusOK, jsonText(apt))
		})
	}

	e.clock = later
	r := e.do("POST", path, a.Token, map[string]any{"cancellation_reason_id": a.Cancel.ID, "cancellation_note": "Clinic closed"})
	cancelledApt := with(apt, "cancelled_at", laterText, "updated_at", laterText)
	wantBody(t, r, http.StatusOK, jsonText(cancelledApt))
	for i, apc := range ids[:2] {
		want := with(before[i], "status", "cancelled", "cancelled_at", laterText, "cancellation_reason_id", a.Cancel.ID,
			"cancellation_note", "Clinic closed", "updated_at", laterText)
		wantBody(t, e.do("GET", "/v1/appointment_clients/"+apc, a.Token, nil), http.StatusOK, jsonText(want))
	}
	wantBody(t, e.do("GET", "/v1/appointment_clients/"+ids[2], a.Token, nil), http.StatusOK, jsonText(before[2]))

	// Cancelling again changes nothing.
	e.clock = later.Add(time.Hour)
	wantBody(t, e.do("POST", path, a.Token, map[string]any{"cancellation_note": "Again"}), http.StatusOK, jsonText(cancelledApt))

	// It leaves the default list, and the time is free again.
	runFilterCases(t, e, "/v1/appointments", []filterCase{
		{"cancelled appointments are hidden", qv("practitioner_id", pra.ID), nil},
		{"include_cancelled shows them", qv("practitioner_id", pra.ID, "include_cancelled", "true"), []string{id}},
	})
	e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"duration": 60}))
}

func TestCancelAppointmentRefusesWhenAnAttendeeCompletedOrDidNotShow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	apt := newAppointment(a.Alice, a.Sydney, &a.Group, mustUTC("2026-02-27T01:00:00Z"), 60)
	done := newAppointmentClient(apt, a.Clients[0].ID, practiced.StatusCompleted)
	done.ArrivedAt = &seeded
	missed := newAppointmentClient(apt, a.Clients[1].ID, practiced.StatusNoShow)
	waiting := newAppointmentClient(apt, a.Clients[2].ID, practiced.StatusBooked)
	seedData(t, e, a, practiced.SeedData{Appointments: []practiced.Appointment{apt},
		AppointmentClients: []practiced.AppointmentClient{done, missed, waiting}})
	before := e.get(t, "/v1/appointments/"+apt.ID)
	r := e.do("POST", "/v1/appointments/"+apt.ID+"/cancel", a.Token, map[string]any{"cancellation_note": "Closed"})
	wantInvalid(t, r, map[string][]string{
		"appointment_client_ids.0": {"names an attendee that cannot change from completed to cancelled (completed is final)"},
		"appointment_client_ids.1": {"names an attendee that cannot change from no_show to cancelled (from no_show it can change to booked)"},
	}, "appointment_client_ids.0 names an attendee that cannot change from completed to cancelled (completed is final) (and 1 more error)")
	wantBody(t, e.do("GET", "/v1/appointments/"+apt.ID, a.Token, nil), http.StatusOK, jsonText(before))
	if got := e.get(t, "/v1/appointment_clients/"+waiting.ID)["status"]; got != "booked" {
		t.Fatalf("an attendee of a refused cancellation is %s", got)
	}
}

func TestArchivingAnAppointmentHidesItAndFreesItsTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	pra := freshPractitioner(t, e)
	apt := e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[0].ID, map[string]any{"duration": 30}))
	id := apt["id"].(string)
	e.clock = later
	archived := with(apt, "archived_at", laterText, "updated_at", laterText)
	wantBody(t, e.do("POST", "/v1/appointments/"+id+"/archive", a.Token, nil), http.StatusOK, jsonText(archived))
	wantBody(t, e.do("POST", "/v1/appointments/"+id+"/archive", a.Token, nil), http.StatusOK, jsonText(archived))
	runFilterCases(t, e, "/v1/appointments", []filterCase{
		{"archived appointments are hidden", qv("practitioner_id", pra.ID), nil},
		{"include_archived shows them", qv("practitioner_id", pra.ID, "include_archived", "true"), []string{id}},
	})
	other := e.booked(t, book(a.Sydney, pra, "2026-03-03T01:00:00Z", a.Clients[1].ID, map[string]any{"duration": 30}))
	wantBody(t, e.do("POST", "/v1/appointments/"+id+"/unarchive", a.Token, map[string]any{}), http.StatusOK,
		jsonText(with(apt, "updated_at", laterText)))
	// Unarchiving is the clinic's call, overlap or not.
	runFilterCases(t, e, "/v1/appointments", []filterCase{
		{"both are listed again", qv("practitioner_id", pra.ID), []string{id, other["id"].(string)}},
	})
	wantInvalid(t, e.do("POST", "/v1/appointments/"+id+"/archive", a.Token, map[string]any{"now": true}),
		oneError("now", "is not a known field"), "now is not a known field")

	apc := attendeeIDs(apt)[0]
	got := e.do("POST", "/v1/appointment_clients/"+apc+"/archive", a.Token, nil)
	wantStatus(t, got, http.StatusOK)
	if m := got.JSON(t); m["archived_at"] != laterText || m["status"] != "booked" {
		t.Fatalf("archived attendee %v", m)
	}
	runFilterCases(t, e, "/v1/appointment_clients", []filterCase{
		{"archived attendees are hidden", qv("appointment_id", id), nil},
		{"include_archived shows them", qv("appointment_id", id, "include_archived", "true"), []string{apc}},
	})
	wantStatus(t, e.do("POST", "/v1/appointment_clients/"+apc+"/unarchive", a.Token, nil), http.StatusOK)
}
