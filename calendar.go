package practiced

import "context"

// CalendarFeedStore keeps the secret calendar feeds of practitioners: a
// feed is reached by its secret alone, so only the secret's hash is
// stored, and a practitioner has at most one.
type CalendarFeedStore interface {
	// SetCalendarFeed makes secretHash the hash of the practitioner's
	// feed secret, replacing the one before, which stops working.
	// ENOTFOUND if the business has no such practitioner.
	SetCalendarFeed(ctx context.Context, businessID, practitionerID, secretHash string, now Time) error
	// CalendarFeed returns the business and practitioner whose feed
	// secret hashes to secretHash; ENOTFOUND if none.
	CalendarFeed(ctx context.Context, secretHash string) (businessID, practitionerID string, err error)
}
