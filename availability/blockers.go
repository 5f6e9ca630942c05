package availability

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// blocker is the span of one busy time or appointment, remembering which
// appointment it came from so that a group place can ignore its own.
type blocker struct {
	span
	appointment int // index in Query.Appointments, or -1 for a busy time
}

// blockers answers many conflict checks against the same query in
// logarithmic time, where scanning every item per candidate would be too slow
// for a month of a busy practitioner.
//
// Blockers are sorted by start. Those that can overlap [s, e) form a prefix
// (start before e); one of them overlaps exactly when the latest end in that
// prefix is after s. Keeping the latest and second-latest ends of each
// prefix, from different blockers, also answers the question when one
// appointment must be ignored.
type blockers struct {
	byStart []blocker
	latest  []int64 // latest end among byStart[:i+1]
	owner   []int   // appointment whose blocker ends at latest[i], or -1
	second  []int64 // latest end among byStart[:i+1] other than that one
}

// newBlockers indexes the busy times and appointments of q that can meet a
// candidate lying within [from, to); the others are dropped before sorting,
// which is the expensive step.
func newBlockers(q Query, from, to time.Time) blockers {
	lo, hi := nanos(from), nanos(to)
	bufs := q.buffers()
	all := make([]blocker, 0, len(q.Busy)+len(q.Appointments))
	for i := range q.Busy {
		if sp, ok := bufs.busySpan(&q.Busy[i]); ok && sp.overlaps(lo, hi) {
			all = append(all, blocker{span: sp, appointment: -1})
		}
	}
	for i := range q.Appointments {
		if sp, ok := bufs.appointmentSpan(&q.Appointments[i]); ok && sp.overlaps(lo, hi) {
			all = append(all, blocker{span: sp, appointment: i})
		}
	}
	slices.SortFunc(all, func(a, b blocker) int { return cmp.Compare(a.start, b.start) })

	bs := blockers{
		byStart: all,
		latest:  make([]int64, len(all)),
		owner:   make([]int, len(all)),
		second:  make([]int64, len(all)),
	}
	latest, second := int64(math.MinInt64), int64(math.MinInt64)
	owner := -1
	for i, b := range all {
		switch {
		case b.end > latest:
			second, latest, owner = latest, b.end, b.appointment
		case b.end > second:
			second = b.end
		}
		bs.latest[i], bs.owner[i], bs.second[i] = latest, owner, second
	}
	return bs
}

// overlaps reports whether [start, end) overlaps any blocker, ignoring the
// one from appointment skip (pass -1 to ignore none).
func (bs blockers) overlaps(start, end time.Time, skip int) bool {
	s, e := nanos(start), nanos(end)
	// The first n blockers start before e; none after them can overlap.
	n, _ := slices.BinarySearchFunc(bs.byStart, e, func(b blocker, e int64) int {
		if b.start < e {
			return -1
		}
		return 1
	})
	if n == 0 {
		return false
	}
	latest := bs.latest[n-1]
	if skip >= 0 && bs.owner[n-1] == skip {
		latest = bs.second[n-1]
	}
	return latest > s
}

// Bounds of what Unix nanoseconds can represent (years 1678 to 2262).
var (
	minNanos = time.Unix(0, math.MinInt64)
	maxNanos = time.Unix(0, math.MaxInt64)
)

// nanos converts t to Unix nanoseconds, saturating outside the representable
// years so that a far-past or far-future sentinel still orders correctly.
func nanos(t time.Time) int64 {
	switch {
	case t.Before(minNanos):
		return math.MinInt64
	case t.After(maxNanos):
		return math.MaxInt64
	}
	return t.UnixNano()
}
