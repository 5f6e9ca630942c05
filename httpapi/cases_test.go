package httpapi_test

import (
	"strings"
	"testing"

	"github.com/practiced/practiced/tid"
)

func TestCreateCaseAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runCreateCases(t, e, "cases", []createCase{
		{`{"client_id":"ANN","name":"Left knee","notes":"Work cover claim 123"}`,
			`{"id":"ID","client_id":"ANN","name":"Left knee","status":"open","notes":"Work cover claim 123",
			"created_at":"NOW","updated_at":"NOW","archived_at":null}`},
		{`{"client_id":"ANN","name":"Old injury","status":"closed"}`,
			`{"id":"ID","client_id":"ANN","name":"Old injury","status":"closed","notes":"",
			"created_at":"NOW","updated_at":"NOW","archived_at":null}`},
	})
}

func TestCaseRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	runRefusedCreates(t, e, "cases", []refusedCase{
		{"client of another business", `{"client_id":"B_CLI","name":"x"}`, oneError("client_id", "does not exist")},
		{"unknown client", `{"client_id":"` + tid.New("cli") + `","name":"x"}`, oneError("client_id", "does not exist")},
		{"not a client id", `{"client_id":"` + a.Payer.ID + `","name":"x"}`, oneError("client_id", "must be an id starting with cli_")},
		{"a number for an id", `{"client_id":12,"name":"x"}`,
			oneError("client_id", `must be an id string such as "cli_01h455vb4pex5vsknk084sn02q"; ids are prefixed strings, not numbers`)},
		{"status and notes", `{"client_id":"ANN","name":"x","status":"pending","notes":"` + strings.Repeat("n", 2001) + `"}`,
			map[string][]string{
				"status": {"must be one of: open, closed"},
				"notes":  {"must be at most 2000 characters (it has 2001)"},
			}},
	})
}

func TestCaseUpdateChangesOnlyTheFieldsSentButNeverTheClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runUpdateCases(t, e, "cases", `{"client_id":"ANN","name":"Left knee","status":"closed","notes":"Claim"}`, []updateCase{
		{name: "empty body", body: `{}`, want: `{}`},
		{name: "status and name", body: `{"status":"closed","name":"Left knee (healed)"}`,
			want: `{"status":"closed","name":"Left knee (healed)"}`},
		{name: "the same client", body: `{"client_id":"ANN"}`, want: `{}`},
		{name: "null clears notes and reopens", body: `{"notes":null,"status":null}`, want: `{"notes":"","status":"open"}`},
		{name: "another client", body: `{"client_id":"BEN"}`,
			invalid: oneError("client_id", "cannot be changed: a case belongs to the client it was created for")},
		{name: "no client", body: `{"client_id":null}`, invalid: oneError("client_id", "is required and cannot be null")},
	})
}

func TestCaseListFiltersByClientAndStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ann, ben := a.Clients[0].ID, a.Clients[1].ID
	annOpen, _ := setupCreate(t, e, "cases", `{"client_id":"`+ann+`","name":"Knee"}`)
	annClosed, _ := setupCreate(t, e, "cases", `{"client_id":"`+ann+`","name":"Back","status":"closed"}`)
	benOpen, _ := setupCreate(t, e, "cases", `{"client_id":"`+ben+`","name":"Wrist"}`)
	runFilterCases(t, e, "/v1/cases", []filterCase{
		{"no filter", nil, []string{annOpen, annClosed, benOpen}},
		{"client", qv("client_id", ann), []string{annOpen, annClosed}},
		{"status", qv("status", "open"), []string{annOpen, benOpen}},
		{"client and status", qv("client_id", ann, "status", "closed"), []string{annClosed}},
		{"another business's client", qv("client_id", e.b.Clients[0].ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/cases", []invalidQueryCase{
		{"status=done", "status", "must be one of: open, closed"},
		{"client_id=" + a.Payer.ID, "client_id", "must be an id starting with cli_"},
	})
}
