package httpapi_test

import "testing"

// TestAppointmentsMatchTheOpenAPIDocument drives every operation of
// openapi/fragments/appointments.json through the live API, provokes each
// response it documents, and validates requests and responses against
// the merged document, as TestOpenAPIContract does for the base document.
func TestAppointmentsMatchTheOpenAPIDocument(t *testing.T) {
	e := newEnv(t)
	c := newOAContract(t, e)
	c.provokeRateLimits("../openapi/fragments/appointments.json")
	a := e.a
	tok := a.Token

	booking := map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "service_id": a.Group.ID,
		"starts_at": "2026-03-03T12:00:00+11:00", "notes": "Mat class", "allow_overlap": false,
		"clients": []any{map[string]any{"client_id": a.Clients[0].ID, "case_id": nil, "client_package_id": nil, "note": "Front row"}}}
	apt := c.call(oaReq{method: "POST", path: "/v1/appointments", token: tok, body: oaJSON(t, booking)}, 201, reqValid).(map[string]any)
	id := apt["id"].(string)
	apc := apt["appointment_client_ids"].([]any)[0].(string)
	aptPath, apcPath := "/v1/appointments/"+id, "/v1/appointment_clients/"+apc
	c.writeErrors("/v1/appointments", oaJSON(t, booking))
	body := c.call(oaReq{method: "POST", path: "/v1/appointments", token: tok, body: `{}`}, 422, reqInvalid)
	oaWantErrorFields(t, "empty booking", body, "location_id", "practitioner_id", "starts_at", "duration", "clients")
	body = c.call(oaReq{method: "POST", path: "/v1/appointments", token: tok, body: oaJSON(t, booking)}, 422, reqValid)
	oaWantErrorFields(t, "conflicting booking", body, "starts_at")
	c.keep("booking conflict", oaReq{method: "POST", path: "/v1/appointments", token: tok, body: oaJSON(t, booking)})

	// Lists and reads.
	list := c.call(oaReq{method: "GET", path: "/v1/appointments?practitioner_id=" + a.Alice.ID + "&location_id=" + a.Sydney.ID +
		"&client_id=" + a.Clients[0].ID + "&starts_after=2026-03-03T00:00:00Z&starts_before=2026-03-04T00:00:00Z&include_cancelled=false" +
		"&include_archived=false&updated_since=2026-01-01T00:00:00Z&limit=5", token: tok}, 200, reqValid)
	oaWantIDs(t, "appointment list", oaIDs(t, list), id)
	c.keep("appointment list", oaReq{method: "GET", path: "/v1/appointments", token: tok})
	c.call(oaReq{method: "GET", path: "/v1/appointments"}, 401, reqInvalid)
	body = c.call(oaReq{method: "GET", path: "/v1/appointments?include_cancelled=maybe&practitioner_id=" + a.Sydney.ID, token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "appointment list", body, "include_cancelled", "practitioner_id")
	for _, p := range []string{aptPath, apcPath} {
		c.call(oaReq{method: "GET", path: p, token: tok}, 200, reqValid)
		c.keep(p, oaReq{method: "GET", path: p, token: tok})
		c.call(oaReq{method: "GET", path: p}, 401, reqInvalid)
	}
	c.call(oaReq{method: "GET", path: "/v1/appointments/" + e.b.Alice.ID, token: tok}, 404, reqInvalid)
	c.call(oaReq{method: "GET", path: "/v1/appointment_clients/apc_01h455vb4pex5vsknk084sn02q", token: tok}, 404, reqValid)

	// Joining, changing an attendee.
	join := map[string]any{"appointment_id": id, "client_id": a.Clients[1].ID, "case_id": nil, "client_package_id": nil, "note": nil}
	joined := c.call(oaReq{method: "POST", path: "/v1/appointment_clients", token: tok, body: oaJSON(t, join)}, 201, reqValid).(map[string]any)
	c.writeErrors("/v1/appointment_clients", oaJSON(t, join))
	body = c.call(oaReq{method: "POST", path: "/v1/appointment_clients", token: tok, body: oaJSON(t, join)}, 422, reqValid)
	oaWantErrorFields(t, "joining twice", body, "client_id")
	change := map[string]any{"status": "arrived", "confirmed": true, "note": "Late", "do_not_invoice": true, "case_id": nil,
		"client_package_id": nil}
	c.call(oaReq{method: "POST", path: "/v1/appointment_clients/" + joined["id"].(string), token: tok, body: oaJSON(t, change)}, 200, reqValid)
	c.keep("changed attendee", oaReq{method: "POST", path: "/v1/appointment_clients/" + joined["id"].(string), token: tok, body: `{}`})
	c.writeErrors(apcPath, oaJSON(t, change))
	body = c.call(oaReq{method: "POST", path: apcPath, token: tok, body: `{"status":"completed"}`}, 422, reqValid)
	oaWantErrorFields(t, "booked to completed", body, "status")
	c.call(oaReq{method: "POST", path: "/v1/appointment_clients/" + e.b.Alice.ID, token: tok, body: `{}`}, 404, reqInvalid)

	// Rescheduling and cancelling.
	move := map[string]any{"starts_at": "2026-03-03T02:00:00Z", "duration": 45, "practitioner_id": a.Alice.ID, "location_id": a.Sydney.ID,
		"notes": nil, "allow_overlap": false}
	c.call(oaReq{method: "POST", path: aptPath, token: tok, body: oaJSON(t, move)}, 200, reqValid)
	c.writeErrors(aptPath, oaJSON(t, move))
	body = c.call(oaReq{method: "POST", path: aptPath, token: tok, body: `{"duration":4}`}, 422, reqInvalid)
	oaWantErrorFields(t, "short move", body, "duration")
	c.call(oaReq{method: "POST", path: "/v1/appointments/" + e.b.Alice.ID, token: tok, body: `{}`}, 404, reqInvalid)
	cancelPath := aptPath + "/cancel"
	cancel := map[string]any{"cancellation_reason_id": a.Cancel.ID, "cancellation_note": "Closed"}
	c.writeErrors(cancelPath, oaJSON(t, cancel))
	body = c.call(oaReq{method: "POST", path: cancelPath, token: tok, body: `{}`}, 422, reqValid)
	oaWantErrorFields(t, "cancel without a reason", body, "cancellation_reason_id")
	c.call(oaReq{method: "POST", path: cancelPath, token: tok, body: oaJSON(t, cancel)}, 200, reqValid)
	c.call(oaReq{method: "POST", path: "/v1/appointments/apt_1/cancel", token: tok, body: `{}`}, 404, reqInvalid)
	c.keep("cancelled appointment", oaReq{method: "POST", path: cancelPath, token: tok, body: oaJSON(t, cancel)})

	// Archiving.
	for _, p := range []string{aptPath, apcPath} {
		for _, verb := range []string{"/archive", "/unarchive"} {
			c.call(oaReq{method: "POST", path: p + verb, token: tok}, 200, reqValid)
			c.writeErrors(p+verb, `{}`)
			body = c.call(oaReq{method: "POST", path: p + verb, token: tok, body: `{"now":true}`}, 422, reqInvalid)
			oaWantErrorFields(t, p+verb, body, "now")
		}
	}
	c.call(oaReq{method: "POST", path: "/v1/appointments/" + e.b.Alice.ID + "/archive", token: tok}, 404, reqInvalid)
	c.call(oaReq{method: "POST", path: "/v1/appointments/" + e.b.Alice.ID + "/unarchive", token: tok}, 404, reqInvalid)
	c.call(oaReq{method: "POST", path: "/v1/appointment_clients/" + e.b.Alice.ID + "/archive", token: tok}, 404, reqInvalid)
	c.call(oaReq{method: "POST", path: "/v1/appointment_clients/" + e.b.Alice.ID + "/unarchive", token: tok}, 404, reqInvalid)

	// Internal errors.
	c.breakStore()
	c.call(oaReq{method: "GET", path: "/v1/appointments", token: tok}, 500, reqValid)
	c.call(oaReq{method: "POST", path: "/v1/appointments", token: tok, body: oaJSON(t, booking)}, 500, reqValid)
	for _, p := range []string{aptPath, apcPath} {
		c.call(oaReq{method: "GET", path: p, token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: p, token: tok, body: `{}`}, 500, reqValid)
		c.call(oaReq{method: "POST", path: p + "/archive", token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: p + "/unarchive", token: tok}, 500, reqValid)
	}
	c.call(oaReq{method: "POST", path: cancelPath, token: tok, body: oaJSON(t, cancel)}, 500, reqValid)
	c.call(oaReq{method: "POST", path: "/v1/appointment_clients", token: tok, body: oaJSON(t, join)}, 500, reqValid)

	// Every response the fragment documents was provoked and validated.
	c.assertFragmentCovered("appointments.json")
	c.assertStrict()
}
