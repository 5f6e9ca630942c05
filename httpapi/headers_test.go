package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestJSONAnswersAreNeitherSniffedNorCached(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client := "/v1/clients/" + e.a.Clients[0].ID
	for _, tc := range []struct {
		name, method, path, token string
		body                      any
		status                    int
	}{
		{"a list", "GET", "/v1/clients", e.a.Token, nil, 200},
		{"availability slots", "GET", "/v1/availability_slots?location_id=" + e.a.Sydney.ID + "&practitioner_id=" + e.a.Alice.ID + "&duration=30", e.a.Token, nil, 200},
		{"the OpenAPI 3.0 document", "GET", "/v1/openapi-3.0.json", "", nil, 200},
		{"a record", "GET", client, e.a.Token, nil, 200},
		{"an update", "POST", client, e.a.Token, map[string]any{"first_name": "Ann"}, 200},
		{"the OpenAPI document", "GET", "/v1/openapi.json", "", nil, 200},
		{"the health check", "GET", "/healthz", "", nil, 200},
		{"a 401", "GET", "/v1/clients", "", nil, 401},
		{"a 403", "POST", client, e.a.ReadOnlyToken, map[string]any{}, 403},
		{"a 404 of a record", "GET", "/v1/clients/cli_nope", e.a.Token, nil, 404},
		{"a 404 of a path", "GET", "/v1/nothing", e.a.Token, nil, 404},
		{"a 404 of a path that is not clean", "GET", "/v1/clients/", e.a.Token, nil, 404},
		{"a 405", "DELETE", "/v1/clients", e.a.Token, nil, 405},
		{"a 400", "POST", client, e.a.Token, "[]", 400},
		{"a 413", "POST", client, e.a.Token, `{"x":"` + strings.Repeat("x", 1<<20) + `"}`, 413},
		{"a 422 of a body", "POST", client, e.a.Token, map[string]any{"bogus": 1}, 422},
		{"a 422 of a query", "GET", "/v1/clients?bogus=1", e.a.Token, nil, 422},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.token, tc.body)
			wantStatus(t, r, tc.status)
			for name, want := range map[string]string{
				"Content-Type":           "application/json",
				"X-Content-Type-Options": "nosniff",
				"Cache-Control":          "no-store",
			} {
				if got := r.Header.Values(name); len(got) != 1 || got[0] != want {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestUnauthorizedAnswersChallengeBearer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct{ name, header, challenge string }{
		{"no Authorization header", "", "Bearer"},
		{"Basic scheme", "Basic dXNlcjpwYXNz", "Bearer"},
		{"Bearer without a token", "Bearer", "Bearer"},
		{"unknown token", "Bearer pk_test_nonsense", `Bearer error="invalid_token"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.header != "" {
				h.Set("Authorization", tc.header)
			}
			r := e.send("GET", "/v1/clients", h, nil)
			wantStatus(t, r, http.StatusUnauthorized)
			if got := r.Header.Values("WWW-Authenticate"); len(got) != 1 || got[0] != tc.challenge {
				t.Fatalf("WWW-Authenticate %q, want %q", got, tc.challenge)
			}
		})
	}
	t.Run("no challenge on other answers", func(t *testing.T) {
		for _, r := range []response{
			e.do("GET", "/v1/clients", e.a.Token, nil),
			e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.ReadOnlyToken, map[string]any{}),
		} {
			if got := r.Header.Get("WWW-Authenticate"); got != "" {
				t.Fatalf("status %d: WWW-Authenticate %q", r.Status, got)
			}
		}
	})
}
