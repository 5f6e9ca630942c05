package practiced

import (
	"context"
	"time"
)

// PageRequest asks for one page of a list ordered by id. At most one of
// After and Before is set: After asks for the ids after it (forward),
// Before for the ids before it (backward). Inclusive makes the page
// include the id itself.
type PageRequest struct {
	Limit     int
	After     string
	Before    string
	Inclusive bool
}

// PageInfo tells whether records exist beyond either end of a page.
type PageInfo struct {
	HasPrev bool
	HasNext bool
}

// ListFilter holds the filters every list accepts.
type ListFilter struct {
	UpdatedSince    *time.Time
	IncludeArchived bool
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

// FormFilter filters the form list.
type FormFilter struct {
	ListFilter
	Status              string
	ClientID            string
	AppointmentClientID string
	LocationID          string
	FormTemplateID      string
	SentStatus          string
}

// AppointmentClientFilter filters the appointment client list.
type AppointmentClientFilter struct {
	ListFilter
	AppointmentID string
	ClientID      string
	Status        string
	StartsAfter   *time.Time
	StartsBefore  *time.Time
}

// PersonFilter filters the client and contact lists. Query matches the
// name, e-mail or phone number, ignoring case; when Query is written as a
// phone number, Phone holds its digits, so "0412 345 678" also finds the
// stored "0412345678".
type PersonFilter struct {
	ListFilter
	Query string
	Phone string
	TagID string
}

// Schedule is what blocks a practitioner's time in a window: busy times
// and non-cancelled appointments at every location.
type Schedule struct {
	BusyTimes    []BusyTime
	Appointments []ScheduledAppointment
}

// ScheduledAppointment is a non-cancelled appointment with what the
// availability rules need to know of it.
type ScheduledAppointment struct {
	Appointment
	BufferBefore int // minutes, from its service
	BufferAfter  int
	Attendees    int // attendees not cancelled
}

// Store keeps a practice's records. Every method that reads or writes
// business records takes the business id first, and never sees another
// business's records: a record of another business is ENOTFOUND. Each
// kind of record has its own interface below, in the file of its kind.
//
// Methods that change a record write its event (the change feed) in the
// same transaction. Update methods read the record, pass it to change and
// write what change left; an error from change is returned as it is and
// nothing is written; UpdatedAt becomes the current time unless change
// set it. Archive and Unarchive set or clear ArchivedAt (a no-op when it
// is already so) and return the record.
type Store interface {
	Close() error
	KeyStore
	ScheduleStore

	// clients, busy times and the change feed (events.go)
	ClientStore
	BusyTimeStore
	EventStore

	// the clinic's set-up and people (resources.go)
	LocationStore
	ContactStore
	PractitionerStore
	ServiceStore
	NamedStore
	CaseStore
	ClientPackageStore

	// appointments (appointments.go)
	AppointmentStore
	AppointmentClientStore

	// forms (forms.go)
	FormTemplateStore
	FormStore

	// online booking (booking.go)
	BookingStore

	// MissingRefs returns the ids of refs that do not name a live or
	// archived record of the business. The table is chosen by each id's
	// prefix; an id with an unknown prefix is missing.
	MissingRefs(ctx context.Context, businessID string, ids []string) ([]string, error)

	// Seed inserts records as they are, without events, in one
	// transaction. It is for demo data, imports and tests.
	Seed(ctx context.Context, businessID string, s SeedData) error
}

// KeyStore keeps businesses and their API keys.
type KeyStore interface {
	// CreateBusiness creates a business with the given name.
	CreateBusiness(ctx context.Context, name string) (Business, error)
	// BusinessByName returns ENOTFOUND if no business has that name.
	BusinessByName(ctx context.Context, name string) (Business, error)
	// CreateAPIKey stores a key; its TokenHash must be set.
	CreateAPIKey(ctx context.Context, key APIKey) error
	// APIKeyByHash returns EUNAUTHORIZED if no live key has that hash.
	APIKeyByHash(ctx context.Context, hash string) (APIKey, error)
	// RevokeAPIKey returns ENOTFOUND if no live key has that id.
	RevokeAPIKey(ctx context.Context, id string) error
}

// ScheduleStore reads what blocks practitioners' time.
type ScheduleStore interface {
	// PractitionerSchedule returns the practitioner's busy times and
	// non-cancelled appointments overlapping [from, to), at every location.
	PractitionerSchedule(ctx context.Context, businessID, practitionerID string, from, to time.Time) (Schedule, error)
}

// SeedData is a batch of records for Store.Seed. Records are inserted in
// dependency order, so a batch may refer to records earlier in itself.
type SeedData struct {
	Locations           []Location
	Services            []Service
	Practitioners       []Practitioner
	Tags                []Named
	ReferralTypes       []Named
	CancellationReasons []Named
	BusyTimeTypes       []Named
	Contacts            []Contact
	Clients             []Client
	Cases               []Case
	ClientPackages      []ClientPackage
	Appointments        []Appointment
	AppointmentClients  []AppointmentClient
	FormTemplates       []FormTemplate
	Forms               []Form
	BusyTimes           []BusyTime
}
