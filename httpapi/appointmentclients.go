package httpapi

import (
	"fmt"
	"net/http"
	"slices"

	practiced "github.com/practiced/practiced"
)

// GET /v1/appointment_clients
func (s *Server) listAppointmentClients(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "appointment_clients", 100)
	f := practiced.AppointmentClientFilter{
		ListFilter:    l.q.listFilter(),
		AppointmentID: l.q.id("appointment_id", practiced.PrefixAppointment),
		ClientID:      l.q.id("client_id", practiced.PrefixClient),
		Status:        l.q.enum("status", practiced.AppointmentClientStatuses),
		StartsAfter:   l.q.timestamp("starts_after"),
		StartsBefore:  l.q.timestamp("starts_before"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListAppointmentClients(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	docs, err := docsOf(data)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, docs, info)
}

// POST /v1/appointment_clients: a client joins a group appointment that
// has a free place.
func (s *Server) createAppointmentClient(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	appointmentID := o.requiredID("appointment_id", practiced.PrefixAppointment)
	in := readAttendee(o)
	o.finish()
	if appointmentID.Set && !appointmentID.Null {
		if err := s.checkRefs(ctx, biz, &errs, ref{"appointment_id", appointmentID.V}); err != nil {
			return err
		}
	}
	if err := s.checkAttendeeRefs(ctx, biz, &errs, []attendeeInput{in}); err != nil {
		return err
	}
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	var added practiced.AppointmentClient
	_, acs, err := s.store.UpdateAppointment(ctx, biz, appointmentID.V, now, func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		added = newAttendee(*a, in, now)
		if err := practiced.JoinAppointment(*a, *acs, added); err != nil {
			return err
		}
		*acs = append(*acs, added)
		return nil
	}, nil)
	if err != nil {
		return err
	}
	return writeAttendee(w, http.StatusCreated, acs, added.ID)
}

// attendeeChange is the body of POST /v1/appointment_clients/{id}: the
// changes to the attendee's own fields, as a patch, and the moves of its
// state machine, which are made after the fields change so that a
// cancellation reason sent with status cancelled is there when the move
// needs it.
type attendeeChange struct {
	fields    patch[practiced.AppointmentClient]
	status    opt[string]
	confirmed opt[bool]
	// caseID and clientPackageID must belong to the attendee's client.
	caseID, clientPackageID opt[string]
	// why lists the fields sent that say why an attendee was cancelled.
	why []string
}

func readAttendeeChange(o *object) *attendeeChange {
	c := &attendeeChange{}
	p := &c.fields
	c.status = o.enum("status", practiced.AppointmentClientStatuses)
	o.refuseNull("status", c.status.Null)
	c.confirmed = o.boolean("confirmed")
	o.refuseNull("confirmed", c.confirmed.Null)
	setText(p, o.str("note", appointmentNotes), func(a *practiced.AppointmentClient) *string { return &a.Note })
	doNotInvoice := o.boolean("do_not_invoice")
	o.refuseNull("do_not_invoice", doNotInvoice.Null)
	setBool(p, doNotInvoice, func(a *practiced.AppointmentClient) *bool { return &a.DoNotInvoice })
	c.caseID = o.id("case_id", practiced.PrefixCase)
	setOptional(p, c.caseID, func(a *practiced.AppointmentClient) **string { return &a.CaseID })
	c.clientPackageID = o.id("client_package_id", practiced.PrefixClientPackage)
	setOptional(p, c.clientPackageID, func(a *practiced.AppointmentClient) **string { return &a.ClientPackageID })
	reason := o.id("cancellation_reason_id", practiced.PrefixCancellationReason)
	setRef(p, "cancellation_reason_id", reason, func(a *practiced.AppointmentClient) **string { return &a.CancellationReasonID })
	note := o.str("cancellation_note", appointmentNotes)
	setText(p, note, func(a *practiced.AppointmentClient) *string { return &a.CancellationNote })
	for _, f := range []struct {
		name string
		set  bool
	}{{"cancellation_reason_id", reason.Set}, {"cancellation_note", note.Set}} {
		if f.set {
			c.why = append(c.why, f.name)
		}
	}
	o.finish()
	return c
}

// apply changes the attendee's fields, then confirms it and moves its
// status as the body says. Why an attendee was cancelled is said only of
// cancelled attendees, and a cancelled one keeps a reason or a note.
func (c *attendeeChange) apply(a *practiced.AppointmentClient, now practiced.Time) error {
	c.fields.apply(a)
	if c.confirmed.Set {
		practiced.ConfirmAppointmentClient(a, c.confirmed.V, now)
	}
	if c.status.Set {
		if err := practiced.TransitionAppointmentClient(a, c.status.V, now); err != nil {
			return err
		}
	}
	if len(c.why) == 0 {
		return nil
	}
	if a.Status == practiced.StatusCancelled {
		return practiced.CheckCancellationReason(*a)
	}
	var errs practiced.FieldErrors
	for _, f := range c.why {
		errs.Add(f, "is only for a cancelled attendee: send it with status cancelled")
	}
	return errs.Err()
}

// POST /v1/appointment_clients/{id}: a partial update; status moves
// through the state machine of docs/states.md.
func (s *Server) updateAppointmentClient(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	req, err := readRecordRequest(w, r, practiced.KindAppointmentClient, s.store.GetAppointmentClient)
	if err != nil {
		return err
	}
	change := readAttendeeChange(req.body)
	owned := attendeeInput{ClientID: opt[string]{Set: true, V: req.stored.ClientID}, CaseID: change.caseID, ClientPackageID: change.clientPackageID}
	if err := s.checkAttendeeRefs(ctx, req.biz, &req.errs, []attendeeInput{owned}); err != nil {
		return err
	}
	if err := s.checkRefs(ctx, req.biz, &req.errs, change.fields.refs...); err != nil {
		return err
	}
	if err := req.errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	_, acs, err := s.store.UpdateAppointment(ctx, req.biz, req.stored.AppointmentID, now, func(_ *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		i := slices.IndexFunc(*acs, func(c practiced.AppointmentClient) bool { return c.ID == req.id })
		if i < 0 {
			return practiced.NotFound(practiced.KindAppointmentClient.Name)
		}
		return change.apply(&(*acs)[i], now)
	}, nil)
	if err != nil {
		return err
	}
	return writeAttendee(w, http.StatusOK, acs, req.id)
}

// writeAttendee answers with the attendee id among acs, as the store
// left it.
func writeAttendee(w http.ResponseWriter, status int, acs []practiced.AppointmentClient, id string) error {
	i := slices.IndexFunc(acs, func(c practiced.AppointmentClient) bool { return c.ID == id })
	if i < 0 {
		return fmt.Errorf("appointment client %s is not among its appointment's attendees", id)
	}
	writeJSON(w, status, acs[i])
	return nil
}
