package bookable

import (
	"errors"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
)

// A location open 09:00–17:00 every day in Adelaide, a 30-minute service
// with 10-minute buffers and 4 places, and "now" at 08:00 local on
// Monday 2 March 2026.
var (
	adelaide, _ = time.LoadLocation("Australia/Adelaide")
	now         = time.Date(2026, 3, 2, 8, 0, 0, 0, adelaide)
	svc         = practiced.Service{ID: "ser_class", Duration: 30, BufferBefore: 10, BufferAfter: 10, MaxClients: 4, MinNotice: 60}
	pra         = practiced.Practitioner{ID: "pra_alice"}
	loc         = func() practiced.Location {
		l := practiced.Location{ID: "loc_adl", Timezone: "Australia/Adelaide", PractitionerIDs: []string{"pra_alice"}}
		for wd := range l.OpeningHours.Days {
			l.OpeningHours.Days[wd] = practiced.DayHours{Active: true, OpensAt: "09:00", ClosesAt: "17:00"}
		}
		return l
	}()
	req = Request{Location: loc, Zone: adelaide, Service: svc, Practitioners: []practiced.Practitioner{pra}, Duration: 30, Now: now}
)

func at(hhmm string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", "2026-03-02 "+hhmm, adelaide)
	if err != nil {
		panic(err)
	}
	return t
}

func appointment(id, start string, serviceID string, attendees int) practiced.ScheduledAppointment {
	s := at(start)
	a := practiced.ScheduledAppointment{Appointment: practiced.Appointment{ID: id, LocationID: loc.ID, PractitionerID: pra.ID,
		StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(30 * time.Minute)), MaxClients: 4}, Attendees: attendees,
		BufferBefore: 10, BufferAfter: 10}
	if serviceID != "" {
		a.ServiceID = &serviceID
	}
	return a
}

func booking(start string) practiced.Appointment {
	s := at(start)
	return practiced.Appointment{ID: "apt_new", LocationID: loc.ID, PractitionerID: pra.ID, ServiceID: &svc.ID,
		StartsAt: practiced.NewTime(s), EndsAt: practiced.NewTime(s.Add(30 * time.Minute))}
}

// The booking page's check accepts exactly the starts the page lists for
// a new appointment, on the schedule read inside the transaction.
func TestSlotCheckAcceptsOnlyListedStartsOfNewAppointments(t *testing.T) {
	other := appointment("apt_other", "11:00", "ser_other", 1)
	group := appointment("apt_group", "14:00", svc.ID, 2)
	full := appointment("apt_full", "15:30", svc.ID, 4)
	sch := practiced.Schedule{
		BusyTimes:    []practiced.BusyTime{{ID: "bti_1", StartsAt: practiced.NewTime(at("12:00")), EndsAt: practiced.NewTime(at("13:00"))}},
		Appointments: []practiced.ScheduledAppointment{other, group, full},
	}
	check := SlotCheck(req, pra)
	for _, tc := range []struct {
		start string
		ok    bool
		why   string
	}{
		{"09:00", true, "a free start on the grid"},
		{"08:30", false, "before opening"},
		{"08:45", false, "within the minimum notice (now 08:00 + 60 minutes) and before opening"},
		{"09:15", false, "off the grid of 30-minute steps"},
		{"16:30", true, "the last start that ends by closing"},
		{"17:00", false, "ends after closing"},
		{"10:30", false, "its buffer after reaches the 11:00 appointment"},
		{"11:30", false, "within the 11:00 appointment's widened span"},
		{"12:00", false, "during the busy time"},
		{"13:00", false, "its buffer before reaches the busy time"},
		{"13:30", false, "its buffer after reaches the 14:00 group appointment"},
		{"14:00", false, "a place in the group appointment: a join, not a new appointment"},
		{"15:30", false, "the full group appointment stands there"},
	} {
		err := check(booking(tc.start), sch)
		if tc.ok && err != nil {
			t.Errorf("%s (%s): refused: %v", tc.start, tc.why, err)
		}
		if !tc.ok && !errors.Is(err, practiced.ErrSlotTaken) {
			t.Errorf("%s (%s): err = %v, want ErrSlotTaken", tc.start, tc.why, err)
		}
	}
}

// Slots names the group appointment of a group place, so the page joins
// it; other slots make new appointments.
func TestSlotsNameTheGroupAppointmentOfAGroupPlace(t *testing.T) {
	sch := practiced.Schedule{Appointments: []practiced.ScheduledAppointment{
		appointment("apt_group", "14:10", svc.ID, 2), appointment("apt_full", "10:00", svc.ID, 4)}}
	d := availability.Date{Year: 2026, Month: time.March, Day: 2}
	got := map[string]string{}
	for _, sl := range slotsIn(req, pra, sch.Blocks(), d, d) {
		got[sl.Time] = sl.GroupAppointmentID
	}
	if id, ok := got["14:10"]; !ok || id != "apt_group" {
		t.Errorf("14:10 (group place off the grid): listed %v, group %q", ok, id)
	}
	if id, ok := got["09:00"]; !ok || id != "" {
		t.Errorf("09:00: listed %v, group %q", ok, id)
	}
	if _, ok := got["10:00"]; ok {
		t.Errorf("10:00 (a full group) is listed")
	}
}

func TestOffersNeedsALivePractitionerOfTheLocationGivingTheService(t *testing.T) {
	archived := practiced.NewTime(now)
	for _, tc := range []struct {
		name string
		pra  practiced.Practitioner
		svc  practiced.Service
		want bool
	}{
		{"gives the service", practiced.Practitioner{ID: "pra_alice", ServiceIDs: []string{"ser_class"}}, svc, true},
		{"does not give it", practiced.Practitioner{ID: "pra_alice", ServiceIDs: []string{"ser_other"}}, svc, false},
		{"a bare duration", practiced.Practitioner{ID: "pra_alice"}, practiced.Service{}, true},
		{"archived", practiced.Practitioner{ID: "pra_alice", ServiceIDs: []string{"ser_class"}, ArchivedAt: &archived}, svc, false},
		{"works elsewhere", practiced.Practitioner{ID: "pra_bob", ServiceIDs: []string{"ser_class"}}, svc, false},
	} {
		if got := Offers(tc.pra, loc, tc.svc); got != tc.want {
			t.Errorf("%s: Offers = %v, want %v", tc.name, got, tc.want)
		}
	}
	if HorizonDays(practiced.Service{}) != 90 || HorizonDays(practiced.Service{BookingHorizonDays: 14}) != 14 {
		t.Errorf("HorizonDays: default %d, set %d", HorizonDays(practiced.Service{}), HorizonDays(practiced.Service{BookingHorizonDays: 14}))
	}
}
