package practiced

import "context"

// Contact is a person or organisation the clinic deals with about its
// clients: payers, referrers, plan managers, emergency contacts.
type Contact struct {
	ID            string        `json:"id"`
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

// Contact types.
var ContactTypes = []string{"third_party_payer", "referrer", "plan_manager", "emergency", "other"}

// ContactStore keeps contacts.
type ContactStore interface {
	ListContacts(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Contact, PageInfo, error)
	// GetContact returns ENOTFOUND if the business has no such contact.
	GetContact(ctx context.Context, businessID, id string) (Contact, error)
	CreateContact(ctx context.Context, businessID string, c *Contact) error
	UpdateContact(ctx context.Context, businessID, id string, change func(*Contact) error) (Contact, error)
	ArchiveContact(ctx context.Context, businessID, id string, archived bool, now Time) (Contact, error)
}
