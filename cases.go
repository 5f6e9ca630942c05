package practiced

import "context"

// Case groups a client's appointments for one condition or claim.
type Case struct {
	ID         string `json:"id"`
	ClientID   string `json:"client_id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Notes      string `json:"notes"`
	CreatedAt  Time   `json:"created_at"`
	UpdatedAt  Time   `json:"updated_at"`
	ArchivedAt *Time  `json:"archived_at"`
}

// Case statuses.
const (
	CaseOpen   = "open"
	CaseClosed = "closed"
)

// CaseStatuses lists every case status.
var CaseStatuses = []string{CaseOpen, CaseClosed}

// CaseFilter filters the case list.
type CaseFilter struct {
	ListFilter
	ClientID string
	Status   string
}

// CaseStore keeps cases.
type CaseStore interface {
	ListCases(ctx context.Context, businessID string, f CaseFilter, p PageRequest) ([]Case, PageInfo, error)
	// GetCase returns ENOTFOUND if the business has no such case.
	GetCase(ctx context.Context, businessID, id string) (Case, error)
	CreateCase(ctx context.Context, businessID string, c *Case) error
	UpdateCase(ctx context.Context, businessID, id string, change func(*Case) error) (Case, error)
	ArchiveCase(ctx context.Context, businessID, id string, archived bool, now Time) (Case, error)
}
