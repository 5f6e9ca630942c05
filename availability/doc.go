// Package availability computes bookable appointment slots for one
// practitioner at one location over a range of local dates, and checks
// whether a proposed booking conflicts with the practitioner's existing
// commitments. It is a pure engine: callers load opening hours, working
// hours, exceptions, busy times and appointments, and pass them in a Query.
//
// For a practitioner P, a location L and a local date D in L's time zone:
//
//  1. Open ranges. If P has an exception for D, its ranges are the open
//     ranges (none means unavailable), whatever the opening hours say.
//     Otherwise, if P has any working hours at L, the open ranges are P's
//     ranges for D's weekday intersected with L's opening hours for that
//     weekday. Otherwise they are L's opening hours for that weekday.
//     Overlapping or touching ranges are merged first, so the open ranges of
//     a day are the maximal runs of open wall-clock minutes.
//  2. Candidates. Within each open range, candidate starts are the range's
//     start plus whole multiples of Interval (default Duration), stepped in
//     wall-clock time. A candidate wall-clock time that does not exist on D
//     is skipped; one that exists twice is taken once, at its earlier
//     instant. A slot occupies [start, start+Duration) of elapsed time and
//     must end no later than the end of its range.
//  3. Conflicts. A candidate is refused when [start-BufferBefore,
//     end+BufferAfter) overlaps a busy time or an appointment of P, or when
//     [start, end) overlaps an appointment widened by that appointment's own
//     buffers. Buffers may overlap each other. Intervals are half-open, so
//     touching is not overlapping.
//  4. Group places. For a service with MaxClients > 1, an appointment of P
//     for the same service at the same location that still has places is
//     offered at its own start when that start's local date is within
//     From..To, even off the candidate grid and outside the open ranges. The
//     conflict rule then ignores that appointment itself.
//  5. Time limits. A slot never starts before Now + MinNotice.
//  6. Order and identity. Slots are sorted by start and each start appears
//     once.
//
// # Daylight saving time
//
// Wall-clock times of date D become instants by one rule: a wall-clock time
// maps to the earliest instant whose local reading is at or after it. So a
// time that exists once maps to that instant; a time that exists twice (the
// repeated hour when clocks go back) maps to its first, earlier instant; a
// time that does not exist (skipped when clocks go forward) maps to the first
// instant after the gap, which is the transition instant itself. A range end
// of 1440 (24:00) is the next local midnight under the same rule, so where
// midnight is skipped it is the transition instant. The mapping never goes
// backwards as the wall clock advances. Range starts and ends use it as is;
// a candidate start whose wall-clock time does not exist is skipped instead
// of moved, and one that exists twice is offered once, at its first instant.
// The rule is computed from the zone's transitions (time.Time.ZoneBounds)
// rather than left to time.Date, whose choice for such times is unspecified.
//
// # Input conventions
//
// Ranges are clamped to [0, 1440] and empty ones ignored. Busy times and
// appointments whose End is not after their Start block nothing, and
// negative buffers count as none. Busy must not repeat the appointments:
// each is an independent source of conflict, and a group place ignores only
// its own appointment. A non-positive Duration yields no slots; a
// non-positive Interval means Duration. A nil Zone means UTC. Instants are
// compared as Unix nanoseconds, so times outside the years 1678 to 2262 are
// clamped to those bounds. Work grows with the number of candidates, so
// callers should bound the date range and Interval they accept from users.
package availability
