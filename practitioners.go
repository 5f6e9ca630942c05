package practiced

import (
	"context"
	"strconv"
)

// Practitioner is a clinician who sees clients.
type Practitioner struct {
	ID           string                  `json:"id"`
	Title        string                  `json:"title"`
	FirstName    string                  `json:"first_name"`
	LastName     string                  `json:"last_name"`
	DisplayName  string                  `json:"display_name"`
	Designation  string                  `json:"designation"`
	Email        string                  `json:"email"`
	Phone        string                  `json:"phone"`
	LocationIDs  []string                `json:"location_ids"`
	ServiceIDs   []string                `json:"service_ids"`
	WorkingHours []WorkingHours          `json:"working_hours"`
	Exceptions   []AvailabilityException `json:"exceptions"`
	CreatedAt    Time                    `json:"created_at"`
	UpdatedAt    Time                    `json:"updated_at"`
	ArchivedAt   *Time                   `json:"archived_at"`
}

// WorkingHours is one range of a practitioner's own hours at a location.
type WorkingHours struct {
	LocationID string `json:"location_id"`
	Day        string `json:"day"`
	StartsAt   string `json:"starts_at"`
	EndsAt     string `json:"ends_at"`
}

// TimeRange is a local "HH:MM" range.
type TimeRange struct {
	StartsAt string `json:"starts_at"`
	EndsAt   string `json:"ends_at"`
}

// AvailabilityException replaces a practitioner's hours on one date, at
// one location or (LocationID nil) at every location. No ranges means
// unavailable that day.
type AvailabilityException struct {
	Date       string      `json:"date"`
	LocationID *string     `json:"location_id"`
	Ranges     []TimeRange `json:"ranges"`
}

// PractitionerFilter filters the practitioner list: LocationID keeps the
// practitioners who work at the location.
type PractitionerFilter struct {
	ListFilter
	LocationID string
}

// PractitionerStore keeps practitioners. Writing a practitioner writes
// its LocationIDs and ServiceIDs too; LocationIDs and ServiceIDs are read
// back in id order. A location the practitioner joins or leaves changes
// as well (its PractitionerIDs), so it gets the practitioner's UpdatedAt
// and a location.updated event in the same transaction.
type PractitionerStore interface {
	ListPractitioners(ctx context.Context, businessID string, f PractitionerFilter, p PageRequest) ([]Practitioner, PageInfo, error)
	// GetPractitioner returns ENOTFOUND if the business has no such practitioner.
	GetPractitioner(ctx context.Context, businessID, id string) (Practitioner, error)
	CreatePractitioner(ctx context.Context, businessID string, p *Practitioner) error
	UpdatePractitioner(ctx context.Context, businessID, id string, change func(*Practitioner) error) (Practitioner, error)
	ArchivePractitioner(ctx context.Context, businessID, id string, archived bool, now Time) (Practitioner, error)
}

// Check checks the practitioner's own hours: each range of working hours
// and of exceptions starts before it ends; working hours are at one of
// the practitioner's locations, and do not overlap other working hours at
// that location on that day; an exception's location, when it names one,
// is one of the practitioner's locations, no two exceptions share a date
// and location, and an exception's ranges do not overlap.
func (p *Practitioner) Check(errs *FieldErrors) {
	works := map[string]bool{}
	for _, id := range p.LocationIDs {
		works[id] = true
	}
	type span struct{ from, to, index int }
	byDay := map[[2]string][]span{}
	for i, wh := range p.WorkingHours {
		path := "working_hours." + strconv.Itoa(i)
		if !works[wh.LocationID] {
			errs.Add(path+".location_id", "is not one of the practitioner's location_ids")
		}
		from, to, ok := checkClockRange(errs, path+".starts_at", path+".ends_at", "starts_at", wh.StartsAt, wh.EndsAt)
		if !ok {
			continue
		}
		key := [2]string{wh.LocationID, wh.Day}
		for _, s := range byDay[key] {
			if from < s.to && s.from < to {
				errs.Add(path, "overlaps working_hours."+strconv.Itoa(s.index)+" on "+wh.Day+" at the same location")
				break
			}
		}
		byDay[key] = append(byDay[key], span{from, to, i})
	}
	seen := map[[2]string]int{}
	for i, ex := range p.Exceptions {
		path := "exceptions." + strconv.Itoa(i)
		where := ""
		if ex.LocationID != nil {
			where = *ex.LocationID
			if !works[where] {
				errs.Add(path+".location_id", "is not one of the practitioner's location_ids")
			}
		}
		key := [2]string{ex.Date, where}
		if j, dup := seen[key]; dup {
			errs.Add(path, "repeats the date and location of exceptions."+strconv.Itoa(j))
		} else {
			seen[key] = i
		}
		var spans []span
		for k, r := range ex.Ranges {
			rpath := path + ".ranges." + strconv.Itoa(k)
			from, to, ok := checkClockRange(errs, rpath+".starts_at", rpath+".ends_at", "starts_at", r.StartsAt, r.EndsAt)
			if !ok {
				continue
			}
			for _, s := range spans {
				if from < s.to && s.from < to {
					errs.Add(rpath, "overlaps "+path+".ranges."+strconv.Itoa(s.index))
					break
				}
			}
			spans = append(spans, span{from, to, k})
		}
	}
}
