package practiced

import (
	"context"
	"strconv"
	"strings"
)

// The clinic's set-up and people: locations, contacts, practitioners,
// services, the four kinds of named records, cases and client packages.
//
// Every kind has the same five methods besides its list: Get (ENOTFOUND
// when the business has no such record), Create (the record's ID must be
// set; EINVALID when a record it refers to is missing), Update and
// Archive, which behave as the Store documentation says.

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

// ContactStore keeps contacts.
type ContactStore interface {
	ListContacts(ctx context.Context, businessID string, f PersonFilter, p PageRequest) ([]Contact, PageInfo, error)
	// GetContact returns ENOTFOUND if the business has no such contact.
	GetContact(ctx context.Context, businessID, id string) (Contact, error)
	CreateContact(ctx context.Context, businessID string, c *Contact) error
	UpdateContact(ctx context.Context, businessID, id string, change func(*Contact) error) (Contact, error)
	ArchiveContact(ctx context.Context, businessID, id string, archived bool, now Time) (Contact, error)
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

// NamedKind is one of the four kinds of named records. They share one
// shape and one implementation; the prefix of a record's id says which
// kind it is.
type NamedKind struct {
	Prefix     string // id prefix, e.g. "tag"
	Plural     string // resource name in paths and table name, e.g. "tags"
	RecordType string // singular name in events, e.g. "tag"
	Kind       string // name in messages, e.g. "Tag"
	// HasColor is true for the kinds that carry a color.
	HasColor bool
}

// NamedKinds lists the four kinds of named records.
var NamedKinds = []NamedKind{
	{Prefix: PrefixTag, Plural: "tags", RecordType: "tag", Kind: "Tag", HasColor: true},
	{Prefix: PrefixReferralType, Plural: "referral_types", RecordType: "referral_type", Kind: "Referral type"},
	{Prefix: PrefixCancellationReason, Plural: "cancellation_reasons", RecordType: "cancellation_reason", Kind: "Cancellation reason"},
	{Prefix: PrefixBusyTimeType, Plural: "busy_time_types", RecordType: "busy_time_type", Kind: "Busy time type", HasColor: true},
}

// NamedKindOf returns the kind of named record an id names by its prefix;
// ok is false for an id of any other kind.
func NamedKindOf(id string) (k NamedKind, ok bool) {
	prefix, _, found := strings.Cut(id, "_")
	if !found {
		return NamedKind{}, false
	}
	for _, k := range NamedKinds {
		if k.Prefix == prefix {
			return k, true
		}
	}
	return NamedKind{}, false
}

// NamedStore keeps tags, referral types, cancellation reasons and busy
// time types. ListNamed lists the kind with the given id prefix; the
// other methods find the kind by the prefix of the record's id, and an id
// of no named kind is ENOTFOUND (EINVALID for CreateNamed).
type NamedStore interface {
	ListNamed(ctx context.Context, businessID, prefix string, f ListFilter, p PageRequest) ([]Named, PageInfo, error)
	GetNamed(ctx context.Context, businessID, id string) (Named, error)
	CreateNamed(ctx context.Context, businessID string, n *Named) error
	UpdateNamed(ctx context.Context, businessID, id string, change func(*Named) error) (Named, error)
	ArchiveNamed(ctx context.Context, businessID, id string, archived bool, now Time) (Named, error)
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

// The rules below span several fields of a record, so they are checked
// on the record as a create or an update leaves it: one side of a rule
// may come from the stored record. Each adds every failure to errs under
// the field's dotted path.

// ParseClock reads a local wall-clock time "HH:MM" (00:00 to 23:59, and
// 24:00 for the end of the day) as minutes after midnight.
func ParseClock(s string) (minutes int, ok bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	switch {
	case h == 24 && m == 0:
		return 24 * 60, true
	case h > 23 || m > 59:
		return 0, false
	}
	return h*60 + m, true
}

// EndOfDay is "24:00", the only clock time that can end a range but not
// start one.
const EndOfDay = "24:00"

// checkClockRange checks that a range of valid clock times starts before
// it ends. The start is the field startPath, named start in messages, and
// the end the field endPath. It returns the range in minutes, and ok
// false when the range failed.
func checkClockRange(errs *FieldErrors, startPath, endPath, startName, start, end string) (from, to int, ok bool) {
	from, okFrom := ParseClock(start)
	to, okTo := ParseClock(end)
	if !okFrom || !okTo {
		return 0, 0, false // a malformed time is refused where it is read
	}
	if start == EndOfDay {
		errs.Add(startPath, "must be before 24:00, which can only end a range")
		return 0, 0, false
	}
	if to <= from {
		errs.Add(endPath, "must be after "+startName+" ("+start+")")
		return 0, 0, false
	}
	return from, to, true
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
		path := "working_hours." + itoa(i)
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
				errs.Add(path, "overlaps working_hours."+itoa(s.index)+" on "+wh.Day+" at the same location")
				break
			}
		}
		byDay[key] = append(byDay[key], span{from, to, i})
	}
	seen := map[[2]string]int{}
	for i, ex := range p.Exceptions {
		path := "exceptions." + itoa(i)
		where := ""
		if ex.LocationID != nil {
			where = *ex.LocationID
			if !works[where] {
				errs.Add(path+".location_id", "is not one of the practitioner's location_ids")
			}
		}
		key := [2]string{ex.Date, where}
		if j, dup := seen[key]; dup {
			errs.Add(path, "repeats the date and location of exceptions."+itoa(j))
		} else {
			seen[key] = i
		}
		var spans []span
		for k, r := range ex.Ranges {
			rpath := path + ".ranges." + itoa(k)
			from, to, ok := checkClockRange(errs, rpath+".starts_at", rpath+".ends_at", "starts_at", r.StartsAt, r.EndsAt)
			if !ok {
				continue
			}
			for _, s := range spans {
				if from < s.to && s.from < to {
					errs.Add(rpath, "overlaps "+path+".ranges."+itoa(s.index))
					break
				}
			}
			spans = append(spans, span{from, to, k})
		}
	}
}

// Check checks that no more sessions are used than the package holds.
func (c *ClientPackage) Check(errs *FieldErrors) {
	if c.SessionsUsed > c.SessionsTotal {
		errs.Add("sessions_used", "must not be more than sessions_total ("+itoa(c.SessionsTotal)+")")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
