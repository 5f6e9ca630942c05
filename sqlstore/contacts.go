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
		c.Email, c.Notes, jsonText(c.PhoneNumbers), jsonText(c.Address), jsonText(c.TagIDs),
		tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

func contactSearch(c *practiced.Contact) string {
	parts := []string{c.FirstName, c.LastName, c.PreferredName, c.Company, c.Email}
	for _, p := range c.PhoneNumbers {
		parts = append(parts, p.Code+p.Number, p.Number)
	}
	return strings.ToLower(strings.Join(parts, " "))
}

// ListContacts returns a page of the business's contacts.
func (s *Store) ListContacts(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Contact, practiced.PageInfo, error) {
	q := newListQuery(businessID, contactCols, "contacts", "business_id", "id")
	q.common("", f.ListFilter)
	personFilters(q, f)
	return list(ctx, s.r, q, p, scanContact)
}
