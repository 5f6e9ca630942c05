package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/tid"
)

// The clinic's set-up and people: locations, contacts, practitioners,
// services, tags, referral types, cancellation reasons, busy time types,
// cases and client packages. This file pins down what every one of them
// does alike (docs/api.md, "Shared rules"), and the named records' own rules.

// setupNow is testfix.Now as responses write it.
const setupNow = "2026-03-01T22:00:00Z"

// setupEvents returns the change feed entries of one record, oldest
// first.
func setupEvents(t *testing.T, e *env, c *testfix.Clinic, recordID string) []practiced.Event {
	t.Helper()
	evs, _, err := e.st.ListEvents(context.Background(), c.Business.ID, practiced.EventFilter{RecordID: recordID},
		practiced.PageRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// setupEventTypes returns the types of the record's events, oldest first.
func setupEventTypes(t *testing.T, e *env, c *testfix.Clinic, recordID string) []string {
	t.Helper()
	types := []string{}
	for _, ev := range setupEvents(t, e, c, recordID) {
		types = append(types, ev.Type)
	}
	return types
}

// setupCreate creates a record of clinic A and returns its id and body.
func setupCreate(t *testing.T, e *env, plural string, body any) (string, response) {
	t.Helper()
	r := e.do("POST", "/v1/"+plural, e.a.Token, body)
	wantStatus(t, r, http.StatusCreated)
	id, _ := r.JSON(t)["id"].(string)
	return id, r
}

// withIDs replaces the placeholders of a JSON template by ids, longest
// placeholder first so that one never spoils another.
func withIDs(template string, ids map[string]string) string {
	var pairs []string
	for k, v := range ids {
		pairs = append(pairs, k, v)
	}
	for i := 0; i < len(pairs); i += 2 {
		for j := i + 2; j < len(pairs); j += 2 {
			if len(pairs[j]) > len(pairs[i]) {
				pairs[i], pairs[i+1], pairs[j], pairs[j+1] = pairs[j], pairs[j+1], pairs[i], pairs[i+1]
			}
		}
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

// listedIDs returns the ids the list at path shows clinic c.
func listedIDs(t *testing.T, e *env, path, token string) []string {
	t.Helper()
	return idsOf(e.listAll(t, path, token), idOf)
}

// idOf returns the id of a decoded record.
func idOf(rec map[string]any) string { return rec["id"].(string) }

func contains(ids []string, id string) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// setupKind is one kind of record of the area, with a create body and an
// update body that are valid for clinic A.
type setupKind struct {
	plural, prefix, recordType, kind string
	create                           func(a *testfix.Clinic) map[string]any
	update                           map[string]any
}

var setupKinds = []setupKind{
	{"locations", practiced.PrefixLocation, "location", "Location",
		func(*testfix.Clinic) map[string]any {
			return map[string]any{"name": "Parramatta", "timezone": "Australia/Sydney"}
		},
		map[string]any{"name": "Parramatta West"}},
	{"contacts", practiced.PrefixContact, "contact", "Contact",
		func(*testfix.Clinic) map[string]any { return map[string]any{"type": "referrer", "last_name": "Lee"} },
		map[string]any{"first_name": "Jo"}},
	{"practitioners", practiced.PrefixPractitioner, "practitioner", "Practitioner",
		func(*testfix.Clinic) map[string]any { return map[string]any{"first_name": "Dana", "last_name": "Park"} },
		map[string]any{"designation": "Podiatrist"}},
	{"services", practiced.PrefixService, "service", "Service",
		func(*testfix.Clinic) map[string]any { return map[string]any{"name": "Review", "duration": 20} },
		map[string]any{"duration": 25}},
	{"tags", practiced.PrefixTag, "tag", "Tag",
		func(*testfix.Clinic) map[string]any { return map[string]any{"name": "New"} },
		map[string]any{"color": "#00aa00"}},
	{"referral_types", practiced.PrefixReferralType, "referral_type", "Referral type",
		func(*testfix.Clinic) map[string]any { return map[string]any{"name": "Word of mouth"} },
		map[string]any{"name": "Friend"}},
	{"cancellation_reasons", practiced.PrefixCancellationReason, "cancellation_reason", "Cancellation reason",
		func(*testfix.Clinic) map[string]any { return map[string]any{"name": "Weather"} },
		map[string]any{"name": "Storm"}},
	{"busy_time_types", practiced.PrefixBusyTimeType, "busy_time_type", "Busy time type",
		func(*testfix.Clinic) map[string]any { return map[string]any{"name": "Admin"} },
		map[string]any{"name": "Paperwork"}},
	{"cases", practiced.PrefixCase, "case", "Case",
		func(a *testfix.Clinic) map[string]any {
			return map[string]any{"client_id": a.Clients[0].ID, "name": "Right shoulder"}
		},
		map[string]any{"status": "closed"}},
	{"client_packages", practiced.PrefixClientPackage, "client_package", "Client package",
		func(a *testfix.Clinic) map[string]any {
			return map[string]any{"client_id": a.Clients[0].ID, "name": "Ten sessions", "sessions_total": 10}
		},
		map[string]any{"sessions_used": 1}},
}

// TestSetupRecordsFollowTheCommonLifecycle walks a record of every kind
// through create, read, update, archive and unarchive, checking each
// answer, the lists and the change feed.
func TestSetupRecordsFollowTheCommonLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	later := testfix.Now.Add(time.Hour)
	const laterText = "2026-03-01T23:00:00Z"
	for _, k := range setupKinds {
		t.Run(k.plural, func(t *testing.T) {
			e.clock = testfix.Now
			id, created := setupCreate(t, e, k.plural, k.create(a))
			got := created.JSON(t)
			if !tid.Valid(id, k.prefix) {
				t.Fatalf("id %q is not a %s_ id", id, k.prefix)
			}
			if got["created_at"] != setupNow || got["updated_at"] != setupNow || got["archived_at"] != nil {
				t.Fatalf("timestamps %v, %v, %v; want created and updated now, not archived", got["created_at"], got["updated_at"], got["archived_at"])
			}
			for field, v := range k.create(a) {
				if got[field] != v && !(isNumber(v) && got[field] == float64(v.(int))) {
					t.Errorf("%s = %v, want %v as sent", field, got[field], v)
				}
			}
			path := "/v1/" + k.plural + "/" + id
			wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, string(created.Body))

			e.clock = later
			updated := e.do("POST", path, a.Token, k.update)
			wantStatus(t, updated, http.StatusOK)
			want := got
			for field, v := range k.update {
				want[field] = v
			}
			want["updated_at"] = laterText
			wantBody(t, updated, http.StatusOK, jsonText(want))
			wantBody(t, e.do("GET", path, a.Token, nil), http.StatusOK, string(updated.Body))

			if ids := listedIDs(t, e, "/v1/"+k.plural, a.Token); !contains(ids, id) {
				t.Fatalf("the list does not show the new record %s: %v", id, ids)
			}
			archived := e.do("POST", path+"/archive", a.Token, nil)
			want["archived_at"] = laterText
			wantBody(t, archived, http.StatusOK, jsonText(want))
			if ids := listedIDs(t, e, "/v1/"+k.plural, a.Token); contains(ids, id) {
				t.Fatalf("the list shows the archived record %s", id)
			}
			if ids := listedIDs(t, e, "/v1/"+k.plural+"?include_archived=true", a.Token); !contains(ids, id) {
				t.Fatalf("include_archived=true does not show the archived record %s", id)
			}
			again := e.do("POST", path+"/archive", a.Token, nil)
			wantBody(t, again, http.StatusOK, string(archived.Body))
			unarchived := e.do("POST", path+"/unarchive", a.Token, nil)
			want["archived_at"] = nil
			wantBody(t, unarchived, http.StatusOK, jsonText(want))
			if ids := listedIDs(t, e, "/v1/"+k.plural, a.Token); !contains(ids, id) {
				t.Fatalf("the list does not show the unarchived record %s", id)
			}

			// One event per change, each carrying the record as the change
			// left it; archiving an archived record changed nothing.
			evs := setupEvents(t, e, a, id)
			steps := []struct {
				action string
				body   []byte
			}{{"created", created.Body}, {"updated", updated.Body}, {"archived", archived.Body}, {"unarchived", unarchived.Body}}
			if len(evs) != len(steps) {
				t.Fatalf("%d events %v, want %d", len(evs), setupEventTypes(t, e, a, id), len(steps))
			}
			for i, st := range steps {
				if evs[i].Type != k.recordType+"."+st.action || evs[i].RecordType != k.recordType {
					t.Errorf("event %d: type %q, record_type %q; want %s.%s", i, evs[i].Type, evs[i].RecordType, k.recordType, st.action)
				}
				if got, want := canonicalJSON(t, evs[i].Data), canonicalJSON(t, st.body); got != want {
					t.Errorf("event %s data:\n%s\nwant the answer of the change:\n%s", evs[i].Type, got, want)
				}
			}
		})
	}
}

func isNumber(v any) bool { _, ok := v.(int); return ok }

func TestSetupRecordsOfAnotherBusinessAreNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, k := range setupKinds {
		t.Run(k.plural, func(t *testing.T) {
			id, _ := setupCreate(t, e, k.plural, k.create(e.a))
			notFound := messageJSON(k.kind + " not found.")
			otherKind := practiced.PrefixTag
			if k.prefix == practiced.PrefixTag {
				otherKind = practiced.PrefixReferralType
			}
			for _, p := range []string{id, tid.New(k.prefix), "bogus", tid.New(otherKind), strings.ToUpper(id)} {
				base := "/v1/" + k.plural + "/" + p
				token := e.a.Token
				if p == id {
					token = e.b.Token // the record exists, in the other business
				}
				wantBody(t, e.do("GET", base, token, nil), http.StatusNotFound, notFound)
				wantBody(t, e.do("POST", base, token, k.update), http.StatusNotFound, notFound)
				wantBody(t, e.do("POST", base+"/archive", token, nil), http.StatusNotFound, notFound)
				wantBody(t, e.do("POST", base+"/unarchive", token, nil), http.StatusNotFound, notFound)
			}
			if ids := listedIDs(t, e, "/v1/"+k.plural+"?include_archived=true", e.b.Token); contains(ids, id) {
				t.Fatalf("business B's list shows A's record %s", id)
			}
			if evs := setupEventTypes(t, e, e.a, id); len(evs) != 1 {
				t.Fatalf("events %v after B's attempts, want only the creation", evs)
			}
		})
	}
}

func TestSetupRecordsCannotBeWrittenWithAReadOnlyKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, k := range setupKinds {
		t.Run(k.plural, func(t *testing.T) {
			id, _ := setupCreate(t, e, k.plural, k.create(e.a))
			forbidden := messageJSON("This API key is read-only.")
			base := "/v1/" + k.plural
			wantBody(t, e.do("POST", base, e.a.ReadOnlyToken, k.create(e.a)), http.StatusForbidden, forbidden)
			wantBody(t, e.do("POST", base+"/"+id, e.a.ReadOnlyToken, k.update), http.StatusForbidden, forbidden)
			wantBody(t, e.do("POST", base+"/"+id+"/archive", e.a.ReadOnlyToken, nil), http.StatusForbidden, forbidden)
			wantBody(t, e.do("POST", base+"/"+id+"/unarchive", e.a.ReadOnlyToken, nil), http.StatusForbidden, forbidden)
			wantStatus(t, e.do("GET", base+"/"+id, e.a.ReadOnlyToken, nil), http.StatusOK)
			wantStatus(t, e.do("GET", base, e.a.ReadOnlyToken, nil), http.StatusOK)
		})
	}
}

func TestSetupRecordsRefuseUnknownFieldsAndEmptyMandatoryFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mandatory := map[string][]string{
		"locations": {"name", "timezone"}, "contacts": {"type"}, "practitioners": {"first_name", "last_name"},
		"services": {"name", "duration"}, "tags": {"name"}, "referral_types": {"name"}, "cancellation_reasons": {"name"},
		"busy_time_types": {"name"}, "cases": {"client_id", "name"}, "client_packages": {"client_id", "name", "sessions_total"},
	}
	for _, k := range setupKinds {
		t.Run(k.plural, func(t *testing.T) {
			fields := mandatory[k.plural]
			id, stored := setupCreate(t, e, k.plural, k.create(e.a))

			missing := map[string][]string{"bogus": {"is not a known field"}, "id": {"is not a known field"}}
			nulls := map[string]any{}
			for _, f := range fields {
				missing[f] = []string{"is required"}
				nulls[f] = nil
			}
			wantInvalid(t, e.do("POST", "/v1/"+k.plural, e.a.Token, map[string]any{"bogus": 1, "id": id}), missing, "")

			nulled := map[string][]string{}
			for _, f := range fields {
				nulled[f] = []string{"is required and cannot be null"}
			}
			wantInvalid(t, e.do("POST", "/v1/"+k.plural, e.a.Token, nulls), nulled, "")
			wantInvalid(t, e.do("POST", "/v1/"+k.plural+"/"+id, e.a.Token, nulls), nulled, "")
			wantBody(t, e.do("GET", "/v1/"+k.plural+"/"+id, e.a.Token, nil), http.StatusOK, string(stored.Body))
			if n := len(listedIDs(t, e, "/v1/"+k.plural+"?include_archived=true", e.a.Token)); n == 0 {
				t.Fatal("the list is empty")
			}
		})
	}
}

// ---------------------------------------------------------------- named records

func TestNamedRecordsHaveAColorOnlyWhereTheirKindHasOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		plural string
		body   string
		want   string
	}{
		{"tags", `{"name":"VIP"}`, `{"name":"VIP","color":""}`},
		{"tags", `{"name":"Urgent","color":"#FF00aa"}`, `{"name":"Urgent","color":"#ff00aa"}`},
		{"busy_time_types", `{"name":"Leave","color":"#123abc"}`, `{"name":"Leave","color":"#123abc"}`},
		{"busy_time_types", `{"name":"Travel"}`, `{"name":"Travel","color":""}`},
		{"tags", `{"name":"Calm","color":"Teal"}`, `{"name":"Calm","color":"teal"}`},
		{"tags", `{"name":"Royal","color":"REBECCAPURPLE"}`, `{"name":"Royal","color":"rebeccapurple"}`},
		{"busy_time_types", `{"name":"Lunch","color":"#0F0"}`, `{"name":"Lunch","color":"#0f0"}`},
		{"busy_time_types", `{"name":"Gym","color":"lightgoldenrodyellow"}`, `{"name":"Gym","color":"lightgoldenrodyellow"}`},
		{"referral_types", `{"name":"GP"}`, `{"name":"GP"}`},
		{"cancellation_reasons", `{"name":"Sick"}`, `{"name":"Sick"}`},
	} {
		t.Run(tc.plural+" "+tc.body, func(t *testing.T) {
			r := e.do("POST", "/v1/"+tc.plural, e.a.Token, tc.body)
			wantStatus(t, r, http.StatusCreated)
			got := r.JSON(t)
			want := decodeJSON(t, tc.want)
			want["id"], want["created_at"], want["updated_at"], want["archived_at"] = got["id"], setupNow, setupNow, nil
			wantBody(t, r, http.StatusCreated, jsonText(want))
			wantBody(t, e.do("GET", "/v1/"+tc.plural+"/"+got["id"].(string), e.a.Token, nil), http.StatusOK, jsonText(want))
		})
	}
}

func TestNamedRecordsRefuseInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	long := strings.Repeat("é", 256)
	for _, tc := range []struct {
		name, plural, body string
		want               map[string][]string
	}{
		{"empty name", "tags", `{"name":"  "}`, oneError("name", "must not be empty")},
		{"long name", "referral_types", `{"name":"` + long + `"}`, oneError("name", "must be at most 255 characters (it has 256)")},
		{"name not a string", "cancellation_reasons", `{"name":5}`, oneError("name", "must be a string, not a number")},
		{"color not a color name", "tags", `{"name":"x","color":"reddish"}`, oneError("color", "must be a CSS color name such as teal, or a hex color such as #1a2b3c or #abc")},
		{"hex color of four digits", "busy_time_types", `{"name":"x","color":"#abcd"}`, oneError("color", "must be a CSS color name such as teal, or a hex color such as #1a2b3c or #abc")},
		{"color with spaces", "tags", `{"name":"x","color":" teal"}`, oneError("color", "must be a CSS color name such as teal, or a hex color such as #1a2b3c or #abc")},
		{"color not a string", "tags", `{"name":"x","color":1}`, oneError("color", "must be a string, not a number")},
		{"color on a kind without one", "referral_types", `{"name":"x","color":"#aabbcc"}`, oneError("color", "is not a known field")},
		{"color on cancellation reasons", "cancellation_reasons", `{"name":"x","color":"#aabbcc"}`, oneError("color", "is not a known field")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(listedIDs(t, e, "/v1/"+tc.plural+"?include_archived=true", e.a.Token))
			wantInvalid(t, e.do("POST", "/v1/"+tc.plural, e.a.Token, tc.body), tc.want, "")
			if after := len(listedIDs(t, e, "/v1/"+tc.plural+"?include_archived=true", e.a.Token)); after != before {
				t.Fatalf("%d records after a refused create, want %d", after, before)
			}
		})
	}
}

func TestNamedUpdateNullClearsTheColor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, _ := setupCreate(t, e, "tags", `{"name":"VIP","color":"#aa0000"}`)
	e.clock = testfix.Now.Add(time.Minute)
	r := e.do("POST", "/v1/tags/"+id, e.a.Token, `{"color":null}`)
	wantBody(t, r, http.StatusOK, withIDs(`{"id":"ID","name":"VIP","color":"","created_at":"NOW","updated_at":"2026-03-01T22:01:00Z","archived_at":null}`,
		map[string]string{"ID": id, "NOW": setupNow}))
}

func TestNamedListsShowOnlyTheirKind(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	tag, _ := setupCreate(t, e, "tags", `{"name":"Second"}`)
	for _, tc := range []struct {
		plural string
		want   []string
	}{
		{"tags", []string{a.Tag.ID, tag}},
		{"referral_types", []string{a.Referral.ID}},
		{"cancellation_reasons", []string{a.Cancel.ID}},
		{"busy_time_types", []string{a.MeetingType.ID}},
	} {
		got := listedIDs(t, e, "/v1/"+tc.plural, a.Token)
		if jsonText(got) != jsonText(tc.want) {
			t.Errorf("/v1/%s: %v, want %v", tc.plural, got, tc.want)
		}
	}
	// A record of one kind is not found under another kind's path.
	wantBody(t, e.do("GET", "/v1/referral_types/"+tag, a.Token, nil), http.StatusNotFound, messageJSON("Referral type not found."))
}
