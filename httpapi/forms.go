package httpapi

import (
	"context"
	"net/http"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// GET /v1/forms. Forms carry their whole content, so pages hold at most
// 10. Filters on related records come in deepObject style: filter[client_id].
func (s *Server) listForms(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "forms", 10)
	f := practiced.FormFilter{
		ListFilter:          l.q.listFilter(),
		Status:              l.q.enum("status", practiced.FormStatuses),
		ClientID:            l.q.id("filter[client_id]", practiced.PrefixClient),
		AppointmentClientID: l.q.id("filter[appointment_client_id]", practiced.PrefixAppointmentClient),
		LocationID:          l.q.id("filter[location_id]", practiced.PrefixLocation),
		FormTemplateID:      l.q.id("filter[form_template_id]", practiced.PrefixFormTemplate),
		SentStatus:          l.q.enum("filter[sent_status]", practiced.SentStatuses),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListForms(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	for i := range data {
		s.finishForm(r, &data[i])
	}
	docs, err := docsOf(data)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, docs, info)
}

// finishForm fills what the store does not know: the hosted page's URL.
// The link opens a page that can rewrite the client, so a read-only key
// is answered "" for it, as events' data has it.
func (s *Server) finishForm(r *http.Request, f *practiced.Form) {
	if readOnly(r.Context()) {
		return
	}
	f.HostedFormURL = s.base(r) + "/f/" + f.ID + "?secret=" + f.LinkSecret
}

// POST /v1/forms: a form of a template for a client. The template's
// name, colour, completion message, flags and content are copied into
// the form, every question unanswered.
func (s *Server) createForm(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	templateID := o.requiredID("form_template_id", practiced.PrefixFormTemplate)
	clientID := o.requiredID("client_id", practiced.PrefixClient)
	locationID := o.id("location_id", practiced.PrefixLocation)
	attendanceID := o.id("appointment_client_id", practiced.PrefixAppointmentClient)
	o.finish()
	var refs []ref
	for _, f := range []struct {
		field string
		v     opt[string]
	}{{"form_template_id", templateID}, {"client_id", clientID}, {"location_id", locationID}, {"appointment_client_id", attendanceID}} {
		if f.v.Set && !f.v.Null {
			refs = append(refs, ref{f.field, f.v.V})
		}
	}
	if err := s.checkRefs(ctx, biz, &errs, refs...); err != nil {
		return err
	}
	if err := errs.Err(); err != nil {
		return err
	}
	t, err := s.store.GetFormTemplate(ctx, biz, templateID.V)
	if err != nil {
		return err
	}
	f := practiced.FormFromTemplate(t, tid.New(practiced.PrefixForm), clientID.V, practiced.NewTime(s.now()))
	f.LocationID, f.AppointmentClientID = optPtr(locationID), optPtr(attendanceID)
	if err := s.store.CreateForm(ctx, biz, &f); err != nil {
		return err
	}
	s.finishForm(r, &f)
	writeJSON(w, http.StatusCreated, f)
	return nil
}

// POST /v1/forms/{id}/send records that the form's link was sent to the
// client (delivering it is the caller's business): not_sent becomes sent.
// Sending again changes nothing, so sent_at stays the first sending.
func (s *Server) sendForm(w http.ResponseWriter, r *http.Request) error {
	req, err := readRecordRequest(w, r, practiced.KindForm, s.store.GetForm)
	if err != nil {
		return err
	}
	if err := req.noFields(); err != nil {
		return err
	}
	f := req.stored
	now := practiced.NewTime(s.now())
	if s.messages {
		// The server e-mails the link: each request is a message of its
		// own, and the form's sent_status follows its delivery.
		if _, err := s.store.QueueFormLink(r.Context(), req.biz, req.id, "form_link:"+tid.New(practiced.PrefixMessage), now); err != nil {
			return err
		}
		if f, err = s.store.GetForm(r.Context(), req.biz, req.id); err != nil {
			return err
		}
		s.finishForm(r, &f)
		writeJSON(w, http.StatusOK, f)
		return nil
	}
	// Only a change is written, so a resend records no event.
	if changed, err := practiced.SendForm(&f, now); err != nil {
		return err
	} else if changed {
		f, err = s.store.UpdateForm(r.Context(), req.biz, req.id, func(f *practiced.Form) error {
			_, err := practiced.SendForm(f, now)
			f.UpdatedAt = now
			return err
		})
		if err != nil {
			return err
		}
	}
	s.finishForm(r, &f)
	writeJSON(w, http.StatusOK, f)
	return nil
}

// GET /v1/forms/{id}, with the hosted form's URL filled in.
func (s *Server) getForm(w http.ResponseWriter, r *http.Request) error {
	_, f, err := loadRecord(r, practiced.KindForm, s.store.GetForm)
	if err != nil {
		return err
	}
	s.finishForm(r, &f)
	writeJSON(w, http.StatusOK, f)
	return nil
}

// archiveForm answers POST /v1/forms/{id}/archive and …/unarchive, with
// the hosted form's URL filled in.
func (s *Server) archiveForm(archived bool) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		archive := func(ctx context.Context, biz, id string, archived bool, now practiced.Time) (practiced.Form, error) {
			f, err := s.store.ArchiveForm(ctx, biz, id, archived, now)
			s.finishForm(r, &f)
			return f, err
		}
		return archiveOne(practiced.KindForm, archive, archived, s.now)(w, r)
	}
}
