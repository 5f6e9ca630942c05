package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/bookable"
	"github.com/practiced/practiced/tid"
)

// Limits of appointment fields.
const (
	appointmentNotes = 2000 // notes, attendee notes, cancellation notes
	maxAttendees     = 100  // clients sent in one booking, before max_clients is known
)

// GET /v1/appointments
func (s *Server) listAppointments(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "appointments", 100)
	f := practiced.AppointmentFilter{
		ListFilter:       l.q.listFilter(),
		PractitionerID:   l.q.id("practitioner_id", practiced.PrefixPractitioner),
		LocationID:       l.q.id("location_id", practiced.PrefixLocation),
		ClientID:         l.q.id("client_id", practiced.PrefixClient),
		StartsAfter:      l.q.timestamp("starts_after"),
		StartsBefore:     l.q.timestamp("starts_before"),
		IncludeCancelled: l.q.boolean("include_cancelled"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListAppointments(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	docs, err := docsOf(data)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, docs, info)
}

// bookingInput is the body of POST /v1/appointments.
type bookingInput struct {
	LocationID     opt[string]
	PractitionerID opt[string]
	ServiceID      opt[string]
	StartsAt       opt[time.Time]
	Duration       opt[int]
	Clients        []attendeeInput
	Notes          opt[string]
	AllowOverlap   bool
}

// attendeeInput is one client of a booking, or the body of POST
// /v1/appointment_clients; path is where its fields sit in the body.
type attendeeInput struct {
	path            string
	ClientID        opt[string]
	CaseID          opt[string]
	ClientPackageID opt[string]
	Note            opt[string]
}

// field returns the body path of one of the attendee's fields.
func (in attendeeInput) field(name string) string {
	if in.path == "" {
		return name
	}
	return in.path + "." + name
}

// readAttendee reads the fields a booking's client and a new attendee
// share.
func readAttendee(o *object) attendeeInput {
	return attendeeInput{
		path:            o.path,
		ClientID:        o.requiredID("client_id", practiced.PrefixClient),
		CaseID:          o.id("case_id", practiced.PrefixCase),
		ClientPackageID: o.id("client_package_id", practiced.PrefixClientPackage),
		Note:            o.str("note", appointmentNotes),
	}
}

// readBooking reads and checks the body's shape and values; references
// are checked against the store afterwards.
func readBooking(o *object) bookingInput {
	var in bookingInput
	in.LocationID = o.requiredID("location_id", practiced.PrefixLocation)
	in.PractitionerID = o.requiredID("practitioner_id", practiced.PrefixPractitioner)
	in.StartsAt = o.timestamp("starts_at")
	o.required("starts_at", in.StartsAt.Set || o.errs.Has("starts_at"), in.StartsAt.Null)
	in.ServiceID = o.id("service_id", practiced.PrefixService)
	in.Duration = o.integer("duration", minDuration, maxDuration)
	hasService := in.ServiceID.Set && !in.ServiceID.Null || o.errs.Has("service_id")
	hasDuration := in.Duration.Set && !in.Duration.Null || o.errs.Has("duration")
	if !hasService && !hasDuration {
		o.fail("duration", "is required when service_id is not given")
	}
	seen := map[string]bool{}
	set, null := o.objects("clients", maxAttendees, func(i int, item *object) {
		c := readAttendee(item)
		item.finish()
		if c.ClientID.Set && !c.ClientID.Null {
			if seen[c.ClientID.V] {
				item.fail("client_id", "repeats a client given earlier")
				return
			}
			seen[c.ClientID.V] = true
		}
		in.Clients = append(in.Clients, c)
	})
	switch {
	case !set:
		o.fail("clients", "is required")
	case null:
		o.fail("clients", "is required and cannot be null")
	case len(in.Clients) == 0 && !failedUnder(o.errs, "clients"):
		o.fail("clients", "must have at least one client")
	}
	in.Notes = o.str("notes", appointmentNotes)
	in.AllowOverlap = o.boolean("allow_overlap").V
	o.finish()
	return in
}

// failedUnder reports whether field or a field inside it has failed.
func failedUnder(errs *practiced.FieldErrors, field string) bool {
	return slices.ContainsFunc(errs.Fields(), func(f string) bool { return f == field || strings.HasPrefix(f, field+".") })
}

// bookingPlace is where and with whom an appointment is: the records
// its ids name, read for the rules that span them.
type bookingPlace struct {
	loc practiced.Location
	pra practiced.Practitioner
	svc practiced.Service // zero without a service
}

// loadPlace reads the location, practitioner and service (serviceID may
// be ""), adding "does not exist" to the field of each that is missing.
func (s *Server) loadPlace(ctx context.Context, biz string, errs *practiced.FieldErrors, locationID, practitionerID, serviceID string) (bookingPlace, error) {
	var p bookingPlace
	var err error
	if locationID != "" {
		p.loc, err = s.store.GetLocation(ctx, biz, locationID)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("location_id", "does not exist")
		} else if err != nil {
			return p, err
		}
	}
	if practitionerID != "" {
		p.pra, err = s.store.GetPractitioner(ctx, biz, practitionerID)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("practitioner_id", "does not exist")
		} else if err != nil {
			return p, err
		}
	}
	if serviceID != "" {
		p.svc, err = s.store.GetService(ctx, biz, serviceID)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			errs.Add("service_id", "does not exist")
		} else if err != nil {
			return p, err
		}
	}
	return p, nil
}

// worksThere reports whether the practitioner works at the location;
// true when either is unknown, so that a missing record is reported
// once, as missing.
func (p bookingPlace) worksThere() bool {
	return p.loc.ID == "" || p.pra.ID == "" || slices.Contains(p.loc.PractitionerIDs, p.pra.ID)
}

// offeredThere reports whether the service is offered at the location;
// true without a service.
func (p bookingPlace) offeredThere() bool {
	return p.loc.ID == "" || p.svc.ID == "" || slices.Contains(p.svc.LocationIDs, p.loc.ID)
}

// checkAttendeeRefs checks that the clients, cases and packages of
// attendees exist, and that each case and package is its own client's.
func (s *Server) checkAttendeeRefs(ctx context.Context, biz string, errs *practiced.FieldErrors, attendees []attendeeInput) error {
	var refs []ref
	type owned struct {
		field, id, client, what string
	}
	var uses []owned
	for _, in := range attendees {
		if in.ClientID.Set && !in.ClientID.Null {
			refs = append(refs, ref{in.field("client_id"), in.ClientID.V})
		}
		for _, u := range []struct {
			name, what string
			v          opt[string]
		}{{"case_id", "case", in.CaseID}, {"client_package_id", "package", in.ClientPackageID}} {
			if u.v.Set && !u.v.Null {
				refs = append(refs, ref{in.field(u.name), u.v.V})
				uses = append(uses, owned{in.field(u.name), u.v.V, in.ClientID.V, u.what})
			}
		}
	}
	if err := s.checkRefs(ctx, biz, errs, refs...); err != nil {
		return err
	}
	if len(uses) == 0 {
		return nil
	}
	ids := make([]string, len(uses))
	for i, u := range uses {
		ids[i] = u.id
	}
	owners, err := s.store.ClientsOf(ctx, biz, ids)
	if err != nil {
		return err
	}
	for _, u := range uses {
		if owner, ok := owners[u.id]; ok && u.client != "" && owner != u.client {
			errs.Add(u.field, "is not a "+u.what+" of the client "+u.client)
		}
	}
	return nil
}

// POST /v1/appointments
func (s *Server) createAppointment(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	in := readBooking(o)
	// References are checked even when other fields failed, so every
	// failure is reported at once.
	place, err := s.loadPlace(ctx, biz, &errs, in.LocationID.V, in.PractitionerID.V, in.ServiceID.V)
	if err != nil {
		return err
	}
	if !place.worksThere() {
		errs.Add("practitioner_id", "does not work at the location "+place.loc.ID)
	}
	if !place.offeredThere() {
		errs.Add("service_id", "is not offered at the location "+place.loc.ID)
	}
	if err := s.checkAttendeeRefs(ctx, biz, &errs, in.Clients); err != nil {
		return err
	}
	maxClients := 1
	if place.svc.ID != "" {
		maxClients = max(place.svc.MaxClients, 1)
	}
	if n := len(in.Clients); n > maxClients && !errs.Has("clients") {
		switch {
		case place.svc.ID != "" && maxClients == 1:
			errs.Add("clients", "must have one client: the service "+place.svc.ID+" has one place")
		case place.svc.ID != "":
			errs.Add("clients", fmt.Sprintf("must have at most %d clients: the service %s has %d places", maxClients, place.svc.ID, maxClients))
		case in.ServiceID.V == "":
			errs.Add("clients", "must have one client: an appointment without a service has one place")
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}

	minutes := place.svc.Duration
	if in.Duration.Set && !in.Duration.Null {
		minutes = in.Duration.V
	}
	now := practiced.NewTime(s.now())
	a := practiced.Appointment{
		ID:             tid.New(practiced.PrefixAppointment),
		LocationID:     place.loc.ID,
		PractitionerID: place.pra.ID,
		StartsAt:       practiced.NewTime(in.StartsAt.V),
		EndsAt:         practiced.NewTime(in.StartsAt.V.Add(time.Duration(minutes) * time.Minute)),
		Duration:       minutes,
		MaxClients:     maxClients,
		Notes:          in.Notes.V,
		CreatedAt:      now,
		UpdatedAt:      now,
	}
	if place.svc.ID != "" {
		a.ServiceID = &place.svc.ID
	}
	attendees := make([]practiced.AppointmentClient, len(in.Clients))
	for i, c := range in.Clients {
		attendees[i] = newAttendee(a, c, now)
	}
	var check practiced.ScheduleCheck
	if !in.AllowOverlap {
		check = conflictCheck(place)
	}
	if err := s.store.CreateAppointment(ctx, biz, &a, attendees, check); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, a)
	return nil
}

// newAttendee makes a booked attendee of a from its input.
func newAttendee(a practiced.Appointment, in attendeeInput, now practiced.Time) practiced.AppointmentClient {
	return practiced.AppointmentClient{
		ID:              tid.New(practiced.PrefixAppointmentClient),
		AppointmentID:   a.ID,
		ClientID:        in.ClientID.V,
		CaseID:          optPtr(in.CaseID),
		ClientPackageID: optPtr(in.ClientPackageID),
		Status:          practiced.StatusBooked,
		Note:            in.Note.V,
		StartsAt:        a.StartsAt,
		EndsAt:          a.EndsAt,
		CreatedAt:       now,
		UpdatedAt:       now,
	}
}

// conflictCheck is the conflict check of docs/availability.md, rule 3,
// for an appointment at p, the one the booking page's check runs too.
func conflictCheck(p bookingPlace) practiced.ScheduleCheck {
	return bookable.ConflictCheck(p.loc, p.pra, p.svc)
}

// rescheduleInput is the body of POST /v1/appointments/{id}.
type rescheduleInput struct {
	StartsAt       opt[time.Time]
	Duration       opt[int]
	PractitionerID opt[string]
	LocationID     opt[string]
	Notes          opt[string]
	AllowOverlap   bool
	// moved lists the fields sent that move the appointment.
	moved []string
}

func readReschedule(o *object) rescheduleInput {
	var in rescheduleInput
	in.StartsAt = o.timestamp("starts_at")
	o.refuseNull("starts_at", in.StartsAt.Null)
	in.Duration = o.integer("duration", minDuration, maxDuration)
	o.refuseNull("duration", in.Duration.Null)
	in.PractitionerID = o.id("practitioner_id", practiced.PrefixPractitioner)
	o.refuseNull("practitioner_id", in.PractitionerID.Null)
	in.LocationID = o.id("location_id", practiced.PrefixLocation)
	o.refuseNull("location_id", in.LocationID.Null)
	in.Notes = o.str("notes", appointmentNotes)
	in.AllowOverlap = o.boolean("allow_overlap").V
	o.finish()
	for _, f := range []string{"starts_at", "duration", "practitioner_id", "location_id"} {
		if o.has(f) {
			in.moved = append(in.moved, f)
		}
	}
	return in
}

// POST /v1/appointments/{id}: reschedule or change notes. Fields not
// sent stay as they are; the attendees move with the appointment.
func (s *Server) updateAppointment(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	req, err := readRecordRequest(w, r, practiced.KindAppointment, s.store.GetAppointment)
	if err != nil {
		return err
	}
	in := readReschedule(req.body)
	locationID, practitionerID := req.stored.LocationID, req.stored.PractitionerID
	if in.LocationID.Set && in.LocationID.V != "" {
		locationID = in.LocationID.V
	}
	if in.PractitionerID.Set && in.PractitionerID.V != "" {
		practitionerID = in.PractitionerID.V
	}
	var place bookingPlace
	if len(in.moved) > 0 {
		// The service is the appointment's own: it gives the buffers, and
		// must be offered at a new location.
		serviceID := ""
		if req.stored.ServiceID != nil {
			serviceID = *req.stored.ServiceID
		}
		if place, err = s.loadPlace(ctx, req.biz, &req.errs, locationID, practitionerID, serviceID); err != nil {
			return err
		}
		// Only what is sent is checked anew: a move in time alone stays
		// where it is, with whom it is, even if that has changed since.
		switch {
		case place.worksThere():
		case in.PractitionerID.Set:
			req.errs.Add("practitioner_id", "does not work at the location "+place.loc.ID)
		case in.LocationID.Set:
			req.errs.Add("location_id", "is not a location the practitioner "+place.pra.ID+" works at")
		}
		if in.LocationID.Set && locationID != req.stored.LocationID && !place.offeredThere() {
			req.errs.Add("location_id", "does not offer the appointment's service "+place.svc.ID)
		}
	}
	if err := req.errs.Err(); err != nil {
		return err
	}

	now := practiced.NewTime(s.now())
	var check practiced.ScheduleCheck
	if !in.AllowOverlap {
		check = conflictCheck(place)
	}
	a, _, err := s.store.UpdateAppointment(ctx, req.biz, req.id, now, func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		if in.Notes.Set {
			a.Notes = in.Notes.V
		}
		if len(in.moved) == 0 {
			return nil
		}
		start, minutes := a.StartsAt.Time, a.Duration
		if in.StartsAt.Set {
			start = in.StartsAt.V
		}
		if in.Duration.Set {
			minutes = in.Duration.V
		}
		return practiced.MoveAppointment(a, *acs, start, minutes, practitionerID, locationID, in.moved)
	}, check)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a)
	return nil
}

// POST /v1/appointments/{id}/cancel: cancels every attendee.
func (s *Server) cancelAppointment(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	req, err := readRecordRequest(w, r, practiced.KindAppointment, s.store.GetAppointment)
	if err != nil {
		return err
	}
	reason := req.body.id("cancellation_reason_id", practiced.PrefixCancellationReason)
	note := req.body.str("cancellation_note", appointmentNotes)
	req.body.finish()
	if reason.Set && !reason.Null {
		if err := s.checkRefs(ctx, req.biz, &req.errs, ref{"cancellation_reason_id", reason.V}); err != nil {
			return err
		}
	}
	if err := req.errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	a, _, err := s.store.UpdateAppointment(ctx, req.biz, req.id, now, func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		return practiced.CancelAppointment(a, *acs, optPtr(reason), note.V, now)
	}, nil)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a)
	return nil
}
