package practiced

import (
	"context"
	"time"

	"github.com/practiced/practiced/wallclock"
)

// BusyTime blocks a practitioner's time at a location.
type BusyTime struct {
	ID             string   `json:"id"`
	LocationID     string   `json:"location_id"`
	PractitionerID string   `json:"practitioner_id"`
	StartsAt       Time     `json:"starts_at"`
	EndsAt         Time     `json:"ends_at"`
	Duration       int      `json:"duration"`
	Name           *string  `json:"name"`
	Note           *string  `json:"note"`
	CreatedAt      Time     `json:"created_at"`
	BusyTimeTypeID *string  `json:"busy_time_type_id"`
	RoomID         *string  `json:"room_id"`
	VehicleID      *string  `json:"vehicle_id"`
	ResourceIDs    []string `json:"resource_ids"`
	RepeatID       *string  `json:"repeat_id"`
	UpdatedAt      Time     `json:"updated_at"`
	ArchivedAt     *Time    `json:"archived_at"`
}

// appendDoc appends the busy time's document, field by field as
// encoding/json writes them (appendDocOf).
func (b BusyTime) appendDoc(buf []byte) ([]byte, bool) {
	buf = append(buf, `{"id":`...)
	buf = AppendJSONString(buf, b.ID)
	buf = append(buf, `,"location_id":`...)
	buf = AppendJSONString(buf, b.LocationID)
	buf = append(buf, `,"practitioner_id":`...)
	buf = AppendJSONString(buf, b.PractitionerID)
	buf = append(buf, `,"starts_at":`...)
	buf = b.StartsAt.appendJSON(buf)
	buf = append(buf, `,"ends_at":`...)
	buf = b.EndsAt.appendJSON(buf)
	buf = append(buf, `,"duration":`...)
	buf = appendJSONInt(buf, b.Duration)
	buf = append(buf, `,"name":`...)
	buf = appendJSONStringPtr(buf, b.Name)
	buf = append(buf, `,"note":`...)
	buf = appendJSONStringPtr(buf, b.Note)
	buf = append(buf, `,"created_at":`...)
	buf = b.CreatedAt.appendJSON(buf)
	buf = append(buf, `,"busy_time_type_id":`...)
	buf = appendJSONStringPtr(buf, b.BusyTimeTypeID)
	buf = append(buf, `,"room_id":`...)
	buf = appendJSONStringPtr(buf, b.RoomID)
	buf = append(buf, `,"vehicle_id":`...)
	buf = appendJSONStringPtr(buf, b.VehicleID)
	buf = append(buf, `,"resource_ids":`...)
	buf = appendJSONStrings(buf, b.ResourceIDs)
	buf = append(buf, `,"repeat_id":`...)
	buf = appendJSONStringPtr(buf, b.RepeatID)
	buf = append(buf, `,"updated_at":`...)
	buf = b.UpdatedAt.appendJSON(buf)
	buf = append(buf, `,"archived_at":`...)
	buf = appendJSONTimePtr(buf, b.ArchivedAt)
	return append(buf, '}'), true
}

// BusyTimeFilter filters the busy time list. StartsBefore and EndsAfter
// select busy times overlapping a window.
type BusyTimeFilter struct {
	ListFilter
	PractitionerID string
	LocationID     string
	StartsBefore   *time.Time
	EndsAfter      *time.Time
}

// BusyTimeStore keeps busy times.
type BusyTimeStore interface {
	ListBusyTimes(ctx context.Context, businessID string, f BusyTimeFilter, p PageRequest) ([]BusyTime, PageInfo, error)
	// GetBusyTime returns ENOTFOUND if the business has no such busy time.
	GetBusyTime(ctx context.Context, businessID, id string) (BusyTime, error)
	// CreateBusyTimes creates the busy times in one transaction and records
	// an event for each. With skipConflicts, a busy time that overlaps one
	// of its practitioner's busy times or non-cancelled appointments (as
	// they are when the transaction runs) is left out; the created ones are
	// returned. Returns EINVALID on starts_at when none is left.
	CreateBusyTimes(ctx context.Context, businessID string, bts []BusyTime, skipConflicts bool) ([]BusyTime, error)
	// UpdateBusyTimes changes the busy time id and, with following, every
	// other busy time of its series (the same repeat_id) that starts at or
	// after it, archived ones included, in one transaction. change is
	// called for each of them, id first, with first being busy time id as
	// stored before the change; the Update rules of Store apply to each.
	// The changed busy times are returned, id first, the others by start.
	// Returns ENOTFOUND if the business has no busy time id.
	UpdateBusyTimes(ctx context.Context, businessID, id string, following bool, change func(first BusyTime, b *BusyTime) error) ([]BusyTime, error)
	// DeleteBusyTimes deletes the busy time id and, with following, the
	// same busy times UpdateBusyTimes would change, in one transaction,
	// recording a "deleted" event with the last state of each. It returns
	// them as they were, in UpdateBusyTimes's order. Returns ENOTFOUND if
	// the business has no busy time id.
	DeleteBusyTimes(ctx context.Context, businessID, id string, following bool) ([]BusyTime, error)
	// ArchiveBusyTime archives or unarchives one busy time (Store says how).
	ArchiveBusyTime(ctx context.Context, businessID, id string, archived bool, now Time) (BusyTime, error)
	// BusyTimePlace reads, in one query, what a new busy time of the
	// practitioner at the location needs to know of them.
	BusyTimePlace(ctx context.Context, businessID, locationID, practitionerID string) (BusyTimePlace, error)
}

// BusyTimePlace is what a new busy time needs to know of its location
// and practitioner: whether the business has each, archived or not,
// whether the practitioner works at the location, and the location's
// time zone (empty without the location).
type BusyTimePlace struct {
	LocationFound, PractitionerFound, WorksThere bool
	Timezone                                     string
}

// WallShift is how far a change moved a busy time on the wall clock of
// its location: its local start by Start and its local end by End. Moving
// the later occurrences of a series by the same WallShift keeps them at
// the same local times as the changed one, whatever DST does in between:
// moving one occurrence of a 09:00-10:00 weekly block to 09:30-11:00
// moves every later one to 09:30-11:00 local.
type WallShift struct{ Start, End time.Duration }

// NewWallShift returns the shift from [oldStart, oldEnd) to [newStart,
// newEnd), read in zone.
func NewWallShift(oldStart, oldEnd, newStart, newEnd time.Time, zone *time.Location) WallShift {
	return WallShift{
		Start: wallclock.Floating(newStart, zone).Sub(wallclock.Floating(oldStart, zone)),
		End:   wallclock.Floating(newEnd, zone).Sub(wallclock.Floating(oldEnd, zone)),
	}
}

// Apply moves [start, end) by the shift in zone. A bound the shift leaves
// where it is keeps its instant. A local time that does not exist (a DST
// gap) moves forward to the first instant after the gap; one that exists
// twice takes its first instant, as for the occurrences of a new series.
func (s WallShift) Apply(start, end time.Time, zone *time.Location) (time.Time, time.Time) {
	if s.Start != 0 {
		start = wallInstant(wallclock.Floating(start, zone).Add(s.Start), zone)
	}
	if s.End != 0 {
		end = wallInstant(wallclock.Floating(end, zone).Add(s.End), zone)
	}
	return start.UTC(), end.UTC()
}

// wallInstant returns the instant of a floating wall-clock time in zone.
func wallInstant(wall time.Time, zone *time.Location) time.Time {
	t, _ := wallclock.Instant(wall, zone)
	return t
}
