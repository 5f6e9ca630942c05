package practiced

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
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

// PageInfo tells whether records exist beyond either end of a page, and
// the ids at its ends (empty for an empty page), from which the links to
// the pages beyond are made.
type PageInfo struct {
	HasPrev bool
	HasNext bool
	FirstID string
	LastID  string
}

// ListFilter holds the filters every list accepts.
type ListFilter struct {
	UpdatedSince    *time.Time
	IncludeArchived bool
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
// is already so) and return the record. A function a method is given
// (change, a schedule check) may run more than once in one call, each
// time on the records as then read: a store may run a transaction again
// (SQLite's group commit does when another write committed with it
// fails), and only the last run's writes are kept.
type Store interface {
	Close() error

	// businesses and API keys, and what blocks practitioners' time (store.go)
	KeyStore
	ScheduleStore

	// the clinic's people (clients.go, contacts.go)
	ClientStore
	ContactStore

	// the clinic's set-up (locations.go, practitioners.go, services.go, named.go)
	LocationStore
	PractitionerStore
	ServiceStore
	NamedStore

	// a client's cases and prepaid sessions (cases.go, clientpackages.go)
	CaseStore
	ClientPackageStore

	// practitioners' time (busytimes.go, appointments.go)
	BusyTimeStore
	AppointmentStore
	AppointmentClientStore

	// forms (forms.go)
	FormTemplateStore
	FormStore

	// online booking (booking.go)
	BookingStore

	// practitioners' calendar feeds (calendar.go)
	CalendarFeedStore

	// webhook endpoints and their outbox (webhooks.go)
	WebhookStore
	MessageStore

	// the change feed (events.go)
	EventStore

	// records as the API answers them (store.go)
	DocStore

	// Idempotency-Keys of POST requests (idempotency.go)
	IdempotencyStore

	// MissingRefs returns the ids of refs that do not name a live or
	// archived record of the business. The table is chosen by each id's
	// prefix; an id with an unknown prefix is missing.
	MissingRefs(ctx context.Context, businessID string, ids []string) ([]string, error)

	// Seed inserts records as they are, without events, in one
	// transaction, except that it settles each appointment
	// (SettleAppointment) as every write does. It is for demo data,
	// imports and tests.
	Seed(ctx context.Context, businessID string, s SeedData) error
	// SeedAll is Seed for the batches next returns until it reports no
	// more, all in one transaction: all of them or, when next or a write
	// fails, none. Each batch may refer to records of the batches before
	// it.
	SeedAll(ctx context.Context, businessID string, next func() (SeedData, bool, error)) error
}

// Every kind of record has the same five methods besides its list: Get
// (ENOTFOUND when the business has no such record), Create (the record's
// ID must be set; EINVALID when a record it refers to is missing), Update
// and Archive, which behave as the Store documentation says.

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
	// ListAPIKeys returns every key of the business, revoked ones too,
	// oldest first (by id).
	ListAPIKeys(ctx context.Context, businessID string) ([]APIKey, error)
	// HasLiveAPIKey reports whether any business has a key that is not
	// revoked.
	HasLiveAPIKey(ctx context.Context) (bool, error)
}

// Business is a tenant: one clinic or clinic group. Every other record
// belongs to exactly one business.
type Business struct {
	ID        string
	Name      string
	CreatedAt Time
}

// APIKey lets a caller act on one business. Only the SHA-256 hash of its
// token is stored.
type APIKey struct {
	ID         string
	BusinessID string
	TokenHash  string
	ReadOnly   bool
	// RatePerMinute is the key's own rate limit; 0 means the server's
	// default.
	RatePerMinute int
	CreatedAt     Time
	RevokedAt     *Time
}

// ScheduleStore reads what blocks practitioners' time.
type ScheduleStore interface {
	// PractitionerSchedule returns the practitioner's busy times and
	// non-cancelled appointments overlapping [from, to), at every location.
	PractitionerSchedule(ctx context.Context, businessID, practitionerID string, from, to time.Time) (Schedule, error)

	// Blocks returns, for each of the practitioners, what blocks their
	// time in [from, to) at every location, as finding free slots reads
	// it: busy times that are not archived, and appointments neither
	// cancelled nor archived. A practitioner with nothing in the window,
	// or of another business, has no entry. Busy times are in order of
	// start, appointments of start, then id.
	Blocks(ctx context.Context, businessID string, practitionerIDs []string, from, to time.Time) (map[string]Blocks, error)
}

// Blocks is what blocks one practitioner's time, reduced to what finding
// free slots reads of it. Reading a month of a busy location as whole
// records would cost many times what the slots themselves cost.
type Blocks struct {
	Busy         []Span // busy times
	Appointments []BlockingAppointment
}

// Span is the half-open span of time [Start, End).
type Span struct{ Start, End time.Time }

// BlockingAppointment is a non-cancelled appointment reduced to what
// finding free slots reads of it.
type BlockingAppointment struct {
	ID         string
	LocationID string
	ServiceID  string // "" for an appointment of a bare duration
	Start, End time.Time
	// BufferBefore and BufferAfter are minutes, from its service.
	BufferBefore, BufferAfter int
	Attendees                 int // attendees not cancelled
	MaxClients                int
}

// Blocks returns the schedule as finding free slots reads it, each list
// in the schedule's own order.
func (s Schedule) Blocks() Blocks {
	var b Blocks
	for _, bt := range s.BusyTimes {
		b.Busy = append(b.Busy, Span{Start: bt.StartsAt.Time, End: bt.EndsAt.Time})
	}
	for _, a := range s.Appointments {
		var service string
		if a.ServiceID != nil {
			service = *a.ServiceID
		}
		b.Appointments = append(b.Appointments, BlockingAppointment{
			ID: a.ID, LocationID: a.LocationID, ServiceID: service,
			Start: a.StartsAt.Time, End: a.EndsAt.Time,
			BufferBefore: a.BufferBefore, BufferAfter: a.BufferAfter,
			Attendees: a.Attendees, MaxClients: a.MaxClients,
		})
	}
	return b
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
	Messages            []Message
}

// DocStore lists records as their stored JSON documents, each exactly
// MarshalDoc of the record, so that a list is answered without decoding
// and encoding every record again. The filters and pages are those of the
// kind's typed list, which returns the same records in the same order.
type DocStore interface {
	ListClientDocs(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListContactDocs(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListLocationDocs(ctx context.Context, businessID string, f ListFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListPractitionerDocs(ctx context.Context, businessID string, f PractitionerFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListServiceDocs(ctx context.Context, businessID string, f ServiceFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListNamedDocs(ctx context.Context, businessID, prefix string, f ListFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListCaseDocs(ctx context.Context, businessID string, f CaseFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListClientPackageDocs(ctx context.Context, businessID string, f ClientPackageFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListBusyTimeDocs(ctx context.Context, businessID string, f BusyTimeFilter, p PageRequest) ([]Doc, PageInfo, error)
	ListFormTemplateDocs(ctx context.Context, businessID string, f ListFilter, p PageRequest) ([]Doc, PageInfo, error)
}

// A Doc is a record's stored JSON document, as text: the bytes the API
// answers for the record, exactly MarshalDoc of it. A store reads it
// as the text its database driver returns, with no copy of its own.
type Doc string

// MarshalDoc returns the JSON document of v as the API writes it:
// encoding/json without HTML escaping (links and free text keep "&", "<"
// and ">"), and without a trailing newline.
func MarshalDoc(v any) (json.RawMessage, error) {
	var doc json.RawMessage
	err := EncodeDoc(v, func(b []byte) { doc = bytes.Clone(b[:len(b)-1]) })
	return doc, err
}

// MarshalDocText is MarshalDoc as text, the form a store keeps it in.
func MarshalDocText(v any) (string, error) {
	var doc string
	err := EncodeDoc(v, func(b []byte) { doc = string(b[:len(b)-1]) })
	return doc, err
}

// EncodeDoc calls use with the document of v followed by a newline, as
// an answer of the API carries it, in a buffer that is used again once
// use returns. When v cannot be encoded it returns the error and does
// not call use.
func EncodeDoc(v any, use func(docAndNewline []byte)) error {
	buf := docBuffers.Get().(*bytes.Buffer)
	defer func() {
		// A buffer grown for a large answer goes rather than stays.
		if buf.Cap() <= maxKeptDocBuffer {
			docBuffers.Put(buf)
		}
	}()
	buf.Reset()
	buf.Grow(appendedDocBytes)
	if b, ok := appendDocOf(buf.AvailableBuffer(), v); ok {
		b = append(b, '\n')
		use(b)
		if cap(b) > buf.Cap() {
			buf.Grow(cap(b)) // room for the next as large
		}
		return nil
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	use(buf.Bytes())
	return nil
}

// docBuffers keeps the buffers of EncodeDoc between documents: a new one
// for each would be grown several times for every record written.
var docBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxKeptDocBuffer = 64 << 10

// appendedDocBytes is room for most documents a record writes itself
// (appendDocOf), so that a kept buffer holds them without growing.
const appendedDocBytes = 4 << 10
