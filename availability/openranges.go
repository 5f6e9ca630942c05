package availability

import (
	"slices"
	"time"
)

// minutesPerDay is the end of a local day in Range units.
const minutesPerDay = 24 * 60

// OpenRanges returns the open ranges of date d as real-time intervals (rule 1
// and the DST rules in the package doc), in order. A range that collapses to
// nothing, because it lies wholly inside a DST gap, is left out.
func OpenRanges(q Query, d Date) []Interval {
	clock := newDayClock(q.zone(), d)
	var out []Interval
	for _, r := range openWallRanges(q, d) {
		start, _ := clock.at(minutes(r.Start))
		end, _ := clock.at(minutes(r.End))
		if start.Before(end) {
			out = append(out, Interval{Start: start.UTC(), End: end.UTC()})
		}
	}
	return out
}

// openWallRanges returns the open ranges of d (rule 1) as sorted, disjoint,
// non-touching wall-clock ranges. Merging touching ranges matters because
// candidates step from each range's start: a clinic open 9-12 and 12-17 is
// open 9-17, and its grid should not restart at noon.
func openWallRanges(q Query, d Date) []Range {
	if exception, ok := q.Exceptions[d]; ok {
		return normalize(exception)
	}
	day := d.Weekday()
	if q.HasWorking {
		return intersect(normalize(q.Working[day]), normalize(q.Opening[day]))
	}
	return normalize(q.Opening[day])
}

// normalize clamps ranges to one day, drops empty ones and merges
// overlapping or touching ones, returning a new sorted slice.
func normalize(rs []Range) []Range {
	out := make([]Range, 0, len(rs))
	for _, r := range rs {
		r.Start = max(r.Start, 0)
		r.End = min(r.End, minutesPerDay)
		if r.Start < r.End {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Range) int { return a.Start - b.Start })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r.Start <= merged[n-1].End {
			merged[n-1].End = max(merged[n-1].End, r.End)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// intersect returns the intersection of two normalized range lists. Because
// each input is maximal and non-touching, so is the result.
func intersect(a, b []Range) []Range {
	var out []Range
	for i, j := 0, 0; i < len(a) && j < len(b); {
		start, end := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
		if start < end {
			out = append(out, Range{Start: start, End: end})
		}
		// The range that ends first cannot meet anything further in the
		// other list.
		if a[i].End < b[j].End {
			i++
		} else {
			j++
		}
	}
	return out
}

// minutes converts a Range boundary to a wall-clock offset from midnight.
func minutes(m int) time.Duration {
	return time.Duration(m) * time.Minute
}
