package availability

import (
	"fmt"
	"math/rand"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
)

// This file holds a deliberately naive oracle for Slots and Conflicts. It
// shares no code with the package beyond the exported types and Date's
// methods: it walks every real minute around a day to learn which wall-clock
// minutes exist and when, and checks every rule literally, minute by minute
// and item by item.

// oracleDay records, for each wall-clock minute from a date's midnight
// through the end of the following day, the first instant showing it.
type oracleDay struct {
	first map[int]time.Time
}

var (
	oracleDaysMu sync.Mutex
	oracleDays   = map[string]oracleDay{}
)

// oracleDayOf builds (and memoises) the wall-clock map of d in loc by
// stepping through real time one minute at a time, wide enough on both sides
// for any UTC offset.
func oracleDayOf(loc *time.Location, d Date) oracleDay {
	key := loc.String() + " " + d.String()
	oracleDaysMu.Lock()
	defer oracleDaysMu.Unlock()
	if day, ok := oracleDays[key]; ok {
		return day
	}
	midnight := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
	day := oracleDay{first: map[int]time.Time{}}
	for t := midnight.Add(-16 * time.Hour); t.Before(midnight.Add(64 * time.Hour)); t = t.Add(time.Minute) {
		l := t.In(loc)
		wall := time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), 0, 0, time.UTC)
		minute := int(wall.Sub(midnight) / time.Minute)
		if minute < 0 || minute >= 2*1440 {
			continue
		}
		if _, seen := day.first[minute]; !seen {
			day.first[minute] = t
		}
	}
	oracleDays[key] = day
	return day
}

// boundary maps a range boundary to an instant: the minute's first
// instant, or for a minute in a gap the first instant of the first later
// minute that exists, which is the first instant after the gap.
func (day oracleDay) boundary(minute int) time.Time {
	for m := minute; ; m++ {
		if t, ok := day.first[m]; ok {
			return t
		}
	}
}

// oracleOpenMinutes applies rule 1 to each wall-clock minute of d.
func oracleOpenMinutes(q Query, d Date) [1440]bool {
	in := func(rs []Range, m int) bool {
		for _, r := range rs {
			if r.Start <= m && m < r.End {
				return true
			}
		}
		return false
	}
	var open [1440]bool
	exception, hasException := q.Exceptions[d]
	for m := 0; m < 1440; m++ {
		switch {
		case hasException:
			open[m] = in(exception, m)
		case q.HasWorking:
			open[m] = in(q.Working[d.Weekday()], m) && in(q.Opening[d.Weekday()], m)
		default:
			open[m] = in(q.Opening[d.Weekday()], m)
		}
	}
	return open
}

// oracleRuns turns open minutes into maximal runs [start, end).
func oracleRuns(open [1440]bool) [][2]int {
	var runs [][2]int
	for m := 0; m < 1440; m++ {
		if !open[m] {
			continue
		}
		end := m
		for end < 1440 && open[end] {
			end++
		}
		runs = append(runs, [2]int{m, end})
		m = end
	}
	return runs
}

// oracleOverlap is the half-open overlap test, written out again.
func oracleOverlap(aStart, aEnd, bStart, bEnd time.Time) bool {
	return aStart.Before(bEnd) && bStart.Before(aEnd)
}

// oracleConflict applies rule 3 literally to [start, start+Duration),
// skipping appointment index skip.
func oracleConflict(q Query, start time.Time, skip int) bool {
	end := start.Add(q.Duration)
	wideStart, wideEnd := start.Add(-q.BufferBefore), end.Add(q.BufferAfter)
	for _, b := range q.Busy {
		if b.End.After(b.Start) && oracleOverlap(wideStart, wideEnd, b.Start, b.End) {
			return true
		}
	}
	for i, a := range q.Appointments {
		if i == skip || !a.End.After(a.Start) {
			continue
		}
		if oracleOverlap(wideStart, wideEnd, a.Start, a.End) ||
			oracleOverlap(start, end, a.Start.Add(-a.BufferBefore), a.End.Add(a.BufferAfter)) {
			return true
		}
	}
	return false
}

// oracleSlots computes Slots by brute force.
func oracleSlots(q Query) []Slot {
	starts := map[time.Time]bool{}
	limit := q.Now.Add(q.MinNotice)
	step := int(q.Interval / time.Minute)
	if step <= 0 {
		step = int(q.Duration / time.Minute)
	}
	for d := q.From; !q.To.Before(d); d = d.AddDays(1) {
		day := oracleDayOf(q.Zone, d)
		for _, run := range oracleRuns(oracleOpenMinutes(q, d)) {
			runEnd := day.boundary(run[1])
			for m := run[0]; m < run[1]; m += step {
				start, exists := day.first[m]
				if !exists || start.Add(q.Duration).After(runEnd) || start.Before(limit) || oracleConflict(q, start, -1) {
					continue
				}
				starts[start.UTC()] = true
			}
		}
	}
	if q.MaxClients > 1 && q.ServiceID != "" {
		for i, a := range q.Appointments {
			l := a.Start.In(q.Zone)
			d := Date{l.Year(), l.Month(), l.Day()}
			if a.ServiceID == q.ServiceID && a.LocationID == q.LocationID && a.Attendees < a.MaxClients &&
				!d.Before(q.From) && !q.To.Before(d) && !a.Start.Before(limit) && !oracleConflict(q, a.Start, i) {
				starts[a.Start.UTC()] = true
			}
		}
	}
	var sorted []time.Time
	for s := range starts {
		sorted = append(sorted, s)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Before(sorted[j]) })
	slots := make([]Slot, 0, len(sorted))
	for _, s := range sorted {
		l := s.In(q.Zone)
		slots = append(slots, Slot{
			Start: s,
			Date:  fmt.Sprintf("%04d-%02d-%02d", l.Year(), l.Month(), l.Day()),
			Time:  fmt.Sprintf("%02d:%02d", l.Hour(), l.Minute()),
		})
	}
	return slots
}

// randomQuery builds a seeded random schedule around a 2026 transition (or,
// now and then, an ordinary date) in one of the test zones.
func randomQuery(t testing.TB, r *rand.Rand) Query {
	zone := zonetest.Zones[r.Intn(len(zonetest.Zones))]
	loc := zonetest.Load(t, zone)
	trs := zonetest.In2026(t, zone)
	base := dateOf(trs[r.Intn(len(trs))].At.In(loc))
	if r.Intn(5) == 0 {
		base = Date{2026, time.January, 1}.AddDays(r.Intn(365))
	}
	from := base.AddDays(-r.Intn(3))
	to := from.AddDays(r.Intn(5))

	pick := func(options ...int) int { return options[r.Intn(len(options))] }
	// Ranges favour the small hours, where the transitions are, and
	// sometimes reach 24:00.
	randomRanges := func() []Range {
		var rs []Range
		for n := r.Intn(3); n > 0; n-- {
			start := pick(5, 15) * r.Intn(24)
			if r.Intn(3) == 0 {
				start = 5 * r.Intn(288)
			}
			end := start + 5*(1+r.Intn((1440-start)/5))
			if r.Intn(3) == 0 {
				end = min(start+5*(1+r.Intn(60)), 1440)
			}
			rs = append(rs, Range{start, end})
		}
		return rs
	}
	q := Query{
		Zone:         loc,
		LocationID:   "L",
		HasWorking:   r.Intn(2) == 0,
		ServiceID:    []string{"", "S", "S", "T"}[r.Intn(4)],
		Duration:     time.Duration(pick(5, 10, 15, 20, 30, 45, 60, 90, 120)) * time.Minute,
		BufferBefore: time.Duration(pick(0, 0, 5, 10, 15, 30)) * time.Minute,
		BufferAfter:  time.Duration(pick(0, 0, 5, 10, 15, 30)) * time.Minute,
		MaxClients:   pick(1, 1, 3),
		Interval:     time.Duration(pick(0, 0, 5, 10, 15, 20, 25, 30, 45, 60)) * time.Minute,
		From:         from,
		To:           to,
		MinNotice:    time.Duration(pick(0, 0, 60, 24*60)) * time.Minute,
	}
	for wd := range q.Opening {
		q.Opening[wd] = randomRanges()
		q.Working[wd] = randomRanges()
	}
	if r.Intn(2) == 0 {
		q.Exceptions = map[Date][]Range{}
		for d := from.AddDays(-1); !to.Before(d); d = d.AddDays(1) {
			if r.Intn(3) == 0 {
				q.Exceptions[d] = randomRanges()
			}
		}
	}

	// Items fall on five-minute marks across the searched days and their
	// neighbours, so touching boundaries are common.
	origin := time.Date(from.Year, from.Month, from.Day, 0, 0, 0, 0, time.UTC).Add(-36 * time.Hour)
	finish := time.Date(to.Year, to.Month, to.Day, 0, 0, 0, 0, time.UTC).Add(60 * time.Hour)
	marks := int(finish.Sub(origin) / (5 * time.Minute))
	instant := func() time.Time { return origin.Add(time.Duration(5*r.Intn(marks)) * time.Minute) }
	length := func() time.Duration { return time.Duration(5*(1+r.Intn(36))) * time.Minute }
	for n := r.Intn(8); n > 0; n-- {
		s := instant()
		q.Busy = append(q.Busy, Interval{s, s.Add(length())})
	}
	for n := r.Intn(12); n > 0; n-- {
		s := instant()
		places := pick(1, 1, 3, 4)
		q.Appointments = append(q.Appointments, Appointment{
			ID:           fmt.Sprint("a", n), // unique within the schedule
			ServiceID:    []string{"S", "S", "T"}[r.Intn(3)],
			LocationID:   []string{"L", "L", "M"}[r.Intn(3)],
			Start:        s,
			End:          s.Add(length()),
			BufferBefore: time.Duration(pick(0, 0, 5, 10, 15)) * time.Minute,
			BufferAfter:  time.Duration(pick(0, 0, 5, 10, 15)) * time.Minute,
			Attendees:    r.Intn(places + 1),
			MaxClients:   places,
		})
	}
	q.Now = origin
	if r.Intn(2) == 0 {
		q.Now = instant()
	}
	return q
}

// firstDifference describes where two rendered slot lists first differ, or
// returns "" when they are equal; whole lists of a busy week are unreadable.
func firstDifference(got, want []string) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("first difference at %d: got %q, want %q", i, g, w)
		}
	}
	return ""
}

// renderSlots makes slots comparable and printable.
func renderSlots(slots []Slot) []string {
	out := make([]string, len(slots))
	for i, s := range slots {
		out[i] = s.Start.Format(time.RFC3339) + " " + s.Date + " " + s.Time
	}
	return out
}

func TestSlotsMatchBruteForceOracleOnRandomSchedules(t *testing.T) {
	r := rand.New(rand.NewSource(20260405))
	const schedules = 400
	nonEmpty := 0
	for i := 0; i < schedules; i++ {
		q := randomQuery(t, r)
		got, want := renderSlots(Slots(q)), renderSlots(oracleSlots(q))
		if len(want) > 0 {
			nonEmpty++
		}
		if diff := firstDifference(got, want); diff != "" {
			t.Fatalf("schedule %d (%s %s..%s, duration %v, interval %v): %d slots, want %d; %s",
				i, q.Zone, q.From, q.To, q.Duration, q.Interval, len(got), len(want), diff)
		}
	}
	// Guard against a generator so strict that both sides trivially agree
	// on nothing.
	if nonEmpty < schedules/2 {
		t.Errorf("only %d of %d schedules had any slot", nonEmpty, schedules)
	}
}

func TestConflictsMatchesBruteForceOracleOnRandomSchedules(t *testing.T) {
	r := rand.New(rand.NewSource(20261004))
	conflicts := 0
	for i := 0; i < 400; i++ {
		q := randomQuery(t, r)
		start := time.Date(q.From.Year, q.From.Month, q.From.Day, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.Intn(5*24*60)) * time.Minute)
		skip, ignore := -1, ""
		if len(q.Appointments) > 0 && r.Intn(2) == 0 {
			skip = r.Intn(len(q.Appointments))
			ignore = q.Appointments[skip].ID
		}
		want := oracleConflict(q, start, skip)
		if want {
			conflicts++
		}
		if got := Conflicts(q, start, ignore); got != want {
			t.Fatalf("schedule %d at %v ignoring %q: Conflicts = %v, want %v", i, start, ignore, got, want)
		}
	}
	if conflicts == 0 || conflicts == 400 {
		t.Errorf("%d of 400 checks conflicted; the generator does not exercise both outcomes", conflicts)
	}
}
