package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	practiced "github.com/practiced/practiced"
)

// clientCols are the columns a client's row keeps beside its document
// (migration 0030): its key, what the database checks (the references to
// contacts and referral types) and what queries read: the e-mail
// (clientByEmail and its index), the tags (the tag_id filter), the times
// and, as extra, the search text. The document is the whole record:
// reading a client decodes it.
const clientCols = `id, email, emergency_contact_id, invoice_contact_id, referral_type_id, referred_by_id, tag_ids,
	created_at, updated_at, archived_at`

// scanClient reads a client from its stored document.
func scanClient(r rowScanner) (practiced.Client, error) {
	var c practiced.Client
	var doc sql.NullString
	if err := r.Scan(&doc); err != nil {
		return c, err
	}
	if !doc.Valid {
		return c, errors.New("sqlstore: a client has no stored document")
	}
	if err := json.Unmarshal([]byte(doc.String), &c); err != nil {
		return c, fmt.Errorf("sqlstore: a client's stored document: %w", err)
	}
	normalizeClient(&c)
	return c, nil
}

// normalizeClient makes every list non-nil, so lists encode as [] and
// never as null.
func normalizeClient(c *practiced.Client) {
	if c.Medications == nil {
		c.Medications = []practiced.Medication{}
	}
	if c.Allergies == nil {
		c.Allergies = []practiced.Allergy{}
	}
	if c.Intolerances == nil {
		c.Intolerances = []string{}
	}
	if c.PhoneNumbers == nil {
		c.PhoneNumbers = []practiced.PhoneNumber{}
	}
	if c.TagIDs == nil {
		c.TagIDs = []string{}
	}
	if c.RelatedClients == nil {
		c.RelatedClients = []practiced.RelatedClient{}
	}
	if c.LinkedContacts == nil {
		c.LinkedContacts = []practiced.LinkedContact{}
	}
	if c.NDISDetails != nil && c.NDISDetails.Diagnoses == nil {
		c.NDISDetails.Diagnoses = []string{}
	}
}

// clientValues returns the column values of c in clientCols order.
func clientValues(c *practiced.Client) []any {
	return []any{c.ID, c.Email, nullStr(c.EmergencyContactID), nullStr(c.InvoiceContactID), nullStr(c.ReferralTypeID),
		nullStr(c.ReferredByID), jsonList(c.TagIDs), tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

// clientSearch is the lower-case text the q filter matches: names,
// e-mail and phone numbers, each number in E.164 and in its national
// form (practiced.PhoneSearchText), so that it is found however it is
// typed. The primary number is usually one of the list too; its forms
// are worked out once, as formatting numbers is the largest part of
// encoding a client's row.
func clientSearch(c *practiced.Client) string {
	primary := practiced.PhoneSearchText(c.PhoneNumber)
	parts := []string{c.FirstName, c.LastName, c.PreferredName, c.Email, primary}
	for _, p := range c.PhoneNumbers {
		forms := primary
		if n := p.Code + p.Number; n != c.PhoneNumber {
			forms = practiced.PhoneSearchText(n)
		}
		parts = append(parts, forms, p.Number)
	}
	return strings.ToLower(strings.Join(parts, " "))
}

// ListClients returns a page of the business's clients.
func (s *Store) ListClients(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Client, practiced.PageInfo, error) {
	return clients.list(ctx, s.r, businessID, clientQuery(businessID, f), p)
}

// ListClientDocs returns the stored documents of the page ListClients returns.
func (s *Store) ListClientDocs(ctx context.Context, businessID string, f practiced.PersonFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return clients.listDocs(ctx, s.r, s.dialect, s.clientDocsQuery(businessID, f), p)
}

// clientDocsQuery is the query of a page of clients' stored documents:
// the store's kept documents serve an unfiltered list of live clients.
func (s *Store) clientDocsQuery(businessID string, f practiced.PersonFilter) *listQuery {
	q := clientQuery(businessID, f)
	if s.kept != nil && f == (practiced.PersonFilter{}) {
		q.kept = s.kept
	}
	return q
}

// clientQuery is the query of a list of clients.
func clientQuery(businessID string, f practiced.PersonFilter) *listQuery {
	q := clients.query(businessID, f.ListFilter)
	personFilters(q, f)
	return q
}

func personFilters(q *listQuery, f practiced.PersonFilter) {
	switch {
	case f.Query != "" && f.Phone != "":
		q.filter(`(search LIKE ` + q.args.add(likePattern(strings.ToLower(f.Query))) + ` ESCAPE '\' OR search LIKE ` +
			q.args.add(likePattern(f.Phone)) + ` ESCAPE '\')`)
	case f.Query != "":
		q.filter(`search LIKE ` + q.args.add(likePattern(strings.ToLower(f.Query))) + ` ESCAPE '\'`)
	}
	if f.TagID != "" {
		q.filter(`tag_ids LIKE ` + q.args.add(likePattern(`"`+f.TagID+`"`)) + ` ESCAPE '\'`)
	}
}

var clients = &table[practiced.Client]{
	kind: practiced.KindClient,
	cols: clientCols, readCols: "doc", scan: scanClient, values: clientValues,
	extraCols: []string{"search"},
	extra:     func(c *practiced.Client) []any { return []any{clientSearch(c)} },
	normalize: normalizeClient,
	docs:      true,
	revised:   true,
	stamp: func(c *practiced.Client) *stamps {
		return &stamps{ID: &c.ID, UpdatedAt: &c.UpdatedAt, ArchivedAt: &c.ArchivedAt}
	},
}

// GetClient returns one client of the business.
func (s *Store) GetClient(ctx context.Context, businessID, id string) (practiced.Client, error) {
	return clients.get(ctx, s.r, businessID, id, "")
}

// CreateClient stores a new client.
func (s *Store) CreateClient(ctx context.Context, businessID string, c *practiced.Client) error {
	return clients.create(ctx, s, businessID, c)
}

// UpdateClient changes a client in one transaction and records the change.
func (s *Store) UpdateClient(ctx context.Context, businessID, id string, change func(*practiced.Client) error) (practiced.Client, error) {
	return clients.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveClient archives or unarchives a client.
func (s *Store) ArchiveClient(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Client, error) {
	return clients.archive(ctx, s, businessID, id, archived, now)
}

// splitCols splits a column list into trimmed names.
func splitCols(cols string) []string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}
