package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const caseCols = `id, client_id, name, status, notes, created_at, updated_at, archived_at`

func scanCase(r rowScanner) (practiced.Case, error) {
	var c practiced.Case
	err := r.Scan(&c.ID, &c.ClientID, &c.Name, &c.Status, &c.Notes,
		timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt})
	return c, err
}

func caseValues(c *practiced.Case) []any {
	return []any{c.ID, c.ClientID, c.Name, c.Status, c.Notes, tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

var cases = &table[practiced.Case]{
	kind: practiced.KindCase,
	cols: caseCols, scan: scanCase, values: caseValues,
	docs: true,
	stamp: func(c *practiced.Case) *stamps {
		return &stamps{ID: &c.ID, UpdatedAt: &c.UpdatedAt, ArchivedAt: &c.ArchivedAt}
	},
}

// ListCases returns a page of the business's cases.
func (s *Store) ListCases(ctx context.Context, businessID string, f practiced.CaseFilter, p practiced.PageRequest) ([]practiced.Case, practiced.PageInfo, error) {
	return cases.list(ctx, s.r, businessID, caseQuery(businessID, f), p)
}

// ListCaseDocs returns the stored documents of the page ListCases returns.
func (s *Store) ListCaseDocs(ctx context.Context, businessID string, f practiced.CaseFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return cases.listDocs(ctx, s.r, s.dialect, caseQuery(businessID, f), p)
}

// caseQuery is the query of a list of cases.
func caseQuery(businessID string, f practiced.CaseFilter) *listQuery {
	q := cases.query(businessID, f.ListFilter)
	if f.ClientID != "" {
		q.filter(`client_id = ` + q.args.add(f.ClientID))
	}
	if f.Status != "" {
		q.filter(`status = ` + q.args.add(f.Status))
	}
	return q
}

// GetCase returns one case of the business.
func (s *Store) GetCase(ctx context.Context, businessID, id string) (practiced.Case, error) {
	return cases.get(ctx, s.r, businessID, id, "")
}

// CreateCase stores a new case.
func (s *Store) CreateCase(ctx context.Context, businessID string, c *practiced.Case) error {
	return cases.create(ctx, s, businessID, c)
}

// UpdateCase changes a case in one transaction and records the change.
func (s *Store) UpdateCase(ctx context.Context, businessID, id string, change func(*practiced.Case) error) (practiced.Case, error) {
	return cases.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveCase archives or unarchives a case.
func (s *Store) ArchiveCase(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Case, error) {
	return cases.archive(ctx, s, businessID, id, archived, now)
}
