package sqlstore

import (
	"context"
	"database/sql"

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
		jsonText(p.WorkingHours), jsonText(p.Exceptions), tsv(p.CreatedAt), tsv(p.UpdatedAt), nullTs(p.ArchivedAt)}
}

// normalizePractitioner makes every list non-nil and puts the join ids in
// the id order they are read back in.
func normalizePractitioner(p *practiced.Practitioner) {
	p.LocationIDs = sortedIDs(p.LocationIDs)
	p.ServiceIDs = sortedIDs(p.ServiceIDs)
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
	name: "practitioners", recordType: "practitioner", kind: "Practitioner",
	cols: practitionerCols, scan: scanPractitioner, values: practitionerValues,
	load: loadPractitionerJoins, save: savePractitionerJoins, normalize: normalizePractitioner,
	stamp: func(p *practiced.Practitioner) *stamps {
		return &stamps{ID: &p.ID, UpdatedAt: &p.UpdatedAt, ArchivedAt: &p.ArchivedAt}
	},
}

func loadPractitionerJoins(ctx context.Context, db queryer, businessID string, ps []practiced.Practitioner) error {
	ids := make([]string, len(ps))
	for i := range ps {
		ids[i] = ps[i].ID
	}
	locs, err := joined(ctx, db, "practitioner_locations", "practitioner_id", "location_id", businessID, ids)
	if err != nil {
		return err
	}
	sers, err := joined(ctx, db, "practitioner_services", "practitioner_id", "service_id", businessID, ids)
	if err != nil {
		return err
	}
	for i := range ps {
		ps[i].LocationIDs = append([]string{}, locs[ps[i].ID]...)
		ps[i].ServiceIDs = append([]string{}, sers[ps[i].ID]...)
	}
	return nil
}

// savePractitionerJoins writes the practitioner's locations and services,
// and touches the locations it joined or left.
func savePractitionerJoins(ctx context.Context, tx *sql.Tx, businessID string, p *practiced.Practitioner) error {
	old, err := rejoin(ctx, tx, "practitioner_locations", "practitioner_id", "location_id", businessID, p.ID, p.LocationIDs)
	if err != nil {
		return err
	}
	if _, err := rejoin(ctx, tx, "practitioner_services", "practitioner_id", "service_id", businessID, p.ID, p.ServiceIDs); err != nil {
		return err
	}
	return touchLocations(ctx, tx, businessID, symmetricDiff(old, p.LocationIDs), p.UpdatedAt)
}

// ListPractitioners returns a page of the business's practitioners.
func (s *Store) ListPractitioners(ctx context.Context, businessID string, f practiced.PractitionerFilter, p practiced.PageRequest) ([]practiced.Practitioner, practiced.PageInfo, error) {
	q := practitioners.query(businessID, f.ListFilter)
	if f.LocationID != "" {
		q.filter(`id IN (SELECT practitioner_id FROM practitioner_locations WHERE business_id = $1 AND location_id = ` +
			q.args.add(f.LocationID) + `)`)
	}
	return practitioners.list(ctx, s.r, businessID, q, p)
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
