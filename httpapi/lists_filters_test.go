package httpapi_test

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// filterCase is one list request and the ids it must return, in order.
type filterCase struct {
	name  string
	query url.Values
	want  []string
}

// runFilterCases checks each case's whole result (walking every page).
func runFilterCases(t *testing.T, e *env, path string, cases []filterCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := path
			if len(tc.query) > 0 {
				p += "?" + tc.query.Encode()
			}
			got := listedIDs(t, e, p, e.a.Token)
			if got == nil {
				got = []string{}
			}
			if tc.want == nil {
				tc.want = []string{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%s: %v\nwant %v", p, got, tc.want)
			}
		})
	}
}

// invalidQueryCase is a list request that must fail on one parameter.
type invalidQueryCase struct {
	query      string
	field, msg string
}

func runInvalidQueryCases(t *testing.T, e *env, path string, cases []invalidQueryCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			r := e.do("GET", path+"?"+tc.query, e.a.Token, nil)
			wantInvalid(t, r, oneError(tc.field, tc.msg), tc.field+" "+tc.msg)
		})
	}
}

func qv(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func mustUTC(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestBusyTimeListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	b1 := newBusyTime(a.Alice, a.Sydney, mustUTC("2026-03-03T01:00:00Z"), 60)   // 01:00-02:00
	b2 := newBusyTime(a.Alice, a.Adelaide, mustUTC("2026-03-03T03:00:00Z"), 60) // 03:00-04:00
	b3 := newBusyTime(a.Bob, a.Sydney, mustUTC("2026-03-03T01:30:00Z"), 60)     // 01:30-02:30
	b4 := newBusyTime(a.Alice, a.Sydney, mustUTC("2026-03-04T01:00:00Z"), 60)
	seedData(t, e, a, practiced.SeedData{BusyTimes: []practiced.BusyTime{b1, b2, b3, b4}})
	other := newBusyTime(e.b.Alice, e.b.Sydney, mustUTC("2026-03-03T01:00:00Z"), 60)
	seedData(t, e, e.b, practiced.SeedData{BusyTimes: []practiced.BusyTime{other}})

	t.Run("records are exactly as stored", func(t *testing.T) {
		p := e.do("GET", "/v1/busy_times?limit=1", e.a.Token, nil)
		var body struct {
			Data []json.RawMessage `json:"data"`
		}
		json.Unmarshal(p.Body, &body)
		wantBody(t, response{Status: 200, Header: p.Header, Body: body.Data[0]}, 200, `{
			"id": "`+b1.ID+`", "location_id": "`+a.Sydney.ID+`", "practitioner_id": "`+a.Alice.ID+`",
			"starts_at": "2026-03-03T01:00:00Z", "ends_at": "2026-03-03T02:00:00Z", "duration": 60,
			"name": null, "note": null, "created_at": "2026-02-28T22:00:00Z",
			"busy_time_type_id": null, "room_id": null, "vehicle_id": null, "resource_ids": [],
			"repeat_id": null, "updated_at": "2026-02-28T22:00:00Z", "archived_at": null}`)
	})
	runFilterCases(t, e, "/v1/busy_times", []filterCase{
		{"no filter shows only the business's own", nil, []string{b1.ID, b2.ID, b3.ID, b4.ID}},
		{"practitioner", qv("practitioner_id", a.Alice.ID), []string{b1.ID, b2.ID, b4.ID}},
		{"other practitioner", qv("practitioner_id", a.Bob.ID), []string{b3.ID}},
		{"location", qv("location_id", a.Sydney.ID), []string{b1.ID, b3.ID, b4.ID}},
		{"practitioner and location", qv("practitioner_id", a.Alice.ID, "location_id", a.Sydney.ID), []string{b1.ID, b4.ID}},
		{"ends_after excludes a busy time ending at it", qv("ends_after", "2026-03-03T02:00:00Z"), []string{b2.ID, b3.ID, b4.ID}},
		{"ends_after with an offset", qv("ends_after", "2026-03-03T13:00:00+11:00"), []string{b2.ID, b3.ID, b4.ID}},
		{"starts_before excludes a busy time starting at it", qv("starts_before", "2026-03-03T03:00:00Z"), []string{b1.ID, b3.ID}},
		{"overlap window", qv("ends_after", "2026-03-03T01:45:00Z", "starts_before", "2026-03-03T03:00:00Z"), []string{b1.ID, b3.ID}},
		{"overlap window inside one busy time", qv("ends_after", "2026-03-03T03:10:00Z", "starts_before", "2026-03-03T03:20:00Z"), []string{b2.ID}},
		{"empty window", qv("ends_after", "2026-03-05T00:00:00Z"), nil},
		{"practitioner of another business matches nothing", qv("practitioner_id", e.b.Alice.ID), nil},
		{"location of another business matches nothing", qv("location_id", e.b.Sydney.ID), nil},
		{"unknown practitioner matches nothing", qv("practitioner_id", tid.New("pra")), nil},
	})
	runInvalidQueryCases(t, e, "/v1/busy_times", []invalidQueryCase{
		{"practitioner_id=alice", "practitioner_id", "must be an id starting with pra_"},
		{"practitioner_id=" + a.Sydney.ID, "practitioner_id", "must be an id starting with pra_"},
		{"location_id=" + a.Alice.ID, "location_id", "must be an id starting with loc_"},
		{"practitioner_id=" + a.Alice.ID + "&practitioner_id=" + a.Bob.ID, "practitioner_id", "must be given once"},
		{"starts_before=2026-03-03", "starts_before", "must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
		{"ends_after=tomorrow", "ends_after", "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"},
	})
}

func TestFormListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ann, ben := a.Clients[0].ID, a.Clients[1].ID
	second := practiced.FormTemplate{ID: tid.New("fte"), Name: "Consent", Content: []practiced.Page{}, CreatedAt: seeded, UpdatedAt: seeded}
	apt := newAppointment(a.Alice, a.Sydney, &a.Consult, mustUTC("2026-03-03T01:00:00Z"), 30)
	apc := newAppointmentClient(apt, ben, practiced.StatusBooked)
	f1 := newForm(a, ann)
	f1.LocationID = &a.Sydney.ID
	f1.Color = "teal"
	f1.CompletionMessage = "Thanks"
	f2 := newForm(a, ben)
	f2.Status, f2.SentStatus = practiced.FormInProgress, practiced.SentSent
	f2.AppointmentClientID = &apc.ID
	f2.SentAt = &seeded
	f3 := newForm(a, ann)
	f3.FormTemplateID, f3.Name = second.ID, second.Name
	f3.Status, f3.SentStatus = practiced.FormCompleted, practiced.SentViewed
	seedData(t, e, a, practiced.SeedData{FormTemplates: []practiced.FormTemplate{second}, Appointments: []practiced.Appointment{apt},
		AppointmentClients: []practiced.AppointmentClient{apc}, Forms: []practiced.Form{f1, f2, f3}})
	seedData(t, e, e.b, practiced.SeedData{Forms: []practiced.Form{newForm(e.b, e.b.Clients[0].ID)}})

	t.Run("records carry every field and the hosted URL", func(t *testing.T) {
		p := e.do("GET", "/v1/forms?limit=1", a.Token, nil)
		var body struct {
			Data []json.RawMessage `json:"data"`
		}
		json.Unmarshal(p.Body, &body)
		wantBody(t, response{Status: 200, Header: p.Header, Body: body.Data[0]}, 200, `{
			"id": "`+f1.ID+`", "client_id": "`+ann+`", "location_id": "`+a.Sydney.ID+`",
			"form_template_id": "`+a.Template.ID+`", "appointment_client_id": null, "name": "Intake",
			"color": "teal", "completion_message": "Thanks", "prefill_client_fields": false,
			"override_client_fields": false, "status": "not_started", "sent_status": "not_sent",
			"content": [{"sections": [{"title": "About you", "description": "", "questions": [
				{"id": "email", "type": "short_text", "label": "E-mail", "required": true, "options": [], "client_field": null, "answer": null}]}]}],
			"hosted_form_url": "`+e.srv.URL+`/f/`+f1.ID+`?secret=`+e.linkSecret(f1.ID)+`",
			"sent_at": null, "viewed_at": null, "completed_at": null, "archived_at": null,
			"created_at": "2026-02-28T22:00:00Z", "updated_at": "2026-02-28T22:00:00Z"}`)
	})
	runFilterCases(t, e, "/v1/forms", []filterCase{
		{"no filter", nil, []string{f1.ID, f2.ID, f3.ID}},
		{"status not_started", qv("status", "not_started"), []string{f1.ID}},
		{"status in_progress", qv("status", "in_progress"), []string{f2.ID}},
		{"status completed", qv("status", "completed"), []string{f3.ID}},
		{"client", qv("filter[client_id]", ann), []string{f1.ID, f3.ID}},
		{"client and status", qv("filter[client_id]", ann, "status", "completed"), []string{f3.ID}},
		{"appointment client", qv("filter[appointment_client_id]", apc.ID), []string{f2.ID}},
		{"location", qv("filter[location_id]", a.Sydney.ID), []string{f1.ID}},
		{"form template", qv("filter[form_template_id]", second.ID), []string{f3.ID}},
		{"sent status sent", qv("filter[sent_status]", "sent"), []string{f2.ID}},
		{"sent status viewed", qv("filter[sent_status]", "viewed"), []string{f3.ID}},
		{"sent status not_sent", qv("filter[sent_status]", "not_sent"), []string{f1.ID}},
		{"client of another business matches nothing", qv("filter[client_id]", e.b.Clients[0].ID), nil},
		{"template of another business matches nothing", qv("filter[form_template_id]", e.b.Template.ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/forms", []invalidQueryCase{
		{"status=done", "status", "must be one of: not_started, in_progress, completed"},
		{"status=Completed", "status", "must be one of: not_started, in_progress, completed"},
		{"filter%5Bsent_status%5D=read", "filter[sent_status]", "must be one of: not_sent, queued, sent, bounced, failed, viewed"},
		{"filter%5Bclient_id%5D=" + a.Payer.ID, "filter[client_id]", "must be an id starting with cli_"},
		{"filter%5Bappointment_client_id%5D=" + apt.ID, "filter[appointment_client_id]", "must be an id starting with apc_"},
		{"filter%5Blocation_id%5D=sydney", "filter[location_id]", "must be an id starting with loc_"},
		{"filter%5Bform_template_id%5D=" + f1.ID, "filter[form_template_id]", "must be an id starting with fte_"},
		{"client_id=" + ann, "client_id", "is not a known query parameter; use filter[client_id]"},
		{"filter=" + ann, "filter", "is not a known query parameter"},
		{"filter%5Bstatus%5D=completed", "filter[status]", "is not a known query parameter; use status"},
	})
}

func TestAppointmentClientListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ann, ben := a.Clients[0].ID, a.Clients[1].ID
	apt1 := newAppointment(a.Alice, a.Sydney, &a.Consult, mustUTC("2026-03-03T01:00:00Z"), 30)
	apt2 := newAppointment(a.Bob, a.Sydney, &a.Consult, mustUTC("2026-03-04T01:00:00Z"), 30)
	ac1 := newAppointmentClient(apt1, ann, practiced.StatusBooked)
	ac2 := newAppointmentClient(apt1, ben, practiced.StatusArrived)
	ac3 := newAppointmentClient(apt2, ann, practiced.StatusCancelled)
	ac3.CancelledAt = &seeded
	ac3.CancellationReasonID = &a.Cancel.ID
	ac3.CancellationNote = "Unwell"
	seedData(t, e, a, practiced.SeedData{Appointments: []practiced.Appointment{apt1, apt2},
		AppointmentClients: []practiced.AppointmentClient{ac1, ac2, ac3}})
	bApt := newAppointment(e.b.Alice, e.b.Sydney, nil, mustUTC("2026-03-03T01:00:00Z"), 30)
	seedData(t, e, e.b, practiced.SeedData{Appointments: []practiced.Appointment{bApt},
		AppointmentClients: []practiced.AppointmentClient{newAppointmentClient(bApt, e.b.Clients[0].ID, practiced.StatusBooked)}})

	t.Run("records carry the appointment's times", func(t *testing.T) {
		p := e.do("GET", "/v1/appointment_clients?limit=1&status=cancelled", a.Token, nil)
		var body struct {
			Data []json.RawMessage `json:"data"`
		}
		json.Unmarshal(p.Body, &body)
		wantBody(t, response{Status: 200, Header: p.Header, Body: body.Data[0]}, 200, `{
			"id": "`+ac3.ID+`", "appointment_id": "`+apt2.ID+`", "client_id": "`+ann+`",
			"case_id": null, "client_package_id": null, "status": "cancelled", "do_not_invoice": false,
			"note": "", "confirmed": false, "confirmed_at": null,
			"cancellation_reason_id": "`+a.Cancel.ID+`", "cancellation_note": "Unwell",
			"cancelled_at": "2026-02-28T22:00:00Z", "arrived_at": null,
			"starts_at": "2026-03-04T01:00:00Z", "ends_at": "2026-03-04T01:30:00Z",
			"created_at": "2026-02-28T22:00:00Z", "updated_at": "2026-02-28T22:00:00Z", "archived_at": null}`)
	})
	runFilterCases(t, e, "/v1/appointment_clients", []filterCase{
		{"no filter", nil, []string{ac1.ID, ac2.ID, ac3.ID}},
		{"appointment", qv("appointment_id", apt1.ID), []string{ac1.ID, ac2.ID}},
		{"client", qv("client_id", ann), []string{ac1.ID, ac3.ID}},
		{"status booked", qv("status", "booked"), []string{ac1.ID}},
		{"status arrived", qv("status", "arrived"), []string{ac2.ID}},
		{"status cancelled", qv("status", "cancelled"), []string{ac3.ID}},
		{"status no_show", qv("status", "no_show"), nil},
		{"starts_after is inclusive", qv("starts_after", "2026-03-04T01:00:00Z"), []string{ac3.ID}},
		{"starts_after a second later", qv("starts_after", "2026-03-04T01:00:01Z"), nil},
		{"starts_before is exclusive", qv("starts_before", "2026-03-04T01:00:00Z"), []string{ac1.ID, ac2.ID}},
		{"starts_before with an offset", qv("starts_before", "2026-03-04T12:00:01+11:00"), []string{ac1.ID, ac2.ID, ac3.ID}},
		{"window", qv("starts_after", "2026-03-03T00:00:00Z", "starts_before", "2026-03-03T23:59:59Z"), []string{ac1.ID, ac2.ID}},
		{"client and status", qv("client_id", ann, "status", "booked"), []string{ac1.ID}},
		{"appointment of another business matches nothing", qv("appointment_id", bApt.ID), nil},
		{"client of another business matches nothing", qv("client_id", e.b.Clients[0].ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/appointment_clients", []invalidQueryCase{
		{"status=late", "status", "must be one of: booked, arrived, completed, no_show, cancelled"},
		{"appointment_id=" + ac1.ID, "appointment_id", "must be an id starting with apt_"},
		{"client_id=" + a.Payer.ID, "client_id", "must be an id starting with cli_"},
		{"starts_after=2026-03-03", "starts_after", "must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"},
		{"starts_before=now", "starts_before", "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"},
		{"practitioner_id=" + a.Alice.ID, "practitioner_id", "is not a known query parameter"},
	})
}

func TestClientListSearchAndTagFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	ann, ben, cat := a.Clients[0].ID, a.Clients[1].ID, a.Clients[2].ID
	zoe := newClient("Zoë", "Ümlaut", "zoe@Example.ORG")
	zoe.PhoneNumber = "0412345678"
	zoe.TagIDs = []string{a.Tag.ID}
	percent := newClient("Percy", "100%Fit", "")
	under := newClient("Una", "Under_Score", "")
	back := newClient("Bea", `Back\Slash`, "")
	xavier := newClient("Xavier", "Phones", "")
	xavier.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New("pho"), Code: "61", Number: "298765432", Type: "home"}}
	xavier.TagIDs = []string{a.Tag.ID}
	preferred := newClient("Robert", "Jones", "")
	preferred.PreferredName = "Bobby"
	seedData(t, e, a, practiced.SeedData{Clients: []practiced.Client{zoe, percent, under, back, xavier, preferred}})
	bClient := newClient("Zoë", "Other", "zoe@example.org")
	bClient.TagIDs = []string{e.b.Tag.ID}
	seedData(t, e, e.b, practiced.SeedData{Clients: []practiced.Client{bClient}})

	runFilterCases(t, e, "/v1/clients", []filterCase{
		{"no filter shows only the business's own", nil, []string{ann, ben, cat, zoe.ID, percent.ID, under.ID, back.ID, xavier.ID, preferred.ID}},
		{"first name", qv("q", "ann"), []string{ann}},
		{"first name, other case", qv("q", "ANN"), []string{ann}},
		{"last name", qv("q", "baker"), []string{ben}},
		{"first and last name", qv("q", "Ann Archer"), []string{ann}},
		{"part of a name", qv("q", "erc"), []string{percent.ID}},
		{"preferred name", qv("q", "bobby"), []string{preferred.ID}},
		{"non-ASCII name, other case", qv("q", "ZOË"), []string{zoe.ID}},
		{"non-ASCII last name", qv("q", "ümlaut"), []string{zoe.ID}},
		{"e-mail, other case", qv("q", "example.org"), []string{zoe.ID}},
		{"e-mail domain shared", qv("q", "@EXAMPLE.COM"), []string{ann, ben, cat}},
		{"phone number", qv("q", "0412"), []string{zoe.ID}},
		{"additional phone number", qv("q", "298765"), []string{xavier.ID}},
		{"additional phone number with its dial code", qv("q", "61298"), []string{xavier.ID}},
		{"% is literal", qv("q", "%"), []string{percent.ID}},
		{"100% is literal", qv("q", "100%"), []string{percent.ID}},
		{"_ is literal", qv("q", "_"), []string{under.ID}},
		{"_ is not a wildcard", qv("q", "b_n"), nil},
		{"% is not a wildcard", qv("q", "a%r"), nil},
		{"backslash is literal", qv("q", `\`), []string{back.ID}},
		{"empty q is no filter", qv("q", ""), []string{ann, ben, cat, zoe.ID, percent.ID, under.ID, back.ID, xavier.ID, preferred.ID}},
		{"no match", qv("q", "nobody"), nil},
		{"tag", qv("tag_id", a.Tag.ID), []string{zoe.ID, xavier.ID}},
		{"tag and q", qv("tag_id", a.Tag.ID, "q", "zo"), []string{zoe.ID}},
		{"tag of another business matches nothing", qv("tag_id", e.b.Tag.ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/clients", []invalidQueryCase{
		{"q=" + strings.Repeat("a", 256), "q", "must be at most 255 characters"},
		{"q=a&q=b", "q", "must be given once"},
		{"tag_id=VIP", "tag_id", "must be an id starting with tag_"},
		{"tag_id=" + a.Referral.ID, "tag_id", "must be an id starting with tag_"},
	})
}

func TestContactListSearchAndTagFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.a
	payer, emergency := a.Payer.ID, a.Emergency.ID
	ref := newContact("referrer", "Dr Ōno", "Smith_Jones")
	ref.Email = "Referrals@Clinic.example"
	ref.PhoneNumbers = []practiced.PhoneNumber{{ID: tid.New("pho"), Code: "61", Number: "0299998888", Type: "work"}}
	ref.TagIDs = []string{a.Tag.ID}
	pct := newContact("other", "Fifty", "50%")
	seedData(t, e, a, practiced.SeedData{Contacts: []practiced.Contact{ref, pct}})
	seedData(t, e, e.b, practiced.SeedData{Contacts: []practiced.Contact{newContact("other", "Eve", "Ng")}})

	runFilterCases(t, e, "/v1/contacts", []filterCase{
		{"no filter shows only the business's own", nil, []string{payer, emergency, ref.ID, pct.ID}},
		{"company", qv("q", "MEDI"), []string{payer}},
		{"first name (B has the same name)", qv("q", "eve"), []string{emergency}},
		{"last name", qv("q", "ng"), []string{emergency}},
		{"non-ASCII, other case", qv("q", "ŌNO"), []string{ref.ID}},
		{"e-mail, other case", qv("q", "referrals@clinic"), []string{ref.ID}},
		{"phone number", qv("q", "9999"), []string{ref.ID}},
		{"phone number with its dial code", qv("q", "+61 2 9999"), []string{ref.ID}},
		{"% is literal", qv("q", "%"), []string{pct.ID}},
		{"_ is literal", qv("q", "_"), []string{ref.ID}},
		{"tag", qv("tag_id", a.Tag.ID), []string{ref.ID}},
		{"tag of another business matches nothing", qv("tag_id", e.b.Tag.ID), nil},
	})
	runInvalidQueryCases(t, e, "/v1/contacts", []invalidQueryCase{
		{"q=" + strings.Repeat("é", 256), "q", "must be at most 255 characters"},
		{"tag_id=1", "tag_id", "must be an id starting with tag_"},
		{"type=referrer", "type", "is not a known query parameter"},
	})
	t.Run("255 characters of q are accepted", func(t *testing.T) {
		e.do("GET", "/v1/contacts?q="+url.QueryEscape(strings.Repeat("é", 255)), a.Token, nil).page(t)
	})
}

func TestLocationListShowsTheBusinessLocations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.do("GET", "/v1/locations", e.a.Token, nil)
	var body struct {
		Data []json.RawMessage `json:"data"`
	}
	json.Unmarshal(p.Body, &body)
	if len(body.Data) != 2 {
		t.Fatalf("%d locations, want 2: %s", len(body.Data), p.Body)
	}
	weekday := func(d string) string {
		return `"` + d + `_active": true, "` + d + `_opens_at": "09:00", "` + d + `_closes_at": "17:00"`
	}
	wantBody(t, response{Status: 200, Header: p.Header, Body: body.Data[0]}, 200, `{
		"id": "`+e.a.Sydney.ID+`", "name": "Sydney CBD", "description": "", "email": "", "phone": "",
		"timezone": "Australia/Sydney", "online_appointment_booking": false, "online_class_booking": false,
		"online_bookings_per_email_per_day": 0, "online_cancellation_hours": 0, "tax_identifier": "", "tax_identifier_label": "", "ndis_number": "", "logo_id": null, "image_id": null,
		"service_ids": ["`+e.a.Consult.ID+`", "`+e.a.Group.ID+`"],
		"practitioner_ids": ["`+e.a.Alice.ID+`", "`+e.a.Bob.ID+`"],
		"opening_hours": {`+weekday("mon")+`, `+weekday("tue")+`, `+weekday("wed")+`, `+weekday("thu")+`, `+weekday("fri")+`,
			"sat_active": false, "sat_opens_at": "", "sat_closes_at": "",
			"sun_active": false, "sun_opens_at": "", "sun_closes_at": ""},
		"address": {"line1": "1 George St", "line2": null, "city": "Sydney", "state": "NSW", "postal_code": "2000",
			"country_code": "AU", "latitude": null, "longitude": null, "formatted_address_geocoder_estimate": "", "place_id": ""},
		"created_at": "2026-01-30T22:00:00Z", "updated_at": "2026-01-30T22:00:00Z", "archived_at": null}`)
	runInvalidQueryCases(t, e, "/v1/locations", []invalidQueryCase{
		{"q=sydney", "q", "is not a known query parameter"},
		{"tag_id=" + e.a.Tag.ID, "tag_id", "is not a known query parameter"},
	})
}

func TestClientSearchFindsAPhoneNumberTypedWithSpaces(t *testing.T) {
	e := newEnv(t)
	id := e.a.Clients[1].ID
	r := e.do("POST", "/v1/clients/"+id, e.a.Token, map[string]any{"phone_number": "0412345678"})
	wantStatus(t, r, 200)
	for _, q := range []string{"0412%20345%20678", "0412-345-678", "345678", "(0412)%20345"} {
		r = e.do("GET", "/v1/clients?q="+q, e.a.Token, nil)
		wantStatus(t, r, 200)
		data := r.JSON(t)["data"].([]any)
		if len(data) != 1 || data[0].(map[string]any)["id"] != id {
			t.Errorf("q=%s found %d clients, want only %s", q, len(data), id)
		}
	}
}

// A number is stored in E.164, and found however it is typed: nationally,
// without the trunk 0, or internationally, whole or in part; a number of
// the client's or contact's phone_numbers too.
func TestPersonSearchFindsANumberHoweverItIsTyped(t *testing.T) {
	e := newEnv(t)
	id := e.a.Clients[1].ID
	r := e.do("POST", "/v1/clients/"+id, e.a.Token, map[string]any{"phone_number": "0491 570 925",
		"phone_numbers": []any{map[string]any{"number": "(02) 5550 0140", "type": "home"}}})
	wantStatus(t, r, 200)
	if got := r.JSON(t)["phone_number"]; got != "+61491570925" {
		t.Fatalf("phone_number %v, want +61491570925", got)
	}
	con := e.do("POST", "/v1/contacts", e.a.Token, map[string]any{"type": "other", "first_name": "Rae", "last_name": "Lee",
		"phone_numbers": []any{map[string]any{"number": "+61 8 5550 0260", "type": "work"}}})
	wantStatus(t, con, 201)
	conID := con.JSON(t)["id"].(string)
	var cases []filterCase
	for _, q := range []string{"0491 570 925", "491570925", "+61 491 570 925", "+61491570925", "570 925", "02 5550 0140", "+61 2 5550 0140", "255500140"} {
		cases = append(cases, filterCase{"client " + q, qv("q", q), []string{id}})
	}
	runFilterCases(t, e, "/v1/clients", cases)
	cases = nil
	for _, q := range []string{"08 5550 0260", "855500260", "+61 8 5550 0260"} {
		cases = append(cases, filterCase{"contact " + q, qv("q", q), []string{conID}})
	}
	runFilterCases(t, e, "/v1/contacts", cases)
}
