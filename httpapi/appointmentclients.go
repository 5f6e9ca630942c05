package httpapi

import (
	"fmt"
	"net/http"
	"slices"

	practiced "github.com/practiced/practiced"
)

func appointmentClientID(c practiced.AppointmentClient) string { return c.ID }

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
	return respondList(s, w, r, l, data, info, appointmentClientID)
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

// attendeePatch is the body of POST /v1/appointment_clients/{id}.
type attendeePatch struct {
	Status               opt[string]
	Confirmed            opt[bool]
	Note                 opt[string]
	DoNotInvoice         opt[bool]
	CaseID               opt[string]
	ClientPackageID      opt[string]
	CancellationReasonID opt[string]
	CancellationNote     opt[string]
}

func readAttendeePatch(o *object) attendeePatch {
	var p attendeePatch
	p.Status = o.enum("status", practiced.AppointmentClientStatuses)
	o.refuseNull("status", p.Status.Null)
	p.Confirmed = o.boolean("confirmed")
	o.refuseNull("confirmed", p.Confirmed.Null)
	p.Note = o.str("note", appointmentNotes)
	p.DoNotInvoice = o.boolean("do_not_invoice")
	o.refuseNull("do_not_invoice", p.DoNotInvoice.Null)
	p.CaseID = o.id("case_id", practiced.PrefixCase)
	p.ClientPackageID = o.id("client_package_id", practiced.PrefixClientPackage)
	p.CancellationReasonID = o.id("cancellation_reason_id", practiced.PrefixCancellationReason)
	p.CancellationNote = o.str("cancellation_note", appointmentNotes)
	o.finish()
	return p
}

// apply changes c as the patch says, moving its status through the state
// machine last, so that a cancellation reason sent with status cancelled
// is there when the move needs it.
func (p attendeePatch) apply(c *practiced.AppointmentClient, now practiced.Time) error {
	if p.Note.Set {
		c.Note = p.Note.V
	}
	if p.DoNotInvoice.Set {
		c.DoNotInvoice = p.DoNotInvoice.V
	}
	if p.CaseID.Set {
		c.CaseID = optPtr(p.CaseID)
	}
	if p.ClientPackageID.Set {
		c.ClientPackageID = optPtr(p.ClientPackageID)
	}
	if p.CancellationReasonID.Set {
		c.CancellationReasonID = optPtr(p.CancellationReasonID)
	}
	if p.CancellationNote.Set {
		c.CancellationNote = p.CancellationNote.V
	}
	if p.Confirmed.Set {
		practiced.ConfirmAppointmentClient(c, p.Confirmed.V, now)
	}
	if p.Status.Set {
		if err := practiced.TransitionAppointmentClient(c, p.Status.V, now); err != nil {
			return err
		}
	}
	// Why an attendee was cancelled is said only of cancelled attendees,
	// and a cancelled one keeps a reason or a note.
	if !p.CancellationReasonID.Set && !p.CancellationNote.Set {
		return nil
	}
	if c.Status == practiced.StatusCancelled {
		return practiced.CheckCancellationReason(*c)
	}
	var errs practiced.FieldErrors
	for _, f := range []struct {
		name string
		set  bool
	}{{"cancellation_reason_id", p.CancellationReasonID.Set}, {"cancellation_note", p.CancellationNote.Set}} {
		if f.set {
			errs.Add(f.name, "is only for a cancelled attendee: send it with status cancelled")
		}
	}
	return errs.Err()
}

// POST /v1/appointment_clients/{id}: a partial update; status moves
// through the state machine of DESIGN.md section 4.
func (s *Server) updateAppointmentClient(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	id, cur, err := loadRecord(r, practiced.PrefixAppointmentClient, "Appointment client", s.store.GetAppointmentClient)
	if err != nil {
		return err
	}
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	p := readAttendeePatch(o)
	refs := attendeeInput{ClientID: opt[string]{Set: true, V: cur.ClientID}, CaseID: p.CaseID, ClientPackageID: p.ClientPackageID}
	if err := s.checkAttendeeRefs(ctx, biz, &errs, []attendeeInput{refs}); err != nil {
		return err
	}
	if p.CancellationReasonID.Set && !p.CancellationReasonID.Null {
		if err := s.checkRefs(ctx, biz, &errs, ref{"cancellation_reason_id", p.CancellationReasonID.V}); err != nil {
			return err
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	_, acs, err := s.store.UpdateAppointment(ctx, biz, cur.AppointmentID, now, func(a *practiced.Appointment, acs *[]practiced.AppointmentClient) error {
		i := slices.IndexFunc(*acs, func(c practiced.AppointmentClient) bool { return c.ID == id })
		if i < 0 {
			return practiced.NotFound("Appointment client")
		}
		if err := p.apply(&(*acs)[i], now); err != nil {
			return err
		}
		practiced.SettleAppointment(a, *acs)
		return nil
	}, nil)
	if err != nil {
		return err
	}
	return writeAttendee(w, http.StatusOK, acs, id)
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
