package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// GET /v1/client_packages
func (s *Server) listClientPackages(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "client_packages", 100)
	f := practiced.ClientPackageFilter{
		ListFilter: l.q.listFilter(),
		ClientID:   l.q.id("client_id", practiced.PrefixClient),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListClientPackageDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// maxSessions bounds the sessions of a package.
const maxSessions = 1000

// clientPackages creates and updates client packages.
func (s *Server) clientPackages() *resource[practiced.ClientPackage] {
	return &resource[practiced.ClientPackage]{
		kind: practiced.KindClientPackage,
		get:  s.store.GetClientPackage, create: s.store.CreateClientPackage, update: s.store.UpdateClientPackage,
		fresh: func(id string, now practiced.Time) practiced.ClientPackage {
			return practiced.ClientPackage{ID: id, CreatedAt: now, UpdatedAt: now}
		},
		read:  readClientPackage,
		check: (*practiced.ClientPackage).Check,
		touch: func(c *practiced.ClientPackage, now practiced.Time) { c.UpdatedAt = now },
	}
}

func readClientPackage(o *object, stored *practiced.ClientPackage) *patch[practiced.ClientPackage] {
	create := stored == nil
	p := &patch[practiced.ClientPackage]{}
	var owner *string
	if stored != nil {
		owner = &stored.ClientID
	}
	ownerClient(o, p, owner, "a package", func(c *practiced.ClientPackage) *string { return &c.ClientID })
	setText(p, mandatoryStr(o, "name", shortText, create), func(c *practiced.ClientPackage) *string { return &c.Name })
	setInt(p, mandatoryInt(o, "sessions_total", 1, maxSessions, create), 0,
		func(c *practiced.ClientPackage) *int { return &c.SessionsTotal })
	setInt(p, o.integer("sessions_used", 0, maxSessions), 0, func(c *practiced.ClientPackage) *int { return &c.SessionsUsed })
	setOptional(p, o.date("expires_on", false), func(c *practiced.ClientPackage) **string { return &c.ExpiresOn })
	o.finish()
	return p
}
