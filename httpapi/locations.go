package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

func locationID(l practiced.Location) string { return l.ID }

// GET /v1/locations
func (s *Server) listLocations(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "locations", 100)
	f := l.q.listFilter()
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListLocations(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, locationID)
}
