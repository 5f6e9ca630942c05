package httpapi_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/practiced/practiced/httpapi"
	"github.com/practiced/practiced/internal/testfix"
)

// Each request is logged in one line of the fields docs/operations.md
// names, in its order, and with no path, query, token or client data.
func TestRequestLogLine(t *testing.T) {
	st := testfix.Store(t)
	c := testfix.NewClinic(t, st, "Logged")
	var log bytes.Buffer
	h := httpapi.NewServer(st, httpapi.Options{Now: func() time.Time { return testfix.Now }, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	client := c.Clients[0].ID
	req := httptest.NewRequest("GET", "/v1/clients/"+client+"?email=ann%40example.org", nil)
	req.Header.Set("Authorization", "Bearer "+c.Token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("answer %d %s", rec.Code, rec.Body)
	}
	line := regexp.MustCompile(`^time=\S+ level=INFO msg=request request_id=([0-9a-f]{16}) method=GET route="GET /v1/clients/\{client\}" status=200 duration_ms=\d+\n$`)
	m := line.FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("the log is\n%s", log.String())
	}
	if id := rec.Header().Get("X-Request-Id"); m[1] != id {
		t.Errorf("logged request_id %s, answered X-Request-Id %s", m[1], id)
	}
	for _, secret := range []string{client, "ann", "example.org", c.Token} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, log.String())
		}
	}
}
