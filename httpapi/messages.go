package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	practiced "github.com/practiced/practiced"
)

// GET /v1/messages: the e-mail the server has planned and sent to the
// business's clients, newest id last, filterable by each of its fields.
func (s *Server) listMessages(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "messages", 100)
	f := practiced.MessageFilter{
		Kind:                l.q.enum("kind", practiced.MessageKinds),
		Status:              l.q.enum("status", practiced.MessageStatuses),
		To:                  l.q.text("to", 320),
		ClientID:            l.q.id("client_id", practiced.PrefixClient),
		AppointmentClientID: l.q.id("appointment_client_id", practiced.PrefixAppointmentClient),
		FormID:              l.q.id("form_id", practiced.PrefixForm),
		UpdatedSince:        l.q.timestamp("updated_since"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListMessages(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	for i := range data {
		redactLink(r, &data[i])
	}
	docs, err := docsOf(data)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, docs, info)
}

// GET /v1/messages/{id}
func (s *Server) getMessage(w http.ResponseWriter, r *http.Request) error {
	_, m, err := loadRecord(r, practiced.KindMessage, s.store.GetMessage)
	if err != nil {
		return err
	}
	redactLink(r, &m)
	writeJSON(w, http.StatusOK, m)
	return nil
}

// redactLink hides the secret address a message carries (the client's
// own page, which can cancel, or a form's, which can change the client)
// from a read-only key, which can change nothing by any path.
func redactLink(r *http.Request, m *practiced.Message) {
	if readOnly(r.Context()) {
		*m = m.Redacted()
	}
}

// notifying lets the body of an appointment write carry "notify": true,
// which sends the clients concerned a confirmation, change or
// cancellation notice by e-mail when the server sends e-mail. The field
// is taken out of the body before the handler reads it; anything but a
// boolean is a 422 on it.
func notifying(h handler) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			return err
		}
		var fields map[string]json.RawMessage
		if len(body) <= maxBody && json.Unmarshal(body, &fields) == nil {
			if v, ok := fields["notify"]; ok {
				var notify *bool
				if json.Unmarshal(v, &notify) != nil {
					return practiced.Invalid("notify", "must be true or false")
				}
				delete(fields, "notify")
				if body, err = json.Marshal(fields); err != nil {
					return err
				}
				if notify != nil && *notify {
					r = r.WithContext(practiced.WithNotify(r.Context()))
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		return h(w, r)
	}
}
