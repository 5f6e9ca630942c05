package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

// The four tables of named records have the same columns.
const namedCols = `id, name, color, created_at, updated_at, archived_at`

func scanNamed(r rowScanner) (practiced.Named, error) {
	var n practiced.Named
	err := r.Scan(&n.ID, &n.Name, &n.Color, timeScan{&n.CreatedAt}, timeScan{&n.UpdatedAt}, nullTimeScan{&n.ArchivedAt})
	return n, err
}

func namedValues(n *practiced.Named) []any {
	return []any{n.ID, n.Name, n.Color, tsv(n.CreatedAt), tsv(n.UpdatedAt), nullTs(n.ArchivedAt)}
}

// namedTables holds one table per kind of named record, by id prefix.
var namedTables = func() map[string]*table[practiced.Named] {
	out := map[string]*table[practiced.Named]{}
	for _, k := range practiced.NamedKinds {
		out[k.Prefix] = &table[practiced.Named]{
			kind: k,
			cols: namedCols, scan: scanNamed, values: namedValues,
			docs: true,
			stamp: func(n *practiced.Named) *stamps {
				return &stamps{ID: &n.ID, UpdatedAt: &n.UpdatedAt, ArchivedAt: &n.ArchivedAt}
			},
		}
	}
	return out
}()

// namedTable returns the table of the kind of named record id names.
func namedTable(id string) (*table[practiced.Named], bool) {
	k, ok := practiced.NamedKindOf(id)
	if !ok {
		return nil, false
	}
	return namedTables[k.Prefix], true
}

// ListNamed returns a page of the business's named records of one kind.
func (s *Store) ListNamed(ctx context.Context, businessID, prefix string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Named, practiced.PageInfo, error) {
	t, ok := namedTables[prefix]
	if !ok {
		return nil, practiced.PageInfo{}, practiced.Errorf(practiced.EINTERNAL, "No kind of named record has the prefix %q.", prefix)
	}
	return t.list(ctx, s.r, businessID, t.query(businessID, f), p)
}

// ListNamedDocs returns the stored documents of the page ListNamed returns.
func (s *Store) ListNamedDocs(ctx context.Context, businessID, prefix string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	t, ok := namedTables[prefix]
	if !ok {
		return nil, practiced.PageInfo{}, practiced.Errorf(practiced.EINTERNAL, "No kind of named record has the prefix %q.", prefix)
	}
	return t.listDocs(ctx, s.r, s.dialect, t.query(businessID, f), p)
}

// GetNamed returns one named record of the business.
func (s *Store) GetNamed(ctx context.Context, businessID, id string) (practiced.Named, error) {
	t, ok := namedTable(id)
	if !ok {
		return practiced.Named{}, practiced.NotFound("Record")
	}
	return t.get(ctx, s.r, businessID, id, "")
}

// CreateNamed stores a new named record in the table its id's prefix names.
func (s *Store) CreateNamed(ctx context.Context, businessID string, n *practiced.Named) error {
	t, ok := namedTable(n.ID)
	if !ok {
		return practiced.Invalid("id", "must be the id of a tag, referral type, cancellation reason or busy time type")
	}
	return t.create(ctx, s, businessID, n)
}

// UpdateNamed changes a named record in one transaction and records the change.
func (s *Store) UpdateNamed(ctx context.Context, businessID, id string, change func(*practiced.Named) error) (practiced.Named, error) {
	t, ok := namedTable(id)
	if !ok {
		return practiced.Named{}, practiced.NotFound("Record")
	}
	return t.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveNamed archives or unarchives a named record.
func (s *Store) ArchiveNamed(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Named, error) {
	t, ok := namedTable(id)
	if !ok {
		return practiced.Named{}, practiced.NotFound("Record")
	}
	return t.archive(ctx, s, businessID, id, archived, now)
}
