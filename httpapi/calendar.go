package httpapi

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"

	practiced "github.com/practiced/practiced"
)

// POST /v1/practitioners/{id}/calendar_feed/rotate: a new secret
// calendar feed URL for the practitioner, shown in this answer only (its
// secret is stored hashed); the URL before it stops working at once.
func (s *Server) rotateCalendarFeed(w http.ResponseWriter, r *http.Request) error {
	id, _, err := loadRecord(r, practiced.KindPractitioner, s.store.GetPractitioner)
	if err != nil {
		return err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	secret := base64.RawURLEncoding.EncodeToString(b[:])
	if err := s.store.SetCalendarFeed(r.Context(), businessID(r.Context()), id, practiced.HashToken(secret), practiced.NewTime(s.now())); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"calendar_feed_url": s.base(r) + "/calendar/" + secret + ".ics"})
	return nil
}
