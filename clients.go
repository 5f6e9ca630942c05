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

// appendDoc appends the client's document, field by field as
// encoding/json writes them (appendDocOf).
func (c Client) appendDoc(buf []byte) ([]byte, bool) {
	buf = append(buf, `{"id":`...)
	buf = AppendJSONString(buf, c.ID)
	buf = append(buf, `,"title":`...)
	buf = AppendJSONString(buf, c.Title)
	buf = append(buf, `,"first_name":`...)
	buf = AppendJSONString(buf, c.FirstName)
	buf = append(buf, `,"last_name":`...)
	buf = AppendJSONString(buf, c.LastName)
	buf = append(buf, `,"preferred_name":`...)
	buf = AppendJSONString(buf, c.PreferredName)
	buf = append(buf, `,"profession":`...)
	buf = AppendJSONString(buf, c.Profession)
	buf = append(buf, `,"email":`...)
	buf = AppendJSONString(buf, c.Email)
	buf = append(buf, `,"date_of_birth":`...)
	buf = appendJSONStringPtr(buf, c.DateOfBirth)
	buf = append(buf, `,"sex":`...)
	buf = AppendJSONString(buf, c.Sex)
	buf = append(buf, `,"gender_identity":`...)
	buf = AppendJSONString(buf, c.GenderIdentity)
	buf = append(buf, `,"pronouns":`...)
	buf = AppendJSONString(buf, c.Pronouns)
	buf = append(buf, `,"privacy_policy_consent":`...)
	buf = appendJSONStringPtr(buf, c.PrivacyPolicyConsent)
	buf = append(buf, `,"marketing_consent":`...)
	buf = appendJSONStringPtr(buf, c.MarketingConsent)
	buf = append(buf, `,"no_messages":`...)
	buf = appendJSONBool(buf, c.NoMessages)
	buf = append(buf, `,"consent_method":`...)
	buf = appendJSONStringPtr(buf, c.ConsentMethod)
	buf = append(buf, `,"medications":`...)
	buf = appendJSONArray(buf, c.Medications, Medication.appendJSON)
	buf = append(buf, `,"allergies":`...)
	buf = appendJSONArray(buf, c.Allergies, Allergy.appendJSON)
	buf = append(buf, `,"intolerances":`...)
	buf = appendJSONStrings(buf, c.Intolerances)
	buf = append(buf, `,"emergency_contact_id":`...)
	buf = appendJSONStringPtr(buf, c.EmergencyContactID)
	buf = append(buf, `,"emergency_contact_relationship":`...)
	buf = AppendJSONString(buf, c.EmergencyContactRelationship)
	buf = append(buf, `,"invoice_contact_id":`...)
	buf = appendJSONStringPtr(buf, c.InvoiceContactID)
	buf = append(buf, `,"notes":`...)
	buf = AppendJSONString(buf, c.Notes)
	buf = append(buf, `,"alert":`...)
	buf = AppendJSONString(buf, c.Alert)
	buf = append(buf, `,"referral_type_id":`...)
	buf = appendJSONStringPtr(buf, c.ReferralTypeID)
	buf = append(buf, `,"referral_description":`...)
	buf = AppendJSONString(buf, c.ReferralDescription)
	buf = append(buf, `,"referred_by_id":`...)
	buf = appendJSONStringPtr(buf, c.ReferredByID)
	buf = append(buf, `,"phone_number":`...)
	buf = AppendJSONString(buf, c.PhoneNumber)
	buf = append(buf, `,"phone_numbers":`...)
	buf = appendJSONArray(buf, c.PhoneNumbers, PhoneNumber.appendJSON)
	buf = append(buf, `,"address":`...)
	buf, ok := c.Address.appendJSON(buf)
	if !ok {
		return buf, false
	}
	buf = append(buf, `,"tag_ids":`...)
	buf = appendJSONStrings(buf, c.TagIDs)
	buf = append(buf, `,"ndis_details":`...)
	if n := c.NDISDetails; n == nil {
		buf = append(buf, "null"...)
	} else {
		buf = append(buf, `{"ndis_number":`...)
		buf = AppendJSONString(buf, n.NDISNumber)
		buf = append(buf, `,"plan_start_date":`...)
		buf = appendJSONTimePtr(buf, n.PlanStartDate)
		buf = append(buf, `,"plan_end_date":`...)
		buf = appendJSONTimePtr(buf, n.PlanEndDate)
		buf = append(buf, `,"plan_manager_id":`...)
		buf = appendJSONStringPtr(buf, n.PlanManagerID)
		buf = append(buf, `,"plan_nominee_id":`...)
		buf = appendJSONStringPtr(buf, n.PlanNomineeID)
		buf = append(buf, `,"diagnoses":`...)
		buf = appendJSONStrings(buf, n.Diagnoses)
		buf = append(buf, '}')
	}
	buf = append(buf, `,"related_clients":`...)
	buf = appendJSONArray(buf, c.RelatedClients, RelatedClient.appendJSON)
	buf = append(buf, `,"linked_contacts":`...)
	buf = appendJSONArray(buf, c.LinkedContacts, LinkedContact.appendJSON)
	buf = append(buf, `,"created_at":`...)
	buf = c.CreatedAt.appendJSON(buf)
	buf = append(buf, `,"updated_at":`...)
	buf = c.UpdatedAt.appendJSON(buf)
	buf = append(buf, `,"archived_at":`...)
	buf = appendJSONTimePtr(buf, c.ArchivedAt)
	return append(buf, '}'), true
}

// Medication is one medication a client takes.
type Medication struct {
	Name   string `json:"name"`
	Dosage string `json:"dosage"`
}

// appendJSON appends the medication as encoding/json writes it.
func (m Medication) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"name":`...)
	buf = AppendJSONString(buf, m.Name)
	buf = append(buf, `,"dosage":`...)
	buf = AppendJSONString(buf, m.Dosage)
	return append(buf, '}')
}

// Allergy is one of a client's allergies.
type Allergy struct {
	Name     string `json:"name"`
	Reaction string `json:"reaction"`
}

// appendJSON appends the allergy as encoding/json writes it.
func (a Allergy) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"name":`...)
	buf = AppendJSONString(buf, a.Name)
	buf = append(buf, `,"reaction":`...)
	buf = AppendJSONString(buf, a.Reaction)
	return append(buf, '}')
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

// appendJSON appends the link as encoding/json writes it.
func (r RelatedClient) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"related_client_id":`...)
	buf = AppendJSONString(buf, r.RelatedClientID)
	return append(buf, '}')
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

// appendJSON appends the link as encoding/json writes it.
func (l LinkedContact) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"contact_id":`...)
	buf = AppendJSONString(buf, l.ContactID)
	buf = append(buf, `,"include_in_appointment_notifications":`...)
	buf = appendJSONBool(buf, l.IncludeInAppointmentNotifications)
	buf = append(buf, `,"include_in_invoice_notifications":`...)
	buf = appendJSONBool(buf, l.IncludeInInvoiceNotifications)
	buf = append(buf, `,"include_in_progress_note_notifications":`...)
	buf = appendJSONBool(buf, l.IncludeInProgressNoteNotifications)
	buf = append(buf, `,"note":`...)
	buf = AppendJSONString(buf, l.Note)
	return append(buf, '}')
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
