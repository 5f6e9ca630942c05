package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	practiced "github.com/practiced/practiced"
)

const locationCols = `id, name, description, email, phone, timezone, online_appointment_booking,
	online_class_booking, tax_identifier, tax_identifier_label, ndis_number, logo_id, image_id,
	opening_hours, address, created_at, updated_at, archived_at`

// openingHoursJSON is how opening hours are stored: a list of seven days
// indexed by time.Weekday.
type openingHoursJSON [7]practiced.DayHours

func scanLocation(r rowScanner) (practiced.Location, error) {
	var l practiced.Location
	var hours openingHoursJSON
	err := r.Scan(&l.ID, &l.Name, &l.Description, &l.Email, &l.Phone, &l.Timezone, &l.OnlineAppointmentBooking,
		&l.OnlineClassBooking, &l.TaxIdentifier, &l.TaxIdentifierLabel, &l.NDISNumber, &l.LogoID, &l.ImageID,
		jsonScan{&hours}, jsonScan{&l.Address}, timeScan{&l.CreatedAt}, timeScan{&l.UpdatedAt}, nullTimeScan{&l.ArchivedAt})
	l.OpeningHours.Days = hours
	return l, err
}

func locationValues(l *practiced.Location) []any {
	hours, _ := json.Marshal(openingHoursJSON(l.OpeningHours.Days))
	return []any{l.ID, l.Name, l.Description, l.Email, l.Phone, l.Timezone, l.OnlineAppointmentBooking,
		l.OnlineClassBooking, l.TaxIdentifier, l.TaxIdentifierLabel, l.NDISNumber, nullStr(l.LogoID), nullStr(l.ImageID),
		string(hours), jsonText(l.Address), tsv(l.CreatedAt), tsv(l.UpdatedAt), nullTs(l.ArchivedAt)}
}

// ListLocations returns a page of the business's locations.
func (s *Store) ListLocations(ctx context.Context, businessID string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Location, practiced.PageInfo, error) {
	q := newListQuery(businessID, locationCols, "locations", "business_id", "id")
	q.common("", f)
	out, info, err := list(ctx, s.r, q, p, scanLocation)
	if err != nil {
		return nil, info, err
	}
	return out, info, s.hydrateLocations(ctx, businessID, out)
}

// GetLocation returns one location of the business.
func (s *Store) GetLocation(ctx context.Context, businessID, id string) (practiced.Location, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+locationCols+` FROM locations WHERE business_id = $1 AND id = $2`, businessID, id)
	l, err := scanLocation(row)
	if errors.Is(err, sql.ErrNoRows) {
		return l, practiced.NotFound("Location")
	} else if err != nil {
		return l, err
	}
	ls := []practiced.Location{l}
	err = s.hydrateLocations(ctx, businessID, ls)
	return ls[0], err
}

// hydrateLocations fills the practitioner and service ids of locations
// from the join tables, with one query each for the whole page.
func (s *Store) hydrateLocations(ctx context.Context, businessID string, ls []practiced.Location) error {
	ids := make([]string, len(ls))
	for i := range ls {
		ids[i] = ls[i].ID
		ls[i].PractitionerIDs = []string{}
		ls[i].ServiceIDs = []string{}
	}
	if len(ids) == 0 {
		return nil
	}
	pras, err := s.joined(ctx, "practitioner_locations", "location_id", "practitioner_id", businessID, ids)
	if err != nil {
		return err
	}
	sers, err := s.joined(ctx, "service_locations", "location_id", "service_id", businessID, ids)
	if err != nil {
		return err
	}
	for i := range ls {
		if v := pras[ls[i].ID]; v != nil {
			ls[i].PractitionerIDs = v
		}
		if v := sers[ls[i].ID]; v != nil {
			ls[i].ServiceIDs = v
		}
	}
	return nil
}

// joined reads a join table: for each key in keys, the ids it is joined
// to, in id order.
func (s *Store) joined(ctx context.Context, table, keyCol, valCol, businessID string, keys []string) (map[string][]string, error) {
	var a args
	q := fmt.Sprintf(`SELECT %s, %s FROM %s WHERE business_id = %s AND %s IN %s ORDER BY %s, %s`,
		keyCol, valCol, table, a.add(businessID), keyCol, a.in(keys), keyCol, valCol)
	rows, err := s.r.QueryContext(ctx, q, a.vals...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", table, err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = append(out[k], v)
	}
	return out, rows.Err()
}
