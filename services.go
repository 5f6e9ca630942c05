package practiced

import "context"

// Service is something a clinic books: a consultation type with a length.
type Service struct {
	ID                 string   `json:"id"`
	Name               string   `json:"name"`
	Description        string   `json:"description"`
	Duration           int      `json:"duration"`
	PriceCents         int      `json:"price_cents"`
	BufferBefore       int      `json:"buffer_before"`
	BufferAfter        int      `json:"buffer_after"`
	MaxClients         int      `json:"max_clients"`
	MinNotice          int      `json:"min_notice"`
	BookingHorizonDays int      `json:"booking_horizon_days"`
	OnlineBooking      bool     `json:"online_booking"`
	LocationIDs        []string `json:"location_ids"`
	Color              string   `json:"color"`
	// ReminderMinutes is how long before the start the clients of the
	// service's appointments are reminded by e-mail; 0 sends none.
	ReminderMinutes int   `json:"reminder_minutes"`
	CreatedAt       Time  `json:"created_at"`
	UpdatedAt       Time  `json:"updated_at"`
	ArchivedAt      *Time `json:"archived_at"`
}

// ServiceFilter filters the service list: LocationID keeps the services
// offered at the location.
type ServiceFilter struct {
	ListFilter
	LocationID string
}

// ServiceStore keeps services. Writing a service writes its LocationIDs
// too, read back in id order; a location the service is added to or
// removed from changes as well (its ServiceIDs), as for practitioners.
type ServiceStore interface {
	ListServices(ctx context.Context, businessID string, f ServiceFilter, p PageRequest) ([]Service, PageInfo, error)
	// GetService returns ENOTFOUND if the business has no such service.
	GetService(ctx context.Context, businessID, id string) (Service, error)
	CreateService(ctx context.Context, businessID string, v *Service) error
	UpdateService(ctx context.Context, businessID, id string, change func(*Service) error) (Service, error)
	ArchiveService(ctx context.Context, businessID, id string, archived bool, now Time) (Service, error)
}
