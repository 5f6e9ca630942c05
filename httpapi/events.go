package httpapi

import (
	"net/http"
	"slices"
	"strings"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

func eventID(e practiced.Event) string { return e.ID }

// GET /v1/events: the change feed, oldest first. Events are never
// archived or updated, so the common list filters (include_archived,
// updated_since) do not apply and are refused like any unknown parameter.
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "events", 100)
	f := practiced.EventFilter{
		Types:      eventTypes(l.q, "type"),
		RecordType: l.q.enum("record_type", practiced.RecordTypes),
		RecordID:   recordID(l.q, "record_id"),
		Since:      l.q.timestamp("since"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListEvents(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, eventID)
}

// eventTypes reads a repeatable parameter of event types,
// "<record_type>.<action>", reporting each malformed one. A type no event
// has yet (a well-formed one) simply matches nothing.
func eventTypes(q *query, name string) []string {
	var out []string
	for _, v := range q.all(name) {
		recordType, action, _ := strings.Cut(v, ".")
		if !slices.Contains(practiced.RecordTypes, recordType) || !slices.Contains(practiced.EventActions, action) {
			q.errs.Add(name, `"`+v+`" is not an event type: an event type is <record_type>.<action>, such as client.updated, `+
				"with an action among "+strings.Join(practiced.EventActions, ", "))
			continue
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// recordPrefixes are the id prefixes of the records events describe.
var recordPrefixes = []string{
	practiced.PrefixAppointment, practiced.PrefixAppointmentClient, practiced.PrefixBusyTime, practiced.PrefixBusyTimeType,
	practiced.PrefixCancellationReason, practiced.PrefixCase, practiced.PrefixClient, practiced.PrefixClientPackage,
	practiced.PrefixContact, practiced.PrefixForm, practiced.PrefixFormTemplate, practiced.PrefixLocation,
	practiced.PrefixPractitioner, practiced.PrefixReferralType, practiced.PrefixService, practiced.PrefixTag,
}

// recordID reads the id of any kind of record.
func recordID(q *query, name string) string {
	v, ok := q.get(name)
	if !ok {
		return ""
	}
	if p := tid.Prefix(v); !slices.Contains(recordPrefixes, p) || !tid.Valid(v, p) {
		q.errs.Add(name, "must be a record id such as cli_01h455vb4pex5vsknk084sn02q")
		return ""
	}
	return v
}
