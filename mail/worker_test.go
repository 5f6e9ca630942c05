package mail_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/mail"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// counting is a sender that records every message it is given.
type counting struct {
	mu   sync.Mutex
	sent map[string]int
}

func (c *counting) Send(ctx context.Context, m practiced.Message) error {
	time.Sleep(time.Millisecond) // an attempt takes a while
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent[m.ID]++
	return nil
}

func TestTwoProcessesSendEachMessageOnceSQLite(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "two.db")
	twoProcesses(t, url)
}

func TestTwoProcessesSendEachMessageOncePostgres(t *testing.T) {
	twoProcesses(t, testfix.PostgresURL(t))
}

// twoProcesses queues 300 messages and has the workers of two stores on
// the one database (two server processes) send them side by side: each
// message is sent once, and every one is recorded sent.
func twoProcesses(t *testing.T, url string) {
	ctx := context.Background()
	var stores []*sqlstore.Store
	for range 2 {
		st, err := sqlstore.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stores = append(stores, st)
	}
	c := testfix.NewClinic(t, stores[0], "Two Servers")
	now := practiced.NewTime(time.Now().UTC().Truncate(time.Second))
	var d practiced.SeedData
	for i := range 300 {
		client := c.Clients[i%len(c.Clients)]
		d.Messages = append(d.Messages, practiced.Message{ID: tid.New(practiced.PrefixMessage), Kind: practiced.MessageFormLink,
			Status: practiced.MessageQueued, To: client.Email, ClientID: client.ID, Subject: fmt.Sprint("Message ", i),
			Text: "Hello", HTML: "<p>Hello</p>", Cause: fmt.Sprint("test:", i), SendAfter: now, CreatedAt: now, UpdatedAt: now})
	}
	if err := stores[0].Seed(ctx, c.Business.ID, d); err != nil {
		t.Fatal(err)
	}
	sender := &counting{sent: map[string]int{}}
	var wg sync.WaitGroup
	for _, st := range stores {
		wg.Go(func() {
			w := &mail.Worker{Store: st, Sender: sender, Logger: slog.New(slog.DiscardHandler)}
			for {
				n, err := w.RunOnce(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if n == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	if len(sender.sent) != 300 {
		t.Errorf("%d messages sent, want 300", len(sender.sent))
	}
	for id, n := range sender.sent {
		if n != 1 {
			t.Errorf("message %s sent %d times", id, n)
		}
	}
	if n, err := stores[1].QueuedMessages(ctx); err != nil || n != 0 {
		t.Errorf("%d messages still queued: %v", n, err)
	}
}
