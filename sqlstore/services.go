package sqlstore

import (
	"context"
	"database/sql"

	practiced "github.com/practiced/practiced"
)

const serviceCols = `id, name, description, duration, price_cents, buffer_before, buffer_after,
	max_clients, min_notice, booking_horizon_days, online_booking, color, created_at, updated_at, archived_at`

func scanService(r rowScanner) (practiced.Service, error) {
	var v practiced.Service
	err := r.Scan(&v.ID, &v.Name, &v.Description, &v.Duration, &v.PriceCents, &v.BufferBefore, &v.BufferAfter,
		&v.MaxClients, &v.MinNotice, &v.BookingHorizonDays, &v.OnlineBooking, &v.Color,
		timeScan{&v.CreatedAt}, timeScan{&v.UpdatedAt}, nullTimeScan{&v.ArchivedAt})
	return v, err
}

func serviceValues(v *practiced.Service) []any {
	return []any{v.ID, v.Name, v.Description, v.Duration, v.PriceCents, v.BufferBefore, v.BufferAfter,
		v.MaxClients, v.MinNotice, v.BookingHorizonDays, v.OnlineBooking, v.Color,
		tsv(v.CreatedAt), tsv(v.UpdatedAt), nullTs(v.ArchivedAt)}
}

func normalizeService(v *practiced.Service) { v.LocationIDs = sortedIDs(v.LocationIDs) }

var services = &table[practiced.Service]{
	name: "services", recordType: "service", kind: "Service",
	cols: serviceCols, scan: scanService, values: serviceValues,
	load: loadServiceJoins, save: saveServiceJoins, normalize: normalizeService,
	stamp: func(v *practiced.Service) *stamps {
		return &stamps{ID: &v.ID, UpdatedAt: &v.UpdatedAt, ArchivedAt: &v.ArchivedAt}
	},
}

func loadServiceJoins(ctx context.Context, db queryer, businessID string, vs []practiced.Service) error {
	ids := make([]string, len(vs))
	for i := range vs {
		ids[i] = vs[i].ID
	}
	locs, err := joined(ctx, db, "service_locations", "service_id", "location_id", businessID, ids)
	if err != nil {
		return err
	}
	for i := range vs {
		vs[i].LocationIDs = append([]string{}, locs[vs[i].ID]...)
	}
	return nil
}

// saveServiceJoins writes the service's locations and touches the
// locations it was added to or removed from.
func saveServiceJoins(ctx context.Context, tx *sql.Tx, businessID string, v *practiced.Service) error {
	old, err := rejoin(ctx, tx, "service_locations", "service_id", "location_id", businessID, v.ID, v.LocationIDs)
	if err != nil {
		return err
	}
	return touchLocations(ctx, tx, businessID, symmetricDiff(old, v.LocationIDs), v.UpdatedAt)
}

// ListServices returns a page of the business's services.
func (s *Store) ListServices(ctx context.Context, businessID string, f practiced.ServiceFilter, p practiced.PageRequest) ([]practiced.Service, practiced.PageInfo, error) {
	q := services.query(businessID, f.ListFilter)
	if f.LocationID != "" {
		q.filter(`id IN (SELECT service_id FROM service_locations WHERE business_id = $1 AND location_id = ` +
			q.args.add(f.LocationID) + `)`)
	}
	return services.list(ctx, s.r, businessID, q, p)
}

// GetService returns one service of the business with its locations.
func (s *Store) GetService(ctx context.Context, businessID, id string) (practiced.Service, error) {
	return services.get(ctx, s.r, businessID, id, "")
}

// CreateService stores a new service with its locations.
func (s *Store) CreateService(ctx context.Context, businessID string, v *practiced.Service) error {
	return services.create(ctx, s, businessID, v)
}

// UpdateService changes a service in one transaction and records the change.
func (s *Store) UpdateService(ctx context.Context, businessID, id string, change func(*practiced.Service) error) (practiced.Service, error) {
	return services.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveService archives or unarchives a service.
func (s *Store) ArchiveService(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Service, error) {
	return services.archive(ctx, s, businessID, id, archived, now)
}
