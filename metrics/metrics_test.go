package metrics

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d", rec.Code)
	}
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func wantLines(t *testing.T, text string, lines ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		have[l] = true
	}
	for _, l := range lines {
		if !have[l] {
			t.Errorf("no line %q in the scrape", l)
		}
	}
}

func TestRequestsAndTransactions(t *testing.T) {
	m := New()
	m.ObserveRequest("GET /v1/clients", 200, 3*time.Millisecond)
	m.ObserveRequest("GET /v1/clients", 200, 30*time.Millisecond)
	m.ObserveRequest("unmatched", 404, time.Millisecond)
	m.ObserveTransaction(2*time.Millisecond, nil)
	m.ObserveTransaction(time.Millisecond, errors.New("conflict"))
	wantLines(t, scrape(t, m),
		`practiced_http_requests_total{route="GET /v1/clients",status="200"} 2`,
		`practiced_http_requests_total{route="unmatched",status="404"} 1`,
		`practiced_http_request_duration_seconds_bucket{route="GET /v1/clients",status="200",le="0.0025"} 0`,
		`practiced_http_request_duration_seconds_bucket{route="GET /v1/clients",status="200",le="0.005"} 1`,
		`practiced_http_request_duration_seconds_bucket{route="GET /v1/clients",status="200",le="0.05"} 2`,
		`practiced_http_request_duration_seconds_count{route="GET /v1/clients",status="200"} 2`,
		`practiced_db_transaction_duration_seconds_count{result="commit"} 1`,
		`practiced_db_transaction_duration_seconds_count{result="rollback"} 1`,
	)
}

func TestPoolsAndQueues(t *testing.T) {
	m := New()
	m.DBPools(func() map[string]sql.DBStats {
		return map[string]sql.DBStats{"write": {MaxOpenConnections: 1, InUse: 1, WaitCount: 4, WaitDuration: 1500 * time.Millisecond}}
	})
	if err := m.QueueDepth("webhook_deliveries", func(context.Context) (int, error) { return 7, nil }); err != nil {
		t.Fatal(err)
	}
	if err := m.QueueDepth("messages", func(context.Context) (int, error) { return 0, errors.New("database gone") }); err != nil {
		t.Fatal(err)
	}
	if err := m.QueueDepth("webhook_deliveries", func(context.Context) (int, error) { return 1, nil }); err == nil {
		t.Error("a second queue of the same name was accepted")
	}
	text := scrape(t, m)
	wantLines(t, text,
		`practiced_db_connections{pool="write",state="in_use"} 1`,
		`practiced_db_connections{pool="write",state="idle"} 0`,
		`practiced_db_connections_max{pool="write"} 1`,
		`practiced_db_connection_waits_total{pool="write"} 4`,
		`practiced_db_connection_wait_seconds_total{pool="write"} 1.5`,
		`practiced_queue_depth{queue="webhook_deliveries"} 7`,
	)
	if strings.Contains(text, `queue="messages"`) {
		t.Error("a queue whose count failed was reported")
	}
}
