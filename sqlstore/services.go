package sqlstore

import (
	"context"
	"database/sql"
	"errors"

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

// GetService returns one service of the business with its locations.
func (s *Store) GetService(ctx context.Context, businessID, id string) (practiced.Service, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+serviceCols+` FROM services WHERE business_id = $1 AND id = $2`, businessID, id)
	v, err := scanService(row)
	if errors.Is(err, sql.ErrNoRows) {
		return v, practiced.NotFound("Service")
	} else if err != nil {
		return v, err
	}
	locs, err := s.joined(ctx, "service_locations", "service_id", "location_id", businessID, []string{id})
	v.LocationIDs = append([]string{}, locs[id]...)
	return v, err
}
