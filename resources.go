package practiced

import "context"

// LocationStore keeps locations.
type LocationStore interface {
	ListLocations(ctx context.Context, businessID string, f ListFilter, p PageRequest) ([]Location, PageInfo, error)
	// GetLocation returns ENOTFOUND if the business has no such location.
	GetLocation(ctx context.Context, businessID, id string) (Location, error)
}

// ContactStore keeps contacts.
type ContactStore interface {
	ListContacts(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Contact, PageInfo, error)
}

// PractitionerStore keeps practitioners.
type PractitionerStore interface {
	// GetPractitioner returns ENOTFOUND if the business has no such practitioner.
	GetPractitioner(ctx context.Context, businessID, id string) (Practitioner, error)
}

// ServiceStore keeps services.
type ServiceStore interface {
	// GetService returns ENOTFOUND if the business has no such service.
	GetService(ctx context.Context, businessID, id string) (Service, error)
}

// NamedStore keeps tags, referral types, cancellation reasons and busy
// time types.
type NamedStore interface {
}

// CaseStore keeps cases.
type CaseStore interface {
}

// ClientPackageStore keeps client packages.
type ClientPackageStore interface {
}
