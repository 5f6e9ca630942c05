package availability

import (
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
)

// dstQuery asks for slots on date d only, open over ranges through an
// exception so the weekday does not matter.
func dstQuery(loc *time.Location, d Date, ranges []Range, duration, step time.Duration) Query {
	return Query{
		Zone:       loc,
		Exceptions: map[Date][]Range{d: ranges},
		Duration:   duration,
		Interval:   step,
		From:       d,
		To:         d,
	}
}

func TestSlotsSkipNonexistentLocalTimeOnSpringForward(t *testing.T) {
	tests := []struct {
		zone   string
		ranges []Range
		want   []string
	}{
		{"America/New_York", []Range{{60, 240}}, []string{"01:00-05:00", "01:30-05:00", "03:00-04:00", "03:30-04:00"}},
		{"Europe/London", []Range{{0, 180}}, []string{"00:00+00:00", "00:30+00:00", "02:00+01:00", "02:30+01:00"}},
		{"Australia/Adelaide", []Range{{60, 240}}, []string{"01:00+09:30", "01:30+09:30", "03:00+10:30", "03:30+10:30"}},
		{"Australia/Lord_Howe", []Range{{60, 240}}, []string{"01:00+10:30", "01:30+10:30", "02:30+11:00", "03:00+11:00", "03:30+11:00"}},
		{"Pacific/Chatham", []Range{{120, 300}}, []string{"02:00+12:45", "02:30+12:45", "04:00+13:45", "04:30+13:45"}},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			loc := zonetest.Load(t, tt.zone)
			q := dstQuery(loc, springForwardDate(t, tt.zone), tt.ranges, 30*time.Minute, 0)
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsTakeRepeatedLocalTimeOnceAtFirstInstantOnFallBack(t *testing.T) {
	tests := []struct {
		zone   string
		ranges []Range
		want   []string
	}{
		{"America/New_York", []Range{{0, 180}}, []string{"00:00-04:00", "00:30-04:00", "01:00-04:00", "01:30-04:00", "02:00-05:00", "02:30-05:00"}},
		{"Europe/London", []Range{{0, 180}}, []string{"00:00+01:00", "00:30+01:00", "01:00+01:00", "01:30+01:00", "02:00+00:00", "02:30+00:00"}},
		{"Australia/Adelaide", []Range{{60, 240}}, []string{"01:00+10:30", "01:30+10:30", "02:00+10:30", "02:30+10:30", "03:00+09:30", "03:30+09:30"}},
		{"Australia/Lord_Howe", []Range{{60, 180}}, []string{"01:00+11:00", "01:30+11:00", "02:00+10:30", "02:30+10:30"}},
		{"Pacific/Chatham", []Range{{120, 300}}, []string{"02:00+13:45", "02:30+13:45", "03:00+13:45", "03:30+13:45", "04:00+12:45", "04:30+12:45"}},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			loc := zonetest.Load(t, tt.zone)
			q := dstQuery(loc, fallBackDate(t, tt.zone), tt.ranges, 30*time.Minute, 0)
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsStepInWallClockMinutesAcrossTransition(t *testing.T) {
	tests := []struct {
		name   string
		zone   string
		spring bool
		want   []string
	}{
		// Elapsed steps of 45 minutes from 00:30 would give 02:15 after the
		// London gap; wall-clock steps give 01:15 (skipped) then 02:00.
		{"London spring forward", "Europe/London", true, []string{"00:30+00:00", "02:00+01:00", "02:45+01:00", "03:30+01:00"}},
		// Wall-clock steps through the repeated hour land on first
		// instants only, so the day has no extra slots.
		{"New York fall back", "America/New_York", false, []string{"00:30-04:00", "01:15-04:00", "02:00-05:00", "02:45-05:00", "03:30-05:00"}},
		{"Lord Howe spring forward", "Australia/Lord_Howe", true, []string{"00:30+10:30", "01:15+10:30", "02:45+11:00", "03:30+11:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := zonetest.Load(t, tt.zone)
			d := fallBackDate(t, tt.zone)
			if tt.spring {
				d = springForwardDate(t, tt.zone)
			}
			q := dstQuery(loc, d, []Range{{30, 240}}, 10*time.Minute, 45*time.Minute)
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsMustEndByRangeEndInElapsedTime(t *testing.T) {
	tests := []struct {
		name     string
		zone     string
		spring   bool
		ranges   []Range
		duration time.Duration
		step     time.Duration
		want     []string
	}{
		// 01:00-04:00 on the wall is two hours of real time.
		{"short day fits two hours", "America/New_York", true, []Range{{60, 240}}, 2 * time.Hour, time.Hour, []string{"01:00-05:00"}},
		// 01:00-03:00 on the wall is three hours of real time.
		{"long day fits more", "America/New_York", false, []Range{{60, 180}}, 150 * time.Minute, 30 * time.Minute, []string{"01:00-04:00", "01:30-04:00"}},
		// Lord Howe loses only half an hour: 01:00-03:00 is 90 minutes.
		{"half-hour shift", "Australia/Lord_Howe", true, []Range{{60, 180}}, 90 * time.Minute, 30 * time.Minute, []string{"01:00+10:30"}},
		// A range ending inside the gap ends at the transition, which a
		// slot may touch.
		{"end in gap", "Pacific/Chatham", true, []Range{{120, 190}}, 30 * time.Minute, 15 * time.Minute, []string{"02:00+12:45", "02:15+12:45"}},
		{"no fit on ordinary day", "Europe/London", false, []Range{{600, 660}}, 90 * time.Minute, 0, nil},
		{"exact fit", "Europe/London", false, []Range{{600, 690}}, 90 * time.Minute, 0, []string{"10:00+00:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := zonetest.Load(t, tt.zone)
			d := fallBackDate(t, tt.zone)
			if tt.spring {
				d = springForwardDate(t, tt.zone)
			}
			q := dstQuery(loc, d, tt.ranges, tt.duration, tt.step)
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsStartAtRangeStartPlusMultiplesOfInterval(t *testing.T) {
	loc := zonetest.Load(t, "Australia/Adelaide")
	tests := []struct {
		name     string
		ranges   []Range
		duration time.Duration
		step     time.Duration
		want     []string
	}{
		{"interval defaults to duration", []Range{{540, 720}}, time.Hour, 0, []string{"09:00+09:30", "10:00+09:30", "11:00+09:30"}},
		{"negative interval means duration", []Range{{540, 720}}, time.Hour, -time.Minute, []string{"09:00+09:30", "10:00+09:30", "11:00+09:30"}},
		{"interval shorter than duration", []Range{{540, 660}}, time.Hour, 20 * time.Minute, []string{"09:00+09:30", "09:20+09:30", "09:40+09:30", "10:00+09:30"}},
		{"interval longer than duration", []Range{{540, 720}}, 30 * time.Minute, 75 * time.Minute, []string{"09:00+09:30", "10:15+09:30", "11:30+09:30"}},
		{"grid restarts in each range", []Range{{545, 610}, {700, 760}}, 30 * time.Minute, 0, []string{"09:05+09:30", "09:35+09:30", "11:40+09:30", "12:10+09:30"}},
		{"grid runs through touching ranges", []Range{{540, 570}, {570, 645}}, 45 * time.Minute, 0, []string{"09:00+09:30", "09:45+09:30"}},
		{"grid follows an odd range start", []Range{{547, 620}}, 25 * time.Minute, 0, []string{"09:07+09:30", "09:32+09:30"}},
		{"zero duration yields nothing", []Range{{540, 720}}, 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := dstQuery(loc, plainMonday, tt.ranges, tt.duration, tt.step)
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsCoverFromToInclusiveWithWeeklyHours(t *testing.T) {
	loc := zonetest.Load(t, "Europe/London")
	q := Query{
		Zone:     loc,
		Opening:  Week{time.Monday: {{540, 600}}, time.Wednesday: {{600, 660}}, time.Saturday: {{540, 600}}},
		Duration: time.Hour,
		From:     Date{2026, time.June, 15}, // Monday
		To:       Date{2026, time.June, 17}, // Wednesday
	}
	var got []string
	for _, s := range Slots(q) {
		got = append(got, s.Date+" "+s.Time)
	}
	equalStrings(t, "slots", got, []string{"2026-06-15 09:00", "2026-06-17 10:00"})

	q.From, q.To = q.To, q.From
	if got := Slots(q); got != nil {
		t.Errorf("Slots with To before From = %v, want nil", got)
	}
}

func TestSlotsRefuseConflictsUnderRuleThree(t *testing.T) {
	loc := zonetest.Load(t, "Australia/Adelaide")
	at := func(hhmm string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", "2026-06-15 "+hhmm, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	appt := func(id, from, to string, before, after time.Duration) Appointment {
		return Appointment{ID: id, ServiceID: "other", LocationID: "elsewhere", Start: at(from), End: at(to),
			BufferBefore: before, BufferAfter: after, MaxClients: 1, Attendees: 1}
	}
	// Candidates every 30 minutes from 09:00 to 11:30, each 30 minutes long.
	all := []string{"09:00+09:30", "09:30+09:30", "10:00+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}
	tests := []struct {
		name                      string
		busy                      []Interval
		appts                     []Appointment
		bufferBefore, bufferAfter time.Duration
		want                      []string
	}{
		{"nothing in the way", nil, nil, 0, 0, all},
		{"busy time overlapping", []Interval{{at("10:10"), at("10:20")}}, nil, 0, 0,
			[]string{"09:00+09:30", "09:30+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"busy time touching both neighbours", []Interval{{at("10:00"), at("10:30")}}, nil, 0, 0,
			[]string{"09:00+09:30", "09:30+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"service buffer before overlapping busy time", []Interval{{at("10:00"), at("10:30")}}, nil, 5 * time.Minute, 0,
			[]string{"09:00+09:30", "09:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"service buffer after overlapping busy time", []Interval{{at("10:00"), at("10:30")}}, nil, 0, 5 * time.Minute,
			[]string{"09:00+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"service buffers touching busy time", []Interval{{at("10:10"), at("10:20")}}, nil, 10 * time.Minute, 10 * time.Minute,
			[]string{"09:00+09:30", "09:30+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"appointment at another location", nil, []Appointment{appt("a", "10:00", "10:30", 0, 0)}, 0, 0,
			[]string{"09:00+09:30", "09:30+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"appointment's own buffer after", nil, []Appointment{appt("a", "10:00", "10:30", 0, time.Minute)}, 0, 0,
			[]string{"09:00+09:30", "09:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"appointment's own buffer before", nil, []Appointment{appt("a", "10:00", "10:30", time.Minute, 0)}, 0, 0,
			[]string{"09:00+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"service buffer against appointment", nil, []Appointment{appt("a", "10:00", "10:30", 0, 0)}, time.Minute, 0,
			[]string{"09:00+09:30", "09:30+09:30", "11:00+09:30", "11:30+09:30"}},
		// The appointment's 30-minute buffer after and the candidate's
		// 30-minute buffer before may share 10:00-10:30; 09:00 ends as the
		// appointment starts.
		{"buffers may overlap each other", nil, []Appointment{appt("a", "09:30", "10:00", 0, 30*time.Minute)}, 30 * time.Minute, 0,
			[]string{"09:00+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
		{"long busy time spanning several candidates", []Interval{{at("08:00"), at("11:01")}}, nil, 0, 0,
			[]string{"11:30+09:30"}},
		{"empty busy time blocks nothing", []Interval{{at("10:10"), at("10:10")}, {at("10:20"), at("10:10")}}, nil, 0, 0, all},
		{"negative buffers count as none", []Interval{{at("10:00"), at("10:30")}}, nil, -time.Hour, -time.Hour,
			[]string{"09:00+09:30", "09:30+09:30", "10:30+09:30", "11:00+09:30", "11:30+09:30"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := dstQuery(loc, plainMonday, []Range{{540, 720}}, 30*time.Minute, 0)
			q.Busy, q.Appointments = tt.busy, tt.appts
			q.BufferBefore, q.BufferAfter = tt.bufferBefore, tt.bufferAfter
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsOfferGroupPlacesAtAppointmentStart(t *testing.T) {
	loc := zonetest.Load(t, "Europe/London")
	d := Date{2026, time.June, 15}
	at := func(day Date, hhmm string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", day.String()+" "+hhmm, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	group := func(id, hhmm string, attendees int) Appointment {
		return Appointment{ID: id, ServiceID: "pilates", LocationID: "north", Start: at(d, hhmm), End: at(d, hhmm).Add(time.Hour),
			BufferBefore: 15 * time.Minute, BufferAfter: 15 * time.Minute, Attendees: attendees, MaxClients: 4}
	}
	base := Query{
		Zone:         loc,
		LocationID:   "north",
		Exceptions:   map[Date][]Range{d: {{540, 600}}}, // 09:00-10:00
		ServiceID:    "pilates",
		Duration:     time.Hour,
		BufferBefore: 15 * time.Minute,
		BufferAfter:  15 * time.Minute,
		MaxClients:   4,
		From:         d,
		To:           d,
	}
	tests := []struct {
		name   string
		change func(q *Query)
		want   []string
	}{
		{"group with places, off grid and outside open hours", func(q *Query) {
			q.Appointments = []Appointment{group("g", "13:10", 3)}
		}, []string{"09:00+01:00", "13:10+01:00"}},
		{"full group", func(q *Query) {
			q.Appointments = []Appointment{group("g", "13:10", 4)}
		}, []string{"09:00+01:00"}},
		{"other service", func(q *Query) {
			g := group("g", "13:10", 1)
			g.ServiceID = "yoga"
			q.Appointments = []Appointment{g}
		}, []string{"09:00+01:00"}},
		{"other location", func(q *Query) {
			g := group("g", "13:10", 1)
			g.LocationID = "south"
			q.Appointments = []Appointment{g}
		}, []string{"09:00+01:00"}},
		{"service without group places", func(q *Query) {
			q.MaxClients = 1
			q.Appointments = []Appointment{group("g", "13:10", 1)}
		}, []string{"09:00+01:00"}},
		{"bare duration", func(q *Query) {
			q.ServiceID = ""
			q.Appointments = []Appointment{group("g", "13:10", 1)}
		}, []string{"09:00+01:00"}},
		{"group on a date outside From..To", func(q *Query) {
			g := group("g", "13:10", 1)
			g.Start, g.End = at(d.AddDays(1), "13:10"), at(d.AddDays(1), "14:10")
			q.Appointments = []Appointment{g}
		}, []string{"09:00+01:00"}},
		{"group before the notice period", func(q *Query) {
			q.Now, q.MinNotice = at(d, "12:10"), time.Hour+time.Minute
			q.Appointments = []Appointment{group("g", "13:10", 1)}
		}, nil},
		{"group blocked by another appointment's buffer", func(q *Query) {
			other := Appointment{ID: "o", ServiceID: "massage", LocationID: "south", Start: at(d, "14:20"), End: at(d, "15:00"), BufferBefore: 11 * time.Minute, MaxClients: 1, Attendees: 1}
			q.Appointments = []Appointment{group("g", "13:10", 1), other}
		}, []string{"09:00+01:00"}},
		{"group blocked by busy time", func(q *Query) {
			q.Busy = []Interval{{at(d, "12:00"), at(d, "12:56")}}
			q.Appointments = []Appointment{group("g", "13:10", 1)}
		}, []string{"09:00+01:00"}},
		{"group on the grid appears once", func(q *Query) {
			q.Appointments = []Appointment{group("g", "09:00", 2)}
		}, []string{"09:00+01:00"}},
		// The group is ignored only for its own start: the grid starts next
		// to it still meet its buffers.
		{"group still blocks other starts", func(q *Query) {
			q.Exceptions = map[Date][]Range{d: {{480, 780}}}
			q.Interval = 30 * time.Minute
			q.Appointments = []Appointment{group("g", "10:00", 2)}
		}, []string{"08:00+01:00", "08:30+01:00", "10:00+01:00", "11:30+01:00", "12:00+01:00"}},
		{"two groups ignore only themselves", func(q *Query) {
			q.Appointments = []Appointment{group("g1", "13:00", 1), group("g2", "13:30", 1), group("g3", "17:00", 1)}
		}, []string{"09:00+01:00", "17:00+01:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base
			tt.change(&q)
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsNeverStartBeforeNowPlusMinNotice(t *testing.T) {
	loc := zonetest.Load(t, "America/New_York")
	d := Date{2026, time.June, 15}
	nine := time.Date(2026, time.June, 15, 13, 0, 0, 0, time.UTC) // 09:00 EDT
	tests := []struct {
		name   string
		now    time.Time
		notice time.Duration
		want   []string
	}{
		{"all in the future", nine.Add(-time.Hour), 0, []string{"09:00-04:00", "10:00-04:00", "11:00-04:00"}},
		{"a slot may start exactly at the limit", nine.Add(-time.Hour), time.Hour, []string{"09:00-04:00", "10:00-04:00", "11:00-04:00"}},
		{"a minute late", nine.Add(-time.Hour), time.Hour + time.Minute, []string{"10:00-04:00", "11:00-04:00"}},
		{"now alone", nine.Add(time.Minute), 0, []string{"10:00-04:00", "11:00-04:00"}},
		{"notice beyond the range", nine, 24 * time.Hour, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := dstQuery(loc, d, []Range{{540, 720}}, time.Hour, 0)
			q.Now, q.MinNotice = tt.now, tt.notice
			equalStrings(t, "slots", slotTimes(t, Slots(q), loc), tt.want)
		})
	}
}

func TestSlotsAreSortedAndUnique(t *testing.T) {
	loc := zonetest.Load(t, "Pacific/Chatham")
	d := Date{2026, time.June, 15}
	q := dstQuery(loc, d, []Range{{900, 960}, {540, 600}, {570, 630}}, 30*time.Minute, 0)
	q.ServiceID, q.LocationID, q.MaxClients = "s", "l", 3
	start := time.Date(2026, time.June, 14, 21, 15, 0, 0, time.UTC) // 10:00+12:45 on d
	q.Appointments = []Appointment{
		{ID: "g2", ServiceID: "s", LocationID: "l", Start: start.Add(5 * time.Hour), End: start.Add(5*time.Hour + 30*time.Minute), MaxClients: 3},
		{ID: "g1", ServiceID: "s", LocationID: "l", Start: start.Add(-30 * time.Minute), End: start, MaxClients: 3},
	}
	want := []string{"09:00+12:45", "09:30+12:45", "10:00+12:45", "15:00+12:45", "15:30+12:45"}
	equalStrings(t, "slots", slotTimes(t, Slots(q), loc), want)
}

func TestSlotsWithoutZoneUseUTC(t *testing.T) {
	q := dstQuery(nil, plainMonday, []Range{{540, 600}}, 30*time.Minute, 0)
	got := Slots(q)
	want := []Slot{
		{Start: time.Date(2026, time.June, 15, 9, 0, 0, 0, time.UTC), Date: "2026-06-15", Time: "09:00"},
		{Start: time.Date(2026, time.June, 15, 9, 30, 0, 0, time.UTC), Date: "2026-06-15", Time: "09:30"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Slots = %v, want %v", got, want)
	}
}
