package httpapi_test

import (
	"strings"
	"testing"
)

// TestChangeFeedAreaMatchesTheOpenAPIDocument drives every operation of
// openapi/fragments/events.json through the live API, provokes each
// response it documents, and validates requests and responses against
// the merged document, as TestOpenAPIContract does for the base document.
func TestChangeFeedAreaMatchesTheOpenAPIDocument(t *testing.T) {
	e := newEnv(t)
	c := newOAContract(t, e)
	c.provokeRateLimits("../openapi/fragments/events.json")
	a := e.a
	tok := a.Token

	// Clients.
	full := map[string]any{
		"first_name": "Zoe", "last_name": "Zed", "title": nil, "email": "zoe@example.com",
		"phone_numbers":   []any{map[string]any{"number": "0412345678", "code": "61", "type": "mobile"}},
		"address":         map[string]any{"line1": "1 Main St", "country_code": "AU"},
		"tag_ids":         []string{a.Tag.ID},
		"ndis_details":    map[string]any{"ndis_number": "430000000"},
		"related_clients": []any{map[string]any{"related_client_id": a.Clients[0].ID}},
	}
	client := c.call(oaReq{method: "POST", path: "/v1/clients", token: tok, body: oaJSON(t, full)}, 201, reqValid).(map[string]any)
	clientPath := "/v1/clients/" + client["id"].(string)
	c.writeErrors("/v1/clients", oaJSON(t, full))
	body := c.call(oaReq{method: "POST", path: "/v1/clients", token: tok, body: `{"email":"zoe"}`}, 422, reqInvalid)
	oaWantErrorFields(t, "client without names", body, "first_name", "last_name", "email")
	body = c.call(oaReq{method: "POST", path: "/v1/clients", token: tok, body: oaJSON(t, map[string]any{"first_name": "Zoe", "last_name": "Zed",
		"tag_ids": []string{e.b.Tag.ID}})}, 422, reqValid)
	oaWantErrorFields(t, "client with a tag of another business", body, "tag_ids.0")
	c.call(oaReq{method: "GET", path: clientPath, token: tok}, 200, reqValid)
	c.keep("client", oaReq{method: "GET", path: clientPath, token: tok})
	c.call(oaReq{method: "GET", path: clientPath}, 401, reqInvalid)
	c.call(oaReq{method: "GET", path: "/v1/clients/" + e.b.Clients[0].ID, token: tok}, 404, reqValid)
	c.call(oaReq{method: "GET", path: "/v1/clients/cli_1", token: tok}, 404, reqInvalid)
	for _, verb := range []string{"/archive", "/unarchive"} {
		c.call(oaReq{method: "POST", path: clientPath + verb, token: tok}, 200, reqValid)
		c.call(oaReq{method: "POST", path: clientPath + verb, token: tok, body: `{}`}, 200, reqValid)
		c.writeErrors(clientPath+verb, `{}`)
		body = c.call(oaReq{method: "POST", path: clientPath + verb, token: tok, body: `{"now":true}`}, 422, reqInvalid)
		oaWantErrorFields(t, clientPath+verb, body, "now")
		c.call(oaReq{method: "POST", path: "/v1/clients/" + e.b.Clients[0].ID + verb, token: tok}, 404, reqValid)
	}

	// Busy times.
	series := busyBody(a.Sydney, a.Alice, "2026-03-23T22:00:00Z", "2026-03-23T23:00:00Z",
		map[string]any{"repeating_rule": map[string]any{"frequency": "weekly", "occurrences": 4}})
	first := c.call(oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: oaJSON(t, series)}, 201, reqValid).(map[string]any)
	occ := e.listAll(t, "/v1/busy_times?practitioner_id="+a.Alice.ID, tok)
	if len(occ) != 4 || occ[0]["id"] != first["id"] {
		t.Fatalf("series %v", occ)
	}
	btPath := func(i int) string { return "/v1/busy_times/" + idOf(occ[i]) }
	c.call(oaReq{method: "GET", path: btPath(0), token: tok}, 200, reqValid)
	c.keep("busy time", oaReq{method: "GET", path: btPath(0), token: tok})
	c.call(oaReq{method: "GET", path: btPath(0)}, 401, reqInvalid)
	c.call(oaReq{method: "GET", path: "/v1/busy_times/" + a.Alice.ID, token: tok}, 404, reqInvalid)
	change := map[string]any{"scope": "following", "starts_at": "2026-03-31T09:30:00+11:00", "ends_at": "2026-03-31T11:00:00+11:00",
		"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "busy_time_type_id": nil, "name": "Moved", "note": nil,
		"room_id": "room-1", "vehicle_id": nil, "resource_ids": []string{"desk"}}
	c.call(oaReq{method: "POST", path: btPath(1), token: tok, body: oaJSON(t, change)}, 200, reqValid)
	c.keep("changed busy time", oaReq{method: "POST", path: btPath(1), token: tok, body: `{"scope":"this"}`})
	c.writeErrors(btPath(1), `{}`)
	body = c.call(oaReq{method: "POST", path: btPath(1), token: tok, body: `{"starts_at":null,"repeating_rule":{}}`}, 422, reqInvalid)
	oaWantErrorFields(t, "busy time update", body, "starts_at", "repeating_rule")
	body = c.call(oaReq{method: "POST", path: btPath(1), token: tok, body: oaJSON(t, map[string]any{"location_id": e.b.Sydney.ID})}, 422, reqValid)
	oaWantErrorFields(t, "busy time at another business's location", body, "location_id")
	c.call(oaReq{method: "POST", path: "/v1/busy_times/" + e.b.Alice.ID, token: tok, body: `{}`}, 404, reqInvalid)
	for _, verb := range []string{"/archive", "/unarchive"} {
		c.call(oaReq{method: "POST", path: btPath(0) + verb, token: tok}, 200, reqValid)
		c.writeErrors(btPath(0)+verb, `{}`)
		body = c.call(oaReq{method: "POST", path: btPath(0) + verb, token: tok, body: `{"scope":"this"}`}, 422, reqInvalid)
		oaWantErrorFields(t, btPath(0)+verb, body, "scope")
		c.call(oaReq{method: "POST", path: "/v1/busy_times/bti_1" + verb, token: tok}, 404, reqInvalid)
	}
	c.call(oaReq{method: "DELETE", path: btPath(3), token: tok}, 200, reqValid)
	c.call(oaReq{method: "DELETE", path: btPath(1) + "?scope=following", token: tok}, 200, reqValid)
	c.call(oaReq{method: "DELETE", path: btPath(0)}, 401, reqInvalid)
	c.call(oaReq{method: "DELETE", path: btPath(0), token: a.ReadOnlyToken}, 403, reqValid)
	c.call(oaReq{method: "DELETE", path: btPath(0), token: tok, body: `{}`, contentType: "text/plain"}, 415, reqInvalid)
	c.call(oaReq{method: "DELETE", path: btPath(0), token: tok, body: `{"x":"` + strings.Repeat("a", 1<<20) + `"}`}, 413, reqInvalid)
	c.call(oaReq{method: "DELETE", path: btPath(0), token: tok, body: `[1]`}, 400, reqInvalid)
	body = c.call(oaReq{method: "DELETE", path: btPath(0) + "?scope=all", token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "delete scope", body, "scope")
	c.call(oaReq{method: "DELETE", path: btPath(3), token: tok}, 404, reqValid)

	// The change feed.
	list := c.call(oaReq{method: "GET", path: "/v1/events?type=client.created&type=busy_time.deleted&record_type=client&record_id=" +
		client["id"].(string) + "&since=2026-01-01T00:00:00Z&limit=5", token: tok}, 200, reqValid)
	events := oaIDs(t, list)
	if len(events) != 1 {
		t.Fatalf("events of the new client's creation: %v", events)
	}
	all := c.call(oaReq{method: "GET", path: "/v1/events?limit=100", token: tok}, 200, reqValid)
	if n := len(oaIDs(t, all)); n < 10 {
		t.Fatalf("%d events", n)
	}
	c.call(oaReq{method: "GET", path: "/v1/events"}, 401, reqInvalid)
	body = c.call(oaReq{method: "GET", path: "/v1/events?type=client.update&record_type=clients&since=2026-01-01", token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "event list", body, "type", "record_type", "since")
	c.call(oaReq{method: "GET", path: "/v1/events/" + events[0], token: tok}, 200, reqValid)
	c.call(oaReq{method: "GET", path: "/v1/events/" + events[0]}, 401, reqInvalid)
	c.call(oaReq{method: "GET", path: "/v1/events/" + client["id"].(string), token: tok}, 404, reqInvalid)
	c.call(oaReq{method: "GET", path: "/v1/events/evt_01h455vb4pex5vsknk084sn02q", token: tok}, 404, reqValid)

	// Internal errors.
	c.breakStore()
	c.call(oaReq{method: "POST", path: "/v1/clients", token: tok, body: oaJSON(t, full)}, 500, reqValid)
	for _, p := range []string{clientPath, btPath(0)} {
		c.call(oaReq{method: "GET", path: p, token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: p + "/archive", token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: p + "/unarchive", token: tok}, 500, reqValid)
	}
	c.call(oaReq{method: "POST", path: btPath(0), token: tok, body: `{}`}, 500, reqValid)
	c.call(oaReq{method: "DELETE", path: btPath(0), token: tok}, 500, reqValid)
	c.call(oaReq{method: "GET", path: "/v1/events", token: tok}, 500, reqValid)
	c.call(oaReq{method: "GET", path: "/v1/events/" + events[0], token: tok}, 500, reqValid)

	// Every response the fragment documents was provoked and validated.
	c.assertFragmentCovered("events.json")
	c.assertStrict()
}
