package practiced

import (
	"context"
	"strings"
	"time"
)

// PrefixMessage is the id prefix of messages.
const PrefixMessage = "msg"

// Message kinds: what a message tells its client.
const (
	MessageConfirmation = "confirmation" // an appointment was booked
	MessageReminder     = "reminder"     // an appointment is coming up
	MessageChange       = "change"       // an appointment moved
	MessageCancellation = "cancellation" // an attendance was cancelled
	MessageFormLink     = "form_link"    // a form to fill in
)

// MessageKinds lists every message kind.
var MessageKinds = []string{MessageConfirmation, MessageReminder, MessageChange, MessageCancellation, MessageFormLink}

// Message statuses.
const (
	MessageQueued = "queued" // waiting for its first or next attempt
	MessageSent   = "sent"   // the mail server accepted it
	MessageFailed = "failed" // refused for good, or given up after retries
)

// MessageStatuses lists every message status.
var MessageStatuses = []string{MessageQueued, MessageSent, MessageFailed}

// DefaultReminderMinutes is a new service's ReminderMinutes: a reminder
// a day before.
const DefaultReminderMinutes = 1440

// DefaultOnlineCancellationHours is a new location's
// OnlineCancellationHours.
const DefaultOnlineCancellationHours = 24

// Message is one e-mail to a client, planned in the transaction of the
// change that causes it and sent by the message worker.
type Message struct {
	ID                  string  `json:"id"`
	Kind                string  `json:"kind"`
	Status              string  `json:"status"`
	To                  string  `json:"to"`
	ClientID            string  `json:"client_id"`
	AppointmentClientID *string `json:"appointment_client_id"`
	FormID              *string `json:"form_id"`
	Subject             string  `json:"subject"`
	Text                string  `json:"text"`
	// SendAfter is when the message is due: a reminder's time before
	// the start, else when it was planned.
	SendAfter Time    `json:"send_after"`
	Attempts  int     `json:"attempts"`
	LastError *string `json:"last_error"`
	SentAt    *Time   `json:"sent_at"`
	CreatedAt Time    `json:"created_at"`
	UpdatedAt Time    `json:"updated_at"`

	// HTML is the message's HTML part and ICS its calendar attachment
	// (empty for a form link); Cause names what made the message, one
	// message a cause ("reminder:apc_…"); Link is the secret address the
	// message carries, which only keys that can write are shown; ReplyTo
	// is the location's e-mail.
	HTML     string `json:"-"`
	ICS      string `json:"-"`
	Cause    string `json:"-"`
	Link     string `json:"-"`
	ReplyTo  string `json:"-"`
	FromName string `json:"-"`
}

// HiddenLink replaces a message's secret link in what a read-only key,
// the change feed and webhooks are shown.
const HiddenLink = "[link hidden from read-only keys]"

// Redacted returns m with the secret link its text carries hidden: the
// link opens a page that can cancel an appointment or change the client,
// so only keys that can write are shown it.
func (m Message) Redacted() Message {
	if m.Link != "" {
		m.Text = strings.ReplaceAll(m.Text, m.Link, HiddenLink)
	}
	return m
}

// MessageFilter filters the message list; empty fields match every
// message.
type MessageFilter struct {
	Kind                string
	Status              string
	To                  string
	ClientID            string
	AppointmentClientID string
	FormID              string
	UpdatedSince        *time.Time
}

// MessageJob is a message claimed for an attempt.
type MessageJob struct {
	BusinessID string
	Message    Message
	// Claim numbers this claim of the message; Until is when it lapses.
	// Only the attempt of the latest claim, before Until, may hand the
	// message over, and only it may record an outcome.
	Claim int
	Until Time
	// HandedOver says an earlier attempt began to hand the message to
	// the mail server and ended (its process stopped) before it could
	// record the answer: the message is recorded as sent, never sent
	// again.
	HandedOver bool
}

// MessageResult is the outcome of one attempt to send a message.
type MessageResult struct {
	Sent bool
	// Permanent says the mail server refused the message for good (an
	// unknown mailbox): it fails without another attempt.
	Permanent bool
	Error     string
	// Next is when to try again; nil gives up.
	Next *Time
}

// MessageStore keeps the queue of messages to clients. Appointment
// messages are planned by the store itself, in the transaction of the
// change that causes them (MessagePlanner); the rest of the interface
// serves the API, the worker that sends and the client's page.
type MessageStore interface {
	ListMessages(ctx context.Context, businessID string, f MessageFilter, p PageRequest) ([]Message, PageInfo, error)
	GetMessage(ctx context.Context, businessID, id string) (Message, error)
	// QueueFormLink plans the e-mail of a form's link to its client, for
	// the cause given (one message a cause), and makes the form's
	// sent_status queued unless it was viewed. ENOTFOUND if the business
	// has no such form; EINVALID if the client has no e-mail address or
	// is marked no_messages.
	QueueFormLink(ctx context.Context, businessID, formID, cause string, now Time) (Message, error)
	// ClaimMessages claims the queued messages due at now, at most
	// limit; a claimed message is not due again until lease has passed,
	// so one process attempts it at a time.
	ClaimMessages(ctx context.Context, now Time, lease time.Duration, limit int) ([]MessageJob, error)
	// HandOverMessage records that the job's attempt hands the message
	// to the mail server, and calls end, which sends the line that ends
	// the message's data (after it the server may accept the message),
	// the moment the record is sure to outlive the process: from then
	// on, if the attempt's outcome is never recorded, the message counts
	// as sent and is not sent again. If it fails before calling end, the
	// attempt must abandon the message unsent; ECONFLICT says the attempt
	// no longer holds it (its claim lapsed at now, or another took it).
	HandOverMessage(ctx context.Context, job MessageJob, now Time, end func() error) error
	// FinishMessage records the outcome of an attempt, if the attempt
	// still holds the message; a form link's form follows it (sent,
	// bounced, failed).
	FinishMessage(ctx context.Context, job MessageJob, r MessageResult, now Time) error
	// QueuedMessages counts the messages waiting to be sent.
	QueuedMessages(ctx context.Context) (int, error)
	// AppointmentPage returns what the client's own page of an
	// attendance shows; ENOTFOUND if no attendance has the id.
	AppointmentPage(ctx context.Context, appointmentClientID string) (AppointmentPage, error)
}

// AppointmentPage is what a client's own page of an attendance shows and
// checks. Secret is the page's secret, empty until a message linked to
// the page.
type AppointmentPage struct {
	BusinessID   string
	Business     string
	Secret       string
	Attendance   AppointmentClient
	Appointment  Appointment
	Location     Location
	Practitioner string // as clients know them
	Service      string // empty without a service
	ClientName   string // the client's preferred or first name
}

// AppointmentToken is the last part of the address of an attendance's
// own page (/a/{token}): its id and its secret.
func AppointmentToken(appointmentClientID, secret string) string {
	return appointmentClientID + "." + secret
}

// notifyKey marks a context whose changes notify the clients concerned.
type notifyKey struct{}

// WithNotify returns ctx marked so that the appointment changes made
// with it send their clients a confirmation, change or cancellation
// notice (reminders are planned whatever the mark).
func WithNotify(ctx context.Context) context.Context {
	return context.WithValue(ctx, notifyKey{}, true)
}

// Notify reports whether ctx was marked by WithNotify.
func Notify(ctx context.Context) bool {
	v, _ := ctx.Value(notifyKey{}).(bool)
	return v
}

// ReminderDue returns when the reminder of an attendance is sent: the
// service's reminder minutes before the start. ok is false when it gets
// none: the service asks for none (0), the attendance is not booked or
// the appointment is cancelled or archived, or that time has passed at
// now (an appointment booked closer to its start than the reminder
// time has its confirmation).
func ReminderDue(a Appointment, ac AppointmentClient, reminderMinutes int, now time.Time) (time.Time, bool) {
	if reminderMinutes <= 0 || ac.Status != StatusBooked || ac.ArchivedAt != nil || a.CancelledAt != nil || a.ArchivedAt != nil {
		return time.Time{}, false
	}
	due := a.StartsAt.Add(-time.Duration(reminderMinutes) * time.Minute)
	if due.Before(now) {
		return time.Time{}, false
	}
	return due, true
}
