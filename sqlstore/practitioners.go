package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const practitionerCols = `id, title, first_name, last_name, display_name, designation, email, phone,
	working_hours, exceptions, created_at, updated_at, archived_at`

func scanPractitioner(r rowScanner) (practiced.Practitioner, error) {
	var p practiced.Practitioner
	err := r.Scan(&p.ID, &p.Title, &p.FirstName, &p.LastName, &p.DisplayName, &p.Designation, &p.Email, &p.Phone,
		jsonScan{&p.WorkingHours}, jsonScan{&p.Exceptions}, timeScan{&p.CreatedAt}, timeScan{&p.UpdatedAt}, nullTimeScan{&p.ArchivedAt})
	return p, err
}

func practitionerValues(p *practiced.Practitioner) []any {
	return []any{p.ID, p.Title, p.FirstName, p.LastName, p.DisplayName, p.Designation, p.Email, p.Phone,
		jsonList(p.WorkingHours), jsonList(p.Exceptions), tsv(p.CreatedAt), tsv(p.UpdatedAt), nullTs(p.ArchivedAt)}
}

// normalizePractitioner makes every list non-nil.
func normalizePractitioner(p *practiced.Practitioner) {
	if p.WorkingHours == nil {
		p.WorkingHours = []practiced.WorkingHours{}
	}
	if p.Exceptions == nil {
		p.Exceptions = []practiced.AvailabilityException{}
	}
	for i := range p.Exceptions {
		if p.Exceptions[i].Ranges == nil {
			p.Exceptions[i].Ranges = []practiced.TimeRange{}
		}
	}
}

var practitioners = &table[practiced.Practitioner]{
	kind: practiced.KindPractitioner,
	cols: practitionerCols, scan: scanPractitioner, values: practitionerValues,
	normalize: normalizePractitioner,
	joins: []join[practiced.Practitioner]{
		{table: "practitioner_locations", keyCol: "practitioner_id", valCol: "location_id",
			ids: func(p *practiced.Practitioner) *[]string { return &p.LocationIDs }},
		{table: "practitioner_services", keyCol: "practitioner_id", valCol: "service_id",
			ids: func(p *practiced.Practitioner) *[]string { return &p.ServiceIDs }},
	},
	docs: true,
	stamp: func(p *practiced.Practitioner) *stamps {
		return &stamps{ID: &p.ID, UpdatedAt: &p.UpdatedAt, ArchivedAt: &p.ArchivedAt}
	},
}

// ListPractitioners returns a page of the business's practitioners.
func (s *Store) ListPractitioners(ctx context.Context, businessID string, f practiced.PractitionerFilter, p practiced.PageRequest) ([]practiced.Practitioner, practiced.PageInfo, error) {
	return practitioners.list(ctx, s.r, businessID, practitionerQuery(businessID, f), p)
}

// ListPractitionerDocs returns the stored documents of the page ListPractitioners returns.
func (s *Store) ListPractitionerDocs(ctx context.Context, businessID string, f practiced.PractitionerFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return practitioners.listDocs(ctx, s.r, s.dialect, practitionerQuery(businessID, f), p)
}

// practitionerQuery is the query of a list of practitioners.
func practitionerQuery(businessID string, f practiced.PractitionerFilter) *listQuery {
	q := practitioners.query(businessID, f.ListFilter)
	if f.LocationID != "" {
		q.filter(`id IN (SELECT practitioner_id FROM practitioner_locations WHERE business_id = $1 AND location_id = ` +
			q.args.add(f.LocationID) + `)`)
	}
	return q
}

// GetPractitioner returns one practitioner of the business with the
// locations and services they work with.
func (s *Store) GetPractitioner(ctx context.Context, businessID, id string) (practiced.Practitioner, error) {
	return practitioners.get(ctx, s.r, businessID, id, "")
}

// CreatePractitioner stores a new practitioner with their locations and services.
func (s *Store) CreatePractitioner(ctx context.Context, businessID string, p *practiced.Practitioner) error {
	return practitioners.create(ctx, s, businessID, p)
}

// UpdatePractitioner changes a practitioner in one transaction and records the change.
func (s *Store) UpdatePractitioner(ctx context.Context, businessID, id string, change func(*practiced.Practitioner) error) (practiced.Practitioner, error) {
	return practitioners.update(ctx, s, businessID, id, "updated", change)
}

// ArchivePractitioner archives or unarchives a practitioner.
func (s *Store) ArchivePractitioner(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Practitioner, error) {
	return practitioners.archive(ctx, s, businessID, id, archived, now)
}
