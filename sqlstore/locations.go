package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

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

func normalizeLocation(l *practiced.Location) {
	l.PractitionerIDs = sortedIDs(l.PractitionerIDs)
	l.ServiceIDs = sortedIDs(l.ServiceIDs)
}

// A location's practitioner and service ids are not its own: they are
// read from the join tables the practitioners and services write, and a
// location's own writes leave them alone (no save).
var locations = &table[practiced.Location]{
	name: "locations", recordType: "location", kind: "Location",
	cols: locationCols, scan: scanLocation, values: locationValues,
	load: loadLocationJoins, normalize: normalizeLocation,
	stamp: func(l *practiced.Location) *stamps {
		return &stamps{ID: &l.ID, UpdatedAt: &l.UpdatedAt, ArchivedAt: &l.ArchivedAt}
	},
}

// ListLocations returns a page of the business's locations.
func (s *Store) ListLocations(ctx context.Context, businessID string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Location, practiced.PageInfo, error) {
	return locations.list(ctx, s.r, businessID, locations.query(businessID, f), p)
}

// GetLocation returns one location of the business.
func (s *Store) GetLocation(ctx context.Context, businessID, id string) (practiced.Location, error) {
	return locations.get(ctx, s.r, businessID, id, "")
}

// CreateLocation stores a new location.
func (s *Store) CreateLocation(ctx context.Context, businessID string, l *practiced.Location) error {
	return locations.create(ctx, s, businessID, l)
}

// UpdateLocation changes a location in one transaction and records the change.
func (s *Store) UpdateLocation(ctx context.Context, businessID, id string, change func(*practiced.Location) error) (practiced.Location, error) {
	return locations.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveLocation archives or unarchives a location.
func (s *Store) ArchiveLocation(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Location, error) {
	return locations.archive(ctx, s, businessID, id, archived, now)
}

// loadLocationJoins fills the practitioner and service ids of locations
// from the join tables, with one query each for the whole page.
func loadLocationJoins(ctx context.Context, db queryer, businessID string, ls []practiced.Location) error {
	ids := make([]string, len(ls))
	for i := range ls {
		ids[i] = ls[i].ID
	}
	pras, err := joined(ctx, db, "practitioner_locations", "location_id", "practitioner_id", businessID, ids)
	if err != nil {
		return err
	}
	sers, err := joined(ctx, db, "service_locations", "location_id", "service_id", businessID, ids)
	if err != nil {
		return err
	}
	for i := range ls {
		ls[i].PractitionerIDs = append([]string{}, pras[ls[i].ID]...)
		ls[i].ServiceIDs = append([]string{}, sers[ls[i].ID]...)
	}
	return nil
}

// touchLocations records that the locations changed because a record
// joined or left them (their practitioner_ids or service_ids): each gets
// updated_at = at and a location.updated event, so the change feed and
// updated_since see it. Locations are locked in id order, so that two
// transactions touching the same locations cannot deadlock.
func touchLocations(ctx context.Context, tx *sql.Tx, businessID string, ids []string, at practiced.Time) error {
	for _, id := range sortedIDs(ids) {
		if _, err := tx.ExecContext(ctx, `UPDATE locations SET updated_at = $1 WHERE business_id = $2 AND id = $3`,
			tsv(at), businessID, id); err != nil {
			return fmt.Errorf("touch location: %w", err)
		}
		l, err := locations.get(ctx, tx, businessID, id, "")
		if err != nil {
			return err
		}
		if err := recordEvent(ctx, tx, businessID, locations.recordType, "updated", id, l); err != nil {
			return err
		}
	}
	return nil
}

// joined reads a join table: for each key in keys, the ids it is joined
// to, in id order.
func joined(ctx context.Context, db queryer, table, keyCol, valCol, businessID string, keys []string) (map[string][]string, error) {
	out := map[string][]string{}
	if len(keys) == 0 {
		return out, nil
	}
	var a args
	q := fmt.Sprintf(`SELECT %s, %s FROM %s WHERE business_id = %s AND %s IN %s ORDER BY %s, %s`,
		keyCol, valCol, table, a.add(businessID), keyCol, a.in(keys), keyCol, valCol)
	rows, err := db.QueryContext(ctx, q, a.vals...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = append(out[k], v)
	}
	return out, rows.Err()
}

// rejoin makes the join table hold exactly vals for key, and returns the
// values it held before.
func rejoin(ctx context.Context, tx *sql.Tx, table, keyCol, valCol, businessID, key string, vals []string) ([]string, error) {
	old, err := joined(ctx, tx, table, keyCol, valCol, businessID, []string{key})
	if err != nil {
		return nil, err
	}
	if slices.Equal(old[key], sortedIDs(vals)) {
		return old[key], nil
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %s WHERE business_id = $1 AND %s = $2`, table, keyCol),
		businessID, key); err != nil {
		return nil, fmt.Errorf("%s: %w", table, err)
	}
	if len(vals) == 0 {
		return old[key], nil
	}
	var a args
	biz, k := a.add(businessID), a.add(key)
	rows := make([]string, len(vals))
	for i, v := range vals {
		rows[i] = "(" + biz + ", " + k + ", " + a.add(v) + ")"
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s (business_id, %s, %s) VALUES %s`, table, keyCol, valCol,
		strings.Join(rows, ", ")), a.vals...); err != nil {
		return nil, fmt.Errorf("%s: %w", table, translate(err))
	}
	return old[key], nil
}

// symmetricDiff returns the ids in exactly one of a and b.
func symmetricDiff(a, b []string) []string {
	var out []string
	for _, id := range a {
		if !slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	for _, id := range b {
		if !slices.Contains(a, id) {
			out = append(out, id)
		}
	}
	return out
}

// sortedIDs returns a sorted copy of ids, never nil: join ids are read
// back in id order, so they are kept in that order everywhere.
func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return out
}
