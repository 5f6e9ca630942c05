package practiced

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// Event records one change to one record, for the change feed.
type Event struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	RecordType string          `json:"record_type"`
	RecordID   string          `json:"record_id"`
	Data       json.RawMessage `json:"data"`
	CreatedAt  Time            `json:"created_at"`
}

// EventStore reads the change feed. Events are written by the methods
// that make the changes, never through this interface.
type EventStore interface {
	// ListEvents returns a page of the business's events in feed order:
	// the order they became visible in, so that a reader resuming after
	// an event it has seen never misses one (docs/events.md). Returns
	// EINVALID on after if f.After names no event of the business.
	ListEvents(ctx context.Context, businessID string, f EventFilter, p PageRequest) ([]Event, PageInfo, error)
	// GetEvent returns ENOTFOUND if the business has no such event.
	GetEvent(ctx context.Context, businessID, id string) (Event, error)
}

// EventFilter filters the change feed. Empty fields match every event;
// Types matches an event whose type is any of them.
type EventFilter struct {
	Types      []string
	RecordType string
	RecordID   string
	Since      *time.Time // created at or after
	After      string     // the id of an event: only those after it in the feed
}

// EventActions are the changes an event of any record can describe: an
// event's type is "<record_type>.<action>".
var EventActions = []string{"created", "updated", "archived", "unarchived", "deleted"}

// DomainEventActions are, for the record types that have them, the
// actions of domain events: what a change means, written beside the
// event of the change itself, in its transaction and with the same data
// (see AppointmentEvents, AppointmentClientEvents and FormEvents).
var DomainEventActions = map[string][]string{
	KindAppointment.Type:       {"booked", "rescheduled", "cancelled"},
	KindAppointmentClient.Type: {"arrived", "no_show", "cancelled"},
	KindForm.Type:              {"sent", "viewed", "completed"},
}

// EventActionsOf returns the actions an event of the record type can
// have: EventActions, then its domain event actions.
func EventActionsOf(recordType string) []string {
	return append(slices.Clone(EventActions), DomainEventActions[recordType]...)
}

// IsEventType reports whether t is "<record_type>.<action>" with a
// record type of RecordTypes and one of its actions.
func IsEventType(t string) bool {
	recordType, action, _ := strings.Cut(t, ".")
	return slices.Contains(RecordTypes, recordType) && slices.Contains(EventActionsOf(recordType), action)
}

// AppointmentEvents returns the domain event actions of a change of an
// appointment from before (nil for a new one) to after, in the order
// they are written: booked when it is created, rescheduled when its
// start or end moves, cancelled when it becomes cancelled (cancelled_at,
// which SettleAppointment sets when its last attendee is cancelled).
func AppointmentEvents(before, after *Appointment) []string {
	var out []string
	if before == nil {
		out = append(out, "booked")
	} else if !before.StartsAt.Equal(after.StartsAt.Time) || !before.EndsAt.Equal(after.EndsAt.Time) {
		out = append(out, "rescheduled")
	}
	if after.CancelledAt != nil && (before == nil || before.CancelledAt == nil) {
		out = append(out, "cancelled")
	}
	return out
}

// AppointmentClientEvents returns the domain event actions of a change
// of an attendee from before (nil for a new one) to after: arrived,
// no_show or cancelled when its status becomes that one.
func AppointmentClientEvents(before, after *AppointmentClient) []string {
	var was AppointmentClient
	if before != nil {
		was = *before
	}
	if was.Status == after.Status {
		return nil
	}
	switch after.Status {
	case StatusArrived, StatusNoShow, StatusCancelled:
		return []string{after.Status}
	}
	return nil
}

// FormEvents returns the domain event actions of a change of a form from
// before (nil for a new one) to after, in the order they happen: sent,
// viewed and completed when sent_at, viewed_at and completed_at are
// first set.
func FormEvents(before, after *Form) []string {
	var was Form
	if before != nil {
		was = *before
	}
	var out []string
	if was.SentAt == nil && after.SentAt != nil {
		out = append(out, "sent")
	}
	if was.ViewedAt == nil && after.ViewedAt != nil {
		out = append(out, "viewed")
	}
	if was.CompletedAt == nil && after.CompletedAt != nil {
		out = append(out, "completed")
	}
	return out
}
