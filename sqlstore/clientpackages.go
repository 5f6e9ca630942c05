package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const clientPackageCols = `id, client_id, name, sessions_total, sessions_used, expires_on, created_at, updated_at, archived_at`

func scanClientPackage(r rowScanner) (practiced.ClientPackage, error) {
	var c practiced.ClientPackage
	err := r.Scan(&c.ID, &c.ClientID, &c.Name, &c.SessionsTotal, &c.SessionsUsed, dateScan{&c.ExpiresOn},
		timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt})
	return c, err
}

func clientPackageValues(c *practiced.ClientPackage) []any {
	return []any{c.ID, c.ClientID, c.Name, c.SessionsTotal, c.SessionsUsed, nullStr(c.ExpiresOn),
		tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)}
}

var clientPackages = &table[practiced.ClientPackage]{
	kind: practiced.KindClientPackage,
	cols: clientPackageCols, scan: scanClientPackage, values: clientPackageValues,
	docs: true,
	stamp: func(c *practiced.ClientPackage) *stamps {
		return &stamps{ID: &c.ID, UpdatedAt: &c.UpdatedAt, ArchivedAt: &c.ArchivedAt}
	},
}

// ListClientPackages returns a page of the business's client packages.
func (s *Store) ListClientPackages(ctx context.Context, businessID string, f practiced.ClientPackageFilter, p practiced.PageRequest) ([]practiced.ClientPackage, practiced.PageInfo, error) {
	return clientPackages.list(ctx, s.r, businessID, clientPackageQuery(businessID, f), p)
}

// ListClientPackageDocs returns the stored documents of the page ListClientPackages returns.
func (s *Store) ListClientPackageDocs(ctx context.Context, businessID string, f practiced.ClientPackageFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return clientPackages.listDocs(ctx, s.r, s.dialect, clientPackageQuery(businessID, f), p)
}

// clientPackageQuery is the query of a list of client packages.
func clientPackageQuery(businessID string, f practiced.ClientPackageFilter) *listQuery {
	q := clientPackages.query(businessID, f.ListFilter)
	if f.ClientID != "" {
		q.filter(`client_id = ` + q.args.add(f.ClientID))
	}
	return q
}

// GetClientPackage returns one client package of the business.
func (s *Store) GetClientPackage(ctx context.Context, businessID, id string) (practiced.ClientPackage, error) {
	return clientPackages.get(ctx, s.r, businessID, id, "")
}

// CreateClientPackage stores a new client package.
func (s *Store) CreateClientPackage(ctx context.Context, businessID string, c *practiced.ClientPackage) error {
	return clientPackages.create(ctx, s, businessID, c)
}

// UpdateClientPackage changes a client package in one transaction and records the change.
func (s *Store) UpdateClientPackage(ctx context.Context, businessID, id string, change func(*practiced.ClientPackage) error) (practiced.ClientPackage, error) {
	return clientPackages.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveClientPackage archives or unarchives a client package.
func (s *Store) ArchiveClientPackage(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.ClientPackage, error) {
	return clientPackages.archive(ctx, s, businessID, id, archived, now)
}
