package httpapi_test

// Contract tests: the OpenAPI document in openapi/openapi.json against the
// live API. Every response of every operation the tests provoke is
// validated against the document, every documented response is provoked,
// the document's routes are the routes.go routes, and the record schemas
// are the Go records of the root package, field by field.

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/openapi"
	"github.com/practiced/practiced/tid"
	"github.com/practiced/practiced/web"
)

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := oaLoad(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if doc.Info.Version != "0.0.1" {
		t.Errorf("info.version = %q, want 0.0.1", doc.Info.Version)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/v1" {
		t.Errorf("servers = %v, want exactly /v1", doc.Servers)
	}
	bearer := doc.Components.SecuritySchemes["bearerAuth"]
	if bearer == nil || bearer.Value.Type != "http" || bearer.Value.Scheme != "bearer" {
		t.Errorf("components.securitySchemes.bearerAuth is not an http bearer scheme")
	}
	if len(doc.Security) != 1 || doc.Security[0]["bearerAuth"] == nil {
		t.Errorf("security = %v, want bearerAuth applied globally", doc.Security)
	}
	// Paths are relative to the server URL /v1.
	for path := range doc.Paths.Map() {
		if strings.HasPrefix(path, "/v1") {
			t.Errorf("path %s repeats the server URL /v1", path)
		}
	}
}

// ---------------------------------------------------------------- routes

// oaRoute is one route the server registers: its method, full path and
// whether it needs a key (auth) or a read-write key (write).
type oaRoute struct {
	key     string // "GET /v1/busy_times"
	wrapper string // "", "auth" or "write"
}

// oaRoutesGo lists the API's routes and the pages served beside it.
func oaRoutesGo(t *testing.T) map[string]oaRoute {
	t.Helper()
	st := testfix.Store(t)
	out := map[string]oaRoute{}
	for key, wrapper := range httpapi.RouteAccess(st) {
		out[key] = oaRoute{key: key, wrapper: wrapper}
	}
	for key := range web.Routes(st, web.Options{}) {
		out[key] = oaRoute{key: key}
	}
	if len(out) == 0 {
		t.Fatal("the server registers no routes")
	}
	return out
}

// oaServerBase returns the path prefix of the servers that apply to a
// path item: its own, else the document's.
func oaServerBase(doc *openapi3.T, item *openapi3.PathItem) string {
	servers := doc.Servers
	if len(item.Servers) > 0 {
		servers = item.Servers
	}
	if len(servers) != 1 {
		return "<several servers>"
	}
	return strings.TrimSuffix(servers[0].URL, "/")
}

// oaOperations lists the document's operations by "METHOD /full/path".
func oaOperations(doc *openapi3.T) map[string]*openapi3.Operation {
	out := map[string]*openapi3.Operation{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out[method+" "+oaServerBase(doc, item)+path] = op
		}
	}
	return out
}

func TestOpenAPIRoutesMatchDocument(t *testing.T) {
	doc := oaLoad(t)
	routes := oaRoutesGo(t)
	ops := oaOperations(doc)
	for key, r := range routes {
		op, ok := ops[key]
		if !ok {
			t.Errorf("routes.go registers %s; the document does not describe it", key)
			continue
		}
		security := doc.Security
		if op.Security != nil {
			security = *op.Security
		}
		if needsKey := r.wrapper != ""; needsKey != (len(security) > 0) {
			t.Errorf("%s: routes.go wrapper %q, but the document's security is %v", key, r.wrapper, security)
		}
		// Pages without a key (the hosted form) may answer 403 to a
		// cross-site post; only keyed routes tie 403 to the write wrapper.
		if writes := r.wrapper == "write"; r.wrapper != "" && writes != (op.Responses.Value("403") != nil) {
			t.Errorf("%s: routes.go wrapper %q, but the document %s a 403", key, r.wrapper,
				map[bool]string{true: "lists", false: "does not list"}[op.Responses.Value("403") != nil])
		}
		if r.wrapper != "" && op.Responses.Value("401") == nil {
			t.Errorf("%s needs an API key but documents no 401", key)
		}
	}
	for key := range ops {
		if _, ok := routes[key]; !ok {
			t.Errorf("the document describes %s; routes.go does not register it", key)
		}
	}
}

// ---------------------------------------------------------------- record schemas

// TestOpenAPIRecordsMatchGoTypes compares each record schema with the Go
// type the API encodes: the same properties, every one required unless it
// is omitempty, null allowed exactly for pointers, the same JSON types,
// and no other properties allowed.
func TestOpenAPIRecordsMatchGoTypes(t *testing.T) {
	doc := oaLoad(t)
	for name, typ := range map[string]reflect.Type{
		"BusyTime":          reflect.TypeFor[practiced.BusyTime](),
		"Form":              reflect.TypeFor[practiced.Form](),
		"FormPage":          reflect.TypeFor[practiced.Page](),
		"FormSection":       reflect.TypeFor[practiced.Section](),
		"FormQuestion":      reflect.TypeFor[practiced.Question](),
		"AppointmentClient": reflect.TypeFor[practiced.AppointmentClient](),
		"Client":            reflect.TypeFor[practiced.Client](),
		"Medication":        reflect.TypeFor[practiced.Medication](),
		"Allergy":           reflect.TypeFor[practiced.Allergy](),
		"RelatedClient":     reflect.TypeFor[practiced.RelatedClient](),
		"LinkedContact":     reflect.TypeFor[practiced.LinkedContact](),
		"NDISDetails":       reflect.TypeFor[practiced.NDISDetails](),
		"Location":          reflect.TypeFor[practiced.Location](),
		"OpeningHours":      reflect.TypeFor[practiced.OpeningHours](),
		"Contact":           reflect.TypeFor[practiced.Contact](),
		"Address":           reflect.TypeFor[practiced.Address](),
		"PhoneNumber":       reflect.TypeFor[practiced.PhoneNumber](),
	} {
		ref := doc.Components.Schemas[name]
		if ref == nil {
			t.Errorf("components.schemas.%s is missing", name)
			continue
		}
		oaCompareSchema(t, name, ref.Value, typ, false)
	}
}

var (
	oaTimeType  = reflect.TypeFor[practiced.Time]()
	oaRawType   = reflect.TypeFor[json.RawMessage]()
	oaHoursType = reflect.TypeFor[practiced.OpeningHours]()
)

func oaCompareSchema(t *testing.T, at string, s *openapi3.Schema, typ reflect.Type, nullable bool) {
	t.Helper()
	if s == nil {
		t.Errorf("%s: no schema", at)
		return
	}
	if typ == oaRawType {
		// Any JSON value: no type, or all six (kin-openapi wants null
		// spelled out).
		all := []string{"array", "boolean", "null", "number", "object", "string"}
		got := slices.Sorted(slices.Values(s.Type.Clone()))
		if !s.Type.IsEmpty() && !slices.Equal(got, all) {
			t.Errorf("%s: raw JSON, but the schema restricts the type to %v", at, s.Type.Slice())
		}
		return
	}
	if typ.Kind() == reflect.Pointer {
		oaCompareSchema(t, at, s, typ.Elem(), true)
		return
	}
	if s.Type == nil || s.Type.IncludesNull() != nullable {
		t.Errorf("%s: Go type %s (nullable %v), schema type %v", at, typ, nullable, s.Type)
	}
	want := ""
	switch {
	case typ == oaTimeType:
		want = "string"
		if s.Format != "date-time" {
			t.Errorf("%s: timestamp without format date-time", at)
		}
	case typ.Kind() == reflect.String:
		want = "string"
	case typ.Kind() == reflect.Bool:
		want = "boolean"
	case typ.Kind() == reflect.Int:
		want = "integer"
	case typ.Kind() == reflect.Float64:
		want = "number"
	case typ.Kind() == reflect.Slice:
		want = "array"
	case typ.Kind() == reflect.Struct:
		want = "object"
	default:
		t.Errorf("%s: unexpected Go kind %s", at, typ.Kind())
		return
	}
	nonNull := s.Type.Clone()
	nonNull.Without("null")
	if s.Type == nil || !s.Type.Includes(want) || len(nonNull) != 1 {
		t.Errorf("%s: Go type %s, schema type %v, want %s", at, typ, s.Type, want)
	}
	switch want {
	case "array":
		if s.Items == nil {
			t.Errorf("%s: array without items", at)
			return
		}
		oaCompareSchema(t, at+"[]", s.Items.Value, typ.Elem(), false)
	case "object":
		if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
			t.Errorf("%s: additionalProperties must be false", at)
		}
		fields := map[string]reflect.Type{}
		var optional []string
		if typ == oaHoursType {
			for _, p := range practiced.DayPrefixes {
				fields[p+"_active"] = reflect.TypeFor[bool]()
				fields[p+"_opens_at"] = reflect.TypeFor[string]()
				fields[p+"_closes_at"] = reflect.TypeFor[string]()
			}
		} else {
			for i := range typ.NumField() {
				f := typ.Field(i)
				name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == "-" || !f.IsExported() {
					continue
				}
				if name == "" {
					t.Errorf("%s.%s has no json name", at, f.Name)
					continue
				}
				fields[name] = f.Type
				if strings.Contains(opts, "omitempty") {
					optional = append(optional, name)
				}
			}
		}
		for name, ft := range fields {
			p := s.Properties[name]
			if p == nil {
				t.Errorf("%s.%s: the Go record encodes it; the schema does not list it", at, name)
				continue
			}
			if req := slices.Contains(s.Required, name); req == slices.Contains(optional, name) {
				t.Errorf("%s.%s: required %v in the schema, omitempty %v in Go", at, name, req, !req)
			}
			oaCompareSchema(t, at+"."+name, p.Value, ft, false)
		}
		for name := range s.Properties {
			if _, ok := fields[name]; !ok {
				t.Errorf("%s.%s: listed in the schema; the Go record has no such field", at, name)
			}
		}
		for _, name := range s.Required {
			if _, ok := s.Properties[name]; !ok {
				t.Errorf("%s: requires %s, which it does not list", at, name)
			}
		}
	}
}

// TestOpenAPIContract drives every operation of the base document through
// the live API, provokes each response it documents, and validates
// requests and responses against the document. Its steps run in order,
// each on the records the ones before it made.
func TestOpenAPIContract(t *testing.T) {
	e := newEnv(t)
	s := oaSeed(t, e)
	c := newOAContract(t, e)
	for _, step := range []struct {
		name string
		run  func(t *testing.T, c *oaContract, s *oaSeeded)
	}{
		{"the document and the health check are public", oaStepPublicEndpoints},
		{"every list refuses a missing or unknown key", oaStepListsNeedAKey},
		{"busy times are listed and filtered as documented", oaStepBusyTimeLists},
		{"busy times are created and paged as documented", oaStepBusyTimeCreation},
		{"forms are listed and filtered as documented", oaStepFormLists},
		{"appointment clients are listed and filtered as documented", oaStepAppointmentClientLists},
		{"clients are listed and searched as documented", oaStepClientLists},
		{"a client is updated, cleared and refused as documented", oaStepClientUpdates},
		{"locations are listed as documented", oaStepLocationLists},
		{"contacts are listed as documented", oaStepContactLists},
		{"availability slots are computed and refused as documented", oaStepAvailability},
		{"requests the document has no operation for answer 404 and 405", oaStepUndocumentedRequests},
		{"every keyed operation answers 429 over the rate limit", func(t *testing.T, c *oaContract, s *oaSeeded) {
			c.provokeRateLimits("../openapi/openapi.json")
		}},
		{"a failing store answers 500 with a request id", oaStepInternalErrors},
	} {
		c.step(step.name, func(t *testing.T, c *oaContract) { step.run(t, c, s) })
	}
	c.step("every documented response was provoked", func(t *testing.T, c *oaContract) { c.assertCoverage() })
	c.step("the document refuses answers with a property missing or added", func(t *testing.T, c *oaContract) { c.assertStrict() })
}

// oaListPaths are the list operations of the base document, each with
// the parameters it needs.
func oaListPaths(a *testfix.Clinic) []string {
	return []string{"/v1/busy_times", "/v1/forms", "/v1/appointment_clients", "/v1/clients", "/v1/locations", "/v1/contacts",
		"/v1/availability_slots?location_id=" + a.Sydney.ID + "&practitioner_id=" + a.Alice.ID + "&duration=30"}
}

// oaMinimalBusyTime is a busy time with only the fields it needs.
func oaMinimalBusyTime(a *testfix.Clinic) map[string]any {
	return map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Bob.ID,
		"starts_at": "2026-03-10T09:00:00+11:00", "ends_at": "2026-03-10T09:45:00+11:00"}
}

// oaStepPublicEndpoints checks the operations that need no key.
func oaStepPublicEndpoints(t *testing.T, c *oaContract, s *oaSeeded) {
	if _, res := c.send(oaReq{method: "GET", path: "/v1/openapi.json"}); res.Status != 200 || !bytes.Equal(res.Body, openapi.Document) {
		t.Errorf("GET /v1/openapi.json: status %d; the body is not the embedded document", res.Status)
	}
	c.call(oaReq{method: "GET", path: "/v1/openapi.json"}, 200, reqValid)
	if _, res := c.send(oaReq{method: "GET", path: "/v1/openapi-3.0.json"}); res.Status != 200 || !bytes.Equal(res.Body, openapi.Document30) {
		t.Errorf("GET /v1/openapi-3.0.json: status %d; the body is not the embedded 3.0 document", res.Status)
	}
	c.call(oaReq{method: "GET", path: "/v1/openapi-3.0.json"}, 200, reqValid)
	if got := c.call(oaReq{method: "GET", path: "/healthz"}, 200, reqValid); !reflect.DeepEqual(got, map[string]any{"status": "ok"}) {
		t.Errorf("GET /healthz: %v", got)
	}
}

// oaStepListsNeedAKey checks that every list operation answers 401
// without a key, with a key that is not a bearer key, and with an
// unknown key.
func oaStepListsNeedAKey(t *testing.T, c *oaContract, s *oaSeeded) {
	for _, p := range oaListPaths(c.e.a) {
		c.call(oaReq{method: "GET", path: p}, 401, reqInvalid)
		c.call(oaReq{method: "GET", path: p, token: "nope"}, 401, reqAny)
	}
	// A Basic header is refused by the API and by the document.
	c.callWithHeader(oaReq{method: "GET", path: "/v1/clients"}, "Authorization", "Basic YTpi", 401, reqInvalid)
}

// oaStepBusyTimeLists lists busy times with each filter and refuses bad
// queries.
func oaStepBusyTimeLists(t *testing.T, c *oaContract, s *oaSeeded) {
	a := c.e.a
	tok := a.Token
	bt := c.call(oaReq{method: "GET", path: "/v1/busy_times", token: tok}, 200, reqValid)
	oaWantIDs(t, "busy times", oaIDs(t, bt), s.busy.ID)
	bt = c.call(oaReq{method: "GET", path: "/v1/busy_times?include_archived=true&practitioner_id=" + a.Alice.ID, token: tok}, 200, reqValid)
	oaWantIDs(t, "busy times with archived", oaIDs(t, bt), s.busy.ID, s.busyArchived.ID)
	bt = c.call(oaReq{method: "GET", path: "/v1/busy_times?location_id=" + a.Adelaide.ID, token: tok}, 200, reqValid)
	oaWantIDs(t, "busy times at Adelaide", oaIDs(t, bt))
	bt = c.call(oaReq{method: "GET", path: "/v1/busy_times?starts_before=2026-03-03T02:30:00Z&ends_after=2026-03-03T02:59:00Z&updated_since=2026-01-01T00:00:00Z", token: tok}, 200, reqValid)
	oaWantIDs(t, "busy times in a window", oaIDs(t, bt), s.busy.ID)
	for _, bad := range []struct {
		query  string
		check  oaReqCheck
		fields []string
	}{
		{"limit=0", reqInvalid, []string{"limit"}},
		{"limit=101", reqInvalid, []string{"limit"}},
		{"practitioner_id=" + a.Sydney.ID, reqInvalid, []string{"practitioner_id"}},
		{"starts_before=2026-03-03", reqInvalid, []string{"starts_before"}},
		{"include_archived=maybe", reqInvalid, []string{"include_archived"}},
		{"cursor=nope", reqAny, []string{"cursor"}},
		{"bogus=1", reqAny, []string{"bogus"}},
	} {
		body := c.call(oaReq{method: "GET", path: "/v1/busy_times?" + bad.query, token: tok}, 422, bad.check)
		oaWantErrorFields(t, bad.query, body, bad.fields...)
	}
	c.keep("busy time list", oaReq{method: "GET", path: "/v1/busy_times", token: tok})

}

// oaStepBusyTimeCreation creates busy times, walks their pages both ways
// and refuses bad bodies.
func oaStepBusyTimeCreation(t *testing.T, c *oaContract, s *oaSeeded) {
	e, a := c.e, c.e.a
	tok := a.Token
	minimal := oaMinimalBusyTime(a)
	created := c.call(oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: oaJSON(t, minimal)}, 201, reqValid).(map[string]any)
	if created["duration"] != 45.0 || created["starts_at"] != "2026-03-09T22:00:00Z" || created["name"] != nil || created["repeat_id"] != nil {
		t.Errorf("created busy time: %v", created)
	}
	full := map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID,
		"starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z", "busy_time_type_id": a.MeetingType.ID,
		"name": "Supervision", "note": "Weekly", "room_id": "room-1", "vehicle_id": nil, "resource_ids": []string{"screen"},
		"repeating_rule": map[string]any{"frequency": "weekly", "interval": 1, "days": []string{"tuesday", "thursday"}, "occurrences": 4, "skip_conflicts": false}}
	created = c.call(oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: oaJSON(t, full)}, 201, reqValid).(map[string]any)
	if created["repeat_id"] == nil || created["busy_time_type_id"] != a.MeetingType.ID || created["name"] != "Supervision" {
		t.Errorf("created repeating busy time: %v", created)
	}
	c.keep("created busy time", oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: oaJSON(t, full)})
	// Pages: walk links.next at one record a page, then back with prev.
	next := "/v1/busy_times?limit=1"
	var walked []string
	var last map[string]any
	for i := 0; next != "" && i < 20; i++ {
		page := c.call(oaReq{method: "GET", path: next, token: tok}, 200, reqValid).(map[string]any)
		walked = append(walked, oaIDs(t, page)...)
		links := page["links"].(map[string]any)
		if (i == 0) != (links["prev"] == nil) {
			t.Errorf("page %d: prev %v", i, links["prev"])
		}
		next, _ = links["next"].(string)
		last = page
	}
	if len(walked) != 1+1+8 { // seeded, minimal, two repeating series of 4 (kept twice)
		t.Errorf("walked %d busy times: %v", len(walked), walked)
	}
	if prev, _ := last["links"].(map[string]any)["prev"].(string); prev == "" {
		t.Errorf("last page has no prev link")
	} else {
		c.call(oaReq{method: "GET", path: prev, token: tok}, 200, reqValid)
	}
	for _, bad := range []struct {
		name   string
		body   any
		check  oaReqCheck
		fields []string
	}{
		{"empty", map[string]any{}, reqInvalid, []string{"location_id", "practitioner_id", "starts_at", "ends_at"}},
		{"numbers for ids", map[string]any{"location_id": 1, "practitioner_id": 2, "starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z"}, reqInvalid, []string{"location_id", "practitioner_id"}},
		{"date only", map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "starts_at": "2026-03-10", "ends_at": "2026-03-10T02:00:00Z"}, reqInvalid, []string{"starts_at"}},
		{"unknown field", map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z", "colour": "red"}, reqInvalid, []string{"colour"}},
		{"long name", map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z", "name": strings.Repeat("n", 256)}, reqInvalid, []string{"name"}},
		{"bad rule", map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z",
			"repeating_rule": map[string]any{"frequency": "yearly", "interval": 53, "occurrences": 0, "days": []string{"funday"}, "x": 1}}, reqInvalid,
			[]string{"repeating_rule.frequency", "repeating_rule.interval", "repeating_rule.occurrences", "repeating_rule.days.0", "repeating_rule.x"}},
		{"ends before starts", map[string]any{"location_id": a.Sydney.ID, "practitioner_id": a.Alice.ID, "starts_at": "2026-03-10T02:00:00Z", "ends_at": "2026-03-10T01:00:00Z"}, reqAny, []string{"ends_at"}},
		{"works elsewhere", map[string]any{"location_id": a.Adelaide.ID, "practitioner_id": a.Bob.ID, "starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z"}, reqValid, []string{"practitioner_id"}},
		{"other business", map[string]any{"location_id": e.b.Sydney.ID, "practitioner_id": e.b.Alice.ID, "starts_at": "2026-03-10T01:00:00Z", "ends_at": "2026-03-10T02:00:00Z"}, reqValid, []string{"location_id", "practitioner_id"}},
	} {
		body := c.call(oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: oaJSON(t, bad.body)}, 422, bad.check)
		oaWantErrorFields(t, bad.name, body, bad.fields...)
	}
	c.keep("busy time 422", oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: "{}"})
	c.writeErrors("/v1/busy_times", oaJSON(t, minimal))
}

// oaStepFormLists lists forms with each filter and refuses bad queries.
func oaStepFormLists(t *testing.T, c *oaContract, s *oaSeeded) {
	e, a := c.e, c.e.a
	tok := a.Token
	forms := c.call(oaReq{method: "GET", path: "/v1/forms", token: tok}, 200, reqValid)
	oaWantIDs(t, "forms", oaIDs(t, forms), s.form1.ID, s.form2.ID)
	forms = c.call(oaReq{method: "GET", path: "/v1/forms?include_archived=true&limit=10", token: tok}, 200, reqValid)
	oaWantIDs(t, "forms with archived", oaIDs(t, forms), s.form1.ID, s.form2.ID, s.form3.ID)
	forms = c.call(oaReq{method: "GET", path: "/v1/forms?status=in_progress&filter[client_id]=" + a.Clients[0].ID +
		"&filter[sent_status]=viewed&filter[location_id]=" + a.Sydney.ID + "&filter[form_template_id]=" + a.Template.ID +
		"&filter[appointment_client_id]=" + s.apc1.ID, token: tok}, 200, reqValid)
	oaWantIDs(t, "filtered forms", oaIDs(t, forms), s.form1.ID)
	if url := forms.(map[string]any)["data"].([]any)[0].(map[string]any)["hosted_form_url"]; url != e.srv.URL+"/f/"+s.form1.ID+"?secret="+e.linkSecret(s.form1.ID) {
		t.Errorf("hosted_form_url %v", url)
	}
	forms = c.call(oaReq{method: "GET", path: "/v1/forms?filter[client_id]=" + a.Clients[2].ID, token: tok}, 200, reqValid)
	oaWantIDs(t, "forms of an archived form's client", oaIDs(t, forms))
	for _, bad := range []struct {
		query  string
		check  oaReqCheck
		fields []string
	}{
		{"limit=11", reqInvalid, []string{"limit"}},
		{"status=done", reqInvalid, []string{"status"}},
		{"filter[client_id]=" + a.Payer.ID, reqInvalid, []string{"filter[client_id]"}},
		{"filter[sent_status]=read", reqInvalid, []string{"filter[sent_status]"}},
		{"filter[colour]=red", reqAny, []string{"filter[colour]"}},
		{"updated_since=yesterday", reqInvalid, []string{"updated_since"}},
	} {
		body := c.call(oaReq{method: "GET", path: "/v1/forms?" + bad.query, token: tok}, 422, bad.check)
		oaWantErrorFields(t, bad.query, body, bad.fields...)
	}
	c.keep("form list", oaReq{method: "GET", path: "/v1/forms", token: tok})
}

// oaStepAppointmentClientLists lists appointment clients with each filter
// and refuses bad queries.
func oaStepAppointmentClientLists(t *testing.T, c *oaContract, s *oaSeeded) {
	a := c.e.a
	tok := a.Token
	apcs := c.call(oaReq{method: "GET", path: "/v1/appointment_clients", token: tok}, 200, reqValid)
	oaWantIDs(t, "appointment clients", oaIDs(t, apcs), s.apc1.ID, s.apc2.ID, s.apc3.ID)
	apcs = c.call(oaReq{method: "GET", path: "/v1/appointment_clients?status=arrived&appointment_id=" + s.apt2.ID + "&client_id=" + a.Clients[1].ID +
		"&starts_after=2026-03-04T01:00:00Z&starts_before=2026-03-04T01:00:01Z", token: tok}, 200, reqValid)
	oaWantIDs(t, "filtered appointment clients", oaIDs(t, apcs), s.apc2.ID)
	body := c.call(oaReq{method: "GET", path: "/v1/appointment_clients?status=late&client_id=cli_1&starts_after=x", token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "appointment clients", body, "status", "client_id", "starts_after")
	c.keep("appointment client list", oaReq{method: "GET", path: "/v1/appointment_clients", token: tok})
}

// oaStepClientLists lists and searches clients and refuses bad queries.
func oaStepClientLists(t *testing.T, c *oaContract, s *oaSeeded) {
	a := c.e.a
	tok := a.Token
	clients := c.call(oaReq{method: "GET", path: "/v1/clients", token: tok}, 200, reqValid)
	oaWantIDs(t, "clients", oaIDs(t, clients), a.Clients[0].ID, a.Clients[1].ID, a.Clients[2].ID, s.dee.ID)
	clients = c.call(oaReq{method: "GET", path: "/v1/clients?q=DEE&tag_id=" + a.Tag.ID, token: tok}, 200, reqValid)
	oaWantIDs(t, "clients named dee", oaIDs(t, clients), s.dee.ID)
	body := c.call(oaReq{method: "GET", path: "/v1/clients?tag_id=" + a.Referral.ID + "&q=" + strings.Repeat("q", 256), token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "clients", body, "tag_id", "q")
	c.keep("client list", oaReq{method: "GET", path: "/v1/clients?q=dee", token: tok})
}

// oaStepClientUpdates updates a client in part, in full and to nulls, and
// refuses bad bodies, unknown clients and the shared write errors.
func oaStepClientUpdates(t *testing.T, c *oaContract, s *oaSeeded) {
	e, a := c.e, c.e.a
	tok := a.Token
	ann := "/v1/clients/" + a.Clients[0].ID
	updated := c.call(oaReq{method: "POST", path: ann, token: tok, body: `{"preferred_name":"Annie"}`}, 200, reqValid).(map[string]any)
	if updated["preferred_name"] != "Annie" || updated["first_name"] != "Ann" {
		t.Errorf("updated client: %v", updated)
	}
	fullClient := map[string]any{
		"title": "Mrs", "first_name": "Ann", "last_name": "Archer", "preferred_name": "Annie", "profession": "Teacher",
		"email": "ann@example.com", "date_of_birth": "1985-02-03T10:00:00+10:00", "sex": "female", "gender_identity": "woman", "pronouns": "she/her",
		"privacy_policy_consent": "accepted", "marketing_consent": "granted", "consent_method": "online_booking",
		"emergency_contact_id": a.Emergency.ID, "emergency_contact_relationship": "Husband", "invoice_contact_id": a.Payer.ID,
		"notes": "Runner", "alert": "Latex allergy", "referral_type_id": a.Referral.ID, "referral_description": "GP letter",
		"referred_by_id": s.referrer.ID, "phone_number": "+61 (2) 9999-0000", "intolerances": []string{"Gluten"}, "tag_ids": []string{a.Tag.ID},
		"address": map[string]any{"line1": "2 Pitt St", "line2": "Unit 4", "city": "Sydney", "state": "NSW", "postal_code": "2000", "country_code": "au",
			"latitude": -33.8, "longitude": 151.2, "formatted_address_geocoder_estimate": "Unit 4, 2 Pitt St", "place_id": "abc"},
		"ndis_details": map[string]any{"ndis_number": "431111111", "plan_start_date": "2026-01-01T00:00:00Z", "plan_end_date": "2026-12-31T00:00:00+10:00",
			"plan_manager_id": a.Payer.ID, "plan_nominee_id": a.Emergency.ID, "diagnoses": []string{"ASD"}},
		"medications":     []any{map[string]any{"name": "Panadol", "dosage": "500 mg"}},
		"allergies":       []any{map[string]any{"name": "Latex", "reaction": "Hives"}},
		"phone_numbers":   []any{map[string]any{"number": "0412 345 678", "code": "+61", "type": "home"}, map[string]any{"number": "0299998888"}},
		"related_clients": []any{map[string]any{"related_client_id": s.dee.ID}},
		"linked_contacts": []any{map[string]any{"contact_id": a.Payer.ID, "include_in_appointment_notifications": true,
			"include_in_invoice_notifications": false, "include_in_progress_note_notifications": true, "note": "Pays"}},
	}
	updated = c.call(oaReq{method: "POST", path: ann, token: tok, body: oaJSON(t, fullClient)}, 200, reqValid).(map[string]any)
	if updated["date_of_birth"] != "1985-02-03" || updated["phone_number"] != "+61299990000" ||
		updated["address"].(map[string]any)["country_code"] != "AU" || len(updated["phone_numbers"].([]any)) != 2 {
		t.Errorf("fully updated client: %v", updated)
	}
	c.keep("updated client", oaReq{method: "POST", path: ann, token: tok, body: oaJSON(t, fullClient)})
	cleared := map[string]any{"title": nil, "date_of_birth": nil, "privacy_policy_consent": nil, "marketing_consent": nil, "consent_method": nil,
		"emergency_contact_id": nil, "invoice_contact_id": nil, "referral_type_id": nil, "referred_by_id": nil, "phone_number": nil,
		"intolerances": nil, "tag_ids": nil, "medications": nil, "allergies": nil, "phone_numbers": nil, "related_clients": nil, "linked_contacts": nil,
		"address": map[string]any{"line2": nil, "latitude": nil, "country_code": nil}, "ndis_details": nil}
	updated = c.call(oaReq{method: "POST", path: ann, token: tok, body: oaJSON(t, cleared)}, 200, reqValid).(map[string]any)
	if updated["ndis_details"] != nil || updated["address"].(map[string]any)["line1"] != "2 Pitt St" || updated["address"].(map[string]any)["line2"] != nil ||
		len(updated["tag_ids"].([]any)) != 0 || updated["title"] != "" {
		t.Errorf("cleared client: %v", updated)
	}
	c.keep("cleared client", oaReq{method: "POST", path: ann, token: tok, body: `{"address":null,"ndis_details":{}}`})
	c.call(oaReq{method: "POST", path: ann, token: tok}, 200, reqValid)
	for _, bad := range []struct {
		name   string
		body   any
		check  oaReqCheck
		fields []string
	}{
		{"types", map[string]any{"first_name": 5, "email": "nope", "emergency_contact_id": 12, "bogus": 1, "date_of_birth": "03/02/1985"}, reqInvalid,
			[]string{"first_name", "email", "emergency_contact_id", "bogus", "date_of_birth"}},
		{"empty names", map[string]any{"first_name": "", "last_name": nil}, reqInvalid, []string{"first_name", "last_name"}},
		{"enums", map[string]any{"privacy_policy_consent": "yes", "marketing_consent": "accepted", "consent_method": "email"}, reqInvalid,
			[]string{"privacy_policy_consent", "marketing_consent", "consent_method"}},
		{"nested", map[string]any{"address": map[string]any{"country_code": "AUS", "latitude": 91, "zip": "2000"},
			"ndis_details":  map[string]any{"plan_start_date": "2026-01-01", "plan_manager_id": a.Clients[1].ID},
			"phone_numbers": []any{map[string]any{"code": "61"}, map[string]any{"number": "12", "type": "pager"}},
			"medications":   []any{map[string]any{"dosage": "1"}}, "related_clients": []any{map[string]any{}}, "linked_contacts": []any{"x"}}, reqInvalid,
			[]string{"address.country_code", "address.latitude", "address.zip", "ndis_details.plan_start_date", "ndis_details.plan_manager_id",
				"phone_numbers.0.number", "phone_numbers.1.number", "phone_numbers.1.type", "medications.0.name", "related_clients.0.related_client_id",
				"linked_contacts.0"}},
		{"long notes", map[string]any{"notes": strings.Repeat("n", 501), "title": strings.Repeat("t", 256)}, reqInvalid, []string{"notes", "title"}},
		{"repeated tags", map[string]any{"tag_ids": []string{a.Tag.ID, a.Tag.ID}}, reqInvalid, []string{"tag_ids.1"}},
		{"missing references", map[string]any{"tag_ids": []string{e.b.Tag.ID}, "referral_type_id": e.b.Referral.ID, "emergency_contact_id": e.b.Emergency.ID}, reqValid,
			[]string{"tag_ids.0", "referral_type_id", "emergency_contact_id"}},
		{"future birth", map[string]any{"date_of_birth": "2030-01-01", "referred_by_id": a.Clients[0].ID}, reqAny, []string{"date_of_birth", "referred_by_id"}},
	} {
		body := c.call(oaReq{method: "POST", path: ann, token: tok, body: oaJSON(t, bad.body)}, 422, bad.check)
		oaWantErrorFields(t, bad.name, body, bad.fields...)
	}
	c.keep("client 422", oaReq{method: "POST", path: ann, token: tok, body: `{"bogus":1}`})
	c.call(oaReq{method: "POST", path: "/v1/clients/cli_nope", token: tok, body: `{}`}, 404, reqInvalid)
	c.call(oaReq{method: "POST", path: "/v1/clients/" + a.Payer.ID, token: tok, body: `{}`}, 404, reqInvalid)
	c.call(oaReq{method: "POST", path: "/v1/clients/" + e.b.Clients[0].ID, token: tok, body: `{}`}, 404, reqValid)
	c.call(oaReq{method: "POST", path: "/v1/clients/" + tid.New("cli"), token: tok, body: `{}`}, 404, reqValid)
	c.writeErrors(ann, `{"notes":"x"}`)
}

// oaStepLocationLists lists locations and refuses bad queries.
func oaStepLocationLists(t *testing.T, c *oaContract, s *oaSeeded) {
	a := c.e.a
	tok := a.Token
	locs := c.call(oaReq{method: "GET", path: "/v1/locations", token: tok}, 200, reqValid)
	oaWantIDs(t, "locations", oaIDs(t, locs), a.Sydney.ID, a.Adelaide.ID, s.annex.ID)
	locs = c.call(oaReq{method: "GET", path: "/v1/locations?limit=2&updated_since=2026-02-15T00:00:00Z&include_archived=false", token: tok}, 200, reqValid)
	oaWantIDs(t, "recent locations", oaIDs(t, locs), s.annex.ID)
	body := c.call(oaReq{method: "GET", path: "/v1/locations?limit=x&q=a", token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "locations", body, "limit", "q")
	c.keep("location list", oaReq{method: "GET", path: "/v1/locations", token: tok})
}

// oaStepContactLists lists and searches contacts and refuses bad queries.
func oaStepContactLists(t *testing.T, c *oaContract, s *oaSeeded) {
	a := c.e.a
	tok := a.Token
	contacts := c.call(oaReq{method: "GET", path: "/v1/contacts", token: tok}, 200, reqValid)
	oaWantIDs(t, "contacts", oaIDs(t, contacts), a.Payer.ID, a.Emergency.ID, s.referrer.ID)
	contacts = c.call(oaReq{method: "GET", path: "/v1/contacts?q=0298765432&tag_id=" + a.Tag.ID, token: tok}, 200, reqValid)
	oaWantIDs(t, "contacts by phone", oaIDs(t, contacts), s.referrer.ID)
	body := c.call(oaReq{method: "GET", path: "/v1/contacts?tag_id=1&tag_id=2", token: tok}, 422, reqAny)
	oaWantErrorFields(t, "contacts", body, "tag_id")
	c.keep("contact list", oaReq{method: "GET", path: "/v1/contacts?q=rae", token: tok})
}

// oaStepAvailability computes slots and refuses bad queries.
func oaStepAvailability(t *testing.T, c *oaContract, s *oaSeeded) {
	e, a := c.e, c.e.a
	tok := a.Token
	slotsPath := "/v1/availability_slots?location_id=" + a.Sydney.ID + "&practitioner_id=" + a.Alice.ID
	slots := c.call(oaReq{method: "GET", path: slotsPath + "&duration=60&from=2026-03-03&to=2026-03-03", token: tok}, 200, reqValid).(map[string]any)
	var starts []string
	for _, sl := range slots["data"].([]any) {
		starts = append(starts, sl.(map[string]any)["start_time_local"].(string))
	}
	if want := []string{"09:00", "10:00", "12:00", "14:00", "15:00", "16:00"}; !slices.Equal(starts, want) {
		t.Errorf("slots %v, want %v", starts, want)
	}
	c.call(oaReq{method: "GET", path: slotsPath + "&service_id=" + a.Consult.ID + "&interval=15", token: tok}, 200, reqValid)
	empty := c.call(oaReq{method: "GET", path: slotsPath + "&duration=30&from=2026-03-07&to=2026-03-08", token: tok}, 200, reqValid).(map[string]any)
	if d := empty["data"].([]any); len(d) != 0 {
		t.Errorf("weekend slots at Sydney: %v", d)
	}
	c.keep("availability slots", oaReq{method: "GET", path: slotsPath + "&duration=60&from=2026-03-03&to=2026-03-03", token: tok})
	body := c.call(oaReq{method: "GET", path: "/v1/availability_slots", token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "availability without parameters", body, "location_id", "duration")
	body = c.call(oaReq{method: "GET", path: slotsPath + "&duration=4&interval=241&from=2026-3-1&to=2026-02-30&limit=5", token: tok}, 422, reqInvalid)
	oaWantErrorFields(t, "availability bounds", body, "duration", "interval", "from", "to", "limit")
	body = c.call(oaReq{method: "GET", path: slotsPath + "&duration=30&from=2026-03-10&to=2026-03-09", token: tok}, 422, reqValid)
	oaWantErrorFields(t, "availability range", body, "to")
	body = c.call(oaReq{method: "GET", path: "/v1/availability_slots?location_id=" + a.Adelaide.ID + "&practitioner_id=" + a.Bob.ID + "&service_id=" + e.b.Consult.ID, token: tok}, 422, reqValid)
	oaWantErrorFields(t, "availability references", body, "practitioner_id", "service_id")
}

// oaStepUndocumentedRequests checks the answers to unknown paths and
// undocumented methods.
func oaStepUndocumentedRequests(t *testing.T, c *oaContract, s *oaSeeded) {
	ann := "/v1/clients/" + c.e.a.Clients[0].ID
	c.undocumented("GET", "/v1/nope", 404)
	c.undocumented("GET", "/v1/busy_times/", 404)
	c.undocumented("GET", "/busy_times", 404)
	c.undocumented("DELETE", "/v1/busy_times", 405)
	c.undocumented("DELETE", ann, 405)
	c.undocumented("PUT", "/v1/locations", 405)
	c.undocumented("PUT", "/v1/availability_slots", 405)
	c.undocumented("POST", "/v1/openapi.json", 405)
}

// oaStepInternalErrors closes the store: every operation that reads it
// answers 500.
func oaStepInternalErrors(t *testing.T, c *oaContract, s *oaSeeded) {
	a := c.e.a
	tok := a.Token
	c.breakStore()
	for _, p := range oaListPaths(a) {
		body := c.call(oaReq{method: "GET", path: p, token: tok}, 500, reqValid)
		if msg, _ := body.(map[string]any)["message"].(string); !strings.Contains(msg, "request id") {
			t.Errorf("500 message %q carries no request id", msg)
		}
	}
	c.call(oaReq{method: "POST", path: "/v1/busy_times", token: tok, body: oaJSON(t, oaMinimalBusyTime(a))}, 500, reqValid)
	c.call(oaReq{method: "POST", path: "/v1/clients/" + a.Clients[0].ID, token: tok, body: `{}`}, 500, reqValid)
	c.call(oaReq{method: "GET", path: "/v1/openapi.json"}, 200, reqValid)
}

// ---------------------------------------------------------------- known fields

// TestOpenAPIDocumentedInputsAreKnown sends every documented body field and
// query parameter and checks that the API knows it: none is reported as
// unknown.
func TestOpenAPIDocumentedInputsAreKnown(t *testing.T) {
	e := newEnv(t)
	doc := oaLoad(t)
	tok := e.a.Token

	// nulls builds a body with every property of s: null, or for an
	// object, an object of nulls; for an array of objects, one such item.
	var nulls func(s *openapi3.Schema) map[string]any
	nulls = func(s *openapi3.Schema) map[string]any {
		out := map[string]any{}
		for name, p := range s.Properties {
			v := p.Value
			switch {
			case v.Type.Permits("object") && len(v.Properties) > 0:
				out[name] = nulls(v)
			case v.Type.Permits("array") && v.Items != nil && len(v.Items.Value.Properties) > 0:
				out[name] = []any{nulls(v.Items.Value)}
			default:
				out[name] = nil
			}
		}
		return out
	}
	for _, tc := range []struct{ schema, path string }{
		{"BusyTimeCreate", "/v1/busy_times"},
		{"ClientUpdate", "/v1/clients/" + e.a.Clients[0].ID},
	} {
		body := nulls(doc.Components.Schemas[tc.schema].Value)
		r := e.do("POST", tc.path, tok, body)
		if r.Status != 422 && r.Status != 200 {
			t.Errorf("%s: status %d: %s", tc.schema, r.Status, r.Body)
			continue
		}
		if r.Status == 422 {
			for field, msgs := range oaErrors(t, r.JSON(t)) {
				for _, m := range msgs.([]any) {
					if strings.Contains(m.(string), "not a known field") {
						t.Errorf("%s: documented field %s is unknown to the API", tc.schema, field)
					}
				}
			}
		}
		if len(body) < 4 {
			t.Errorf("%s: only %d properties", tc.schema, len(body))
		}
	}

	for key, op := range oaOperations(doc) {
		method, path, _ := strings.Cut(key, " ")
		if method != "GET" || len(op.Parameters) == 0 {
			continue
		}
		var names []string
		for _, p := range op.Parameters {
			if p.Value.In != "query" {
				continue
			}
			if p.Value.Style == "deepObject" {
				for prop := range p.Value.Schema.Value.Properties {
					names = append(names, p.Value.Name+"["+prop+"]")
				}
				continue
			}
			names = append(names, p.Value.Name)
		}
		for _, name := range names {
			r := e.do("GET", path+"?"+url.QueryEscape(name)+"=%21", tok, nil)
			if r.Status == 422 {
				errs := oaErrors(t, r.JSON(t))
				if msgs, ok := errs[name].([]any); ok && slices.Contains(msgs, any("is not a known query parameter")) {
					t.Errorf("%s: documented query parameter %s is unknown to the API", key, name)
				}
			}
		}
		r := e.do("GET", path+"?zz_undocumented=1", tok, nil)
		if errs := oaErrors(t, r.JSON(t)); !reflect.DeepEqual(errs["zz_undocumented"], []any{"is not a known query parameter"}) {
			t.Errorf("%s: an undocumented parameter is not refused: %v", key, errs)
		}
	}
}
