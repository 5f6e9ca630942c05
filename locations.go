package practiced

import (
	"context"
	"encoding/json"
)

// Location is a place where practitioners see clients.
type Location struct {
	ID                       string `json:"id"`
	BusinessID               string `json:"-"`
	Name                     string `json:"name"`
	Description              string `json:"description"`
	Email                    string `json:"email"`
	Phone                    string `json:"phone"`
	Timezone                 string `json:"timezone"`
	OnlineAppointmentBooking bool   `json:"online_appointment_booking"`
	OnlineClassBooking       bool   `json:"online_class_booking"`
	// OnlineBookingsPerEmailPerDay is the most bookings the booking page
	// makes for one e-mail address at the location in 24 hours; 0 is no
	// limit.
	OnlineBookingsPerEmailPerDay int `json:"online_bookings_per_email_per_day"`
	// OnlineCancellationHours is how long before its start a client may
	// still cancel an appointment on their own page; 0 until the start.
	OnlineCancellationHours int          `json:"online_cancellation_hours"`
	TaxIdentifier           string       `json:"tax_identifier"`
	TaxIdentifierLabel      string       `json:"tax_identifier_label"`
	NDISNumber              string       `json:"ndis_number"`
	LogoID                  *string      `json:"logo_id"`
	ImageID                 *string      `json:"image_id"`
	ServiceIDs              []string     `json:"service_ids"`
	PractitionerIDs         []string     `json:"practitioner_ids"`
	OpeningHours            OpeningHours `json:"opening_hours"`
	Address                 Address      `json:"address"`
	CreatedAt               Time         `json:"created_at"`
	UpdatedAt               Time         `json:"updated_at"`
	ArchivedAt              *Time        `json:"archived_at"`
}

// DefaultOnlineBookingsPerEmailPerDay is a new location's
// OnlineBookingsPerEmailPerDay.
const DefaultOnlineBookingsPerEmailPerDay = 3

// OpeningHours holds a location's hours per weekday. Keys are
// "<day>_active", "<day>_opens_at" and "<day>_closes_at" for the day
// prefixes mon, tue, wed, thu, fri, sat and sun.
type OpeningHours struct {
	Days [7]DayHours // indexed by time.Weekday (Sunday = 0)
}

// DayHours is one weekday's opening hours, "HH:MM" local times.
type DayHours struct {
	Active   bool
	OpensAt  string
	ClosesAt string
}

// MarshalJSON writes the flat key form, Monday first.
func (h OpeningHours) MarshalJSON() ([]byte, error) {
	var b []byte
	b = append(b, '{')
	for i := 0; i < 7; i++ {
		wd := (i + 1) % 7
		d := h.Days[wd]
		p := DayPrefixes[wd]
		if i > 0 {
			b = append(b, ',')
		}
		active, _ := json.Marshal(d.Active)
		opens, _ := json.Marshal(d.OpensAt)
		closes, _ := json.Marshal(d.ClosesAt)
		b = append(b, `"`+p+`_active":`...)
		b = append(b, active...)
		b = append(b, `,"`+p+`_opens_at":`...)
		b = append(b, opens...)
		b = append(b, `,"`+p+`_closes_at":`...)
		b = append(b, closes...)
	}
	b = append(b, '}')
	return b, nil
}

// LocationStore keeps locations. A location's PractitionerIDs and
// ServiceIDs are read from the practitioners' and services' LocationIDs:
// writing a location leaves them as they are.
type LocationStore interface {
	ListLocations(ctx context.Context, businessID string, f ListFilter, p PageRequest) ([]Location, PageInfo, error)
	// GetLocation returns ENOTFOUND if the business has no such location.
	GetLocation(ctx context.Context, businessID, id string) (Location, error)
	CreateLocation(ctx context.Context, businessID string, l *Location) error
	UpdateLocation(ctx context.Context, businessID, id string, change func(*Location) error) (Location, error)
	ArchiveLocation(ctx context.Context, businessID, id string, archived bool, now Time) (Location, error)
}

// Check checks the opening hours: an active day needs both times, and a
// day opens before it closes. A day that is not active may keep its
// times (to reopen later), which must still be in order.
func (l *Location) Check(errs *FieldErrors) {
	for i := 0; i < 7; i++ {
		wd := (i + 1) % 7 // Monday first, as the hours are written
		d, p := l.OpeningHours.Days[wd], "opening_hours."+DayPrefixes[wd]
		if d.Active {
			if d.OpensAt == "" {
				errs.Add(p+"_opens_at", "is required when "+DayPrefixes[wd]+"_active is true")
			}
			if d.ClosesAt == "" {
				errs.Add(p+"_closes_at", "is required when "+DayPrefixes[wd]+"_active is true")
			}
		}
		if d.OpensAt != "" && d.ClosesAt != "" {
			checkClockRange(errs, p+"_opens_at", p+"_closes_at", DayPrefixes[wd]+"_opens_at", d.OpensAt, d.ClosesAt)
		}
	}
}
