package practiced

import "context"

// Client is a person the clinic sees.
type Client struct {
	ID                   string  `json:"id"`
	Title                string  `json:"title"`
	FirstName            string  `json:"first_name"`
	LastName             string  `json:"last_name"`
	PreferredName        string  `json:"preferred_name"`
	Profession           string  `json:"profession"`
	Email                string  `json:"email"`
	DateOfBirth          *string `json:"date_of_birth"`
	Sex                  string  `json:"sex"`
	GenderIdentity       string  `json:"gender_identity"`
	Pronouns             string  `json:"pronouns"`
	PrivacyPolicyConsent *string `json:"privacy_policy_consent"`
	MarketingConsent     *string `json:"marketing_consent"`
	// NoMessages marks a client who gets no e-mail from the clinic:
	// no confirmations, reminders, notices or form links.
	NoMessages                   bool            `json:"no_messages"`
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

// PersonFilter filters the client and contact lists. Query matches the
// name, e-mail or phone number, ignoring case; when Query is written as a
// phone number, Phone holds what PhoneQuery makes of it (E.164 for a
// whole number, else its digits), so "0412 345 678", "412345678" and
// "+61 412 345 678" all find the stored "+61412345678".
type PersonFilter struct {
	ListFilter
	Query string
	Phone string
	TagID string
}

// ClientStore keeps clients.
type ClientStore interface {
	ListClients(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Client, PageInfo, error)
	// GetClient returns ENOTFOUND if the business has no such client.
	GetClient(ctx context.Context, businessID, id string) (Client, error)
	// CreateClient stores a new client; its ID must be set.
	CreateClient(ctx context.Context, businessID string, c *Client) error
	UpdateClient(ctx context.Context, businessID, id string, change func(*Client) error) (Client, error)
	ArchiveClient(ctx context.Context, businessID, id string, archived bool, now Time) (Client, error)
}
