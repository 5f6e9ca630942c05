package availability

import "time"

// Range is a half-open local wall-clock range [Start, End) in minutes after
// local midnight; 0 <= Start < End <= 1440.
type Range struct{ Start, End int }

// Week holds ranges per weekday, indexed by time.Weekday (Sunday = 0).
type Week [7][]Range

// Interval is a half-open span of real time [Start, End).
type Interval struct{ Start, End time.Time }

// Appointment is an existing non-cancelled appointment of the practitioner
// (at any location).
type Appointment struct {
	ID, ServiceID, LocationID string
	Start, End                time.Time
	// BufferBefore and BufferAfter are the appointment's own service
	// buffers, which protect it from bookings made with other services.
	BufferBefore, BufferAfter time.Duration
	// Attendees counts non-cancelled attendees; MaxClients is the number of
	// places (1 = not a group).
	Attendees, MaxClients int
}

// Query describes one availability question: which slots of a service (or a
// bare duration) a practitioner can take at a location between two dates.
type Query struct {
	// Zone is the location's time zone; nil means UTC.
	Zone *time.Location
	// LocationID identifies the location, to recognise group appointments
	// held there.
	LocationID string
	// Opening holds the location's opening hours. There is usually at most
	// one range a day, but several are accepted.
	Opening Week
	// Working holds the practitioner's own working hours at this location.
	Working Week
	// HasWorking is true when the practitioner has any working hours at this
	// location. It is separate from Working because a practitioner with
	// hours on other days only is unavailable on the empty days, while one
	// with no hours at all follows the opening hours.
	HasWorking bool
	// Exceptions holds dated exceptions for this practitioner at this
	// location or at every location. A present key with an empty slice means
	// unavailable that day.
	Exceptions map[Date][]Range
	// Busy holds the practitioner's busy times at any location.
	Busy []Interval
	// Appointments holds the practitioner's non-cancelled appointments at
	// any location.
	Appointments []Appointment
	// ServiceID is the service being booked, or "" when booking by bare
	// duration.
	ServiceID string
	// Duration is the length of a slot in elapsed time.
	Duration time.Duration
	// BufferBefore and BufferAfter are the service's buffers; a bare
	// duration has none. Negative buffers count as none.
	BufferBefore, BufferAfter time.Duration
	// MaxClients is the service's number of places; more than one enables
	// group places.
	MaxClients int
	// Interval is the wall-clock step between candidate starts; zero or
	// less means Duration.
	Interval time.Duration
	// From and To are the inclusive local dates to search.
	From, To Date
	// Now is the current instant.
	Now time.Time
	// MinNotice is how long before its start a slot must be booked.
	MinNotice time.Duration
}

// Slot is a bookable start time.
type Slot struct {
	Start time.Time // UTC instant
	Date  string    // local date YYYY-MM-DD in Zone
	Time  string    // local time HH:MM in Zone
}

// zone returns the query's time zone, defaulting to UTC so that a zero Query
// is usable.
func (q Query) zone() *time.Location {
	if q.Zone == nil {
		return time.UTC
	}
	return q.Zone
}

// step returns the wall-clock distance between candidate starts.
func (q Query) step() time.Duration {
	if q.Interval <= 0 {
		return q.Duration
	}
	return q.Interval
}
