package availability

import (
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
)

func TestConflictsAppliesRuleThreeAtAnyTime(t *testing.T) {
	loc := zonetest.Load(t, "America/New_York")
	at := func(hhmm string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", "2026-06-15 "+hhmm, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	appt := Appointment{ID: "a", ServiceID: "s", LocationID: "far", Start: at("10:00"), End: at("11:00"),
		BufferBefore: 10 * time.Minute, BufferAfter: 20 * time.Minute, Attendees: 1, MaxClients: 1}
	busy := Interval{Start: at("14:00"), End: at("15:00")}
	base := Query{
		Zone:         loc,
		Opening:      everyDay(Range{540, 600}), // ignored by Conflicts
		Busy:         []Interval{busy},
		Appointments: []Appointment{appt},
		Duration:     30 * time.Minute,
	}
	tests := []struct {
		name                      string
		start                     string
		bufferBefore, bufferAfter time.Duration
		ignore                    string
		want                      bool
	}{
		{"outside opening hours and clear", "07:13", 0, 0, "", false},
		{"overlapping an appointment", "10:45", 0, 0, "", true},
		{"inside the appointment's buffer before", "09:35", 0, 0, "", true},
		{"touching the appointment's buffer before", "09:20", 0, 0, "", false},
		{"inside the appointment's buffer after", "11:19", 0, 0, "", true},
		{"touching the appointment's buffer after", "11:20", 0, 0, "", false},
		{"own buffer after touching the appointment", "09:20", 0, 10 * time.Minute, "", false},
		{"own buffer after overlapping the appointment", "09:20", 0, 11 * time.Minute, "", true},
		{"own buffer before touching the appointment", "11:20", 20 * time.Minute, 0, "", false},
		{"own buffer before overlapping the appointment", "11:20", 21 * time.Minute, 0, "", true},
		{"own buffer overlapping only the appointment's buffer", "11:25", 25 * time.Minute, 0, "", false},
		{"overlapping busy time", "14:50", 0, 0, "", true},
		{"touching busy time", "15:00", 0, 0, "", false},
		{"own buffer before overlapping busy time", "15:00", time.Minute, 0, "", true},
		{"own buffer after overlapping busy time", "13:30", 0, time.Minute, "", true},
		{"moving the appointment itself", "10:15", 0, 0, "a", false},
		{"ignoring another id", "10:15", 0, 0, "b", true},
		{"ignoring an appointment leaves busy times", "14:15", 0, 0, "a", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base
			q.BufferBefore, q.BufferAfter = tt.bufferBefore, tt.bufferAfter
			if got := Conflicts(q, at(tt.start), tt.ignore); got != tt.want {
				t.Errorf("Conflicts(%s) = %v, want %v", tt.start, got, tt.want)
			}
		})
	}
}

func TestConflictsEmptyIgnoreIDIgnoresNothing(t *testing.T) {
	start := time.Date(2026, time.June, 15, 10, 0, 0, 0, time.UTC)
	q := Query{
		Duration:     time.Hour,
		Appointments: []Appointment{{ID: "", Start: start, End: start.Add(time.Hour), MaxClients: 1}},
	}
	if !Conflicts(q, start, "") {
		t.Error("an appointment without an id was ignored by an empty ignoreAppointmentID")
	}
}

func TestBlockersIgnoreOnlyTheSkippedAppointment(t *testing.T) {
	base := time.Date(2026, time.June, 15, 0, 0, 0, 0, time.UTC)
	h := func(n float64) time.Time { return base.Add(time.Duration(n * float64(time.Hour))) }
	appts := []Appointment{
		{ID: "a0", Start: h(9), End: h(12)},
		{ID: "a1", Start: h(10), End: h(11)},
		{ID: "a2", Start: h(13), End: h(14)},
		{ID: "a3", Start: h(13), End: h(14)}, // same span as a2
	}
	bs := newBlockers(Query{Appointments: appts, Busy: []Interval{{h(16), h(17)}}}, h(0), h(24))
	tests := []struct {
		name       string
		start, end float64
		skip       int
		want       bool
	}{
		{"before everything", 7, 8, -1, false},
		{"touching the first", 8, 9, -1, false},
		{"inside nested pair", 10.25, 10.5, -1, true},
		{"nested pair without the outer one", 10.25, 10.5, 0, true},
		{"outer one alone without it", 11.25, 11.5, 0, false},
		{"outer one alone skipping the inner", 11.25, 11.5, 1, true},
		{"identical spans skipping one", 13, 14, 2, true},
		{"identical spans skipping the other", 13, 14, 3, true},
		{"busy time is never skipped", 16, 16.5, 0, true},
		{"gap", 14, 16, -1, false},
		{"after everything", 17, 18, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bs.overlaps(h(tt.start), h(tt.end), tt.skip); got != tt.want {
				t.Errorf("overlaps = %v, want %v", got, tt.want)
			}
		})
	}
}
