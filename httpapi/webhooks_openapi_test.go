package httpapi_test

import (
	"context"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
)

// TestWebhooksMatchTheOpenAPIDocument drives every operation of
// openapi/fragments/webhooks.json through the live API, provokes each
// response it documents, and validates requests and responses against
// the merged document.
func TestWebhooksMatchTheOpenAPIDocument(t *testing.T) {
	e := newEnv(t)
	c := newOAContract(t, e)
	c.provokeRateLimits("../openapi/fragments/webhooks.json")
	tok := e.a.Token
	const list = "/v1/webhook_endpoints"

	create := `{"url":"https://hooks.example.org/practiced","event_types":["client.*","appointment.booked"],"description":"CRM sync"}`
	ep := c.call(oaReq{method: "POST", path: list, token: tok, body: create}, 201, reqValid).(map[string]any)
	if s, _ := ep["secret"].(string); !strings.HasPrefix(s, "whsec_") {
		t.Errorf("secret %q", ep["secret"])
	}
	one := list + "/" + ep["id"].(string)
	c.writeErrorsOnce(list, create)
	body := c.call(oaReq{method: "POST", path: list, token: tok,
		body: `{"url":"http://127.0.0.1/x","event_types":["client.born","*"],"colour":"red"}`}, 422, reqInvalid)
	oaWantErrorFields(t, "a bad endpoint", body, "url", "event_types.0", "colour")
	body = c.call(oaReq{method: "POST", path: list, token: tok, body: `{}`}, 422, reqInvalid)
	oaWantErrorFields(t, "an empty endpoint", body, "url", "event_types")

	got := c.call(oaReq{method: "GET", path: list, token: e.a.ReadOnlyToken}, 200, reqValid).(map[string]any)
	if n := len(got["data"].([]any)); n != 1 || strings.Contains(oaJSON(t, got), "whsec_") {
		t.Errorf("the list: %v", got)
	}
	c.call(oaReq{method: "GET", path: list}, 401, reqInvalid)
	c.call(oaReq{method: "GET", path: list + "?limit=5", token: tok}, 422, reqAny)

	c.call(oaReq{method: "GET", path: one, token: tok}, 200, reqValid)
	c.call(oaReq{method: "GET", path: one}, 401, reqInvalid)
	c.call(oaReq{method: "GET", path: one, token: e.b.Token}, 404, reqValid)
	c.call(oaReq{method: "GET", path: list + "/whe_1", token: tok}, 404, reqValid)

	updated := c.call(oaReq{method: "POST", path: one, token: tok, body: `{"enabled":false,"event_types":["*"]}`}, 200, reqValid).(map[string]any)
	if updated["enabled"] != false || oaJSON(t, updated["event_types"]) != `["*"]` {
		t.Errorf("updated: %v", updated)
	}
	c.writeErrorsOnce(one, `{"enabled":true}`)
	body = c.call(oaReq{method: "POST", path: one, token: tok, body: `{"url":null,"event_types":[]}`}, 422, reqInvalid)
	oaWantErrorFields(t, "an update clearing the URL", body, "url", "event_types")
	c.call(oaReq{method: "POST", path: one, token: e.b.Token, body: `{}`}, 404, reqValid)
	c.call(oaReq{method: "POST", path: one, token: tok, body: `{"enabled":true}`}, 200, reqValid)

	rotated := c.call(oaReq{method: "POST", path: one + "/rotate_secret", token: tok}, 200, reqValid).(map[string]any)
	if rotated["secret"] == ep["secret"] {
		t.Error("rotating kept the secret")
	}
	c.call(oaReq{method: "POST", path: one + "/rotate_secret"}, 401, reqInvalid)
	c.call(oaReq{method: "POST", path: one + "/rotate_secret", token: e.a.ReadOnlyToken}, 403, reqValid)
	c.call(oaReq{method: "POST", path: one + "/rotate_secret", token: e.b.Token}, 404, reqValid)

	// A delivery: a client made after the endpoint, fanned out by the
	// store as the server's worker does.
	c.call(oaReq{method: "POST", path: "/v1/clients", token: tok, body: `{"first_name":"Hal","last_name":"Hook"}`}, 201, reqValid)
	if n, err := e.st.FanOutWebhooks(context.Background(), practiced.NewTime(e.clock), 100); err != nil || n != 1 {
		t.Fatalf("fan-out made %d deliveries: %v", n, err)
	}
	ds := c.call(oaReq{method: "GET", path: one + "/deliveries?limit=10", token: e.a.ReadOnlyToken}, 200, reqValid).(map[string]any)["data"].([]any)
	if len(ds) != 1 || ds[0].(map[string]any)["status"] != "pending" || ds[0].(map[string]any)["event_type"] != "client.created" {
		t.Fatalf("deliveries: %v", ds)
	}
	c.call(oaReq{method: "GET", path: one + "/deliveries"}, 401, reqInvalid)
	c.call(oaReq{method: "GET", path: one + "/deliveries", token: e.b.Token}, 404, reqValid)
	c.call(oaReq{method: "GET", path: one + "/deliveries?limit=0", token: tok}, 422, reqInvalid)
	retry := one + "/deliveries/" + ds[0].(map[string]any)["id"].(string) + "/retry"
	c.call(oaReq{method: "POST", path: retry, token: tok}, 200, reqValid)
	c.call(oaReq{method: "POST", path: retry}, 401, reqInvalid)
	c.call(oaReq{method: "POST", path: retry, token: e.a.ReadOnlyToken}, 403, reqValid)
	c.call(oaReq{method: "POST", path: one + "/deliveries/whd_1/retry", token: tok}, 404, reqValid)

	c.call(oaReq{method: "DELETE", path: one}, 401, reqInvalid)
	c.call(oaReq{method: "DELETE", path: one, token: e.a.ReadOnlyToken}, 403, reqValid)
	c.call(oaReq{method: "DELETE", path: one, token: tok}, 200, reqValid)
	c.call(oaReq{method: "DELETE", path: one, token: tok}, 404, reqValid)

	c.assertFragmentCovered("webhooks.json")
	c.assertStrict()
}
