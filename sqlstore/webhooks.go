package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

const webhookEndpointCols = `id, url, description, event_types, enabled, disabled_reason, secret, previous_secret,
	previous_secret_until, failing_since, created_at, updated_at`

func scanWebhookEndpoint(r rowScanner) (practiced.WebhookEndpoint, error) {
	var e practiced.WebhookEndpoint
	var reason sql.NullString
	err := r.Scan(&e.ID, &e.URL, &e.Description, jsonScan{&e.EventTypes}, &e.Enabled, &reason, &e.Secret, &e.PreviousSecret,
		nullTimeScan{&e.PreviousSecretUntil}, nullTimeScan{&e.FailingSince}, timeScan{&e.CreatedAt}, timeScan{&e.UpdatedAt})
	if reason.Valid {
		e.DisabledReason = &reason.String
	}
	return e, err
}

// skipLocked is appended to a SELECT … FOR UPDATE of the rows a worker
// claims, so that workers of several processes on PostgreSQL pass over
// each other's rows instead of waiting. SQLite has one writer at a time.
func (s *Store) skipLocked(of string) string {
	if s.dialect.name != "postgres" {
		return ""
	}
	return " FOR UPDATE OF " + of + " SKIP LOCKED"
}

// CreateWebhookEndpoint implements practiced.WebhookStore.
func (s *Store) CreateWebhookEndpoint(ctx context.Context, businessID string, e *practiced.WebhookEndpoint) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_endpoints WHERE business_id = $1`, businessID).Scan(&n); err != nil {
			return err
		}
		if n >= practiced.MaxWebhookEndpoints {
			var errs practiced.FieldErrors
			errs.Add("url", fmt.Sprintf("cannot be added: a business has at most %d webhook endpoints", practiced.MaxWebhookEndpoints))
			return errs.Err()
		}
		// The endpoint receives the events written after it: its cursor
		// starts at the business's last event.
		var last sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM events WHERE business_id = $1`, businessID).Scan(&last); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO webhook_endpoints (business_id, `+webhookEndpointCols+`, cursor_seq)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			businessID, e.ID, e.URL, e.Description, jsonList(e.EventTypes), e.Enabled, nullStr(e.DisabledReason), e.Secret, e.PreviousSecret,
			nullTs(e.PreviousSecretUntil), nullTs(e.FailingSince), tsv(e.CreatedAt), tsv(e.UpdatedAt), last.Int64)
		return translate(err)
	})
}

// GetWebhookEndpoint implements practiced.WebhookStore.
func (s *Store) GetWebhookEndpoint(ctx context.Context, businessID, id string) (practiced.WebhookEndpoint, error) {
	e, err := scanWebhookEndpoint(s.r.QueryRowContext(ctx, `SELECT `+webhookEndpointCols+` FROM webhook_endpoints
		WHERE business_id = $1 AND id = $2`, businessID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, practiced.NotFound("Webhook endpoint")
	}
	return e, err
}

// ListWebhookEndpoints implements practiced.WebhookStore.
func (s *Store) ListWebhookEndpoints(ctx context.Context, businessID string) ([]practiced.WebhookEndpoint, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+webhookEndpointCols+` FROM webhook_endpoints WHERE business_id = $1 ORDER BY id`, businessID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []practiced.WebhookEndpoint{}
	for rows.Next() {
		e, err := scanWebhookEndpoint(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// UpdateWebhookEndpoint implements practiced.WebhookStore.
func (s *Store) UpdateWebhookEndpoint(ctx context.Context, businessID, id string, change func(*practiced.WebhookEndpoint) error) (practiced.WebhookEndpoint, error) {
	var e practiced.WebhookEndpoint
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		e, err = scanWebhookEndpoint(tx.QueryRowContext(ctx, `SELECT `+webhookEndpointCols+` FROM webhook_endpoints
			WHERE business_id = $1 AND id = $2`+s.dialect.lockRow, businessID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return practiced.NotFound("Webhook endpoint")
		}
		if err != nil {
			return err
		}
		if err := change(&e); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET url = $3, description = $4, event_types = $5, enabled = $6,
			disabled_reason = $7, secret = $8, previous_secret = $9, previous_secret_until = $10, failing_since = $11, updated_at = $12
			WHERE business_id = $1 AND id = $2`,
			businessID, id, e.URL, e.Description, jsonList(e.EventTypes), e.Enabled, nullStr(e.DisabledReason), e.Secret,
			e.PreviousSecret, nullTs(e.PreviousSecretUntil), nullTs(e.FailingSince), tsv(e.UpdatedAt))
		return err
	})
	return e, err
}

// DeleteWebhookEndpoint implements practiced.WebhookStore.
func (s *Store) DeleteWebhookEndpoint(ctx context.Context, businessID, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE business_id = $1 AND endpoint_id = $2`, businessID, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE business_id = $1 AND id = $2`, businessID, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return practiced.NotFound("Webhook endpoint")
		}
		return nil
	})
}

const webhookDeliveryCols = `id, endpoint_id, event_id, event_type, status, attempts, last_status, last_error, last_latency_ms,
	last_attempt_at, next_attempt_at, created_at`

func scanWebhookDelivery(r rowScanner) (practiced.WebhookDelivery, error) {
	var d practiced.WebhookDelivery
	var status, latency sql.NullInt64
	var lastErr sql.NullString
	err := r.Scan(&d.ID, &d.EndpointID, &d.EventID, &d.EventType, &d.Status, &d.Attempts, &status, &lastErr, &latency,
		nullTimeScan{&d.LastAttemptAt}, nullTimeScan{&d.NextAttemptAt}, timeScan{&d.CreatedAt})
	if status.Valid {
		v := int(status.Int64)
		d.LastStatus = &v
	}
	if latency.Valid {
		v := int(latency.Int64)
		d.LastLatencyMS = &v
	}
	if lastErr.Valid {
		d.LastError = &lastErr.String
	}
	return d, err
}

// ListWebhookDeliveries implements practiced.WebhookStore.
func (s *Store) ListWebhookDeliveries(ctx context.Context, businessID, endpointID string, limit int) ([]practiced.WebhookDelivery, error) {
	if _, err := s.GetWebhookEndpoint(ctx, businessID, endpointID); err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+webhookDeliveryCols+` FROM webhook_deliveries
		WHERE business_id = $1 AND endpoint_id = $2 ORDER BY event_seq DESC, id DESC LIMIT $3`, businessID, endpointID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []practiced.WebhookDelivery{}
	for rows.Next() {
		d, err := scanWebhookDelivery(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// RetryWebhookDelivery implements practiced.WebhookStore.
func (s *Store) RetryWebhookDelivery(ctx context.Context, businessID, endpointID, id string, now practiced.Time) (practiced.WebhookDelivery, error) {
	var d practiced.WebhookDelivery
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = $4, next_attempt_at = $5
			WHERE business_id = $1 AND endpoint_id = $2 AND id = $3`, businessID, endpointID, id, practiced.DeliveryPending, tsv(now))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return practiced.NotFound("Webhook delivery")
		}
		d, err = scanWebhookDelivery(tx.QueryRowContext(ctx, `SELECT `+webhookDeliveryCols+` FROM webhook_deliveries
			WHERE business_id = $1 AND id = $2`, businessID, id))
		return err
	})
	return d, err
}

// FanOutWebhooks implements practiced.WebhookStore. Each endpoint's row
// is locked while its cursor moves, so two processes never make one
// endpoint's deliveries twice (and the unique key would refuse them).
func (s *Store) FanOutWebhooks(ctx context.Context, now practiced.Time, limit int) (int, error) {
	// A read first, so that an idle server takes no write lock.
	var waiting int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM webhook_endpoints e WHERE e.enabled
		AND EXISTS (SELECT 1 FROM events v WHERE v.business_id = e.business_id AND v.seq > e.cursor_seq) LIMIT 1) w`).Scan(&waiting); err != nil {
		return 0, err
	}
	if waiting == 0 {
		return 0, nil
	}
	made := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		made = 0
		rows, err := tx.QueryContext(ctx, `SELECT e.business_id, e.id, e.event_types, e.cursor_seq FROM webhook_endpoints e
			WHERE e.enabled AND EXISTS (SELECT 1 FROM events v WHERE v.business_id = e.business_id AND v.seq > e.cursor_seq)
			ORDER BY e.business_id, e.id`+s.skipLocked("e"))
		if err != nil {
			return err
		}
		type endpoint struct {
			biz, id string
			types   []string
			cursor  int64
		}
		var eps []endpoint
		for rows.Next() {
			var ep endpoint
			if err := rows.Scan(&ep.biz, &ep.id, jsonScan{&ep.types}, &ep.cursor); err != nil {
				rows.Close()
				return err
			}
			eps = append(eps, ep)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, ep := range eps {
			evs, err := tx.QueryContext(ctx, `SELECT id, seq, type, record_id FROM events
				WHERE business_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, ep.biz, ep.cursor, limit)
			if err != nil {
				return err
			}
			type event struct {
				id, typ, record string
				seq             int64
			}
			var list []event
			for evs.Next() {
				var ev event
				if err := evs.Scan(&ev.id, &ev.seq, &ev.typ, &ev.record); err != nil {
					evs.Close()
					return err
				}
				list = append(list, ev)
			}
			evs.Close()
			if err := evs.Err(); err != nil {
				return err
			}
			for _, ev := range list {
				if !practiced.MatchesEventType(ep.types, ev.typ) {
					continue
				}
				_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (business_id, id, endpoint_id, event_id, event_seq,
					event_type, record_id, status, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
					ep.biz, tid.New(practiced.PrefixWebhookDelivery), ep.id, ev.id, ev.seq, ev.typ, ev.record,
					practiced.DeliveryPending, tsv(now), tsv(now))
				if err != nil {
					return err
				}
				made++
			}
			if len(list) > 0 {
				if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET cursor_seq = $3 WHERE business_id = $1 AND id = $2`,
					ep.biz, ep.id, list[len(list)-1].seq); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return made, err
}

// ClaimWebhookJobs implements practiced.WebhookStore.
func (s *Store) ClaimWebhookJobs(ctx context.Context, now practiced.Time, lease time.Duration, limit int) ([]practiced.WebhookJob, error) {
	var due int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries
		WHERE status = $1 AND next_attempt_at <= $2 LIMIT 1) d`, practiced.DeliveryPending, tsv(now)).Scan(&due); err != nil {
		return nil, err
	}
	if due == 0 {
		return nil, nil
	}
	var jobs []practiced.WebhookJob
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		jobs = nil
		rows, err := tx.QueryContext(ctx, `SELECT d.business_id, d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempts,
			d.last_status, d.last_error, d.last_latency_ms, d.last_attempt_at, d.next_attempt_at, d.created_at,
			e.url, e.secret, e.previous_secret, e.previous_secret_until
			FROM webhook_deliveries d JOIN webhook_endpoints e ON e.business_id = d.business_id AND e.id = d.endpoint_id
			WHERE d.status = $1 AND d.next_attempt_at <= $2 AND e.enabled
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.business_id = d.business_id
				AND p.endpoint_id = d.endpoint_id AND p.record_id = d.record_id AND p.event_seq < d.event_seq AND p.status = $1)
			ORDER BY d.business_id, d.endpoint_id, d.event_seq LIMIT $3`+s.skipLocked("d"),
			practiced.DeliveryPending, tsv(now), limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var j practiced.WebhookJob
			var status, latency sql.NullInt64
			var lastErr sql.NullString
			var secret, previous string
			var until *practiced.Time
			d := &j.Delivery
			if err := rows.Scan(&j.BusinessID, &d.ID, &d.EndpointID, &d.EventID, &d.EventType, &d.Status, &d.Attempts,
				&status, &lastErr, &latency, nullTimeScan{&d.LastAttemptAt}, nullTimeScan{&d.NextAttemptAt}, timeScan{&d.CreatedAt},
				&j.URL, &secret, &previous, nullTimeScan{&until}); err != nil {
				rows.Close()
				return err
			}
			j.Secrets = []string{secret}
			if previous != "" && until != nil && until.After(now.Time) {
				j.Secrets = append(j.Secrets, previous)
			}
			j.FirstTry = d.CreatedAt.Time
			jobs = append(jobs, j)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		leased := practiced.NewTime(now.Add(lease))
		for i := range jobs {
			d := &jobs[i].Delivery
			d.Attempts++
			d.NextAttemptAt = &leased
			if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET attempts = $3, next_attempt_at = $4
				WHERE business_id = $1 AND id = $2`, jobs[i].BusinessID, d.ID, d.Attempts, tsv(leased)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range jobs {
		ev, err := s.GetEvent(ctx, jobs[i].BusinessID, jobs[i].Delivery.EventID)
		if err != nil {
			return nil, err
		}
		jobs[i].Event = ev
	}
	return jobs, nil
}

// FinishWebhookJob implements practiced.WebhookStore.
func (s *Store) FinishWebhookJob(ctx context.Context, job practiced.WebhookJob, r practiced.WebhookResult, now practiced.Time, disableAfter time.Duration) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		status, next := practiced.DeliveryPending, nullTs(r.Next)
		switch {
		case r.Delivered:
			status, next = practiced.DeliveryDelivered, nil
		case r.Next == nil:
			status = practiced.DeliveryFailed
		}
		var code, lastErr any
		if r.Status != 0 {
			code = r.Status
		}
		if r.Error != "" {
			lastErr = r.Error
		}
		_, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = $3, last_status = $4, last_error = $5,
			last_latency_ms = $6, last_attempt_at = $7, next_attempt_at = $8 WHERE business_id = $1 AND id = $2`,
			job.BusinessID, job.Delivery.ID, status, code, lastErr, r.Latency.Milliseconds(), tsv(now), next)
		if err != nil {
			return err
		}
		if r.Delivered {
			_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE business_id = $1 AND id = $2`,
				job.BusinessID, job.Delivery.EndpointID)
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = $3
			WHERE business_id = $1 AND id = $2 AND failing_since IS NULL`, job.BusinessID, job.Delivery.EndpointID, tsv(now)); err != nil {
			return err
		}
		reason := fmt.Sprintf("Disabled after failing for %d hours: the last attempt answered %s.", int(disableAfter.Hours()), describe(r))
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET enabled = FALSE, disabled_reason = $3, updated_at = $4
			WHERE business_id = $1 AND id = $2 AND enabled AND failing_since <= $5`,
			job.BusinessID, job.Delivery.EndpointID, reason, tsv(now), ts(now.Add(-disableAfter)))
		return err
	})
}

// describe names an attempt's failure for a disabled endpoint's reason.
func describe(r practiced.WebhookResult) string {
	if r.Status != 0 {
		return fmt.Sprintf("status %d", r.Status)
	}
	return r.Error
}

// PendingWebhookDeliveries implements practiced.WebhookStore.
func (s *Store) PendingWebhookDeliveries(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE status = $1`, practiced.DeliveryPending).Scan(&n)
	return n, err
}

// PruneWebhookDeliveries implements practiced.WebhookStore.
func (s *Store) PruneWebhookDeliveries(ctx context.Context, before practiced.Time, limit int) (int, error) {
	// A read first, so that a server with nothing to delete takes no
	// write lock.
	var old int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries
		WHERE status <> $1 AND created_at < $2 LIMIT 1) d`, practiced.DeliveryPending, tsv(before)).Scan(&old); err != nil {
		return 0, err
	}
	if old == 0 {
		return 0, nil
	}
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE (business_id, id) IN (
			SELECT business_id, id FROM webhook_deliveries WHERE status <> $1 AND created_at < $2 ORDER BY created_at LIMIT $3)`,
			practiced.DeliveryPending, tsv(before), limit)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}
