package httpapi_test

import "testing"

func TestCreateClientPackageAnswers201WithTheWholeRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runCreateCases(t, e, "client_packages", []createCase{
		{`{"client_id":"ANN","name":"Five sessions","sessions_total":5,"sessions_used":2,"expires_on":"2026-12-31"}`,
			`{"id":"ID","client_id":"ANN","name":"Five sessions","sessions_total":5,"sessions_used":2,"expires_on":"2026-12-31",
			"created_at":"NOW","updated_at":"NOW","archived_at":null}`},
		{`{"client_id":"ANN","name":"Ten sessions","sessions_total":10}`,
			`{"id":"ID","client_id":"ANN","name":"Ten sessions","sessions_total":10,"sessions_used":0,"expires_on":null,
			"created_at":"NOW","updated_at":"NOW","archived_at":null}`},
	})
}

func TestClientPackageRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runRefusedCreates(t, e, "client_packages", []refusedCase{
		{"no sessions", `{"client_id":"ANN","name":"x","sessions_total":0}`, oneError("sessions_total", "must be between 1 and 1000")},
		{"too many sessions", `{"client_id":"ANN","name":"x","sessions_total":1001}`, oneError("sessions_total", "must be between 1 and 1000")},
		{"more used than held", `{"client_id":"ANN","name":"x","sessions_total":5,"sessions_used":6}`,
			oneError("sessions_used", "must not be more than sessions_total (5)")},
		{"negative use", `{"client_id":"ANN","name":"x","sessions_total":5,"sessions_used":-1}`,
			oneError("sessions_used", "must be between 0 and 1000")},
		{"expiry a date", `{"client_id":"ANN","name":"x","sessions_total":5,"expires_on":"31/12/2026"}`,
			oneError("expires_on", "must be a date such as 1990-05-31")},
		{"expiry a date, not a timestamp", `{"client_id":"ANN","name":"x","sessions_total":5,"expires_on":"2026-12-31T00:00:00Z"}`,
			oneError("expires_on", "must be a date such as 1990-05-31")},
		{"client of another business, beside other failures", `{"client_id":"B_CLI","name":"","sessions_total":"5"}`,
			map[string][]string{
				"client_id":      {"does not exist"},
				"name":           {"must not be empty"},
				"sessions_total": {"must be a whole number, not a string"},
			}},
	})
}

// sessions_used never exceeds sessions_total, whichever of the two an
// update changes.
func TestClientPackageUpdateKeepsUseWithinTheTotal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runUpdateCases(t, e, "client_packages", `{"client_id":"ANN","name":"Five","sessions_total":5,"sessions_used":3,"expires_on":"2026-06-30"}`, []updateCase{
		{name: "use one more", body: `{"sessions_used":4}`, want: `{"sessions_used":4}`},
		{name: "use them all", body: `{"sessions_used":5}`, want: `{"sessions_used":5}`},
		{name: "use more than held", body: `{"sessions_used":6}`,
			invalid: oneError("sessions_used", "must not be more than sessions_total (5)")},
		{name: "hold fewer than used", body: `{"sessions_total":2}`,
			invalid: oneError("sessions_used", "must not be more than sessions_total (2)")},
		{name: "hold fewer and use fewer", body: `{"sessions_total":2,"sessions_used":1}`, want: `{"sessions_total":2,"sessions_used":1}`},
		{name: "null resets use and expiry", body: `{"sessions_used":null,"expires_on":null}`, want: `{"sessions_used":0,"expires_on":null}`},
		{name: "the total cannot be nulled", body: `{"sessions_total":null}`,
			invalid: oneError("sessions_total", "is required and cannot be null")},
		{name: "the client cannot change", body: `{"client_id":"BEN"}`,
			invalid: oneError("client_id", "cannot be changed: a package belongs to the client it was created for")},
	})
}

func TestClientPackageListFiltersByClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ann, ben := a.Clients[0].ID, a.Clients[1].ID
	p1, _ := setupCreate(t, e, "client_packages", `{"client_id":"`+ann+`","name":"One","sessions_total":1}`)
	p2, _ := setupCreate(t, e, "client_packages", `{"client_id":"`+ben+`","name":"Two","sessions_total":2}`)
	p3, _ := setupCreate(t, e, "client_packages", `{"client_id":"`+ann+`","name":"Three","sessions_total":3}`)
	runFilterCases(t, e, "/v1/client_packages", []filterCase{
		{"no filter", nil, []string{p1, p2, p3}},
		{"client", qv("client_id", ann), []string{p1, p3}},
		{"another business's client", qv("client_id", e.b.Clients[0].ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/client_packages", []invalidQueryCase{
		{"client_id=cli_1", "client_id", "must be an id starting with cli_"},
		{"status=open", "status", "is not a known query parameter"},
	})
}
