package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	practiced "github.com/practiced/practiced"
)

const locationCols = `id, name, description, email, phone, timezone, online_appointment_booking,
	online_class_booking, online_bookings_per_email_per_day, online_cancellation_hours, tax_identifier, tax_identifier_label, ndis_number, logo_id, image_id,
	opening_hours, address, created_at, updated_at, archived_at`

// openingHoursJSON is how opening hours are stored: a list of seven days
// indexed by time.Weekday.
type openingHoursJSON [7]practiced.DayHours

func scanLocation(r rowScanner) (practiced.Location, error) {
	var l practiced.Location
	var hours openingHoursJSON
	err := r.Scan(&l.ID, &l.Name, &l.Description, &l.Email, &l.Phone, &l.Timezone, &l.OnlineAppointmentBooking,
		&l.OnlineClassBooking, &l.OnlineBookingsPerEmailPerDay, &l.OnlineCancellationHours, &l.TaxIdentifier, &l.TaxIdentifierLabel, &l.NDISNumber, &l.LogoID, &l.ImageID,
		jsonScan{&hours}, jsonScan{&l.Address}, timeScan{&l.CreatedAt}, timeScan{&l.UpdatedAt}, nullTimeScan{&l.ArchivedAt})
	l.OpeningHours.Days = hours
	return l, err
}

func locationValues(l *practiced.Location) []any {
	hours, _ := json.Marshal(openingHoursJSON(l.OpeningHours.Days))
	return []any{l.ID, l.Name, l.Description, l.Email, l.Phone, l.Timezone, l.OnlineAppointmentBooking,
		l.OnlineClassBooking, l.OnlineBookingsPerEmailPerDay, l.OnlineCancellationHours, l.TaxIdentifier, l.TaxIdentifierLabel, l.NDISNumber, nullStr(l.LogoID), nullStr(l.ImageID),
		string(hours), jsonText(l.Address), tsv(l.CreatedAt), tsv(l.UpdatedAt), nullTs(l.ArchivedAt)}
}

// A location's practitioner and service ids are not its own: they are
// read from the join tables the practitioners and services write, and a
// location's own writes leave them alone.
var locations = &table[practiced.Location]{
	kind: practiced.KindLocation,
	cols: locationCols, scan: scanLocation, values: locationValues,
	joins: []join[practiced.Location]{
		{table: "practitioner_locations", keyCol: "location_id", valCol: "practitioner_id", readOnly: true,
			ids: func(l *practiced.Location) *[]string { return &l.PractitionerIDs }},
		{table: "service_locations", keyCol: "location_id", valCol: "service_id", readOnly: true,
			ids: func(l *practiced.Location) *[]string { return &l.ServiceIDs }},
	},
	docs: true,
	stamp: func(l *practiced.Location) *stamps {
		return &stamps{ID: &l.ID, UpdatedAt: &l.UpdatedAt, ArchivedAt: &l.ArchivedAt}
	},
}

// ListLocations returns a page of the business's locations.
func (s *Store) ListLocations(ctx context.Context, businessID string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Location, practiced.PageInfo, error) {
	return locations.list(ctx, s.r, businessID, locationQuery(businessID, f), p)
}

// ListLocationDocs returns the stored documents of the page ListLocations returns.
func (s *Store) ListLocationDocs(ctx context.Context, businessID string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return locations.listDocs(ctx, s.r, s.dialect, locationQuery(businessID, f), p)
}

// locationQuery is the query of a list of locations.
func locationQuery(businessID string, f practiced.ListFilter) *listQuery {
	return locations.query(businessID, f)
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

// touchLocations records that the locations changed because a record
// joined or left them (their practitioner_ids or service_ids): each gets
// updated_at = at, its document rewritten and a location.updated event,
// so the change feed, updated_since and lists see it. Locations are locked in id order, so that two
// transactions touching the same locations cannot deadlock.
func touchLocations(ctx context.Context, tx *sql.Tx, businessID string, ids []string, at practiced.Time) error {
	for _, id := range sortedIDs(ids) {
		if _, err := tx.ExecContext(ctx, `UPDATE locations SET updated_at = $1 WHERE business_id = $2 AND id = $3`,
			tsv(at), businessID, id); err != nil {
			return fmt.Errorf("touch location: %w", err)
		}
		doc, err := locations.rewriteDoc(ctx, tx, businessID, id)
		if err != nil {
			return err
		}
		if err := recordEvent(ctx, tx, businessID, locations.kind.Type, "updated", id, doc); err != nil {
			return err
		}
	}
	return nil
}
