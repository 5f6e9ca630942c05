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
// business's records: a record of another business is ENOTFOUND.
type Store interface {
	Close() error

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

	// MissingRefs returns the ids of refs that do not name a live or
	// archived record of the business. The table is chosen by each id's
	// prefix; an id with an unknown prefix is missing.
	MissingRefs(ctx context.Context, businessID string, ids []string) ([]string, error)

	ListBusyTimes(ctx context.Context, businessID string, f BusyTimeFilter, p PageRequest) ([]BusyTime, PageInfo, error)
	// CreateBusyTimes creates the busy times in one transaction and records
	// an event for each. With skipConflicts, a busy time that overlaps one
	// of its practitioner's busy times or non-cancelled appointments (as
	// they are when the transaction runs) is left out; the created ones are
	// returned. Returns EINVALID on starts_at when none is left.
	CreateBusyTimes(ctx context.Context, businessID string, bts []BusyTime, skipConflicts bool) ([]BusyTime, error)

	ListForms(ctx context.Context, businessID string, f FormFilter, p PageRequest) ([]Form, PageInfo, error)
	ListAppointmentClients(ctx context.Context, businessID string, f AppointmentClientFilter, p PageRequest) ([]AppointmentClient, PageInfo, error)
	ListClients(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Client, PageInfo, error)
	// GetClient returns ENOTFOUND if the business has no such client.
	GetClient(ctx context.Context, businessID, id string) (Client, error)
	// UpdateClient reads the client, passes it to change and writes what
	// change left, in one transaction, recording a client.updated event.
	// An error from change is returned as it is and nothing is written.
	// UpdatedAt becomes the current time unless change set it.
	UpdateClient(ctx context.Context, businessID, id string, change func(*Client) error) (Client, error)
	ListLocations(ctx context.Context, businessID string, f ListFilter, p PageRequest) ([]Location, PageInfo, error)
	// GetLocation returns ENOTFOUND if the business has no such location.
	GetLocation(ctx context.Context, businessID, id string) (Location, error)
	ListContacts(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Contact, PageInfo, error)
	// GetPractitioner returns ENOTFOUND if the business has no such practitioner.
	GetPractitioner(ctx context.Context, businessID, id string) (Practitioner, error)
	// GetService returns ENOTFOUND if the business has no such service.
	GetService(ctx context.Context, businessID, id string) (Service, error)
	// PractitionerSchedule returns the practitioner's busy times and
	// non-cancelled appointments overlapping [from, to), at every location.
	PractitionerSchedule(ctx context.Context, businessID, practitionerID string, from, to time.Time) (Schedule, error)

	// Seed inserts records as they are, without events, in one
	// transaction. It is for demo data, imports and tests.
	Seed(ctx context.Context, businessID string, s SeedData) error
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
