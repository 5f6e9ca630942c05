package practiced_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// The rules of appointments and their attendees (docs/states.md),
// without a store or a server.

var (
	booked    = practiced.StatusBooked
	arrived   = practiced.StatusArrived
	completed = practiced.StatusCompleted
	noShow    = practiced.StatusNoShow
	cancelled = practiced.StatusCancelled
)

var (
	earlier = practiced.NewTime(time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC))
	now     = practiced.NewTime(time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC))
)

func ptr[T any](v T) *T { return &v }

// fieldErrors returns the failures of an EINVALID error by field, or
// fails the test.
func fieldErrors(t *testing.T, err error) map[string][]string {
	t.Helper()
	var e *practiced.Error
	if !errors.As(err, &e) || e.Code != practiced.EINVALID || e.Fields == nil {
		t.Fatalf("error %v, want an EINVALID error with fields", err)
	}
	return e.Fields.Map()
}

func wantFieldErrors(t *testing.T, err error, want map[string][]string) {
	t.Helper()
	if got := fieldErrors(t, err); !reflect.DeepEqual(got, want) {
		t.Fatalf("errors %v, want %v", got, want)
	}
}

func TestAppointmentClientStatusMovesFollowTheStateMachine(t *testing.T) {
	// Every pair of statuses: "" for an allowed move (or staying put),
	// else the exact message on status.
	const (
		fromBooked  = " (from booked it can change to arrived, no_show or cancelled)"
		fromArrived = " (from arrived it can change to completed, cancelled or booked)"
		fromNoShow  = " (from no_show it can change to booked)"
	)
	for _, tc := range []struct {
		from, to string
		want     string
	}{
		{booked, booked, ""},
		{booked, arrived, ""},
		{booked, completed, "cannot change from booked to completed" + fromBooked},
		{booked, noShow, ""},
		{booked, cancelled, ""},
		{arrived, booked, ""},
		{arrived, arrived, ""},
		{arrived, completed, ""},
		{arrived, noShow, "cannot change from arrived to no_show" + fromArrived},
		{arrived, cancelled, ""},
		{completed, booked, "cannot change from completed to booked (completed is final)"},
		{completed, arrived, "cannot change from completed to arrived (completed is final)"},
		{completed, completed, ""},
		{completed, noShow, "cannot change from completed to no_show (completed is final)"},
		{completed, cancelled, "cannot change from completed to cancelled (completed is final)"},
		{noShow, booked, ""},
		{noShow, arrived, "cannot change from no_show to arrived" + fromNoShow},
		{noShow, completed, "cannot change from no_show to completed" + fromNoShow},
		{noShow, noShow, ""},
		{noShow, cancelled, "cannot change from no_show to cancelled" + fromNoShow},
		{cancelled, booked, "cannot change from cancelled to booked (cancelled is final)"},
		{cancelled, arrived, "cannot change from cancelled to arrived (cancelled is final)"},
		{cancelled, completed, "cannot change from cancelled to completed (cancelled is final)"},
		{cancelled, noShow, "cannot change from cancelled to no_show (cancelled is final)"},
		{cancelled, cancelled, ""},
	} {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			c := practiced.AppointmentClient{Status: tc.from, CancellationNote: "Unwell"}
			before := c
			err := practiced.TransitionAppointmentClient(&c, tc.to, now)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if c.Status != tc.to {
					t.Fatalf("status %q after the move, want %q", c.Status, tc.to)
				}
				return
			}
			wantFieldErrors(t, err, map[string][]string{"status": {tc.want}})
			if !reflect.DeepEqual(c, before) {
				t.Fatalf("a refused move changed the attendee: %+v", c)
			}
		})
	}
}

func TestAppointmentClientStatusMustBeKnown(t *testing.T) {
	c := practiced.AppointmentClient{Status: booked}
	err := practiced.TransitionAppointmentClient(&c, "late", now)
	wantFieldErrors(t, err, map[string][]string{"status": {"must be one of: booked, arrived, completed, no_show, cancelled"}})
}

func TestArrivingStampsArrivedAtAndUndoingClearsIt(t *testing.T) {
	c := practiced.AppointmentClient{Status: booked}
	if err := practiced.TransitionAppointmentClient(&c, arrived, earlier); err != nil {
		t.Fatal(err)
	}
	if c.ArrivedAt == nil || *c.ArrivedAt != earlier {
		t.Fatalf("arrived_at %v after arriving, want %v", c.ArrivedAt, earlier)
	}
	if err := practiced.TransitionAppointmentClient(&c, completed, now); err != nil {
		t.Fatal(err)
	}
	if c.ArrivedAt == nil || *c.ArrivedAt != earlier {
		t.Fatalf("arrived_at %v after completing, want it kept at %v", c.ArrivedAt, earlier)
	}

	undo := practiced.AppointmentClient{Status: arrived, ArrivedAt: &earlier}
	if err := practiced.TransitionAppointmentClient(&undo, booked, now); err != nil {
		t.Fatal(err)
	}
	if undo.ArrivedAt != nil {
		t.Fatalf("arrived_at %v after undoing the arrival, want null", undo.ArrivedAt)
	}
}

func TestCancellingNeedsAReasonOrANoteAndStampsCancelledAt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reason *string
		note   string
		ok     bool
	}{
		{"a reason", ptr("cnr_01h455vb4pex5vsknk084sn02q"), "", true},
		{"a note", nil, "Unwell", true},
		{"both", ptr("cnr_01h455vb4pex5vsknk084sn02q"), "Unwell", true},
		{"neither", nil, "", false},
		{"a blank note", nil, "  \n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := practiced.AppointmentClient{Status: booked, CancellationReasonID: tc.reason, CancellationNote: tc.note}
			err := practiced.TransitionAppointmentClient(&c, cancelled, now)
			if !tc.ok {
				wantFieldErrors(t, err, map[string][]string{
					"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}})
				if c.Status != booked || c.CancelledAt != nil {
					t.Fatalf("a refused cancellation changed the attendee: %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Status != cancelled || c.CancelledAt == nil || *c.CancelledAt != now {
				t.Fatalf("status %q, cancelled_at %v; want cancelled at %v", c.Status, c.CancelledAt, now)
			}
		})
	}
}

func TestConfirmingStampsConfirmedAtOnceAndUnconfirmingClearsIt(t *testing.T) {
	for _, tc := range []struct {
		name      string
		was       bool
		wasAt     *practiced.Time
		confirmed bool
		wantAt    *practiced.Time
	}{
		{"confirming stamps now", false, nil, true, &now},
		{"confirming again keeps the first time", true, &earlier, true, &earlier},
		{"unconfirming clears the time", true, &earlier, false, nil},
		{"unconfirming an unconfirmed attendee", false, nil, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := practiced.AppointmentClient{Status: booked, Confirmed: tc.was, ConfirmedAt: tc.wasAt}
			practiced.ConfirmAppointmentClient(&c, tc.confirmed, now)
			if c.Confirmed != tc.confirmed || !reflect.DeepEqual(c.ConfirmedAt, tc.wantAt) {
				t.Fatalf("confirmed %v at %v, want %v at %v", c.Confirmed, c.ConfirmedAt, tc.confirmed, tc.wantAt)
			}
		})
	}
}

// attendees makes attendees in the given statuses, ids in order.
func attendees(statuses ...string) []practiced.AppointmentClient {
	out := make([]practiced.AppointmentClient, len(statuses))
	for i, s := range statuses {
		out[i] = practiced.AppointmentClient{ID: "apc_" + string(rune('a'+i)), ClientID: "cli_" + string(rune('a'+i)), Status: s}
		if s == cancelled {
			out[i].CancelledAt = &earlier
			out[i].CancellationNote = "Unwell"
		}
	}
	return out
}

func TestAppointmentIsCancelledWhenEveryAttendeeIs(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cancelled *practiced.Time
		statuses  []string
		want      bool
	}{
		{"one booked", nil, []string{booked}, false},
		{"one cancelled", nil, []string{cancelled}, true},
		{"all of a group cancelled", nil, []string{cancelled, cancelled, cancelled}, true},
		{"one of a group still booked", nil, []string{cancelled, booked, cancelled}, false},
		{"a no-show is not cancelled", nil, []string{cancelled, noShow}, false},
		{"no attendees", nil, nil, false},
		{"cancelled as a whole", &earlier, []string{booked}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := practiced.Appointment{CancelledAt: tc.cancelled}
			if got := practiced.AppointmentCancelled(a, attendees(tc.statuses...)); got != tc.want {
				t.Fatalf("AppointmentCancelled = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSettleAppointmentStampsCancelledAtWithTheLastCancellation(t *testing.T) {
	acs := attendees(cancelled, booked)
	a := practiced.Appointment{}
	practiced.SettleAppointment(&a, acs)
	if a.CancelledAt != nil {
		t.Fatalf("cancelled_at %v with an attendee still booked", a.CancelledAt)
	}
	acs[1].Status, acs[1].CancelledAt = cancelled, &now
	practiced.SettleAppointment(&a, acs)
	if a.CancelledAt == nil || *a.CancelledAt != now {
		t.Fatalf("cancelled_at %v once all are cancelled, want %v", a.CancelledAt, now)
	}
	a2 := practiced.Appointment{CancelledAt: &earlier}
	practiced.SettleAppointment(&a2, acs)
	if *a2.CancelledAt != earlier {
		t.Fatalf("an appointment's cancelled_at moved from %v to %v", earlier, a2.CancelledAt)
	}
}

func TestCancelAppointmentCancelsEveryAttendee(t *testing.T) {
	reason := ptr("cnr_01h455vb4pex5vsknk084sn02q")
	a := practiced.Appointment{}
	acs := attendees(booked, arrived, cancelled)
	acs[1].ArrivedAt = &earlier
	if err := practiced.CancelAppointment(&a, acs, reason, "Clinic closed", now); err != nil {
		t.Fatal(err)
	}
	if a.CancelledAt == nil || *a.CancelledAt != now {
		t.Fatalf("appointment cancelled_at %v, want %v", a.CancelledAt, now)
	}
	for i, c := range acs[:2] {
		if c.Status != cancelled || *c.CancelledAt != now || c.CancellationReasonID != reason || c.CancellationNote != "Clinic closed" {
			t.Errorf("attendee %d: %+v, want cancelled now with the reason and note", i, c)
		}
	}
	if acs[2].CancellationNote != "Unwell" || *acs[2].CancelledAt != earlier {
		t.Errorf("an attendee cancelled before was changed: %+v", acs[2])
	}
	// Cancelling again changes nothing, whatever the reason.
	again := acs[0]
	if err := practiced.CancelAppointment(&a, acs, nil, "", practiced.NewTime(now.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if *a.CancelledAt != now || !reflect.DeepEqual(acs[0], again) {
		t.Fatalf("cancelling a cancelled appointment changed it")
	}
}

func TestCancelAppointmentRefusesWhatTheStateMachineRefuses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		statuses []string
		reason   *string
		note     string
		want     map[string][]string
	}{
		{"no reason nor note", []string{booked}, nil, " ", map[string][]string{
			"cancellation_reason_id": {"is required to cancel, unless cancellation_note is given"}}},
		{"a completed attendee", []string{booked, completed}, nil, "Closed", map[string][]string{
			"appointment_client_ids.1": {"names an attendee that cannot change from completed to cancelled (completed is final)"}}},
		{"a no-show", []string{noShow, booked}, nil, "Closed", map[string][]string{
			"appointment_client_ids.0": {"names an attendee that cannot change from no_show to cancelled (from no_show it can change to booked)"}}},
		{"everything at once", []string{completed, noShow}, nil, "", map[string][]string{
			"cancellation_reason_id":   {"is required to cancel, unless cancellation_note is given"},
			"appointment_client_ids.0": {"names an attendee that cannot change from completed to cancelled (completed is final)"},
			"appointment_client_ids.1": {"names an attendee that cannot change from no_show to cancelled (from no_show it can change to booked)"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := practiced.Appointment{}
			acs := attendees(tc.statuses...)
			before := attendees(tc.statuses...)
			err := practiced.CancelAppointment(&a, acs, tc.reason, tc.note, now)
			wantFieldErrors(t, err, tc.want)
			if a.CancelledAt != nil || !reflect.DeepEqual(acs, before) {
				t.Fatalf("a refused cancellation changed the appointment or its attendees")
			}
		})
	}
}

func TestJoinAppointmentNeedsAFreePlaceAndANewClient(t *testing.T) {
	for _, tc := range []struct {
		name       string
		max        int
		cancelled  *practiced.Time
		statuses   []string
		client     string
		wantField  string
		wantErrMsg string
	}{
		{"a free place", 3, nil, []string{booked, arrived}, "cli_new", "", ""},
		{"cancelled attendees free their places", 2, nil, []string{booked, cancelled, cancelled}, "cli_new", "", ""},
		{"a client who cancelled may book again", 3, nil, []string{booked, cancelled}, "cli_b", "", ""},
		{"full", 2, nil, []string{booked, noShow}, "cli_new", "appointment_id", "has no free place: 2 of its 2 places are taken"},
		{"full with one place", 1, nil, []string{completed}, "cli_new", "appointment_id", "has no free place: 1 of its 1 places are taken"},
		{"the client attends already", 4, nil, []string{booked, arrived}, "cli_b", "client_id", "already attends the appointment (as apc_b)"},
		{"every attendee cancelled", 4, nil, []string{cancelled}, "cli_new", "appointment_id", "is cancelled: a cancelled appointment takes no new clients"},
		{"cancelled as a whole", 4, &earlier, []string{booked}, "cli_new", "appointment_id", "is cancelled: a cancelled appointment takes no new clients"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := practiced.Appointment{MaxClients: tc.max, CancelledAt: tc.cancelled}
			err := practiced.JoinAppointment(a, attendees(tc.statuses...), practiced.AppointmentClient{ClientID: tc.client})
			if tc.wantField == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantFieldErrors(t, err, map[string][]string{tc.wantField: {tc.wantErrMsg}})
		})
	}
}

func TestMoveAppointmentMovesItsAttendeesButNotWhenCancelled(t *testing.T) {
	start := time.Date(2026, 3, 3, 1, 0, 0, 0, time.UTC)
	a := practiced.Appointment{PractitionerID: "pra_a", LocationID: "loc_a"}
	acs := attendees(booked, cancelled)
	if err := practiced.MoveAppointment(&a, acs, start, 45, "pra_b", "loc_b", []string{"starts_at"}); err != nil {
		t.Fatal(err)
	}
	wantStart, wantEnd := practiced.NewTime(start), practiced.NewTime(start.Add(45*time.Minute))
	if a.StartsAt != wantStart || a.EndsAt != wantEnd || a.Duration != 45 || a.PractitionerID != "pra_b" || a.LocationID != "loc_b" {
		t.Fatalf("moved to %+v", a)
	}
	for _, c := range acs {
		if c.StartsAt != wantStart || c.EndsAt != wantEnd {
			t.Fatalf("attendee %s at %v–%v, want %v–%v", c.ID, c.StartsAt, c.EndsAt, wantStart, wantEnd)
		}
	}

	gone := practiced.Appointment{CancelledAt: &earlier, PractitionerID: "pra_a"}
	err := practiced.MoveAppointment(&gone, attendees(cancelled), start, 45, "pra_b", "loc_b", []string{"starts_at", "practitioner_id"})
	wantFieldErrors(t, err, map[string][]string{
		"starts_at":       {"cannot change: the appointment is cancelled"},
		"practitioner_id": {"cannot change: the appointment is cancelled"},
	})
	if gone.PractitionerID != "pra_a" {
		t.Fatalf("a cancelled appointment moved")
	}
}
