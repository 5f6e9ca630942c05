package practiced

import (
	"context"
	"slices"
	"strings"
	"time"
)

// Id prefixes of webhook endpoints and their deliveries.
const (
	PrefixWebhookEndpoint = "whe"
	PrefixWebhookDelivery = "whd"
)

// WebhookEndpoint is a URL the change feed's events are delivered to,
// signed with its secret.
type WebhookEndpoint struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Description string   `json:"description"`
	EventTypes  []string `json:"event_types"`
	Enabled     bool     `json:"enabled"`
	// DisabledReason says why the server disabled the endpoint (it
	// failed for three days); null while enabled or disabled by hand.
	DisabledReason *string `json:"disabled_reason"`
	CreatedAt      Time    `json:"created_at"`
	UpdatedAt      Time    `json:"updated_at"`

	// Secret signs deliveries ("whsec_" and base64 of 32 bytes);
	// PreviousSecret, until PreviousSecretUntil, signs them too, so a
	// receiver can switch after a rotation. Neither is ever in a record
	// the API answers.
	Secret              string `json:"-"`
	PreviousSecret      string `json:"-"`
	PreviousSecretUntil *Time  `json:"-"`
	// FailingSince is when the endpoint's deliveries began to fail
	// without a success since; nil while they succeed.
	FailingSince *Time `json:"-"`
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"   // waiting for its first or next attempt
	DeliveryDelivered = "delivered" // a 2xx answer was received
	DeliveryFailed    = "failed"    // given up after three days
)

// WebhookDelivery is one event's delivery to one endpoint.
type WebhookDelivery struct {
	ID            string  `json:"id"`
	EndpointID    string  `json:"endpoint_id"`
	EventID       string  `json:"event_id"`
	EventType     string  `json:"event_type"`
	Status        string  `json:"status"`
	Attempts      int     `json:"attempts"`
	LastStatus    *int    `json:"last_response_status"`
	LastError     *string `json:"last_error"`
	LastLatencyMS *int    `json:"last_latency_ms"`
	LastAttemptAt *Time   `json:"last_attempt_at"`
	NextAttemptAt *Time   `json:"next_attempt_at"`
	CreatedAt     Time    `json:"created_at"`
}

// WebhookJob is a delivery claimed for an attempt: what to send where,
// signed with which secrets.
type WebhookJob struct {
	BusinessID string
	Delivery   WebhookDelivery
	Event      Event
	URL        string
	Secrets    []string // the current secret, then the previous one while it lasts
	// FirstTry is when the delivery was made; attempts stop three days
	// after it.
	FirstTry time.Time
}

// WebhookResult is the outcome of one attempt.
type WebhookResult struct {
	Delivered bool
	Status    int // the answer's status code; 0 when none came
	Error     string
	Latency   time.Duration
	// Next is when to try again; nil gives up (the delivery fails).
	Next *Time
}

// MaxWebhookEndpoints is the most endpoints a business may have.
const MaxWebhookEndpoints = 20

// WebhookStore keeps endpoints and the durable outbox of their
// deliveries, which the change feed fills.
type WebhookStore interface {
	// CreateWebhookEndpoint stores a new endpoint, which receives the
	// events written after it.
	CreateWebhookEndpoint(ctx context.Context, businessID string, e *WebhookEndpoint) error
	GetWebhookEndpoint(ctx context.Context, businessID, id string) (WebhookEndpoint, error)
	// ListWebhookEndpoints returns the business's endpoints, oldest
	// first.
	ListWebhookEndpoints(ctx context.Context, businessID string) ([]WebhookEndpoint, error)
	// UpdateWebhookEndpoint changes an endpoint, read locked, through
	// change.
	UpdateWebhookEndpoint(ctx context.Context, businessID, id string, change func(*WebhookEndpoint) error) (WebhookEndpoint, error)
	// DeleteWebhookEndpoint deletes an endpoint and its deliveries.
	DeleteWebhookEndpoint(ctx context.Context, businessID, id string) error
	// ListWebhookDeliveries returns an endpoint's newest deliveries,
	// newest first, at most limit.
	ListWebhookDeliveries(ctx context.Context, businessID, endpointID string, limit int) ([]WebhookDelivery, error)
	// RetryWebhookDelivery makes a delivery pending again, due at now.
	RetryWebhookDelivery(ctx context.Context, businessID, endpointID, id string, now Time) (WebhookDelivery, error)

	// FanOutWebhooks makes the deliveries of the events each enabled
	// endpoint has not seen yet, at most limit events an endpoint, and
	// returns how many it made.
	FanOutWebhooks(ctx context.Context, now Time, limit int) (int, error)
	// ClaimWebhookJobs claims the pending deliveries due at now whose
	// record has no earlier delivery to the endpoint still pending, in
	// feed order, at most limit; a claimed delivery is not due again
	// until lease has passed, so one process attempts it at a time.
	ClaimWebhookJobs(ctx context.Context, now Time, lease time.Duration, limit int) ([]WebhookJob, error)
	// FinishWebhookJob records an attempt's result. A delivery given up
	// marks its endpoint failing; an endpoint failing for longer than
	// disableAfter is disabled, saying why. A success ends its failing.
	FinishWebhookJob(ctx context.Context, job WebhookJob, r WebhookResult, now Time, disableAfter time.Duration) error
	// PendingWebhookDeliveries counts the deliveries waiting, across
	// businesses.
	PendingWebhookDeliveries(ctx context.Context) (int, error)
	// PruneWebhookDeliveries deletes up to limit deliveries made before
	// before that are no longer pending, and returns how many.
	PruneWebhookDeliveries(ctx context.Context, before Time, limit int) (int, error)
}

// MatchesEventType reports whether an endpoint's pattern takes an
// event of type t: the type itself, "<record_type>.*", or "*".
func MatchesEventType(patterns []string, t string) bool {
	recordType, _, _ := strings.Cut(t, ".")
	return slices.ContainsFunc(patterns, func(p string) bool {
		return p == "*" || p == t || p == recordType+".*"
	})
}

// IsEventTypePattern reports whether p is an event type, a record type
// followed by ".*", or "*".
func IsEventTypePattern(p string) bool {
	if p == "*" || IsEventType(p) {
		return true
	}
	recordType, ok := strings.CutSuffix(p, ".*")
	return ok && slices.Contains(RecordTypes, recordType)
}
