package sqlstore

import (
	"context"
	"database/sql"
	"errors"

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

// GetPractitioner returns one practitioner of the business with the
// locations and services they work with.
func (s *Store) GetPractitioner(ctx context.Context, businessID, id string) (practiced.Practitioner, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+practitionerCols+` FROM practitioners WHERE business_id = $1 AND id = $2`, businessID, id)
	p, err := scanPractitioner(row)
	if errors.Is(err, sql.ErrNoRows) {
		return p, practiced.NotFound("Practitioner")
	} else if err != nil {
		return p, err
	}
	locs, err := s.joined(ctx, "practitioner_locations", "practitioner_id", "location_id", businessID, []string{id})
	if err != nil {
		return p, err
	}
	sers, err := s.joined(ctx, "practitioner_services", "practitioner_id", "service_id", businessID, []string{id})
	if err != nil {
		return p, err
	}
	p.LocationIDs = append([]string{}, locs[id]...)
	p.ServiceIDs = append([]string{}, sers[id]...)
	if p.WorkingHours == nil {
		p.WorkingHours = []practiced.WorkingHours{}
	}
	if p.Exceptions == nil {
		p.Exceptions = []practiced.AvailabilityException{}
	}
	return p, nil
}
