package availability

import (
	"fmt"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/zonetest"
)

// A Monday in Adelaide far from any transition (UTC+09:30 all day).
var plainMonday = Date{2026, time.June, 15}

func TestOpenRangesFollowRuleOne(t *testing.T) {
	loc := zonetest.Load(t, "Australia/Adelaide")
	opening := Week{}
	opening[time.Monday] = []Range{{540, 1020}} // 09:00-17:00
	working := Week{}
	working[time.Monday] = []Range{{480, 720}, {780, 1200}} // 08:00-12:00, 13:00-20:00

	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{
			name: "opening hours when the practitioner has no working hours",
			q:    Query{Opening: opening},
			want: []string{"09:00+09:30/17:00+09:30"},
		},
		{
			name: "working hours intersected with opening hours",
			q:    Query{Opening: opening, Working: working, HasWorking: true},
			want: []string{"09:00+09:30/12:00+09:30", "13:00+09:30/17:00+09:30"},
		},
		{
			name: "no working range on the weekday closes the day even though the location is open",
			q:    Query{Opening: opening, Working: Week{time.Tuesday: {{540, 1020}}}, HasWorking: true},
			want: nil,
		},
		{
			name: "working hours without HasWorking are ignored",
			q:    Query{Opening: opening, Working: working},
			want: []string{"09:00+09:30/17:00+09:30"},
		},
		{
			name: "no opening range on the weekday closes the day",
			q:    Query{Opening: Week{time.Tuesday: {{540, 1020}}}},
			want: nil,
		},
		{
			name: "no opening range closes the day despite working hours",
			q:    Query{Working: working, HasWorking: true},
			want: nil,
		},
		{
			name: "exception replaces opening hours even outside them",
			q: Query{Opening: opening, Working: working, HasWorking: true,
				Exceptions: map[Date][]Range{plainMonday: {{1080, 1260}}}},
			want: []string{"18:00+09:30/21:00+09:30"},
		},
		{
			name: "exception with no ranges makes the day unavailable",
			q:    Query{Opening: opening, Exceptions: map[Date][]Range{plainMonday: {}}},
			want: nil,
		},
		{
			name: "exception with a nil slice makes the day unavailable",
			q:    Query{Opening: opening, Exceptions: map[Date][]Range{plainMonday: nil}},
			want: nil,
		},
		{
			name: "exception on another date does not apply",
			q:    Query{Opening: opening, Exceptions: map[Date][]Range{plainMonday.AddDays(7): {}}},
			want: []string{"09:00+09:30/17:00+09:30"},
		},
		{
			name: "overlapping and touching ranges merge, in time order",
			q:    Query{Opening: Week{time.Monday: {{780, 900}, {540, 600}, {600, 660}, {840, 960}}}},
			want: []string{"09:00+09:30/11:00+09:30", "13:00+09:30/16:00+09:30"},
		},
		{
			name: "ranges are clamped to the day and empty ones dropped",
			q:    Query{Opening: Week{time.Monday: {{-60, 60}, {1380, 1500}, {700, 700}, {800, 790}}}},
			want: []string{"00:00+09:30/01:00+09:30", "23:00+09:30/00:00+09:30"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.q.Zone = loc
			got := intervalTimes(OpenRanges(tt.q, plainMonday), loc)
			equalStrings(t, "open ranges", got, tt.want)
		})
	}
}

func TestOpenRangesReturnUTCInstants(t *testing.T) {
	loc := zonetest.Load(t, "Australia/Adelaide")
	got := OpenRanges(Query{Zone: loc, Opening: everyDay(Range{540, 1020})}, plainMonday)
	want := []Interval{{
		Start: time.Date(2026, time.June, 14, 23, 30, 0, 0, time.UTC),
		End:   time.Date(2026, time.June, 15, 7, 30, 0, 0, time.UTC),
	}}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("OpenRanges = %v, want %v", got, want)
	}
}

func TestOpenRangesDefaultToUTCWithoutZone(t *testing.T) {
	got := OpenRanges(Query{Opening: everyDay(Range{0, 1440})}, plainMonday)
	want := []Interval{{
		Start: time.Date(2026, time.June, 15, 0, 0, 0, 0, time.UTC),
		End:   time.Date(2026, time.June, 16, 0, 0, 0, 0, time.UTC),
	}}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("OpenRanges = %v, want %v", got, want)
	}
}

func TestOpenRangesMapBoundaryInGapToTransitionInstant(t *testing.T) {
	// Each case's ranges are written in the zone's own terms around its
	// spring-forward gap: before it, ending inside it, starting inside it,
	// and lying wholly inside it (which leaves nothing open).
	tests := []struct {
		zone   string
		ranges []Range
		want   []string
	}{
		{"America/New_York", []Range{{60, 150}}, []string{"01:00-05:00/03:00-04:00"}},
		{"America/New_York", []Range{{150, 300}}, []string{"03:00-04:00/05:00-04:00"}},
		{"America/New_York", []Range{{125, 175}}, nil},
		{"Europe/London", []Range{{30, 90}}, []string{"00:30+00:00/02:00+01:00"}},
		{"Europe/London", []Range{{90, 180}}, []string{"02:00+01:00/03:00+01:00"}},
		{"Australia/Adelaide", []Range{{150, 240}}, []string{"03:00+10:30/04:00+10:30"}},
		{"Australia/Lord_Howe", []Range{{60, 135}}, []string{"01:00+10:30/02:30+11:00"}},
		{"Australia/Lord_Howe", []Range{{135, 180}}, []string{"02:30+11:00/03:00+11:00"}},
		{"Australia/Lord_Howe", []Range{{120, 150}}, nil},
		{"Pacific/Chatham", []Range{{120, 180}}, []string{"02:00+12:45/03:45+13:45"}},
		{"Pacific/Chatham", []Range{{180, 240}}, []string{"03:45+13:45/04:00+13:45"}},
		// Touching ranges on both sides of the gap stay separate ranges
		// whose instants touch.
		{"America/New_York", []Range{{60, 120}, {180, 240}}, []string{"01:00-05:00/03:00-04:00", "03:00-04:00/04:00-04:00"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.zone, tt.ranges), func(t *testing.T) {
			loc := zonetest.Load(t, tt.zone)
			d := springForwardDate(t, tt.zone)
			q := Query{Zone: loc, Exceptions: map[Date][]Range{d: tt.ranges}}
			equalStrings(t, "open ranges", intervalTimes(OpenRanges(q, d), loc), tt.want)
		})
	}
}

func TestOpenRangesMapRepeatedBoundaryToFirstInstant(t *testing.T) {
	tests := []struct {
		zone   string
		ranges []Range
		want   []string
	}{
		// The repeated hour is 01:00-02:00 in New York and London, 02:00-03:00
		// in Adelaide, 01:30-02:00 at Lord Howe and 02:45-03:45 in Chatham.
		{"America/New_York", []Range{{90, 240}}, []string{"01:30-04:00/04:00-05:00"}},
		{"America/New_York", []Range{{0, 90}}, []string{"00:00-04:00/01:30-04:00"}},
		{"Europe/London", []Range{{60, 120}}, []string{"01:00+01:00/02:00+00:00"}},
		{"Australia/Adelaide", []Range{{150, 165}}, []string{"02:30+10:30/02:45+10:30"}},
		{"Australia/Lord_Howe", []Range{{105, 120}}, []string{"01:45+11:00/02:00+10:30"}},
		{"Pacific/Chatham", []Range{{180, 240}}, []string{"03:00+13:45/04:00+12:45"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.zone, tt.ranges), func(t *testing.T) {
			loc := zonetest.Load(t, tt.zone)
			d := fallBackDate(t, tt.zone)
			q := Query{Zone: loc, Exceptions: map[Date][]Range{d: tt.ranges}}
			equalStrings(t, "open ranges", intervalTimes(OpenRanges(q, d), loc), tt.want)
		})
	}
}

func TestOpenRangesEndAt2400AtNextLocalMidnight(t *testing.T) {
	tests := []struct {
		zone string
		date Date
		want string
	}{
		// A day of 25 hours: the range spans the repeated hour.
		{"America/New_York", Date{2026, time.November, 1}, "2026-11-01T04:00:00Z/2026-11-02T05:00:00Z"},
		// A day of 23 and a half hours at Lord Howe.
		{"Australia/Lord_Howe", Date{2026, time.October, 4}, "2026-10-03T13:30:00Z/2026-10-04T13:00:00Z"},
		// Havana skips its midnight in March, so 24:00 on the day before is
		// the transition instant, 01:00 the next day.
		{"America/Havana", Date{2026, time.March, 7}, "2026-03-07T05:00:00Z/2026-03-08T05:00:00Z"},
		// Havana repeats its midnight in November, so 24:00 is the first one.
		{"America/Havana", Date{2026, time.October, 31}, "2026-10-31T04:00:00Z/2026-11-01T04:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.date.String(), func(t *testing.T) {
			q := Query{Zone: zonetest.Load(t, tt.zone), Opening: everyDay(Range{0, 1440})}
			got := OpenRanges(q, tt.date)
			if len(got) != 1 {
				t.Fatalf("OpenRanges = %v, want one range", got)
			}
			if s := got[0].Start.Format(time.RFC3339) + "/" + got[0].End.Format(time.RFC3339); s != tt.want {
				t.Errorf("OpenRanges = %s, want %s", s, tt.want)
			}
		})
	}
}
