package practiced

import (
	"encoding/json"
	"time"
)

// Id prefixes of every record type.
const (
	PrefixBusiness           = "biz"
	PrefixAPIKey             = "key"
	PrefixBusyTime           = "bti"
	PrefixBusyTimeType       = "btt"
	PrefixLocation           = "loc"
	PrefixPractitioner       = "pra"
	PrefixForm               = "for"
	PrefixClient             = "cli"
	PrefixFormTemplate       = "fte"
	PrefixAppointmentClient  = "apc"
	PrefixAppointment        = "apt"
	PrefixCase               = "cas"
	PrefixClientPackage      = "cpk"
	PrefixCancellationReason = "cnr"
	PrefixContact            = "con"
	PrefixReferralType       = "ret"
	PrefixTag                = "tag"
	PrefixPhoneNumber        = "pho"
	PrefixService            = "ser"
	PrefixMedia              = "med"
	PrefixEvent              = "evt"
	PrefixRepeat             = "rep"
)

// Time is a timestamp that encodes as RFC 3339 in UTC with whole seconds,
// e.g. "2026-03-02T09:30:00Z".
type Time struct{ time.Time }

// NewTime truncates t to whole seconds in UTC.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Second)} }

// Now returns the current time as a Time.
func Now() Time { return NewTime(time.Now()) }

// TimeLayout is the layout of every timestamp in responses.
const TimeLayout = "2006-01-02T15:04:05Z"

// MarshalJSON writes the time in TimeLayout.
func (t Time) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.UTC().Format(TimeLayout) + `"`), nil
}

// String returns the time in TimeLayout.
func (t Time) String() string { return t.UTC().Format(TimeLayout) }

// TimePtr returns a pointer to NewTime(t).
func TimePtr(t time.Time) *Time { v := NewTime(t); return &v }

// Address is a postal address. Line2 is null when empty; the other parts
// are empty strings when unknown.
type Address struct {
	Line1       string  `json:"line1"`
	Line2       *string `json:"line2"`
	City        string  `json:"city"`
	State       string  `json:"state"`
	PostalCode  string  `json:"postal_code"`
	CountryCode string  `json:"country_code"`
	// Geocoding details a client's address may carry.
	Latitude         *float64 `json:"latitude"`
	Longitude        *float64 `json:"longitude"`
	FormattedAddress string   `json:"formatted_address_geocoder_estimate"`
	PlaceID          string   `json:"place_id"`
}

// PhoneNumber is one of a client's or contact's numbers.
type PhoneNumber struct {
	ID     string `json:"id"`
	Code   string `json:"code"`
	Number string `json:"number"`
	Type   string `json:"type"`
}

// Phone number types.
var PhoneTypes = []string{"mobile", "home", "work", "fax", "other"}

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
	CreatedAt  Time
	RevokedAt  *Time
}

// BusyTime blocks a practitioner's time at a location.
type BusyTime struct {
	ID             string   `json:"id"`
	BusinessID     string   `json:"-"`
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

// OpeningHours holds a location's hours per weekday. Keys are
// "<day>_active", "<day>_opens_at" and "<day>_closes_at" for the day
// prefixes mon, tue, wed, thu, fri, sat and sun.
type OpeningHours struct {
	Days [7]DayHours // indexed by time.Weekday (Sunday = 0)
}

// DayHours is one weekday's opening hours, "HH:MM" local times.
type DayHours struct {
	Active   bool
	OpensAt  string
	ClosesAt string
}

// DayPrefixes are the opening-hours key prefixes, indexed by time.Weekday.
var DayPrefixes = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// DayNames are the weekday names used in requests, indexed by time.Weekday.
var DayNames = [7]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// MarshalJSON writes the flat key form, Monday first.
func (h OpeningHours) MarshalJSON() ([]byte, error) {
	var b []byte
	b = append(b, '{')
	for i := 0; i < 7; i++ {
		wd := (i + 1) % 7
		d := h.Days[wd]
		p := DayPrefixes[wd]
		if i > 0 {
			b = append(b, ',')
		}
		active, _ := json.Marshal(d.Active)
		opens, _ := json.Marshal(d.OpensAt)
		closes, _ := json.Marshal(d.ClosesAt)
		b = append(b, `"`+p+`_active":`...)
		b = append(b, active...)
		b = append(b, `,"`+p+`_opens_at":`...)
		b = append(b, opens...)
		b = append(b, `,"`+p+`_closes_at":`...)
		b = append(b, closes...)
	}
	b = append(b, '}')
	return b, nil
}

// Location is a place where practitioners see clients.
type Location struct {
	ID                       string       `json:"id"`
	BusinessID               string       `json:"-"`
	Name                     string       `json:"name"`
	Description              string       `json:"description"`
	Email                    string       `json:"email"`
	Phone                    string       `json:"phone"`
	Timezone                 string       `json:"timezone"`
	OnlineAppointmentBooking bool         `json:"online_appointment_booking"`
	OnlineClassBooking       bool         `json:"online_class_booking"`
	TaxIdentifier            string       `json:"tax_identifier"`
	TaxIdentifierLabel       string       `json:"tax_identifier_label"`
	NDISNumber               string       `json:"ndis_number"`
	LogoID                   *string      `json:"logo_id"`
	ImageID                  *string      `json:"image_id"`
	ServiceIDs               []string     `json:"service_ids"`
	PractitionerIDs          []string     `json:"practitioner_ids"`
	OpeningHours             OpeningHours `json:"opening_hours"`
	Address                  Address      `json:"address"`
	CreatedAt                Time         `json:"created_at"`
	UpdatedAt                Time         `json:"updated_at"`
	ArchivedAt               *Time        `json:"archived_at"`
}

// WorkingHours is one range of a practitioner's own hours at a location.
type WorkingHours struct {
	LocationID string `json:"location_id"`
	Day        string `json:"day"`
	StartsAt   string `json:"starts_at"`
	EndsAt     string `json:"ends_at"`
}

// TimeRange is a local "HH:MM" range.
type TimeRange struct {
	StartsAt string `json:"starts_at"`
	EndsAt   string `json:"ends_at"`
}

// AvailabilityException replaces a practitioner's hours on one date, at
// one location or (LocationID nil) at every location. No ranges means
// unavailable that day.
type AvailabilityException struct {
	Date       string      `json:"date"`
	LocationID *string     `json:"location_id"`
	Ranges     []TimeRange `json:"ranges"`
}

// Practitioner is a clinician who sees clients.
type Practitioner struct {
	ID           string                  `json:"id"`
	BusinessID   string                  `json:"-"`
	Title        string                  `json:"title"`
	FirstName    string                  `json:"first_name"`
	LastName     string                  `json:"last_name"`
	DisplayName  string                  `json:"display_name"`
	Designation  string                  `json:"designation"`
	Email        string                  `json:"email"`
	Phone        string                  `json:"phone"`
	LocationIDs  []string                `json:"location_ids"`
	ServiceIDs   []string                `json:"service_ids"`
	WorkingHours []WorkingHours          `json:"working_hours"`
	Exceptions   []AvailabilityException `json:"exceptions"`
	CreatedAt    Time                    `json:"created_at"`
	UpdatedAt    Time                    `json:"updated_at"`
	ArchivedAt   *Time                   `json:"archived_at"`
}

// Service is something a clinic books: a consultation type with a length.
type Service struct {
	ID                 string   `json:"id"`
	BusinessID         string   `json:"-"`
	Name               string   `json:"name"`
	Description        string   `json:"description"`
	Duration           int      `json:"duration"`
	PriceCents         int      `json:"price_cents"`
	BufferBefore       int      `json:"buffer_before"`
	BufferAfter        int      `json:"buffer_after"`
	MaxClients         int      `json:"max_clients"`
	MinNotice          int      `json:"min_notice"`
	BookingHorizonDays int      `json:"booking_horizon_days"`
	OnlineBooking      bool     `json:"online_booking"`
	LocationIDs        []string `json:"location_ids"`
	Color              string   `json:"color"`
	CreatedAt          Time     `json:"created_at"`
	UpdatedAt          Time     `json:"updated_at"`
	ArchivedAt         *Time    `json:"archived_at"`
}

// Medication is one medication a client takes.
type Medication struct {
	Name   string `json:"name"`
	Dosage string `json:"dosage"`
}

// Allergy is one of a client's allergies.
type Allergy struct {
	Name     string `json:"name"`
	Reaction string `json:"reaction"`
}

// NDISDetails are a client's National Disability Insurance Scheme details.
type NDISDetails struct {
	NDISNumber    string   `json:"ndis_number"`
	PlanStartDate *Time    `json:"plan_start_date"`
	PlanEndDate   *Time    `json:"plan_end_date"`
	PlanManagerID *string  `json:"plan_manager_id"`
	PlanNomineeID *string  `json:"plan_nominee_id"`
	Diagnoses     []string `json:"diagnoses"`
}

// RelatedClient links a client to another client.
type RelatedClient struct {
	RelatedClientID string `json:"related_client_id"`
}

// LinkedContact links a client to a contact and says which notifications
// the contact receives.
type LinkedContact struct {
	ContactID                          string `json:"contact_id"`
	IncludeInAppointmentNotifications  bool   `json:"include_in_appointment_notifications"`
	IncludeInInvoiceNotifications      bool   `json:"include_in_invoice_notifications"`
	IncludeInProgressNoteNotifications bool   `json:"include_in_progress_note_notifications"`
	Note                               string `json:"note"`
}

// Consent values.
var (
	PrivacyConsents   = []string{"accepted", "rejected"}
	MarketingConsents = []string{"granted", "declined"}
	ConsentMethods    = []string{"online_booking", "in_person", "over_the_phone", "paper_form"}
)

// Client is a person the clinic sees.
type Client struct {
	ID                           string          `json:"id"`
	BusinessID                   string          `json:"-"`
	Title                        string          `json:"title"`
	FirstName                    string          `json:"first_name"`
	LastName                     string          `json:"last_name"`
	PreferredName                string          `json:"preferred_name"`
	Profession                   string          `json:"profession"`
	Email                        string          `json:"email"`
	DateOfBirth                  *string         `json:"date_of_birth"`
	Sex                          string          `json:"sex"`
	GenderIdentity               string          `json:"gender_identity"`
	Pronouns                     string          `json:"pronouns"`
	PrivacyPolicyConsent         *string         `json:"privacy_policy_consent"`
	MarketingConsent             *string         `json:"marketing_consent"`
	ConsentMethod                *string         `json:"consent_method"`
	Medications                  []Medication    `json:"medications"`
	Allergies                    []Allergy       `json:"allergies"`
	Intolerances                 []string        `json:"intolerances"`
	EmergencyContactID           *string         `json:"emergency_contact_id"`
	EmergencyContactRelationship string          `json:"emergency_contact_relationship"`
	InvoiceContactID             *string         `json:"invoice_contact_id"`
	Notes                        string          `json:"notes"`
	Alert                        string          `json:"alert"`
	ReferralTypeID               *string         `json:"referral_type_id"`
	ReferralDescription          string          `json:"referral_description"`
	ReferredByID                 *string         `json:"referred_by_id"`
	PhoneNumber                  string          `json:"phone_number"`
	PhoneNumbers                 []PhoneNumber   `json:"phone_numbers"`
	Address                      Address         `json:"address"`
	TagIDs                       []string        `json:"tag_ids"`
	NDISDetails                  *NDISDetails    `json:"ndis_details"`
	RelatedClients               []RelatedClient `json:"related_clients"`
	LinkedContacts               []LinkedContact `json:"linked_contacts"`
	CreatedAt                    Time            `json:"created_at"`
	UpdatedAt                    Time            `json:"updated_at"`
	ArchivedAt                   *Time           `json:"archived_at"`
}

// Contact types.
var ContactTypes = []string{"third_party_payer", "referrer", "plan_manager", "emergency", "other"}

// Contact is a person or organisation the clinic deals with about its
// clients: payers, referrers, plan managers, emergency contacts.
type Contact struct {
	ID            string        `json:"id"`
	BusinessID    string        `json:"-"`
	Type          string        `json:"type"`
	Title         string        `json:"title"`
	FirstName     string        `json:"first_name"`
	LastName      string        `json:"last_name"`
	PreferredName string        `json:"preferred_name"`
	Profession    string        `json:"profession"`
	Company       string        `json:"company"`
	Email         string        `json:"email"`
	Notes         string        `json:"notes"`
	PhoneNumbers  []PhoneNumber `json:"phone_numbers"`
	Address       Address       `json:"address"`
	TagIDs        []string      `json:"tag_ids"`
	CreatedAt     Time          `json:"created_at"`
	UpdatedAt     Time          `json:"updated_at"`
	ArchivedAt    *Time         `json:"archived_at"`
}

// Named is a small record with a name: tags, referral types, cancellation
// reasons and busy time types (see NamedKinds). Only tags and busy time
// types have a color; MarshalJSON leaves it out of the other kinds.
type Named struct {
	ID         string `json:"id"`
	BusinessID string `json:"-"`
	Name       string `json:"name"`
	Color      string `json:"color"`
	CreatedAt  Time   `json:"created_at"`
	UpdatedAt  Time   `json:"updated_at"`
	ArchivedAt *Time  `json:"archived_at"`
}

// MarshalJSON writes color for the kinds that have one, even when it is
// empty, and never for the others, so that each kind has one fixed shape.
func (n Named) MarshalJSON() ([]byte, error) {
	type plain Named // without this method
	if k, ok := NamedKindOf(n.ID); ok && !k.HasColor {
		return json.Marshal(struct {
			plain
			Color *string `json:"color,omitempty"` // shadows plain's color
		}{plain: plain(n)})
	}
	return json.Marshal(plain(n))
}

// Case groups a client's appointments for one condition or claim.
type Case struct {
	ID         string `json:"id"`
	BusinessID string `json:"-"`
	ClientID   string `json:"client_id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Notes      string `json:"notes"`
	CreatedAt  Time   `json:"created_at"`
	UpdatedAt  Time   `json:"updated_at"`
	ArchivedAt *Time  `json:"archived_at"`
}

// ClientPackage is a prepaid bundle of sessions.
type ClientPackage struct {
	ID            string  `json:"id"`
	BusinessID    string  `json:"-"`
	ClientID      string  `json:"client_id"`
	Name          string  `json:"name"`
	SessionsTotal int     `json:"sessions_total"`
	SessionsUsed  int     `json:"sessions_used"`
	ExpiresOn     *string `json:"expires_on"`
	CreatedAt     Time    `json:"created_at"`
	UpdatedAt     Time    `json:"updated_at"`
	ArchivedAt    *Time   `json:"archived_at"`
}

// Appointment is a booked time with a practitioner for one or more clients.
type Appointment struct {
	ID                   string   `json:"id"`
	BusinessID           string   `json:"-"`
	LocationID           string   `json:"location_id"`
	PractitionerID       string   `json:"practitioner_id"`
	ServiceID            *string  `json:"service_id"`
	StartsAt             Time     `json:"starts_at"`
	EndsAt               Time     `json:"ends_at"`
	Duration             int      `json:"duration"`
	MaxClients           int      `json:"max_clients"`
	Notes                string   `json:"notes"`
	AppointmentClientIDs []string `json:"appointment_client_ids"`
	CancelledAt          *Time    `json:"cancelled_at"`
	CreatedAt            Time     `json:"created_at"`
	UpdatedAt            Time     `json:"updated_at"`
	ArchivedAt           *Time    `json:"archived_at"`
}

// Appointment client statuses.
const (
	StatusBooked    = "booked"
	StatusArrived   = "arrived"
	StatusCompleted = "completed"
	StatusNoShow    = "no_show"
	StatusCancelled = "cancelled"
)

// AppointmentClientStatuses lists every appointment client status.
var AppointmentClientStatuses = []string{StatusBooked, StatusArrived, StatusCompleted, StatusNoShow, StatusCancelled}

// AppointmentClient is one client's attendance of an appointment.
type AppointmentClient struct {
	ID                   string  `json:"id"`
	BusinessID           string  `json:"-"`
	AppointmentID        string  `json:"appointment_id"`
	ClientID             string  `json:"client_id"`
	CaseID               *string `json:"case_id"`
	ClientPackageID      *string `json:"client_package_id"`
	Status               string  `json:"status"`
	DoNotInvoice         bool    `json:"do_not_invoice"`
	Note                 string  `json:"note"`
	Confirmed            bool    `json:"confirmed"`
	ConfirmedAt          *Time   `json:"confirmed_at"`
	CancellationReasonID *string `json:"cancellation_reason_id"`
	CancellationNote     string  `json:"cancellation_note"`
	CancelledAt          *Time   `json:"cancelled_at"`
	ArrivedAt            *Time   `json:"arrived_at"`
	StartsAt             Time    `json:"starts_at"`
	EndsAt               Time    `json:"ends_at"`
	CreatedAt            Time    `json:"created_at"`
	UpdatedAt            Time    `json:"updated_at"`
	ArchivedAt           *Time   `json:"archived_at"`
}

// Form statuses and sent statuses.
const (
	FormNotStarted = "not_started"
	FormInProgress = "in_progress"
	FormCompleted  = "completed"
	SentNotSent    = "not_sent"
	SentSent       = "sent"
	SentViewed     = "viewed"
)

// FormStatuses and SentStatuses list the values of a form's two states.
var (
	FormStatuses = []string{FormNotStarted, FormInProgress, FormCompleted}
	SentStatuses = []string{SentNotSent, SentSent, SentViewed}
)

// Question types of a form.
var QuestionTypes = []string{"short_text", "long_text", "single_choice", "multiple_choice", "date", "yes_no", "signature"}

// Question is one question of a form page section. Templates carry no
// answers, so Answer is left out of a template's JSON; a form's content
// (FormContent) always carries it, null until answered.
type Question struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Label       string          `json:"label"`
	Required    bool            `json:"required"`
	Options     []string        `json:"options"`
	ClientField *string         `json:"client_field"`
	Answer      json.RawMessage `json:"answer,omitempty"`
}

// Section is a titled group of questions.
type Section struct {
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Questions   []Question `json:"questions"`
}

// Page is one page of a form.
type Page struct {
	Sections []Section `json:"sections"`
}

// FormTemplate is the blueprint forms are made from.
type FormTemplate struct {
	ID                   string `json:"id"`
	BusinessID           string `json:"-"`
	Name                 string `json:"name"`
	Color                string `json:"color"`
	CompletionMessage    string `json:"completion_message"`
	PrefillClientFields  bool   `json:"prefill_client_fields"`
	OverrideClientFields bool   `json:"override_client_fields"`
	Content              []Page `json:"content"`
	CreatedAt            Time   `json:"created_at"`
	UpdatedAt            Time   `json:"updated_at"`
	ArchivedAt           *Time  `json:"archived_at"`
}

// Form is a template sent to one client, with the client's answers.
type Form struct {
	ID                   string      `json:"id"`
	BusinessID           string      `json:"-"`
	ClientID             string      `json:"client_id"`
	LocationID           *string     `json:"location_id"`
	FormTemplateID       string      `json:"form_template_id"`
	AppointmentClientID  *string     `json:"appointment_client_id"`
	Name                 string      `json:"name"`
	Color                string      `json:"color"`
	CompletionMessage    string      `json:"completion_message"`
	PrefillClientFields  bool        `json:"prefill_client_fields"`
	OverrideClientFields bool        `json:"override_client_fields"`
	Status               string      `json:"status"`
	SentStatus           string      `json:"sent_status"`
	Content              FormContent `json:"content"`
	HostedFormURL        string      `json:"hosted_form_url"`
	SentAt               *Time       `json:"sent_at"`
	ViewedAt             *Time       `json:"viewed_at"`
	CompletedAt          *Time       `json:"completed_at"`
	ArchivedAt           *Time       `json:"archived_at"`
	CreatedAt            Time        `json:"created_at"`
	UpdatedAt            Time        `json:"updated_at"`
}

// FormContent is a form's pages: its template's questions, each with the
// client's answer. Unlike a template's content it encodes every question's
// answer, as null until answered, so clients of the API see one shape.
type FormContent []Page

// MarshalJSON writes the pages with an answer key on every question.
func (c FormContent) MarshalJSON() ([]byte, error) {
	type answered struct {
		Question
		Answer json.RawMessage `json:"answer"` // hides Question's omitempty one
	}
	type section struct {
		Title       string     `json:"title"`
		Description string     `json:"description"`
		Questions   []answered `json:"questions"`
	}
	type page struct {
		Sections []section `json:"sections"`
	}
	out := make([]page, len(c))
	for i, p := range c {
		out[i].Sections = make([]section, len(p.Sections))
		for j, s := range p.Sections {
			qs := make([]answered, len(s.Questions))
			for k, q := range s.Questions {
				if q.Options == nil {
					q.Options = []string{}
				}
				qs[k] = answered{Question: q, Answer: q.Answer}
			}
			out[i].Sections[j] = section{Title: s.Title, Description: s.Description, Questions: qs}
		}
	}
	return json.Marshal(out)
}

// Event records one change to one record, for the change feed.
type Event struct {
	ID         string          `json:"id"`
	BusinessID string          `json:"-"`
	Type       string          `json:"type"`
	RecordType string          `json:"record_type"`
	RecordID   string          `json:"record_id"`
	Data       json.RawMessage `json:"data"`
	CreatedAt  Time            `json:"created_at"`
}

// NormalizeContent makes every list in form content non-nil, so content
// always encodes lists as [] and never as null.
func NormalizeContent(pages []Page) []Page {
	if pages == nil {
		return []Page{}
	}
	for i := range pages {
		if pages[i].Sections == nil {
			pages[i].Sections = []Section{}
		}
		for j := range pages[i].Sections {
			s := &pages[i].Sections[j]
			if s.Questions == nil {
				s.Questions = []Question{}
			}
			for k := range s.Questions {
				q := &s.Questions[k]
				if q.Options == nil {
					q.Options = []string{}
				}
				// A stored null answer reads back as the JSON text "null";
				// unanswered is nil.
				if string(q.Answer) == "null" {
					q.Answer = nil
				}
			}
		}
	}
	return pages
}
