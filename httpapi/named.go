package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// The named records (tags, referral types, cancellation reasons and busy
// time types) share one shape, practiced.Named, and one store; the kind
// says which of them a route serves.

// GET /v1/<plural> of a kind of named record.
func (s *Server) listNamed(k practiced.Kind) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		l := newList(r, k.Plural, 100)
		f := l.q.listFilter()
		if err := l.done(); err != nil {
			return err
		}
		data, info, err := s.store.ListNamedDocs(r.Context(), businessID(r.Context()), k.Prefix, f, l.page)
		if err != nil {
			return err
		}
		return respondList(s, w, r, l, data, info)
	}
}

// named creates and updates the named records of kind k.
func (s *Server) named(k practiced.Kind) *resource[practiced.Named] {
	return &resource[practiced.Named]{
		kind: k,
		get:  s.store.GetNamed, create: s.store.CreateNamed, update: s.store.UpdateNamed,
		fresh: func(id string, now practiced.Time) practiced.Named {
			return practiced.Named{ID: id, CreatedAt: now, UpdatedAt: now}
		},
		read: func(o *object, stored *practiced.Named) *patch[practiced.Named] {
			return readNamed(o, k, stored == nil)
		},
		touch: func(n *practiced.Named, now practiced.Time) { n.UpdatedAt = now },
	}
}

// readNamed reads the body of a named record: name, and color for the
// kinds that have one (for the others color is an unknown field).
func readNamed(o *object, k practiced.Kind, create bool) *patch[practiced.Named] {
	p := &patch[practiced.Named]{}
	setText(p, mandatoryStr(o, "name", shortText, create), func(n *practiced.Named) *string { return &n.Name })
	if k.HasColor {
		setText(p, o.color("color"), func(n *practiced.Named) *string { return &n.Color })
	}
	o.finish()
	return p
}
