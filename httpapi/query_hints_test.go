package httpapi_test

import "testing"

func TestUnknownQueryParameterPointsToTheKnownOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	slots := "/v1/availability_slots?location_id=" + e.a.Sydney.ID + "&duration=30&"
	for _, tc := range []struct{ path, param, hint string }{
		{"/v1/clients?search=ann", "search", "q"},
		{"/v1/contacts?query=ann", "query", "q"},
		{"/v1/clients?offset=10", "offset", "limit and cursor"},
		{"/v1/clients?page_size=10", "page_size", "limit and cursor"},
		{"/v1/clients?updated_after=2026-03-01T00:00:00Z", "updated_after", "updated_since"},
		{"/v1/clients?modified_since=2026-03-01T00:00:00Z", "modified_since", "updated_since"},
		{"/v1/clients?since=2026-03-01T00:00:00Z", "since", "updated_since"},
		{"/v1/events?updated_after=2026-03-01T00:00:00Z", "updated_after", "since"},
		{"/v1/clients?archived=true", "archived", "include_archived"},
		{"/v1/clients?Q=ann", "Q", "q"},
		{"/v1/forms?LIMIT=5", "LIMIT", "limit"},
		{"/v1/forms?location_id=" + e.a.Sydney.ID, "location_id", "filter[location_id]"},
		{"/v1/forms?Filter%5BClient_ID%5D=x", "Filter[Client_ID]", "filter[client_id]"},
		{"/v1/appointment_clients?filter%5Bclient_id%5D=x", "filter[client_id]", "client_id"},
		{slots + "practitioner_id%5B%5D=" + e.a.Alice.ID, "practitioner_id[]", "practitioner_id"},
		// A hint names only what the endpoint takes.
		{"/v1/locations?search=sydney", "search", ""},
		{"/v1/events?archived=true", "archived", ""},
		{slots + "page=2", "page", ""},
		{"/v1/clients?sort=name", "sort", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			msg := "is not a known query parameter"
			if tc.hint != "" {
				msg += "; use " + tc.hint
			}
			wantInvalid(t, e.do("GET", tc.path, e.a.Token, nil), oneError(tc.param, msg), tc.param+" "+msg)
		})
	}
}
