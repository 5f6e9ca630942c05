package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const serviceCols = `id, name, description, duration, price_cents, buffer_before, buffer_after,
	max_clients, min_notice, booking_horizon_days, online_booking, color, reminder_minutes, created_at, updated_at, archived_at`

func scanService(r rowScanner) (practiced.Service, error) {
	var v practiced.Service
	err := r.Scan(&v.ID, &v.Name, &v.Description, &v.Duration, &v.PriceCents, &v.BufferBefore, &v.BufferAfter,
		&v.MaxClients, &v.MinNotice, &v.BookingHorizonDays, &v.OnlineBooking, &v.Color, &v.ReminderMinutes,
		timeScan{&v.CreatedAt}, timeScan{&v.UpdatedAt}, nullTimeScan{&v.ArchivedAt})
	return v, err
}

func serviceValues(v *practiced.Service) []any {
	return []any{v.ID, v.Name, v.Description, v.Duration, v.PriceCents, v.BufferBefore, v.BufferAfter,
		v.MaxClients, v.MinNotice, v.BookingHorizonDays, v.OnlineBooking, v.Color, v.ReminderMinutes,
		tsv(v.CreatedAt), tsv(v.UpdatedAt), nullTs(v.ArchivedAt)}
}

var services = &table[practiced.Service]{
	kind: practiced.KindService,
	cols: serviceCols, scan: scanService, values: serviceValues,
	joins: []join[practiced.Service]{
		{table: "service_locations", keyCol: "service_id", valCol: "location_id",
			ids: func(v *practiced.Service) *[]string { return &v.LocationIDs }},
	},
	docs: true,
	stamp: func(v *practiced.Service) *stamps {
		return &stamps{ID: &v.ID, UpdatedAt: &v.UpdatedAt, ArchivedAt: &v.ArchivedAt}
	},
}

// ListServices returns a page of the business's services.
func (s *Store) ListServices(ctx context.Context, businessID string, f practiced.ServiceFilter, p practiced.PageRequest) ([]practiced.Service, practiced.PageInfo, error) {
	return services.list(ctx, s.r, businessID, serviceQuery(businessID, f), p)
}

// ListServiceDocs returns the stored documents of the page ListServices returns.
func (s *Store) ListServiceDocs(ctx context.Context, businessID string, f practiced.ServiceFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return services.listDocs(ctx, s.r, s.dialect, serviceQuery(businessID, f), p)
}

// serviceQuery is the query of a list of services.
func serviceQuery(businessID string, f practiced.ServiceFilter) *listQuery {
	q := services.query(businessID, f.ListFilter)
	if f.LocationID != "" {
		q.filter(`id IN (SELECT service_id FROM service_locations WHERE business_id = $1 AND location_id = ` +
			q.args.add(f.LocationID) + `)`)
	}
	return q
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
