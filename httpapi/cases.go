package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// GET /v1/cases
func (s *Server) listCases(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "cases", 100)
	f := practiced.CaseFilter{
		ListFilter: l.q.listFilter(),
		ClientID:   l.q.id("client_id", practiced.PrefixClient),
		Status:     l.q.enum("status", practiced.CaseStatuses),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListCaseDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// cases creates and updates cases.
func (s *Server) cases() *resource[practiced.Case] {
	return &resource[practiced.Case]{
		kind: practiced.KindCase,
		get:  s.store.GetCase, create: s.store.CreateCase, update: s.store.UpdateCase,
		fresh: func(id string, now practiced.Time) practiced.Case {
			return practiced.Case{ID: id, Status: practiced.CaseOpen, CreatedAt: now, UpdatedAt: now}
		},
		read:  readCase,
		touch: func(c *practiced.Case, now practiced.Time) { c.UpdatedAt = now },
	}
}

func readCase(o *object, stored *practiced.Case) *patch[practiced.Case] {
	p := &patch[practiced.Case]{}
	var owner *string
	if stored != nil {
		owner = &stored.ClientID
	}
	ownerClient(o, p, owner, "a case", func(c *practiced.Case) *string { return &c.ClientID })
	setText(p, mandatoryStr(o, "name", shortText, stored == nil), func(c *practiced.Case) *string { return &c.Name })
	if v := o.enum("status", practiced.CaseStatuses); v.Set {
		status := v.V
		if v.Null {
			status = practiced.CaseOpen // null restores the default
		}
		p.change(func(c *practiced.Case) { c.Status = status })
	}
	setText(p, o.str("notes", longDescription), func(c *practiced.Case) *string { return &c.Notes })
	o.finish()
	return p
}
