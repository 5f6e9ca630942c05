package practiced

import (
	"context"
	"strconv"
)

// ClientPackage is a prepaid bundle of sessions.
type ClientPackage struct {
	ID            string  `json:"id"`
	ClientID      string  `json:"client_id"`
	Name          string  `json:"name"`
	SessionsTotal int     `json:"sessions_total"`
	SessionsUsed  int     `json:"sessions_used"`
	ExpiresOn     *string `json:"expires_on"`
	CreatedAt     Time    `json:"created_at"`
	UpdatedAt     Time    `json:"updated_at"`
	ArchivedAt    *Time   `json:"archived_at"`
}

// ClientPackageFilter filters the client package list.
type ClientPackageFilter struct {
	ListFilter
	ClientID string
}

// ClientPackageStore keeps client packages.
type ClientPackageStore interface {
	ListClientPackages(ctx context.Context, businessID string, f ClientPackageFilter, p PageRequest) ([]ClientPackage, PageInfo, error)
	// GetClientPackage returns ENOTFOUND if the business has no such package.
	GetClientPackage(ctx context.Context, businessID, id string) (ClientPackage, error)
	CreateClientPackage(ctx context.Context, businessID string, c *ClientPackage) error
	UpdateClientPackage(ctx context.Context, businessID, id string, change func(*ClientPackage) error) (ClientPackage, error)
	ArchiveClientPackage(ctx context.Context, businessID, id string, archived bool, now Time) (ClientPackage, error)
}

// Check checks that no more sessions are used than the package holds.
func (c *ClientPackage) Check(errs *FieldErrors) {
	if c.SessionsUsed > c.SessionsTotal {
		errs.Add("sessions_used", "must not be more than sessions_total ("+strconv.Itoa(c.SessionsTotal)+")")
	}
}
