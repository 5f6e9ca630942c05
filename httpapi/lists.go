package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// listRequest is a list request being read: its query and page.
type listRequest struct {
	name string
	errs practiced.FieldErrors
	q    *query
	page practiced.PageRequest
}

// newList starts reading a list request. maxLimit is the largest page.
func newList(r *http.Request, name string, maxLimit int) *listRequest {
	l := &listRequest{name: name}
	l.q = newQuery(r.URL, &l.errs)
	l.page = l.q.pagination(name, maxLimit)
	return l
}

// done finishes reading: unknown parameters fail, and any failure is the
// returned 422 error.
func (l *listRequest) done() error {
	l.q.finish()
	return l.errs.Err()
}

// idOf returns a record's id, for cursors.
type idOf[T any] func(T) string

// respondList writes a page with links to the pages before and after it.
// The links repeat the request's own parameters with a new cursor.
func respondList[T any](s *Server, w http.ResponseWriter, r *http.Request, l *listRequest, data []T, info practiced.PageInfo, id idOf[T]) error {
	filter := filterKey(r.URL.Query())
	link := func(c cursor) *string {
		c.List, c.Filter = l.name, filter
		v := r.URL.Query()
		v.Set("cursor", c.encode())
		u := s.base(r) + r.URL.Path + "?" + v.Encode()
		return &u
	}
	var out links
	if len(data) > 0 {
		if info.HasPrev {
			out.Prev = link(cursor{Before: true, ID: id(data[0])})
		}
		if info.HasNext {
			out.Next = link(cursor{ID: id(data[len(data)-1])})
		}
	} else {
		// An empty page past the end still leads back to the records
		// before its cursor, and one before the start leads forward.
		switch {
		case l.page.After != "" && info.HasPrev:
			out.Prev = link(cursor{Before: true, Inclusive: true, ID: l.page.After})
		case l.page.Before != "" && info.HasNext:
			out.Next = link(cursor{Inclusive: true, ID: l.page.Before})
		}
	}
	writeJSON(w, http.StatusOK, page[T]{Data: data, Links: out})
	return nil
}
