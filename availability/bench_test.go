package availability

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
)

// monthQuery is one practitioner's month: weekday hours, a few exceptions,
// 2,000 appointments (some of them group classes with places) and 500 busy
// times spread over the 31 searched days, which include Adelaide's April
// transition. The seed keeps runs comparable.
func monthQuery(b *testing.B) Query {
	loc := zonetest.Load(b, "Australia/Adelaide")
	r := rand.New(rand.NewSource(7))
	from := Date{2026, time.March, 20}
	to := from.AddDays(30)
	q := Query{
		Zone:         loc,
		LocationID:   "L",
		HasWorking:   true,
		ServiceID:    "S",
		Duration:     30 * time.Minute,
		BufferBefore: 5 * time.Minute,
		BufferAfter:  10 * time.Minute,
		MaxClients:   4,
		Interval:     15 * time.Minute,
		From:         from,
		To:           to,
		Now:          time.Date(2026, time.March, 19, 0, 0, 0, 0, time.UTC),
		MinNotice:    2 * time.Hour,
		Exceptions: map[Date][]Range{
			from.AddDays(3):  {},
			from.AddDays(10): {{600, 840}},
		},
	}
	for wd := time.Monday; wd <= time.Saturday; wd++ {
		q.Opening[wd] = []Range{{420, 1260}}
		q.Working[wd] = []Range{{480, 720}, {750, 1140}}
	}
	start := time.Date(from.Year, from.Month, from.Day, 0, 0, 0, 0, loc)
	minutes := 31 * 24 * 60
	at := func() time.Time { return start.Add(time.Duration(5*r.Intn(minutes/5)) * time.Minute) }
	for i := 0; i < 500; i++ {
		s := at()
		q.Busy = append(q.Busy, Interval{s, s.Add(time.Duration(15*(1+r.Intn(8))) * time.Minute)})
	}
	for i := 0; i < 2000; i++ {
		s := at()
		a := Appointment{
			ID: fmt.Sprint("a", i), ServiceID: "T", LocationID: "L",
			Start: s, End: s.Add(time.Duration(15*(1+r.Intn(6))) * time.Minute),
			BufferBefore: time.Duration(5*r.Intn(3)) * time.Minute,
			BufferAfter:  time.Duration(5*r.Intn(3)) * time.Minute,
			Attendees:    1, MaxClients: 1,
		}
		if i%10 == 0 {
			a.ServiceID, a.End, a.MaxClients, a.Attendees = "S", s.Add(30*time.Minute), 4, r.Intn(5)
		}
		q.Appointments = append(q.Appointments, a)
	}
	return q
}

func BenchmarkSlotsOnePractitionerMonth(b *testing.B) {
	q := monthQuery(b)
	b.ReportAllocs()
	var slots []Slot
	for b.Loop() {
		slots = Slots(q)
	}
	// Reported so that a change that quietly empties the result, and so
	// speeds the benchmark up, is visible.
	b.ReportMetric(float64(len(slots)), "slots")
}

// BenchmarkSlotsTwentyPractitionersMonth answers the month of a whole
// location: twenty practitioners, each as busy as monthQuery's one.
func BenchmarkSlotsTwentyPractitionersMonth(b *testing.B) {
	qs := make([]Query, 20)
	for i := range qs {
		qs[i] = monthQuery(b)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = 0
		for _, q := range qs {
			n += len(Slots(q))
		}
	}
	b.ReportMetric(float64(n), "slots")
}

// BenchmarkFirstAvailableTwentyPractitionersBookedMonth finds the first
// slot of twenty practitioners whose first month is fully booked, the way
// the API does: two weeks at a time until a slot turns up.
func BenchmarkFirstAvailableTwentyPractitionersBookedMonth(b *testing.B) {
	loc := zonetest.Load(b, "Australia/Adelaide")
	from := Date{2026, time.March, 2}
	start := time.Date(2026, time.March, 2, 0, 0, 0, 0, loc)
	qs := make([]Query, 20)
	for i := range qs {
		q := Query{Zone: loc, LocationID: "L", Duration: 30 * time.Minute, Now: start.Add(-time.Hour)}
		for wd := time.Monday; wd <= time.Friday; wd++ {
			q.Opening[wd] = []Range{{480, 1080}}
		}
		// Back-to-back 30-minute appointments fill every open minute of
		// the first 31 days.
		for d := 0; d < 31; d++ {
			day := from.AddDays(d)
			for m := 480; m < 1080; m += 30 {
				s := time.Date(day.Year, day.Month, day.Day, m/60, m%60, 0, 0, loc)
				q.Appointments = append(q.Appointments, Appointment{ID: fmt.Sprint(i, d, m), ServiceID: "T", LocationID: "L",
					Start: s, End: s.Add(30 * time.Minute), Attendees: 1, MaxClients: 1})
			}
		}
		qs[i] = q
	}
	b.ReportAllocs()
	var first Slot
	for b.Loop() {
		for _, q := range qs {
			for w := 0; w < 90; w += 14 {
				q.From, q.To = from.AddDays(w), from.AddDays(w+13)
				if s := Slots(q); len(s) > 0 {
					first = s[0]
					break
				}
			}
		}
	}
	if first.Date != "2026-04-02" || first.Time != "08:00" {
		b.Fatalf("first slot %s %s, want 2026-04-02 08:00", first.Date, first.Time)
	}
}
