package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
	"github.com/practiced/practiced/wallclock"
)

// The columns of an appointments file: who, where, what and when, one
// attendee a row.
var appointmentColumns = []string{"practitioner", "location", "service", "client", "starts_at", "ends_at", "duration", "status", "notes"}

var appointmentKind = newKind("appointments", appointmentColumns, map[string]string{
	"Practitioner ID": "practitioner", "Location ID": "location", "Service ID": "service", "Client ID": "client",
	"Start": "starts_at", "End": "ends_at",
})

// Statuses an imported attendance may have.
var importStatuses = []string{practiced.StatusBooked, practiced.StatusArrived, practiced.StatusCompleted, practiced.StatusNoShow, practiced.StatusCancelled}

// Local times an appointments file may give, read in the location's zone.
var localLayouts = []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "02/01/2006 15:04"}

// refs are the business's records an appointments file names, by id and
// by name.
type refs struct {
	practitioners map[string]practiced.Practitioner
	locations     map[string]practiced.Location
	services      map[string]practiced.Service
	zones         map[string]*time.Location
	// byName maps a kind's folded names to ids; "" marks a name two
	// records share.
	pracNames, locNames, svcNames map[string]string
}

func loadRefs(ctx context.Context, st practiced.Store, biz string) (*refs, error) {
	r := &refs{practitioners: map[string]practiced.Practitioner{}, locations: map[string]practiced.Location{},
		services: map[string]practiced.Service{}, zones: map[string]*time.Location{},
		pracNames: map[string]string{}, locNames: map[string]string{}, svcNames: map[string]string{}}
	name := func(m map[string]string, n, id string) {
		n = normalize(n)
		if n == "" {
			return
		}
		if other, ok := m[n]; ok && other != id {
			m[n] = ""
			return
		}
		m[n] = id
	}
	archived := practiced.ListFilter{IncludeArchived: true}
	err := eachPage(func(p practiced.PageRequest) ([]practiced.Practitioner, practiced.PageInfo, error) {
		return st.ListPractitioners(ctx, biz, practiced.PractitionerFilter{ListFilter: archived}, p)
	}, func(p practiced.Practitioner) error {
		r.practitioners[p.ID] = p
		name(r.pracNames, p.FirstName+" "+p.LastName, p.ID)
		name(r.pracNames, p.DisplayName, p.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachPage(func(p practiced.PageRequest) ([]practiced.Location, practiced.PageInfo, error) {
		return st.ListLocations(ctx, biz, archived, p)
	}, func(l practiced.Location) error {
		zone, err := time.LoadLocation(l.Timezone)
		if err != nil {
			return fmt.Errorf("location %s: %w", l.ID, err)
		}
		r.locations[l.ID], r.zones[l.ID] = l, zone
		name(r.locNames, l.Name, l.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachPage(func(p practiced.PageRequest) ([]practiced.Service, practiced.PageInfo, error) {
		return st.ListServices(ctx, biz, practiced.ServiceFilter{ListFilter: archived}, p)
	}, func(s practiced.Service) error {
		r.services[s.ID] = s
		name(r.svcNames, s.Name, s.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// eachPage hands every record list reads, page by page, to fn.
func eachPage[T any](list func(practiced.PageRequest) ([]T, practiced.PageInfo, error), fn func(T) error) error {
	page := practiced.PageRequest{Limit: 100}
	for {
		recs, info, err := list(page)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			if err := fn(rec); err != nil {
				return err
			}
		}
		if !info.HasNext {
			return nil
		}
		page.After = info.LastID
	}
}

// find resolves an id of the kind, or a name.
func find[T any](byID map[string]T, byName map[string]string, prefix, v string) (string, string) {
	if tid.Valid(v, prefix) {
		if _, ok := byID[v]; ok {
			return v, ""
		}
		return "", "names no record of the business"
	}
	id, ok := byName[normalize(v)]
	switch {
	case !ok:
		return "", fmt.Sprintf("%q is neither an id (%s_…) nor the name of one", v, prefix)
	case id == "":
		return "", fmt.Sprintf("%q names more than one; give the id", v)
	}
	return id, ""
}

// importAppointments checks every row of an appointments file and
// stores them all in one transaction, or none.
func importAppointments(ctx context.Context, opt Options) (int, error) {
	f, err := opt.Open()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	counted := &countingReader{r: f}
	t, err := openTable(counted, appointmentKind.columns, appointmentKind.accepted())
	if err != nil {
		return 0, err
	}
	header := t.headerNames()
	r, err := loadRefs(ctx, opt.Store, opt.Business)
	if err != nil {
		return 0, err
	}
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	var failed Errors
	var d practiced.SeedData
	rows := 0
	for {
		line, row, err := t.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rows, err
		}
		rows++
		a, ac, errs := r.appointment(ctx, opt, row, header, practiced.NewTime(now()))
		if len(errs) > 0 {
			for i := range errs {
				errs[i].Line = line
			}
			failed.add(errs)
			continue
		}
		d.Appointments = append(d.Appointments, a)
		d.AppointmentClients = append(d.AppointmentClients, ac)
		if opt.Progress != nil && rows%1000 == 0 {
			opt.Progress("checking", counted.n.Load())
		}
	}
	if failed.Total > 0 {
		return rows, &failed
	}
	if opt.DryRun || rows == 0 {
		return rows, nil
	}
	done := false
	err = opt.Store.SeedAll(ctx, opt.Business, func() (practiced.SeedData, bool, error) {
		if done {
			return practiced.SeedData{}, false, nil
		}
		done = true
		return d, true, nil
	})
	if err != nil {
		return 0, fmt.Errorf("nothing was imported: %w", err)
	}
	return rows, nil
}

// appointment reads one row: an appointment of one attendee.
func (r *refs) appointment(ctx context.Context, opt Options, row, header map[string]string, now practiced.Time) (practiced.Appointment, practiced.AppointmentClient, []FieldError) {
	var errs []FieldError
	fail := func(field, msg string) {
		errs = append(errs, FieldError{Field: orElse(header[field], field), Message: msg})
	}
	need := func(field string) string {
		v := row[field]
		if v == "" {
			fail(field, "is required")
		}
		return v
	}
	var a practiced.Appointment
	var ac practiced.AppointmentClient
	var pra practiced.Practitioner
	if v := need("practitioner"); v != "" {
		id, msg := find(r.practitioners, r.pracNames, practiced.PrefixPractitioner, v)
		if msg != "" {
			fail("practitioner", msg)
		}
		a.PractitionerID, pra = id, r.practitioners[id]
	}
	if v := need("location"); v != "" {
		id, msg := find(r.locations, r.locNames, practiced.PrefixLocation, v)
		if msg != "" {
			fail("location", msg)
		}
		a.LocationID = id
	}
	if a.PractitionerID != "" && a.LocationID != "" && !slices.Contains(pra.LocationIDs, a.LocationID) {
		fail("location", "is not one of the practitioner's locations")
	}
	var svc practiced.Service
	if v := row["service"]; v != "" {
		id, msg := find(r.services, r.svcNames, practiced.PrefixService, v)
		if msg != "" {
			fail("service", msg)
		} else {
			svc = r.services[id]
			a.ServiceID = &svc.ID
			if a.LocationID != "" && !slices.Contains(svc.LocationIDs, a.LocationID) {
				fail("service", "is not offered at the location")
			}
		}
	}
	if v := need("client"); v != "" {
		id, msg := r.client(ctx, opt, v)
		if msg != "" {
			fail("client", msg)
		}
		ac.ClientID = id
	}
	zone := r.zones[a.LocationID]
	start, ok := r.when(row["starts_at"], zone)
	switch {
	case row["starts_at"] == "":
		fail("starts_at", "is required")
	case !ok:
		fail("starts_at", "must be a time such as 2026-03-02T09:30:00+11:00, or 2026-03-02 09:30 in the location's time zone")
	}
	var end time.Time
	switch {
	case row["ends_at"] != "":
		if end, ok = r.when(row["ends_at"], zone); !ok {
			fail("ends_at", "must be a time such as 2026-03-02T10:00:00+11:00, or 2026-03-02 10:00 in the location's time zone")
		}
	case row["duration"] != "":
		n, err := strconv.Atoi(row["duration"])
		if err != nil || n < 1 || n > 24*60 {
			fail("duration", "must be a number of minutes from 1 to 1440")
		} else {
			end = start.Add(time.Duration(n) * time.Minute)
		}
	case svc.Duration > 0:
		end = start.Add(time.Duration(svc.Duration) * time.Minute)
	default:
		fail("ends_at", "is required unless duration or a service with a duration is given")
	}
	if !start.IsZero() && !end.IsZero() && !end.After(start) {
		fail("ends_at", "must be after starts_at")
	} else if !start.IsZero() && end.Sub(start) > 24*time.Hour {
		fail("ends_at", "must be within a day of starts_at")
	}
	status := orElse(row["status"], practiced.StatusBooked)
	if !slices.Contains(importStatuses, status) {
		fail("status", "must be one of "+strings.Join(importStatuses, ", "))
	}
	if len(errs) > 0 {
		return a, ac, errs
	}
	a.ID = tid.New(practiced.PrefixAppointment)
	a.StartsAt, a.EndsAt = practiced.NewTime(start), practiced.NewTime(end)
	a.Duration = int(end.Sub(start) / time.Minute)
	a.MaxClients = max(svc.MaxClients, 1)
	a.Notes = row["notes"]
	a.AppointmentClientIDs = []string{}
	a.CreatedAt, a.UpdatedAt = now, now
	ac.ID = tid.New(practiced.PrefixAppointmentClient)
	ac.AppointmentID = a.ID
	ac.Status = status
	ac.StartsAt, ac.EndsAt = a.StartsAt, a.EndsAt
	ac.CreatedAt, ac.UpdatedAt = now, now
	switch status {
	case practiced.StatusCancelled:
		ac.CancelledAt = &now
		ac.CancellationNote = "Imported as cancelled."
	case practiced.StatusArrived, practiced.StatusCompleted:
		arrived := a.StartsAt
		ac.ArrivedAt = &arrived
	}
	return a, ac, nil
}

// client resolves a client's id, or the e-mail address of one live
// client of the business.
func (r *refs) client(ctx context.Context, opt Options, v string) (string, string) {
	if tid.Valid(v, practiced.PrefixClient) {
		if _, err := opt.Store.GetClient(ctx, opt.Business, v); err != nil {
			return "", "names no client of the business"
		}
		return v, ""
	}
	if !practiced.ValidEmail(v) {
		return "", fmt.Sprintf("%q is neither a client's id (cli_…) nor an e-mail address", v)
	}
	list, _, err := opt.Store.ListClients(ctx, opt.Business, practiced.PersonFilter{Query: v}, practiced.PageRequest{Limit: 100})
	if err != nil {
		return "", err.Error()
	}
	var ids []string
	for _, c := range list {
		if strings.EqualFold(c.Email, v) {
			ids = append(ids, c.ID)
		}
	}
	switch len(ids) {
	case 0:
		return "", fmt.Sprintf("no client has the e-mail address %s", v)
	case 1:
		return ids[0], ""
	}
	return "", fmt.Sprintf("%d clients have the e-mail address %s; give the client's id", len(ids), v)
}

// when reads a time with an offset, or a local time in zone (a time in
// a DST gap is the first instant after it, as everywhere in practiced).
func (r *refs) when(v string, zone *time.Location) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), true
	}
	if zone == nil {
		return time.Time{}, false
	}
	for _, layout := range localLayouts {
		if wall, err := time.Parse(layout, v); err == nil {
			at, _ := wallclock.Instant(wall, zone)
			return at, true
		}
	}
	return time.Time{}, false
}

func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
