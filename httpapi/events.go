package httpapi

import (
	"net/http"
	"slices"
	"strings"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// GET /v1/events: the change feed, in feed order (docs/events.md).
// Events are never archived or updated, so the common list filters
// (include_archived, updated_since) do not apply and are refused like
// any unknown parameter. after is a filter like the others: it combines
// with since and the rest, and a cursor pages within what they match.
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "events", 100)
	f := practiced.EventFilter{
		Types:      eventTypes(l.q, "type"),
		RecordType: l.q.enum("record_type", practiced.RecordTypes),
		RecordID:   recordID(l.q, "record_id"),
		Since:      l.q.timestamp("since"),
		After:      eventID(l.q, "after"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListEvents(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	docs, err := docsOf(data)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, docs, info)
}

// eventTypes reads a repeatable parameter of event types,
// "<record_type>.<action>", reporting each malformed one with the actions
// its record type has. A type no event has yet (a well-formed one)
// simply matches nothing.
func eventTypes(q *query, name string) []string {
	var out []string
	for _, v := range q.all(name) {
		if !practiced.IsEventType(v) {
			recordType, _, _ := strings.Cut(v, ".")
			q.errs.Add(name, `"`+v+`" is not an event type: an event type is <record_type>.<action>, such as client.updated, `+
				"with an action among "+strings.Join(practiced.EventActionsOf(recordType), ", "))
			continue
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// eventID reads the id of an event; whether the business has it is the
// store's to say.
func eventID(q *query, name string) string {
	v, ok := q.get(name)
	if !ok {
		return ""
	}
	if !tid.Valid(v, practiced.PrefixEvent) {
		q.errs.Add(name, "must be an event id such as evt_01h455vb4pex5vsknk084sn02q")
		return ""
	}
	return v
}

// recordID reads the id of a record of any kind the change feed
// describes (practiced.Kinds).
func recordID(q *query, name string) string {
	v, ok := q.get(name)
	if !ok {
		return ""
	}
	if k, ok := practiced.KindOf(v); !ok || !tid.Valid(v, k.Prefix) {
		q.errs.Add(name, "must be a record id such as cli_01h455vb4pex5vsknk084sn02q")
		return ""
	}
	return v
}
