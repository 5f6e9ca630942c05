package httpapi_test

import (
	"strings"
	"testing"

	"github.com/practiced/practiced/tid"
)

// TestSetupAndPeopleMatchTheOpenAPIDocument drives every operation of
// openapi/fragments/resources.json through the live API, provokes each
// response it documents, and validates requests and responses against
// the merged document, as TestOpenAPIContract does for the base document.
func TestSetupAndPeopleMatchTheOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := newOAContract(t, e)
	c.provokeRateLimits("../openapi/fragments/resources.json")
	a := e.a
	tok := a.Token

	ids := map[string]string{"SYD": a.Sydney.ID, "ADL": a.Adelaide.ID, "CONSULT": a.Consult.ID, "TAG": a.Tag.ID,
		"ANN": a.Clients[0].ID, "MED": tid.New("med")}
	kinds := []struct {
		plural string
		// create and update are full valid bodies; bad is a body the
		// document refuses too; filters are a valid list query.
		create, update, bad, filters string
		// badQuery is a list query the document refuses too.
		badQuery string
	}{
		{"locations",
			`{"name":"Parramatta","description":"Upstairs","email":"p@example.com","phone":"02 9000 1234","timezone":"Australia/Sydney",
			"online_appointment_booking":true,"online_class_booking":null,"tax_identifier":"51 824 753 556","tax_identifier_label":"ABN",
			"ndis_number":"4050000001","logo_id":"MED","image_id":null,
			"opening_hours":{"mon_active":true,"mon_opens_at":"08:30","mon_closes_at":"24:00","tue_active":false,"tue_opens_at":null,"tue_closes_at":null},
			"address":{"line1":"1 Church St","line2":null,"city":"Parramatta","state":"NSW","postal_code":"2150","country_code":"au",
				"latitude":-33.8,"longitude":151.0,"formatted_address_geocoder_estimate":null,"place_id":null}}`,
			`{"name":"Parramatta West","description":null,"email":null,"phone":null,"timezone":"Australia/Perth","online_appointment_booking":null,
			"online_class_booking":true,"tax_identifier":null,"tax_identifier_label":null,"ndis_number":null,"logo_id":null,"image_id":"MED",
			"opening_hours":null,"address":null}`,
			`{"name":"","timezone":"Australia/Sydney","opening_hours":{"mon_opens_at":"9am"}}`, "", "limit=0"},
		{"contacts",
			`{"type":"referrer","title":"Dr","first_name":"Jo","last_name":"Lee","preferred_name":null,"profession":"GP","company":"Harbour",
			"email":"jo@example.com","notes":"Fax","phone_numbers":[{"id":null,"number":"0400 111 222","code":"+61","type":"work"}],
			"address":{"city":"Sydney"},"tag_ids":["TAG"]}`,
			`{"type":"other","title":null,"first_name":null,"last_name":"Li","preferred_name":"J","profession":null,"company":null,
			"email":null,"notes":null,"phone_numbers":null,"address":null,"tag_ids":null}`,
			`{"type":"doctor"}`, "q=harbour&tag_id=TAG", "tag_id=" + a.Sydney.ID},
		{"practitioners",
			`{"title":"Dr","first_name":"Dana","last_name":"Park","display_name":"Dr Dana","designation":"Podiatrist","email":"d@example.com",
			"phone":"0400111222","location_ids":["SYD","ADL"],"service_ids":["CONSULT"],
			"working_hours":[{"location_id":"SYD","day":"monday","starts_at":"09:00","ends_at":"12:00"}],
			"exceptions":[{"date":"2026-03-09","location_id":"SYD","ranges":[{"starts_at":"10:00","ends_at":"11:00"}]},{"date":"2026-03-10"},
				{"date":"2026-03-11","location_id":null,"ranges":null}]}`,
			`{"title":null,"first_name":"Danielle","last_name":"Park","display_name":null,"designation":null,"email":null,"phone":null,
			"location_ids":null,"service_ids":null,"working_hours":null,"exceptions":null}`,
			`{"first_name":"Dana","last_name":"Park","working_hours":[{"location_id":"SYD","day":"funday","starts_at":"09:00","ends_at":"10:00"}]}`,
			"location_id=SYD", "location_id=" + a.Alice.ID},
		{"services",
			`{"name":"Hydro","description":"Pool","duration":45,"price_cents":9500,"buffer_before":5,"buffer_after":10,"max_clients":4,
			"min_notice":60,"booking_horizon_days":30,"online_booking":true,"location_ids":["SYD"],"color":"#00AAFF"}`,
			`{"name":"Hydro 2","description":null,"duration":60,"price_cents":null,"buffer_before":null,"buffer_after":null,"max_clients":null,
			"min_notice":null,"booking_horizon_days":null,"online_booking":null,"location_ids":null,"color":null}`,
			`{"name":"Hydro","duration":4}`, "location_id=SYD", "location_id=nope"},
		{"tags", `{"name":"VIP","color":"#FF0000"}`, `{"name":"V.I.P.","color":null}`, `{"name":"VIP","color":"light blue"}`, "", "include_archived=maybe"},
		{"referral_types", `{"name":"GP"}`, `{"name":"Doctor"}`, `{"name":""}`, "", "updated_since=yesterday"},
		{"cancellation_reasons", `{"name":"Sick"}`, `{"name":"Unwell"}`, `{"name":7}`, "", "limit=101"},
		{"busy_time_types", `{"name":"Admin","color":null}`, `{"name":"Paperwork","color":"#00ff00"}`, `{"name":"Admin","color":"#0f0f"}`, "", "limit=x"},
		{"cases", `{"client_id":"ANN","name":"Knee","status":"open","notes":"Claim"}`,
			`{"client_id":"ANN","name":"Knee (healed)","status":null,"notes":null}`, `{"client_id":"ANN","name":"Knee","status":"pending"}`,
			"client_id=ANN&status=open", "status=done"},
		{"client_packages", `{"client_id":"ANN","name":"Five","sessions_total":5,"sessions_used":1,"expires_on":"2026-12-31"}`,
			`{"client_id":"ANN","name":"Six","sessions_total":6,"sessions_used":null,"expires_on":null}`,
			`{"client_id":"ANN","name":"Five","sessions_total":0}`, "client_id=ANN", "client_id=" + a.Payer.ID},
	}
	fill := func(s string) string {
		for k, v := range ids {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	var paths []string
	for _, k := range kinds {
		base := "/v1/" + k.plural
		created := c.call(oaReq{method: "POST", path: base, token: tok, body: fill(k.create)}, 201, reqValid).(map[string]any)
		id := created["id"].(string)
		one := base + "/" + id
		paths = append(paths, one)
		c.writeErrorsOnce(base, fill(k.create))
		c.call(oaReq{method: "POST", path: base, token: tok, body: fill(k.bad)}, 422, reqInvalid)

		list := base
		if k.filters != "" {
			list += "?" + fill(k.filters)
		}
		if listed := oaIDs(t, c.call(oaReq{method: "GET", path: list, token: tok}, 200, reqValid)); !contains(listed, id) {
			t.Errorf("%s: %v, want %s among them", list, listed, id)
		}
		// Every answer of a kind is its record or a page of them: a page
		// of one is enough for the strictness check.
		c.keep(k.plural+" list", oaReq{method: "GET", path: base + "?limit=1", token: tok})
		c.call(oaReq{method: "GET", path: base}, 401, reqInvalid)
		c.call(oaReq{method: "GET", path: base + "?" + k.badQuery, token: tok}, 422, reqInvalid)

		c.call(oaReq{method: "GET", path: one, token: tok}, 200, reqValid)
		c.call(oaReq{method: "GET", path: one}, 401, reqInvalid)
		c.call(oaReq{method: "GET", path: one, token: e.b.Token}, 404, reqValid)
		c.call(oaReq{method: "GET", path: base + "/" + a.Clients[0].ID, token: tok}, 404, reqInvalid)

		c.call(oaReq{method: "POST", path: one, token: tok, body: fill(k.update)}, 200, reqValid)
		c.writeErrorsOnce(one, fill(k.update))
		c.call(oaReq{method: "POST", path: one, token: tok, body: fill(k.bad)}, 422, reqInvalid)
		c.call(oaReq{method: "POST", path: one, token: e.b.Token, body: `{}`}, 404, reqValid)

		for _, verb := range []string{"/archive", "/unarchive"} {
			c.call(oaReq{method: "POST", path: one + verb, token: tok}, 200, reqValid)
			c.writeErrorsOnce(one+verb, `{}`)
			oaWantErrorFields(t, one+verb, c.call(oaReq{method: "POST", path: one + verb, token: tok, body: `{"now":true}`}, 422, reqInvalid), "now")
			c.call(oaReq{method: "POST", path: one + verb, token: e.b.Token}, 404, reqValid)
		}
	}

	// A practitioner's calendar feed URL: only a key that can write makes
	// one, of its own business's practitioner.
	rotate := "/v1/practitioners/" + a.Alice.ID + "/calendar_feed/rotate"
	feed := c.call(oaReq{method: "POST", path: rotate, token: tok}, 200, reqValid).(map[string]any)
	if url, _ := feed["calendar_feed_url"].(string); !strings.HasPrefix(url, e.srv.URL+"/calendar/") || !strings.HasSuffix(url, ".ics") {
		t.Errorf("calendar_feed_url %q", url)
	}
	c.call(oaReq{method: "POST", path: rotate}, 401, reqInvalid)
	c.call(oaReq{method: "POST", path: rotate, token: e.a.ReadOnlyToken}, 403, reqValid)
	c.call(oaReq{method: "POST", path: rotate, token: e.b.Token}, 404, reqValid)

	// Internal errors.
	c.breakStore()
	for i, k := range kinds {
		base := "/v1/" + k.plural
		c.call(oaReq{method: "GET", path: base, token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: base, token: tok, body: fill(k.create)}, 500, reqValid)
		c.call(oaReq{method: "GET", path: paths[i], token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: paths[i], token: tok, body: `{}`}, 500, reqValid)
		c.call(oaReq{method: "POST", path: paths[i] + "/archive", token: tok}, 500, reqValid)
		c.call(oaReq{method: "POST", path: paths[i] + "/unarchive", token: tok}, 500, reqValid)
	}

	// Every response the fragment documents was provoked and validated.
	c.assertFragmentCovered("resources.json")
	c.assertStrict()
}
