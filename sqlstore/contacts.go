package sqlstore

import (
	"context"
	"strings"

	practiced "github.com/practiced/practiced"
)

const contactCols = `id, type, title, first_name, last_name, preferred_name, profession, company,
	email, notes, phone_numbers, address, tag_ids, created_at, updated_at, archived_at`

func scanContact(r rowScanner) (practiced.Contact, error) {
	var c practiced.Contact
	err := r.Scan(&c.ID, &c.Type, &c.Title, &c.FirstName, &c.LastName, &c.PreferredName, &c.Profession, &c.Company,
		&c.Email, &c.Notes, jsonScan{&c.PhoneNumbers}, jsonScan{&c.Address}, jsonScan{&c.TagIDs},
		timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt})
	normalizeContact(&c)
	return c, err
}

// normalizeContact makes every list non-nil, so lists encode as [] and
// never as null.
func normalizeContact(c *practiced.Contact) {
	if c.PhoneNumbers == nil {
		c.PhoneNumbers = []practiced.PhoneNumber{}
	}
	if c.TagIDs == nil {
		c.TagIDs = []string{}
	}
}

func contactValues(c *practiced.Contact) []any {
	return []any{c.ID, c.Type, c.Title, c.FirstName, c.LastName, c.PreferredName, c.Profession, c.Company,
		c.Email, c.Notes, jsonList(c.PhoneNumbers), jsonText(c.Address), jsonList(c.TagIDs),
		tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

// contactSearch is the lower-case text the q filter matches: names,
// company, e-mail and phone numbers, each number in E.164 and in its
// national form (practiced.PhoneSearchText).
func contactSearch(c *practiced.Contact) string {
	parts := []string{c.FirstName, c.LastName, c.PreferredName, c.Company, c.Email}
	for _, p := range c.PhoneNumbers {
		parts = append(parts, practiced.PhoneSearchText(p.Code+p.Number), p.Number)
	}
	return strings.ToLower(strings.Join(parts, " "))
}

var contacts = &table[practiced.Contact]{
	kind: practiced.KindContact,
	cols: contactCols, scan: scanContact, values: contactValues,
	extraCols: []string{"search"},
	extra:     func(c *practiced.Contact) []any { return []any{contactSearch(c)} },
	normalize: normalizeContact,
	docs:      true,
	stamp: func(c *practiced.Contact) *stamps {
		return &stamps{ID: &c.ID, UpdatedAt: &c.UpdatedAt, ArchivedAt: &c.ArchivedAt}
	},
}

// ListContacts returns a page of the business's contacts.
func (s *Store) ListContacts(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Contact, practiced.PageInfo, error) {
	return contacts.list(ctx, s.r, businessID, contactQuery(businessID, f), p)
}

// ListContactDocs returns the stored documents of the page ListContacts returns.
func (s *Store) ListContactDocs(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return contacts.listDocs(ctx, s.r, s.dialect, contactQuery(businessID, f), p)
}

// contactQuery is the query of a list of contacts.
func contactQuery(businessID string, f practiced.PersonFilter) *listQuery {
	q := contacts.query(businessID, f.ListFilter)
	personFilters(q, f)
	return q
}

// GetContact returns one contact of the business.
func (s *Store) GetContact(ctx context.Context, businessID, id string) (practiced.Contact, error) {
	return contacts.get(ctx, s.r, businessID, id, "")
}

// CreateContact stores a new contact.
func (s *Store) CreateContact(ctx context.Context, businessID string, c *practiced.Contact) error {
	return contacts.create(ctx, s, businessID, c)
}

// UpdateContact changes a contact in one transaction and records the change.
func (s *Store) UpdateContact(ctx context.Context, businessID, id string, change func(*practiced.Contact) error) (practiced.Contact, error) {
	return contacts.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveContact archives or unarchives a contact.
func (s *Store) ArchiveContact(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Contact, error) {
	return contacts.archive(ctx, s, businessID, id, archived, now)
}
