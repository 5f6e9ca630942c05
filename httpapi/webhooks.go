package httpapi

import (
	"net/http"
	"slices"
	"strconv"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
	"github.com/practiced/practiced/webhook"
)

// webhookEndpointWithSecret is an endpoint as its create and rotate
// answers give it: with its signing secret, which no other answer shows.
type webhookEndpointWithSecret struct {
	practiced.WebhookEndpoint
	Secret string `json:"secret"`
}

// The most event type patterns an endpoint may list.
const maxEventTypePatterns = 100

// GET /v1/webhook_endpoints: every endpoint of the business, oldest
// first (there are at most practiced.MaxWebhookEndpoints).
func (s *Server) listWebhookEndpoints(w http.ResponseWriter, r *http.Request) error {
	var errs practiced.FieldErrors
	newQuery(r.URL, &errs).finish()
	if err := errs.Err(); err != nil {
		return err
	}
	eps, err := s.store.ListWebhookEndpoints(r.Context(), businessID(r.Context()))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": eps})
	return nil
}

// POST /v1/webhook_endpoints
func (s *Server) createWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	e := practiced.WebhookEndpoint{ID: tid.New(practiced.PrefixWebhookEndpoint), Enabled: true, CreatedAt: now, UpdatedAt: now}
	if !o.has("url") {
		o.fail("url", "is required")
	}
	if !o.has("event_types") {
		o.fail("event_types", "is required")
	}
	s.readWebhookEndpoint(o)(&e)
	if err := errs.Err(); err != nil {
		return err
	}
	if e.Secret, err = webhook.NewSecret(); err != nil {
		return err
	}
	if err := s.store.CreateWebhookEndpoint(r.Context(), businessID(r.Context()), &e); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, webhookEndpointWithSecret{e, e.Secret})
	return nil
}

// readWebhookEndpoint reads the fields a create or an update body may
// set, checking each (a URL's host is looked up, see webhook.CheckURL),
// and returns the change they make to an endpoint. It reads the body
// once, before any transaction: the change may be applied more than
// once (Store.UpdateWebhookEndpoint's function may run again).
func (s *Server) readWebhookEndpoint(o *object) func(e *practiced.WebhookEndpoint) {
	var sets []func(e *practiced.WebhookEndpoint)
	if v := o.str("url", webhook.MaxURL+1); v.Set {
		if v.Null {
			o.fail("url", "is required and cannot be null")
		} else if why := webhook.CheckURL(v.V, s.allowPrivateWebhooks, s.lookupHost); why != "" {
			o.fail("url", why)
		} else {
			sets = append(sets, func(e *practiced.WebhookEndpoint) { e.URL = v.V })
		}
	}
	if v := o.str("description", longDescription); v.Set {
		sets = append(sets, func(e *practiced.WebhookEndpoint) { e.Description = v.V })
	}
	if v := o.strings("event_types", maxEventTypePatterns, 100); v.Set {
		if v.Null || len(v.V) == 0 {
			o.fail("event_types", "must list at least one event type, such as \"appointment.*\" or \"*\"")
		}
		for i, p := range v.V {
			if !practiced.IsEventTypePattern(p) {
				o.fail("event_types."+strconv.Itoa(i), "must be an event type (client.created), a record type and .* (appointment.*), or *")
			}
		}
		slices.Sort(v.V)
		types := slices.Compact(v.V)
		sets = append(sets, func(e *practiced.WebhookEndpoint) { e.EventTypes = slices.Clone(types) })
	}
	if v := o.boolean("enabled"); v.Set {
		if v.Null {
			o.fail("enabled", "is required and cannot be null")
		} else {
			sets = append(sets, func(e *practiced.WebhookEndpoint) {
				if v.V && !e.Enabled {
					// Enabled again by hand: the failing streak starts over.
					e.DisabledReason, e.FailingSince = nil, nil
				}
				e.Enabled = v.V
			})
		}
	}
	o.finish()
	return func(e *practiced.WebhookEndpoint) {
		for _, set := range sets {
			set(e)
		}
	}
}

// loadWebhookEndpoint reads the endpoint the path names: a malformed or
// unknown id is a 404.
func (s *Server) loadWebhookEndpoint(r *http.Request) (practiced.WebhookEndpoint, error) {
	id := r.PathValue("id")
	if !tid.Valid(id, practiced.PrefixWebhookEndpoint) {
		return practiced.WebhookEndpoint{}, practiced.NotFound("Webhook endpoint")
	}
	return s.store.GetWebhookEndpoint(r.Context(), businessID(r.Context()), id)
}

// GET /v1/webhook_endpoints/{id}
func (s *Server) getWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	e, err := s.loadWebhookEndpoint(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, e)
	return nil
}

// POST /v1/webhook_endpoints/{id}: a partial update.
func (s *Server) updateWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	e, err := s.loadWebhookEndpoint(r)
	if err != nil {
		return err
	}
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	change := s.readWebhookEndpoint(o)
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	e, err = s.store.UpdateWebhookEndpoint(r.Context(), businessID(r.Context()), e.ID, func(e *practiced.WebhookEndpoint) error {
		change(e)
		e.UpdatedAt = now
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, e)
	return nil
}

// DELETE /v1/webhook_endpoints/{id}: the endpoint and its deliveries
// are gone; the answer is the endpoint as it was.
func (s *Server) deleteWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	e, err := s.loadWebhookEndpoint(r)
	if err != nil {
		return err
	}
	if err := s.store.DeleteWebhookEndpoint(r.Context(), businessID(r.Context()), e.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, e)
	return nil
}

// POST /v1/webhook_endpoints/{id}/rotate_secret: a new secret signs
// from now on; the one before signs too for webhook.SecretOverlap, so a
// receiver can switch to the new one without missing a delivery.
func (s *Server) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	e, err := s.loadWebhookEndpoint(r)
	if err != nil {
		return err
	}
	secret, err := webhook.NewSecret()
	if err != nil {
		return err
	}
	now := s.now()
	e, err = s.store.UpdateWebhookEndpoint(r.Context(), businessID(r.Context()), e.ID, func(e *practiced.WebhookEndpoint) error {
		until := practiced.NewTime(now.Add(webhook.SecretOverlap))
		e.PreviousSecret, e.PreviousSecretUntil, e.Secret = e.Secret, &until, secret
		e.UpdatedAt = practiced.NewTime(now)
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, webhookEndpointWithSecret{e, e.Secret})
	return nil
}

// The most deliveries GET …/deliveries answers.
const maxDeliveriesListed = 100

// GET /v1/webhook_endpoints/{id}/deliveries: the newest deliveries, newest
// first; limit (1 to 100, default 100) says how many.
func (s *Server) listWebhookDeliveries(w http.ResponseWriter, r *http.Request) error {
	// The query is read first, as every list reads it: a bad parameter is
	// a 422 whatever the path names.
	var errs practiced.FieldErrors
	q := newQuery(r.URL, &errs)
	limit, _ := q.integer("limit", 1, maxDeliveriesListed, maxDeliveriesListed)
	q.finish()
	if err := errs.Err(); err != nil {
		return err
	}
	e, err := s.loadWebhookEndpoint(r)
	if err != nil {
		return err
	}
	ds, err := s.store.ListWebhookDeliveries(r.Context(), businessID(r.Context()), e.ID, limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": ds})
	return nil
}

// POST /v1/webhook_endpoints/{id}/deliveries/{delivery_id}/retry: the
// delivery is pending again and due now, whatever its status.
func (s *Server) retryWebhookDelivery(w http.ResponseWriter, r *http.Request) error {
	e, err := s.loadWebhookEndpoint(r)
	if err != nil {
		return err
	}
	id := r.PathValue("delivery_id")
	if !tid.Valid(id, practiced.PrefixWebhookDelivery) {
		return practiced.NotFound("Webhook delivery")
	}
	d, err := s.store.RetryWebhookDelivery(r.Context(), businessID(r.Context()), e.ID, id, practiced.NewTime(s.now()))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}
