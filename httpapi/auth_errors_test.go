package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// The error contract of docs/api.md: who gets which status, and
// the exact bodies they carry.

// invalidBody is the body of a 422.
type invalidBody struct {
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
}

// wantInvalid fails unless r is a 422 whose errors are exactly want and
// whose message is the first failure ("<field> <message>") followed by
// "(and N more errors)" when there are more. When message is not empty
// the message must be exactly it; otherwise the first failure may be any
// of the fields of want.
func wantInvalid(t *testing.T, r response, want map[string][]string, message string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422; body %s", r.Status, r.Body)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &keys); err != nil {
		t.Fatalf("body is not a JSON object: %s", r.Body)
	}
	if _, ok := keys["message"]; !ok || len(keys) != 2 {
		t.Fatalf("a 422 body must hold exactly message and errors: %s", r.Body)
	}
	var got invalidBody
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatalf("bad 422 body: %v\n%s", err, r.Body)
	}
	if !reflect.DeepEqual(got.Errors, want) {
		t.Fatalf("errors:\n  %v\nwant:\n  %v", got.Errors, want)
	}
	n := 0
	for _, msgs := range want {
		n += len(msgs)
	}
	suffix := ""
	switch {
	case n == 2:
		suffix = " (and 1 more error)"
	case n > 2:
		suffix = fmt.Sprintf(" (and %d more errors)", n-1)
	}
	if message != "" {
		if got.Message != message {
			t.Fatalf("message %q, want %q", got.Message, message)
		}
		return
	}
	for field, msgs := range want {
		if got.Message == field+" "+msgs[0]+suffix {
			return
		}
	}
	t.Fatalf("message %q is not a field's first error followed by %q", got.Message, suffix)
}

// oneError is the errors map of a single failure.
func oneError(field, msg string) map[string][]string {
	return map[string][]string{field: {msg}}
}

// messageJSON is the body of every error but 422.
func messageJSON(msg string) string {
	b, _ := json.Marshal(map[string]string{"message": msg})
	return string(b)
}

// validBusyTime is a body POST /v1/busy_times accepts for clinic c.
func validBusyTime(c *testfix.Clinic) map[string]any {
	return map[string]any{
		"location_id": c.Sydney.ID, "practitioner_id": c.Alice.ID,
		"starts_at": "2026-03-03T01:00:00Z", "ends_at": "2026-03-03T02:00:00Z",
	}
}

// busyTimeCount counts the busy times of the token's business, archived
// ones included.
func (e *env) busyTimeCount(t *testing.T, token string) int {
	t.Helper()
	return len(e.listAll(t, "/v1/busy_times?include_archived=true", token))
}

// everyOperation lists one request of each of the nine operations.
func everyOperation(c *testfix.Clinic) []struct{ method, path string } {
	return []struct{ method, path string }{
		{"GET", "/v1/busy_times"},
		{"POST", "/v1/busy_times"},
		{"GET", "/v1/forms"},
		{"GET", "/v1/appointment_clients"},
		{"GET", "/v1/clients"},
		{"POST", "/v1/clients/" + c.Clients[0].ID},
		{"GET", "/v1/locations"},
		{"GET", "/v1/contacts"},
		{"GET", "/v1/availability_slots?location_id=" + c.Sydney.ID + "&practitioner_id=" + c.Alice.ID + "&duration=30"},
	}
}

func TestAuthFailureIs401WithMessageOnEveryOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	// A key that existed and was revoked.
	revoked := "pk_test_" + tid.New("key")
	revokedID := tid.New(practiced.PrefixAPIKey)
	if err := e.st.CreateAPIKey(ctx, practiced.APIKey{ID: revokedID, BusinessID: e.a.Business.ID,
		TokenHash: practiced.HashToken(revoked), CreatedAt: practiced.NewTime(testfix.Now)}); err != nil {
		t.Fatal(err)
	}
	if err := e.st.RevokeAPIKey(ctx, revokedID); err != nil {
		t.Fatal(err)
	}
	const (
		missing   = "Authentication required: send the header Authorization: Bearer <API key>."
		notBearer = "The Authorization header must be Bearer <API key>."
		unknown   = "The API key is not valid."
	)
	cases := []struct {
		name, header, message string
	}{
		{"no Authorization header", "", missing},
		{"Basic scheme", "Basic dXNlcjpwYXNz", notBearer},
		{"Token scheme with a valid key", "Token " + e.a.Token, notBearer},
		{"the key alone, without a scheme", e.a.Token, notBearer},
		{"Bearer without a token", "Bearer", notBearer},
		{"Bearer and a blank token", "Bearer    ", notBearer},
		{"unknown token", "Bearer pk_test_nonsense", unknown},
		{"revoked token", "Bearer " + revoked, unknown},
	}
	for _, op := range everyOperation(e.a) {
		for _, tc := range cases {
			t.Run(op.method+" "+strings.SplitN(op.path, "?", 2)[0]+"/"+tc.name, func(t *testing.T) {
				h := http.Header{"Content-Type": {"application/json"}}
				if tc.header != "" {
					h.Set("Authorization", tc.header)
				}
				var body *strings.Reader
				if op.method == "POST" {
					body = strings.NewReader(`{}`)
				} else {
					body = strings.NewReader("")
				}
				r := e.send(op.method, op.path, h, body)
				wantBody(t, r, http.StatusUnauthorized, messageJSON(tc.message))
			})
		}
	}
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("unauthenticated requests created %d busy times", n)
	}
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		r := e.send("GET", "/v1/locations", http.Header{"Authorization": {scheme + " " + e.a.Token}}, nil)
		if got := pageIDs(r.page(t)); !reflect.DeepEqual(got, []string{e.a.Sydney.ID, e.a.Adelaide.ID}) {
			t.Fatalf("%s: locations %v", scheme, got)
		}
	}
}

func TestReadOnlyKeyReadsButCannotWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.listAll(t, "/v1/clients", e.a.Token)
	for _, op := range everyOperation(e.a) {
		t.Run(op.method+" "+strings.SplitN(op.path, "?", 2)[0], func(t *testing.T) {
			var body any
			switch {
			case op.method == "GET":
				r := e.do(op.method, op.path, e.a.ReadOnlyToken, nil)
				wantStatus(t, r, http.StatusOK)
				return
			case strings.HasPrefix(op.path, "/v1/busy_times"):
				body = validBusyTime(e.a)
			default:
				body = map[string]any{"first_name": "Changed"}
			}
			r := e.do(op.method, op.path, e.a.ReadOnlyToken, body)
			wantBody(t, r, http.StatusForbidden, messageJSON("This API key is read-only."))
		})
	}
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("a read-only key created %d busy times", n)
	}
	if after := e.listAll(t, "/v1/clients", e.a.Token); !reflect.DeepEqual(before, after) {
		t.Fatalf("a read-only key changed clients:\n%v\n%v", before, after)
	}
}

func TestPathIDOfAnotherBusinessIsNotFoundLikeAMissingID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	notFound := messageJSON("Client not found.")
	bBefore := e.listAll(t, "/v1/clients", e.b.Token)
	cases := []struct {
		name string
		id   string
		body any
	}{
		{"client of another business", e.b.Clients[0].ID, map[string]any{"first_name": "Mallory"}},
		{"client of another business, invalid body", e.b.Clients[0].ID, map[string]any{"bogus": 1, "email": "x"}},
		{"client of another business, body not JSON", e.b.Clients[0].ID, "{oops"},
		{"well-formed id of no client", tid.New("cli"), map[string]any{"first_name": "Mallory"}},
		{"well-formed id of no client, invalid body", tid.New("cli"), map[string]any{"bogus": 1}},
		{"contact id of the business", e.a.Payer.ID, map[string]any{"first_name": "Mallory"}},
		{"malformed suffix", "cli_123", map[string]any{"first_name": "Mallory"}},
		{"upper-case suffix", "cli_" + strings.ToUpper(strings.TrimPrefix(e.a.Clients[0].ID, "cli_")), map[string]any{"first_name": "Mallory"}},
		{"number", "12345", map[string]any{"first_name": "Mallory"}},
		{"no prefix", strings.TrimPrefix(e.a.Clients[0].ID, "cli_"), map[string]any{"first_name": "Mallory"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/v1/clients/"+tc.id, e.a.Token, tc.body)
			wantBody(t, r, http.StatusNotFound, notFound)
		})
	}
	if bAfter := e.listAll(t, "/v1/clients", e.b.Token); !reflect.DeepEqual(bBefore, bAfter) {
		t.Fatalf("clinic B's clients changed through clinic A's key")
	}
}

func TestUnknownRouteIs404JSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/v1"},
		{"GET", "/v1/"},
		{"GET", "/v1/nope"},
		{"GET", "/v2/clients"},
		{"GET", "/v1/busy_times/"},
		{"GET", "/V1/clients"},
		{"GET", "/v1/clients/" + e.a.Clients[0].ID + "/extra"},
		{"POST", "/v1/clients/"},
		{"POST", "/v1/nope"},
		{"DELETE", "/v1/nope"},
	} {
		for _, token := range []string{e.a.Token, ""} {
			t.Run(tc.method+" "+tc.path+fmt.Sprintf(" token=%t", token != ""), func(t *testing.T) {
				r := e.do(tc.method, tc.path, token, nil)
				wantBody(t, r, http.StatusNotFound, messageJSON("No such endpoint."))
			})
		}
	}
}

func TestUncleanPathIs404JSONNotARedirect(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct{ method, path string }{
		{"GET", "/v1//clients"},
		{"GET", "/v1/./clients"},
		{"GET", "//v1/clients"},
		{"GET", "/v1/busy_times/../clients"},
		{"POST", "/v1//busy_times"},
		{"POST", "/v1/clients/./" + e.a.Clients[0].ID},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, e.srv.URL+tc.path, strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+e.a.Token)
			req.Header.Set("Content-Type", "application/json")
			res, err := noFollow.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			wantBody(t, response{Status: res.StatusCode, Header: res.Header, Body: body}, http.StatusNotFound, messageJSON("No such endpoint."))
		})
	}
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("%d busy times created through an unclean path", n)
	}
}

func TestWrongMethodIs405WithAllowHeaderAndJSONBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client := "/v1/clients/" + e.a.Clients[0].ID
	busyTime := "/v1/busy_times/" + tid.New(practiced.PrefixBusyTime)
	event := "/v1/events/" + tid.New(practiced.PrefixEvent)
	for _, tc := range []struct{ method, path, allow string }{
		{"DELETE", "/v1/busy_times", "GET, HEAD, POST"},
		{"PUT", "/v1/busy_times", "GET, HEAD, POST"},
		{"PUT", busyTime, "DELETE, GET, HEAD, POST"},
		{"PATCH", busyTime, "DELETE, GET, HEAD, POST"},
		{"GET", busyTime + "/archive", "POST"},
		{"DELETE", busyTime + "/unarchive", "POST"},
		{"DELETE", "/v1/clients", "GET, HEAD, POST"},
		{"PATCH", "/v1/clients", "GET, HEAD, POST"},
		{"PUT", client, "GET, HEAD, POST"},
		{"PATCH", client, "GET, HEAD, POST"},
		{"DELETE", client, "GET, HEAD, POST"},
		{"GET", client + "/archive", "POST"},
		{"PUT", client + "/unarchive", "POST"},
		{"POST", "/v1/events", "GET, HEAD"},
		{"DELETE", event, "GET, HEAD"},
		{"POST", event, "GET, HEAD"},
		{"POST", "/v1/availability_slots", "GET, HEAD"},
		{"PUT", "/v1/locations", "GET, HEAD, POST"},
		{"DELETE", "/v1/contacts", "GET, HEAD, POST"},
		{"PUT", "/v1/forms", "GET, HEAD, POST"},
		{"PUT", "/v1/appointment_clients", "GET, HEAD, POST"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := e.do(tc.method, tc.path, e.a.Token, nil)
			wantBody(t, r, http.StatusMethodNotAllowed,
				messageJSON("The method "+tc.method+" is not allowed here; allowed: "+tc.allow+"."))
			if got := r.Header.Get("Allow"); got != tc.allow {
				t.Fatalf("Allow %q, want %q", got, tc.allow)
			}
		})
	}
}

func TestBodyWithoutJSONContentTypeIs415(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	busy, _ := json.Marshal(validBusyTime(e.a))
	client := "/v1/clients/" + e.a.Clients[0].ID
	clientsBefore := e.listAll(t, "/v1/clients", e.a.Token)
	const msg = "Send the request body as JSON with the header Content-Type: application/json."
	for _, tc := range []struct {
		name, path, contentType, body string
		status                        int
	}{
		{"busy time without Content-Type", "/v1/busy_times", "", string(busy), 415},
		{"busy time as text/plain", "/v1/busy_times", "text/plain", string(busy), 415},
		{"busy time as a form", "/v1/busy_times", "application/x-www-form-urlencoded", "location_id=x", 415},
		{"busy time as application/jsonx", "/v1/busy_times", "application/jsonx", string(busy), 415},
		{"busy time with a malformed Content-Type", "/v1/busy_times", "application/json; =", string(busy), 415},
		{"client without Content-Type", client, "", `{"first_name":"X"}`, 415},
		{"client as text/json", client, "text/json", `{"first_name":"X"}`, 415},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{"Authorization": {"Bearer " + e.a.Token}}
			if tc.contentType != "" {
				h.Set("Content-Type", tc.contentType)
			}
			r := e.send("POST", tc.path, h, strings.NewReader(tc.body))
			wantBody(t, r, tc.status, messageJSON(msg))
		})
	}
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("refused bodies created %d busy times", n)
	}
	if after := e.listAll(t, "/v1/clients", e.a.Token); !reflect.DeepEqual(clientsBefore, after) {
		t.Fatal("a refused body changed a client")
	}
}

func TestJSONContentTypeParametersAndCaseAreAccepted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	busy, _ := json.Marshal(validBusyTime(e.a))
	for i, ct := range []string{"application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"} {
		h := http.Header{"Authorization": {"Bearer " + e.a.Token}, "Content-Type": {ct}}
		r := e.send("POST", "/v1/busy_times", h, strings.NewReader(string(busy)))
		wantStatus(t, r, http.StatusCreated)
		if n := e.busyTimeCount(t, e.a.Token); n != i+1 {
			t.Fatalf("%s: %d busy times, want %d", ct, n, i+1)
		}
	}
}

func TestBodyOver1MiBIs413(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// padded returns a JSON object of exactly size bytes with a long name.
	padded := func(size int) string {
		const head, tail = `{"name":"`, `"}`
		return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
	}
	t.Run("exactly 1 MiB is read", func(t *testing.T) {
		body := padded(1 << 20)
		r := e.do("POST", "/v1/busy_times", e.a.Token, body)
		nameLen := 1<<20 - len(`{"name":""}`)
		wantInvalid(t, r, map[string][]string{
			"location_id":     {"is required"},
			"practitioner_id": {"is required"},
			"starts_at":       {"is required"},
			"ends_at":         {"is required"},
			"name":            {fmt.Sprintf("must be at most 255 characters (it has %d)", nameLen)},
		}, "location_id is required (and 4 more errors)")
	})
	for _, size := range []int{1<<20 + 1} {
		t.Run(fmt.Sprintf("busy time of %d bytes", size), func(t *testing.T) {
			r := e.do("POST", "/v1/busy_times", e.a.Token, padded(size))
			wantBody(t, r, http.StatusRequestEntityTooLarge, messageJSON("The request body is larger than 1 MiB."))
		})
	}
	t.Run("client update of 1 MiB + 1 byte", func(t *testing.T) {
		body := `{"notes":"` + strings.Repeat("x", 1<<20+1-len(`{"notes":""}`)) + `"}`
		r := e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, body)
		wantBody(t, r, http.StatusRequestEntityTooLarge, messageJSON("The request body is larger than 1 MiB."))
	})
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("%d busy times created", n)
	}
}

func TestBodyThatIsNotAJSONObjectIs400(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const notJSON, notObject = "The request body is not valid JSON.", "The request body must be a JSON object."
	clientsBefore := e.listAll(t, "/v1/clients", e.a.Token)
	for _, path := range []string{"/v1/busy_times", "/v1/clients/" + e.a.Clients[0].ID} {
		for _, tc := range []struct{ name, body, message string }{
			{"truncated object", `{"name":`, notJSON},
			{"single quotes", `{'name':'x'}`, notJSON},
			{"trailing comma", `{"name":"x",}`, notJSON},
			{"two objects", `{} {}`, notJSON},
			{"bare word", `hello`, notJSON},
			{"array", `[]`, notObject},
			{"array of objects", `[{"first_name":"x"}]`, notObject},
			{"string", `"x"`, notObject},
			{"number", `12`, notObject},
			{"null", `null`, notObject},
			{"boolean", `true`, notObject},
		} {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				r := e.do("POST", path, e.a.Token, tc.body)
				wantBody(t, r, http.StatusBadRequest, messageJSON(tc.message))
			})
		}
	}
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("%d busy times created", n)
	}
	if after := e.listAll(t, "/v1/clients", e.a.Token); !reflect.DeepEqual(clientsBefore, after) {
		t.Fatal("a refused body changed a client")
	}
}

func TestUnknownBodyFieldIs422(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	with := func(extra map[string]any) map[string]any {
		b := validBusyTime(e.a)
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	client := "/v1/clients/" + e.a.Clients[0].ID
	clientsBefore := e.listAll(t, "/v1/clients", e.a.Token)
	for _, tc := range []struct {
		name, path string
		body       any
		field      string
	}{
		{"top-level field of a client", client, map[string]any{"bogus": 1}, "bogus"},
		{"field names are case-sensitive", client, map[string]any{"First_Name": "Ann"}, "First_Name"},
		{"field of the address", client, map[string]any{"address": map[string]any{"city": "Perth", "suburb": "x"}}, "address.suburb"},
		{"field of the NDIS details", client, map[string]any{"ndis_details": map[string]any{"plan": "x"}}, "ndis_details.plan"},
		{"field of a phone number", client, map[string]any{"phone_numbers": []any{map[string]any{"number": "0412345678", "ext": "1"}}}, "phone_numbers.0.ext"},
		{"field of a medication", client, map[string]any{"medications": []any{map[string]any{"name": "A"}, map[string]any{"name": "B", "dose": "1"}}}, "medications.1.dose"},
		{"top-level field of a busy time", "/v1/busy_times", with(map[string]any{"duration": 60}), "duration"},
		{"skip_conflicts outside the rule", "/v1/busy_times", with(map[string]any{"skip_conflicts": true}), "skip_conflicts"},
		{"field of a repeating rule", "/v1/busy_times", with(map[string]any{"repeating_rule": map[string]any{"frequency": "daily", "occurrences": 2, "count": 2}}), "repeating_rule.count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", tc.path, e.a.Token, tc.body)
			wantInvalid(t, r, oneError(tc.field, "is not a known field"), tc.field+" is not a known field")
		})
	}
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("%d busy times created", n)
	}
	if after := e.listAll(t, "/v1/clients", e.a.Token); !reflect.DeepEqual(clientsBefore, after) {
		t.Fatal("a refused body changed a client")
	}
}

func TestUnknownQueryParameterIs422(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	slots := "/v1/availability_slots?location_id=" + e.a.Sydney.ID + "&practitioner_id=" + e.a.Alice.ID + "&duration=30&"
	for _, base := range []string{"/v1/busy_times?", "/v1/forms?", "/v1/appointment_clients?", "/v1/clients?",
		"/v1/locations?", "/v1/contacts?", slots} {
		for _, tc := range []struct{ query, param, hint string }{
			{"bogus=1", "bogus", ""},
			{"page=2", "page", "; use limit and cursor"},
			{"Limit=5", "Limit", "; use limit"},
			{"per_page=5", "per_page", "; use limit and cursor"},
			{"filter%5Bbogus%5D=1", "filter[bogus]", ""},
		} {
			t.Run(base+tc.query, func(t *testing.T) {
				// The slots come in one answer, without pages, so there
				// is no parameter to point to.
				hint := tc.hint
				if base == slots {
					hint = ""
				}
				msg := "is not a known query parameter" + hint
				r := e.do("GET", base+tc.query, e.a.Token, nil)
				wantInvalid(t, r, oneError(tc.param, msg), tc.param+" "+msg)
			})
		}
	}
}

func TestNumberWhereAnIDIsExpectedSaysIDsArePrefixedStrings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client := "/v1/clients/" + e.a.Clients[0].ID
	idMsg := func(prefix string) string {
		return `must be an id string such as "` + prefix + `_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`
	}
	busy := func(field string, v any) map[string]any {
		b := validBusyTime(e.a)
		b[field] = v
		return b
	}
	for _, tc := range []struct {
		name, path string
		body       any
		field      string
		msg        string
	}{
		{"busy time location_id", "/v1/busy_times", busy("location_id", 12), "location_id", idMsg("loc")},
		{"busy time practitioner_id", "/v1/busy_times", busy("practitioner_id", 7), "practitioner_id", idMsg("pra")},
		{"busy time busy_time_type_id", "/v1/busy_times", busy("busy_time_type_id", 3.5), "busy_time_type_id", idMsg("btt")},
		{"client emergency_contact_id", client, map[string]any{"emergency_contact_id": 12}, "emergency_contact_id", idMsg("con")},
		{"client invoice_contact_id", client, map[string]any{"invoice_contact_id": 12}, "invoice_contact_id", idMsg("con")},
		{"client referral_type_id", client, map[string]any{"referral_type_id": 1}, "referral_type_id", idMsg("ret")},
		{"client referred_by_id", client, map[string]any{"referred_by_id": 1}, "referred_by_id", idMsg("cli")},
		{"client tag id", client, map[string]any{"tag_ids": []any{e.a.Tag.ID, 9}}, "tag_ids.1", idMsg("tag")},
		{"client related client", client, map[string]any{"related_clients": []any{map[string]any{"related_client_id": 5}}}, "related_clients.0.related_client_id", idMsg("cli")},
		{"client linked contact", client, map[string]any{"linked_contacts": []any{map[string]any{"contact_id": 5}}}, "linked_contacts.0.contact_id", idMsg("con")},
		{"client NDIS plan manager", client, map[string]any{"ndis_details": map[string]any{"plan_manager_id": 5}}, "ndis_details.plan_manager_id", idMsg("con")},
		{"client phone number id", client, map[string]any{"phone_numbers": []any{map[string]any{"id": 5, "number": "0412345678"}}}, "phone_numbers.0.id", idMsg("pho")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", tc.path, e.a.Token, tc.body)
			wantInvalid(t, r, oneError(tc.field, tc.msg), "")
		})
	}
	// In a query string every value is text: a bare number is an id of
	// the wrong shape.
	for _, tc := range []struct{ path, field, msg string }{
		{"/v1/busy_times?practitioner_id=12", "practitioner_id", "must be an id starting with pra_"},
		{"/v1/busy_times?location_id=12", "location_id", "must be an id starting with loc_"},
		{"/v1/forms?filter%5Bclient_id%5D=12", "filter[client_id]", "must be an id starting with cli_"},
		{"/v1/appointment_clients?appointment_id=12", "appointment_id", "must be an id starting with apt_"},
		{"/v1/clients?tag_id=12", "tag_id", "must be an id starting with tag_"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			wantInvalid(t, e.do("GET", tc.path, e.a.Token, nil), oneError(tc.field, tc.msg), "")
		})
	}
}

func TestEveryFailingFieldIsReportedAtOnceWithDottedPaths(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clientsBefore := e.listAll(t, "/v1/clients", e.a.Token)
	t.Run("client update", func(t *testing.T) {
		r := e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, map[string]any{
			"first_name":    "",
			"email":         "not-an-address",
			"address":       map[string]any{"country_code": "XX", "latitude": 100},
			"phone_numbers": []any{map[string]any{"number": "0412345678"}, map[string]any{"number": "call me"}},
			"tag_ids":       []any{e.b.Tag.ID},
			"bogus":         true,
		})
		wantInvalid(t, r, map[string][]string{
			"first_name":             {"cannot be empty: a client needs a first and last name"},
			"email":                  {"must be an e-mail address such as name@example.com"},
			"address.country_code":   {"must be an ISO 3166-1 alpha-2 country code such as AU"},
			"address.latitude":       {"must be between -90 and 90"},
			"phone_numbers.1.number": {"must be a phone number in international format, such as +61 412 345 678, or in the national format of AU (the record's address.country_code, else AU), such as 0412 345 678"},
			"bogus":                  {"is not a known field"},
			"tag_ids.0":              {"does not exist"},
		}, "first_name cannot be empty: a client needs a first and last name (and 6 more errors)")
	})
	t.Run("busy time", func(t *testing.T) {
		r := e.do("POST", "/v1/busy_times", e.a.Token, map[string]any{
			"location_id": 5,
			"starts_at":   "2026-03-03",
			"name":        strings.Repeat("n", 256),
			"repeating_rule": map[string]any{
				"frequency": "yearly", "interval": 0, "occurrences": 261, "days": []any{"monday", "someday"},
			},
		})
		wantInvalid(t, r, map[string][]string{
			"location_id":                {`must be an id string such as "loc_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`},
			"practitioner_id":            {"is required"},
			"starts_at":                  {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
			"ends_at":                    {"is required"},
			"name":                       {"must be at most 255 characters (it has 256)"},
			"repeating_rule.frequency":   {"must be one of: daily, weekly, monthly"},
			"repeating_rule.interval":    {"must be between 1 and 52"},
			"repeating_rule.occurrences": {"must be between 1 and 260"},
			// Days are refused whatever the day names when the rule is
			// not a valid weekly one.
			"repeating_rule.days.1": {"must be one of: monday, tuesday, wednesday, thursday, friday, saturday, sunday"},
		}, `location_id must be an id string such as "loc_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers (and 8 more errors)`)
	})
	t.Run("list query", func(t *testing.T) {
		r := e.do("GET", "/v1/busy_times?limit=0&cursor=zzz&practitioner_id=x&starts_before=2026-03-01&bogus=1", e.a.Token, nil)
		wantInvalid(t, r, map[string][]string{
			"limit":           {"must be between 1 and 100"},
			"cursor":          {"is not a valid cursor; use the links of a previous page unchanged"},
			"practitioner_id": {"must be an id starting with pra_"},
			"starts_before":   {"must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
			"bogus":           {"is not a known query parameter"},
		}, "limit must be between 1 and 100 (and 4 more errors)")
	})
	t.Run("two errors say one more error", func(t *testing.T) {
		r := e.do("POST", "/v1/clients/"+e.a.Clients[0].ID, e.a.Token, map[string]any{"email": "x", "sex": 1})
		wantInvalid(t, r, map[string][]string{
			"email": {"must be an e-mail address such as name@example.com"},
			"sex":   {"must be a string, not a number"},
		}, "email must be an e-mail address such as name@example.com (and 1 more error)")
	})
	if n := e.busyTimeCount(t, e.a.Token); n != 0 {
		t.Fatalf("%d busy times created", n)
	}
	if after := e.listAll(t, "/v1/clients", e.a.Token); !reflect.DeepEqual(clientsBefore, after) {
		t.Fatal("a refused update changed a client")
	}
}
