package sqlstore

import (
	"context"
	"strings"

	practiced "github.com/practiced/practiced"
)

const clientCols = `id, title, first_name, last_name, preferred_name, profession, email,
	date_of_birth, sex, gender_identity, pronouns, privacy_policy_consent, marketing_consent, no_messages,
	consent_method, medications, allergies, intolerances, emergency_contact_id,
	emergency_contact_relationship, invoice_contact_id, notes, alert, referral_type_id,
	referral_description, referred_by_id, phone_number, phone_numbers, address, tag_ids,
	ndis_details, related_clients, linked_contacts, created_at, updated_at, archived_at`

func scanClient(r rowScanner) (practiced.Client, error) {
	var c practiced.Client
	err := r.Scan(&c.ID, &c.Title, &c.FirstName, &c.LastName, &c.PreferredName, &c.Profession, &c.Email,
		dateScan{&c.DateOfBirth}, &c.Sex, &c.GenderIdentity, &c.Pronouns, &c.PrivacyPolicyConsent, &c.MarketingConsent, &c.NoMessages,
		&c.ConsentMethod, jsonScan{&c.Medications}, jsonScan{&c.Allergies}, jsonScan{&c.Intolerances}, &c.EmergencyContactID,
		&c.EmergencyContactRelationship, &c.InvoiceContactID, &c.Notes, &c.Alert, &c.ReferralTypeID,
		&c.ReferralDescription, &c.ReferredByID, &c.PhoneNumber, jsonScan{&c.PhoneNumbers}, jsonScan{&c.Address}, jsonScan{&c.TagIDs},
		jsonScan{&c.NDISDetails}, jsonScan{&c.RelatedClients}, jsonScan{&c.LinkedContacts},
		timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt})
	normalizeClient(&c)
	return c, err
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
	return []any{c.ID, c.Title, c.FirstName, c.LastName, c.PreferredName, c.Profession, c.Email,
		nullStr(c.DateOfBirth), c.Sex, c.GenderIdentity, c.Pronouns, nullStr(c.PrivacyPolicyConsent), nullStr(c.MarketingConsent), c.NoMessages,
		nullStr(c.ConsentMethod), jsonList(c.Medications), jsonList(c.Allergies), jsonList(c.Intolerances), nullStr(c.EmergencyContactID),
		c.EmergencyContactRelationship, nullStr(c.InvoiceContactID), c.Notes, c.Alert, nullStr(c.ReferralTypeID),
		c.ReferralDescription, nullStr(c.ReferredByID), c.PhoneNumber, jsonList(c.PhoneNumbers), jsonText(c.Address), jsonList(c.TagIDs),
		nullJSON(c.NDISDetails), jsonList(c.RelatedClients), jsonList(c.LinkedContacts),
		tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
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
	cols: clientCols, scan: scanClient, values: clientValues,
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
