package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

func contactID(c practiced.Contact) string { return c.ID }

// personFilter reads the filters of the client and contact lists.
func personFilter(l *listRequest) practiced.PersonFilter {
	f := practiced.PersonFilter{
		ListFilter: l.q.listFilter(),
		Query:      l.q.text("q", 255),
		TagID:      l.q.id("tag_id", practiced.PrefixTag),
	}
	if phone, ok := normalizePhone(f.Query); ok {
		f.Phone = phone
	}
	return f
}

// GET /v1/contacts
func (s *Server) listContacts(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "contacts", 100)
	f := personFilter(l)
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListContacts(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, contactID)
}
