package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/practiced/practiced/internal/testfix"
)

// server is one running `practiced serve` process.
type server struct {
	base string
	done chan error
}

func startServer(t *testing.T, ctx context.Context, args ...string) *server {
	t.Helper()
	var stdout, stderr syncBuffer
	s := &server{done: make(chan error, 1)}
	go func() {
		s.done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), noEnv, &stdout, &stderr)
	}()
	serving := regexp.MustCompile(`practiced is serving (http://[^ ]+)/v1`)
	for deadline := time.Now().Add(60 * time.Second); ; {
		if m := serving.FindStringSubmatch(stdout.String()); m != nil {
			s.base = m[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %s", stderr.String())
		}
		select {
		case err := <-s.done:
			t.Fatalf("server stopped: %v: %s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	waitHealthy(t, s.base)
	return s
}

func call(t *testing.T, method, url, token string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	defer res.Body.Close()
	var v map[string]any
	json.NewDecoder(res.Body).Decode(&v)
	return res.StatusCode, v
}

// TestTwoServersOnOnePostgresDatabase runs two serve processes on one
// PostgreSQL database and writes to both at once: concurrent partial
// updates of one client lose nothing, and concurrent repeating busy times
// that skip conflicts never create the same occurrence twice.
func TestTwoServersOnOnePostgresDatabase(t *testing.T) {
	db := testfix.PostgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := startServer(t, ctx, "--db", db, "--db-pool", "4")
	b := startServer(t, ctx, "--db", db, "--db-pool", "4")
	servers := []*server{a, b}

	st, err := openStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clinic := testfix.NewClinic(t, st, "Two servers")

	// Every request sets a different field of the same client.
	fields := []string{"title", "preferred_name", "profession", "sex", "gender_identity", "pronouns", "notes",
		"alert", "emergency_contact_relationship", "referral_description"}
	client := clinic.Clients[0].ID
	var wg sync.WaitGroup
	for round := 0; round < 3; round++ {
		for i, f := range fields {
			wg.Add(1)
			go func() {
				defer wg.Done()
				srv := servers[(i+round)%2]
				status, body := call(t, "POST", srv.base+"/v1/clients/"+client, clinic.Token, map[string]any{f: fmt.Sprintf("%s-%d", f, round)})
				if status != 200 {
					t.Errorf("update %s: %d %v", f, status, body)
				}
			}()
		}
		wg.Wait()
		_, got := call(t, "GET", a.base+"/v1/clients?limit=1", clinic.Token, nil)
		rec := got["data"].([]any)[0].(map[string]any)
		for _, f := range fields {
			if want := fmt.Sprintf("%s-%d", f, round); rec[f] != want {
				t.Errorf("round %d: %s is %v, want %q: an update was lost", round, f, rec[f], want)
			}
		}
	}

	// Twelve requests race to block the same weekly series; with
	// skip_conflicts only the first to commit creates anything.
	body := map[string]any{
		"location_id": clinic.Sydney.ID, "practitioner_id": clinic.Alice.ID,
		"starts_at": "2026-03-03T09:00:00+11:00", "ends_at": "2026-03-03T10:00:00+11:00",
		"repeating_rule": map[string]any{"frequency": "weekly", "occurrences": 8, "skip_conflicts": true},
	}
	statuses := make([]int, 12)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = call(t, "POST", servers[i%2].base+"/v1/busy_times", clinic.Token, body)
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case 201:
			created++
		case 422:
		default:
			t.Errorf("status %d, want 201 or 422", s)
		}
	}
	if created != 1 {
		t.Errorf("%d requests created the series, want exactly 1 (statuses %v)", created, statuses)
	}
	_, page := call(t, "GET", b.base+"/v1/busy_times?limit=100&practitioner_id="+clinic.Alice.ID, clinic.Token, nil)
	if n := len(page["data"].([]any)); n != 8 {
		t.Errorf("%d busy times exist, want the 8 occurrences of one series", n)
	}

	cancel()
	for _, s := range servers {
		if err := <-s.done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}
}
