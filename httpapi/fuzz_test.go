package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
)

// The fuzz targets feed arbitrary bytes to the request decoders and the
// full handlers. Whatever arrives, the answer is a 4xx or a 2xx, never a
// panic or a 5xx, and a refused request changes nothing.

var clientSeeds = []string{
	`{}`,
	`{"first_name":"Ann","email":"ann@example.com","date_of_birth":"1990-05-31"}`,
	`{"address":{"line1":"1 George St","country_code":"au","latitude":-33.8,"longitude":151.2}}`,
	`{"phone_numbers":[{"number":"0412 345 678","code":"+61"},{"number":"x"}]}`,
	`{"ndis_details":{"ndis_number":"430000000","plan_start_date":"2026-01-01T00:00:00Z","diagnoses":["asd"]}}`,
	`{"tag_ids":[1,2],"emergency_contact_id":12,"bogus":true}`,
	`{"medications":[{"name":"Ibuprofen","dosage":"200mg"}],"allergies":null,"intolerances":["lactose"]}`,
	`{"related_clients":[{"related_client_id":"cli_00000000000000000000000000"}],"linked_contacts":[{}]}`,
	`{"privacy_policy_consent":"accepted","marketing_consent":"granted","consent_method":"paper_form"}`,
	`{"first_name":"'; DROP TABLE clients; --"}`,
	`[]`, `"x"`, `null`, `{"a":`, "{\"first_name\":\"\u0000\"}",
}

func FuzzReadClientPatch(f *testing.F) {
	for _, s := range clientSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var errs practiced.FieldErrors
		o, err := decodeObject(body, &errs)
		if err != nil {
			if practiced.ErrorCode(err) != practiced.EBADREQUEST {
				t.Fatalf("decode failed with %v, want a bad request", err)
			}
			return
		}
		p := readClient(o, &practiced.Client{ID: "cli_00000000000000000000000000"}, testfix.Now)
		if errs.Empty() {
			// A valid patch applies to any client without panicking and
			// keeps the client's name.
			c := practiced.Client{FirstName: "A", LastName: "B"}
			p.apply(&c)
			if c.FirstName == "" || c.LastName == "" {
				t.Fatalf("a valid patch emptied a name: %q %q", c.FirstName, c.LastName)
			}
		} else if err := errs.Err(); practiced.ErrorCode(err) != practiced.EINVALID {
			t.Fatalf("field errors gave %v", err)
		}
	})
}

func FuzzReadBusyTime(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"location_id":"loc_00000000000000000000000000","practitioner_id":"pra_00000000000000000000000000","starts_at":"2026-03-03T09:00:00+11:00","ends_at":"2026-03-03T10:00:00+11:00"}`,
		`{"location_id":1,"practitioner_id":2,"starts_at":"2026-03-03","ends_at":"9999-99-99T00:00:00Z"}`,
		`{"repeating_rule":{"frequency":"weekly","interval":2,"days":["monday","funday"],"occurrences":261}}`,
		`{"repeating_rule":{"frequency":"monthly","occurrences":1.5,"skip_conflicts":"yes"}}`,
		`{"name":"` + string(bytes.Repeat([]byte("é"), 300)) + `"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var errs practiced.FieldErrors
		o, err := decodeObject(body, &errs)
		if err != nil {
			return
		}
		in := readBusyTime(o)
		if errs.Empty() {
			if !in.EndsAt.V.After(in.StartsAt.V) {
				t.Fatalf("accepted ends_at %v not after starts_at %v", in.EndsAt.V, in.StartsAt.V)
			}
			if in.Repeat != nil && (in.Repeat.rule.Occurrences < 1 || in.Repeat.rule.Interval < 1) {
				t.Fatalf("accepted rule %+v", in.Repeat.rule)
			}
		}
	})
}

func FuzzListQuery(f *testing.F) {
	for _, s := range []string{
		"", "limit=5", "limit=0", "limit=-1&limit=2", "cursor=abc", "cursor=eyJsIjoiY2xpZW50cyIsImYiOiIiLCJpZCI6ImNsaV8xIn0",
		"q=%25_%5C&tag_id=tag_00000000000000000000000000", "updated_since=2026-01-01", "include_archived=maybe", "unknown=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u := &url.URL{Path: "/v1/clients", RawQuery: raw}
		r := &http.Request{URL: u}
		l := newList(r, "clients", 100)
		personFilter(l)
		if err := l.done(); err == nil {
			if l.page.Limit < 1 || l.page.Limit > 100 {
				t.Fatalf("accepted limit %d", l.page.Limit)
			}
		} else if practiced.ErrorCode(err) != practiced.EINVALID {
			t.Fatalf("query error %v", err)
		}
	})
}

// FuzzUpdateClientHTTP sends arbitrary bodies to the real handler and
// store: the answer is never a 5xx, and a refused update leaves the
// client exactly as it was.
func FuzzUpdateClientHTTP(f *testing.F) {
	for _, s := range clientSeeds {
		f.Add([]byte(s))
	}
	st := testfix.Store(f)
	clinic := testfix.NewClinic(f, st, "Fuzz clinic")
	srv := NewServer(st, Options{Now: func() time.Time { return testfix.Now }})
	id := clinic.Clients[0].ID
	f.Fuzz(func(t *testing.T, body []byte) {
		before, err := st.GetClient(context.Background(), clinic.Business.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", "/v1/clients/"+id, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+clinic.Token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("response is not JSON: %s", rec.Body)
		}
		if rec.Code != http.StatusOK {
			after, err := st.GetClient(context.Background(), clinic.Business.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(before)
			b, _ := json.Marshal(after)
			if !bytes.Equal(a, b) {
				t.Fatalf("refused update (%d) changed the client:\nbefore %s\nafter  %s", rec.Code, a, b)
			}
		}
	})
}

// TestLogsNameRoutesNotPaths checks that request logs carry the route
// pattern and never the path's ids, a query string or an API key, one
// line a request of the fields docs/operations.md names, in its order.
func TestLogsNameRoutesNotPaths(t *testing.T) {
	st := testfix.Store(t)
	clinic := testfix.NewClinic(t, st, "Logs")
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	srv := NewServer(st, Options{Now: func() time.Time { return testfix.Now }, Logger: logger})
	id := clinic.Clients[0].ID
	req := httptest.NewRequest("GET", "/v1/clients?q=Archer&limit=1", nil)
	req.Header.Set("Authorization", "Bearer "+clinic.Token)
	list := httptest.NewRecorder()
	srv.ServeHTTP(list, req)
	req = httptest.NewRequest("POST", "/v1/clients/"+id, bytes.NewReader([]byte(`{"notes":"private note"}`)))
	req.Header.Set("Authorization", "Bearer "+clinic.Token)
	req.Header.Set("Content-Type", "application/json")
	update := httptest.NewRecorder()
	srv.ServeHTTP(update, req)
	log := buf.String()
	want := `time=\S+ level=INFO msg=request request_id=%s method=%s route="%s" status=200 duration_ms=\d+\n`
	lines := regexp.MustCompile("^" + fmt.Sprintf(want, list.Header().Get("X-Request-Id"), "GET", regexp.QuoteMeta("GET /v1/clients")) +
		fmt.Sprintf(want, update.Header().Get("X-Request-Id"), "POST", regexp.QuoteMeta("POST /v1/clients/{client}")) + "$")
	if list.Code != 200 || update.Code != 200 || len(list.Header().Get("X-Request-Id")) != 16 || !lines.MatchString(log) {
		t.Errorf("answers %d and %d; the log is\n%s", list.Code, update.Code, log)
	}
	for _, secret := range []string{id, "Archer", "private note", clinic.Token} {
		if bytes.Contains([]byte(log), []byte(secret)) {
			t.Errorf("the log contains %q:\n%s", secret, log)
		}
	}
	for _, route := range []string{`route="GET /v1/clients"`, `route="POST /v1/clients/{client}"`} {
		if !bytes.Contains([]byte(log), []byte(route)) {
			t.Errorf("the log lacks %s:\n%s", route, log)
		}
	}
}
