package practiced

import "context"

// ClientStore keeps clients.
type ClientStore interface {
	ListClients(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Client, PageInfo, error)
	// GetClient returns ENOTFOUND if the business has no such client.
	GetClient(ctx context.Context, businessID, id string) (Client, error)
	// CreateClient stores a new client; its ID must be set.
	CreateClient(ctx context.Context, businessID string, c *Client) error
	UpdateClient(ctx context.Context, businessID, id string, change func(*Client) error) (Client, error)
	ArchiveClient(ctx context.Context, businessID, id string, archived bool, now Time) (Client, error)
}

// BusyTimeStore keeps busy times.
type BusyTimeStore interface {
	ListBusyTimes(ctx context.Context, businessID string, f BusyTimeFilter, p PageRequest) ([]BusyTime, PageInfo, error)
	// CreateBusyTimes creates the busy times in one transaction and records
	// an event for each. With skipConflicts, a busy time that overlaps one
	// of its practitioner's busy times or non-cancelled appointments (as
	// they are when the transaction runs) is left out; the created ones are
	// returned. Returns EINVALID on starts_at when none is left.
	CreateBusyTimes(ctx context.Context, businessID string, bts []BusyTime, skipConflicts bool) ([]BusyTime, error)
}

// EventStore reads the change feed.
type EventStore interface {
}
