package availability

import "time"

// Conflicts reports whether a booking [start, start+q.Duration) would
// conflict under rule 3 (ignoring opening hours and the candidate grid: staff
// may book any time). ignoreAppointmentID lets a reschedule ignore the
// appointment being moved; "" ignores nothing.
func Conflicts(q Query, start time.Time, ignoreAppointmentID string) bool {
	s, e := nanos(start), nanos(start.Add(q.Duration))
	bufs := q.buffers()
	for i := range q.Busy {
		if sp, ok := bufs.busySpan(&q.Busy[i]); ok && sp.overlaps(s, e) {
			return true
		}
	}
	for i := range q.Appointments {
		a := &q.Appointments[i]
		if ignoreAppointmentID != "" && a.ID == ignoreAppointmentID {
			continue
		}
		if sp, ok := bufs.appointmentSpan(a); ok && sp.overlaps(s, e) {
			return true
		}
	}
	return false
}

// Rule 3 compares a candidate widened by the service's buffers with busy
// times and appointments, and the bare candidate with appointments widened
// by their own buffers. Both tests are moved onto the blocking side, so that
// the bare candidate [s, e) is checked against one span per item:
//
//   - [s-BB, e+BA) overlaps [b.Start, b.End) exactly when [s, e) overlaps
//     [b.Start-BA, b.End+BB).
//   - For an appointment each test refuses an open interval of starts s;
//     both intervals contain the starts whose bare candidate overlaps the
//     bare appointment, so their union is again an interval: [s, e)
//     overlaps [a.Start-max(BA, a.BB), a.End+max(BB, a.BA)).
//
// Taking the maximum rather than the sum is what lets buffers overlap each
// other.

// buffers are the service's buffers around a candidate.
type buffers struct{ before, after time.Duration }

// buffers returns the query's buffers with negative ones treated as none,
// since a buffer that shrank a booking would let bookings overlap.
func (q Query) buffers() buffers {
	return buffers{before: max(q.BufferBefore, 0), after: max(q.BufferAfter, 0)}
}

// span is a half-open span of Unix nanoseconds. Plain integers keep sorting
// and searching a month of items cheap; time.Time comparisons dominated the
// profile.
type span struct{ start, end int64 }

// overlaps reports whether [s, e) and sp share an instant; touching ends do
// not.
func (sp span) overlaps(s, e int64) bool {
	return s < sp.end && sp.start < e
}

// busySpan returns the span that a bare candidate must not overlap because
// of busy time b, or false when b is empty and blocks nothing.
func (bufs buffers) busySpan(b *Interval) (span, bool) {
	if !b.End.After(b.Start) {
		return span{}, false
	}
	return span{
		start: nanos(b.Start.Add(-bufs.after)),
		end:   nanos(b.End.Add(bufs.before)),
	}, true
}

// appointmentSpan returns the span that a bare candidate must not overlap
// because of appointment a, or false when a is empty and blocks nothing.
func (bufs buffers) appointmentSpan(a *Appointment) (span, bool) {
	if !a.End.After(a.Start) {
		return span{}, false
	}
	before := max(bufs.after, a.BufferBefore, 0)
	after := max(bufs.before, a.BufferAfter, 0)
	return span{start: nanos(a.Start.Add(-before)), end: nanos(a.End.Add(after))}, true
}
