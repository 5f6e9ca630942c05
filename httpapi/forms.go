package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

func formID(f practiced.Form) string { return f.ID }

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
	return respondList(s, w, r, l, data, info, formID)
}

// finishForm fills what the store does not know: the hosted page's URL.
func (s *Server) finishForm(r *http.Request, f *practiced.Form) {
	f.HostedFormURL = s.base(r) + "/f/" + f.ID
}
