package mail_test

import (
	"context"
	"errors"
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

func (c *counting) Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error {
	time.Sleep(time.Millisecond) // an attempt takes a while
	ended := false
	err := handOver(func() error {
		ended = true
		c.mu.Lock()
		defer c.mu.Unlock()
		c.sent[m.ID]++
		return nil
	})
	if !ended {
		return err
	}
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
	queue(t, stores[0], time.Now(), 300)
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

// queue seeds a new clinic with n form-link messages due at now and
// returns the business and the messages' ids.
func queue(t *testing.T, st *sqlstore.Store, now time.Time, n int) (string, []string) {
	t.Helper()
	c := testfix.NewClinic(t, st, "Mailing Clinic")
	due := practiced.NewTime(now.UTC().Truncate(time.Second))
	var d practiced.SeedData
	var ids []string
	for i := range n {
		client := c.Clients[i%len(c.Clients)]
		id := tid.New(practiced.PrefixMessage)
		d.Messages = append(d.Messages, practiced.Message{ID: id, Kind: practiced.MessageFormLink,
			Status: practiced.MessageQueued, To: client.Email, ClientID: client.ID, Subject: fmt.Sprint("Message ", i),
			Text: "Hello", HTML: "<p>Hello</p>", Cause: fmt.Sprint("test:", i), SendAfter: due, CreatedAt: due, UpdatedAt: due})
		ids = append(ids, id)
	}
	if err := st.Seed(context.Background(), c.Business.ID, d); err != nil {
		t.Fatal(err)
	}
	return c.Business.ID, ids
}

// openStore opens the store at url for the test.
func openStore(t *testing.T, url string) *sqlstore.Store {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// claimedOne queues one message due at start and claims it for a
// minute; it returns the business, the message's id and the claim.
func claimedOne(t *testing.T, st *sqlstore.Store, start time.Time) (string, string, practiced.MessageJob) {
	t.Helper()
	biz, ids := queue(t, st, start, 1)
	jobs, err := st.ClaimMessages(context.Background(), practiced.NewTime(start), time.Minute, 10)
	if err != nil || len(jobs) != 1 || jobs[0].HandedOver || jobs[0].Message.Attempts != 1 {
		t.Fatalf("ClaimMessages = %+v, %v; want the one message, attempt 1, not handed over", jobs, err)
	}
	return biz, ids[0], jobs[0]
}

func TestAMessageHandedOverBeforeACrashIsNotSentAgainSQLite(t *testing.T) {
	handedOverBeforeACrash(t, openStore(t, "sqlite:"+filepath.Join(t.TempDir(), "crash.db")))
}

func TestAMessageHandedOverBeforeACrashIsNotSentAgainPostgres(t *testing.T) {
	handedOverBeforeACrash(t, openStore(t, testfix.PostgresURL(t)))
}

// handedOverBeforeACrash claims a message and hands it over, as a worker
// does just before the end of the message goes to the mail server, and
// then records nothing, as when the process is killed there. Once the
// claim lapses the next worker records the message sent, at the time it
// was handed over, without sending it again.
func handedOverBeforeACrash(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	start := time.Now().UTC().Truncate(time.Second)
	biz, id, job := claimedOne(t, st, start)
	handedAt := start.Add(time.Second)
	if err := st.HandOverMessage(ctx, job, practiced.NewTime(handedAt), func() error { return nil }); err != nil {
		t.Fatal(err)
	}

	sender := &counting{sent: map[string]int{}}
	clock := start.Add(30 * time.Second)
	w := &mail.Worker{Store: st, Sender: sender, Logger: slog.New(slog.DiscardHandler), Lease: time.Minute,
		Now: func() time.Time { return clock }}
	if n, err := w.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("RunOnce within the claim = %d, %v; want 0: the message is still claimed", n, err)
	}
	clock = start.Add(2 * time.Minute)
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("RunOnce after the claim lapsed = %d, %v; want 1", n, err)
	}
	if len(sender.sent) != 0 {
		t.Errorf("the handed-over message was sent again: %v", sender.sent)
	}
	m, err := st.GetMessage(ctx, biz, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != practiced.MessageSent || m.SentAt == nil || !m.SentAt.Equal(handedAt) || m.Attempts != 1 || m.LastError != nil {
		t.Errorf("message = status %s, sent_at %v, attempts %d, last_error %v; want sent at %v, 1 attempt, no error",
			m.Status, m.SentAt, m.Attempts, m.LastError, handedAt)
	}
	if n, err := w.RunOnce(ctx); err != nil || n != 0 {
		t.Errorf("RunOnce once all is sent = %d, %v; want 0", n, err)
	}
}

func TestOnlyTheAttemptHoldingAMessageSendsAndRecordsItSQLite(t *testing.T) {
	lapsedClaim(t, openStore(t, "sqlite:"+filepath.Join(t.TempDir(), "lapsed.db")))
}

func TestOnlyTheAttemptHoldingAMessageSendsAndRecordsItPostgres(t *testing.T) {
	lapsedClaim(t, openStore(t, testfix.PostgresURL(t)))
}

// lapsedClaim has a slow attempt outlive its claim while a second
// attempt takes the message: the first may neither hand it over nor
// record an outcome; the second does both.
func lapsedClaim(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	start := time.Now().UTC().Truncate(time.Second)
	biz, id, first := claimedOne(t, st, start)
	later := practiced.NewTime(start.Add(2 * time.Minute))
	ended := 0
	end := func() error { ended++; return nil }
	// Its claim lapsed, though no other has taken the message yet.
	if err := st.HandOverMessage(ctx, first, later, end); practiced.ErrorCode(err) != practiced.ECONFLICT || ended != 0 {
		t.Errorf("a hand-over after the claim lapsed = %v and ended %d times, want a conflict and no end", err, ended)
	}
	second, err := st.ClaimMessages(ctx, later, time.Minute, 10)
	if err != nil || len(second) != 1 || second[0].Message.Attempts != 2 {
		t.Fatalf("second claim = %+v, %v; want the message again, attempt 2", second, err)
	}
	if err := st.HandOverMessage(ctx, first, later, end); practiced.ErrorCode(err) != practiced.ECONFLICT || ended != 0 {
		t.Errorf("the lapsed attempt's HandOverMessage = %v and ended %d times, want a conflict and no end", err, ended)
	}
	if err := st.FinishMessage(ctx, first, practiced.MessageResult{Error: "451 later", Next: &later}, later); err != nil {
		t.Fatal(err)
	}
	if m, _ := st.GetMessage(ctx, biz, id); m.LastError != nil || m.Status != practiced.MessageQueued {
		t.Errorf("the lapsed attempt recorded its outcome: status %s, last_error %v", m.Status, m.LastError)
	}
	if err := st.HandOverMessage(ctx, second[0], later, end); err != nil || ended != 1 {
		t.Fatalf("the holding attempt's HandOverMessage = %v and ended %d times, want nil and one end", err, ended)
	}
	if err := st.HandOverMessage(ctx, second[0], later, end); practiced.ErrorCode(err) != practiced.ECONFLICT || ended != 1 {
		t.Errorf("a second hand-over of one attempt = %v and ended %d times in all, want a conflict and one end", err, ended)
	}
	if err := st.FinishMessage(ctx, second[0], practiced.MessageResult{Sent: true}, later); err != nil {
		t.Fatal(err)
	}
	if m, _ := st.GetMessage(ctx, biz, id); m.Status != practiced.MessageSent || m.Attempts != 2 {
		t.Errorf("message = %s after %d attempts, want sent after 2", m.Status, m.Attempts)
	}
}

func TestAMessageRefusedAfterItsHandOverIsTriedAgainSQLite(t *testing.T) {
	refusedAfterHandOver(t, openStore(t, "sqlite:"+filepath.Join(t.TempDir(), "refused.db")))
}

func TestAMessageRefusedAfterItsHandOverIsTriedAgainPostgres(t *testing.T) {
	refusedAfterHandOver(t, openStore(t, testfix.PostgresURL(t)))
}

// refused hands every message over and then reports that the mail server
// refused it for now.
type refused struct{ attempts int }

func (r *refused) Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error {
	ended := false
	err := handOver(func() error { ended = true; return nil })
	if !ended {
		return err
	}
	r.attempts++
	return errors.New("451 try again later")
}

// refusedAfterHandOver has the mail server refuse a message at the end of
// its data: the hand-over is undone, so the next attempt sends it again
// rather than taking it for sent.
func refusedAfterHandOver(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	start := time.Now().UTC().Truncate(time.Second)
	biz, ids := queue(t, st, start, 1)
	sender := &refused{}
	clock := start
	w := &mail.Worker{Store: st, Sender: sender, Logger: slog.New(slog.DiscardHandler), Now: func() time.Time { return clock }}
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	m, err := st.GetMessage(ctx, biz, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != practiced.MessageQueued || m.SentAt != nil || m.LastError == nil || *m.LastError != "451 try again later" {
		t.Fatalf("after a refusal: status %s, sent_at %v, last_error %v; want queued with the refusal", m.Status, m.SentAt, m.LastError)
	}
	clock = start.Add(2 * time.Hour)
	jobs, err := st.ClaimMessages(ctx, practiced.NewTime(clock), time.Minute, 10)
	if err != nil || len(jobs) != 1 || jobs[0].HandedOver || jobs[0].Message.Attempts != 2 {
		t.Fatalf("the next claim = %+v, %v; want a second attempt, not a message taken for sent", jobs, err)
	}
}

func TestAnOutcomeAfterTheClaimLapsedIsIgnoredSQLite(t *testing.T) {
	outcomeAfterLapse(t, openStore(t, "sqlite:"+filepath.Join(t.TempDir(), "late.db")))
}

func TestAnOutcomeAfterTheClaimLapsedIsIgnoredPostgres(t *testing.T) {
	outcomeAfterLapse(t, openStore(t, testfix.PostgresURL(t)))
}

// outcomeAfterLapse hands a message over within its claim, lets the
// claim lapse before the attempt's outcome is recorded, and has another
// claim take the message: that claim records it sent at the hand-over,
// and the first attempt's late refusal changes nothing.
func outcomeAfterLapse(t *testing.T, st *sqlstore.Store) {
	ctx := context.Background()
	start := time.Now().UTC().Truncate(time.Second)
	biz, id, first := claimedOne(t, st, start)
	handedAt := practiced.NewTime(start.Add(30 * time.Second))
	if err := st.HandOverMessage(ctx, first, handedAt, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	later := practiced.NewTime(start.Add(2 * time.Minute))
	second, err := st.ClaimMessages(ctx, later, time.Minute, 10)
	if err != nil || len(second) != 1 || !second[0].HandedOver || second[0].Claim != first.Claim+1 || second[0].Message.Attempts != 1 {
		t.Fatalf("second claim = %+v, %v; want the message handed over, a new claim, still one attempt", second, err)
	}
	retry := practiced.NewTime(later.Add(time.Minute))
	if err := st.FinishMessage(ctx, first, practiced.MessageResult{Error: "451 later", Next: &retry}, later); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishMessage(ctx, second[0], practiced.MessageResult{Sent: true}, later); err != nil {
		t.Fatal(err)
	}
	m, err := st.GetMessage(ctx, biz, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != practiced.MessageSent || m.SentAt == nil || !m.SentAt.Equal(handedAt.Time) || m.LastError != nil {
		t.Errorf("message = %s, sent_at %v, last_error %v; want sent at the hand-over %v, no error", m.Status, m.SentAt, m.LastError, handedAt)
	}
}

// deadlinesOf records how long each attempt is given: the time from its
// start to its context's deadline. Each attempt takes delay.
type deadlinesOf struct {
	delay time.Duration
	mu    sync.Mutex
	given []time.Duration
}

func (d *deadlinesOf) Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		return errors.New("an attempt without a deadline")
	}
	d.mu.Lock()
	d.given = append(d.given, time.Until(deadline))
	d.mu.Unlock()
	time.Sleep(d.delay)
	return handOver(func() error { return nil })
}

// Each attempt must be over a tenth of the lease before its claim
// lapses, so that it has recorded its outcome before another process may
// take the message; a worker claims a message as it starts on it, so
// every attempt has its claim's whole time, however many are due and
// however long each takes. Twelve messages of 1.5 s each, four at a
// time: a worker that claimed them all at once would start the last
// four 3 s into their claims.
func TestAnAttemptHasItsWholeClaim(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, "sqlite:"+filepath.Join(t.TempDir(), "deadline.db"))
	queue(t, st, time.Now(), 12)
	sender := &deadlinesOf{delay: 1500 * time.Millisecond}
	w := &mail.Worker{Store: st, Sender: sender, Logger: slog.New(slog.DiscardHandler), Lease: 10 * time.Minute}
	if n, err := w.RunOnce(ctx); err != nil || n != 12 {
		t.Fatalf("RunOnce = %d, %v; want 12 attempts", n, err)
	}
	if len(sender.given) != 12 {
		t.Fatalf("%d attempts, want 12", len(sender.given))
	}
	// A claim's end is kept to the second, so an attempt may be given up
	// to a second less than nine minutes, and a second more is left for
	// the time between a claim and its attempt on a busy machine.
	least, most := 9*time.Minute-2*time.Second, 9*time.Minute
	for _, d := range sender.given {
		if d < least || d > most {
			t.Errorf("an attempt was given %v, want nine minutes from its start, between %v and %v", d, least, most)
		}
	}
}

// stuck holds the first message it is given until the others have all
// been sent, or gives up after a while.
type stuck struct {
	mu      sync.Mutex
	first   string
	sent    int
	others  chan struct{} // closed once every other message is sent
	want    int
	waited  bool
	timeout time.Duration
}

func (s *stuck) Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error {
	s.mu.Lock()
	isFirst := s.first == ""
	if isFirst {
		s.first = m.ID
	}
	s.mu.Unlock()
	if isFirst {
		select {
		case <-s.others:
			s.waited = true
		case <-time.After(s.timeout):
		}
		return handOver(func() error { return nil })
	}
	err := handOver(func() error { return nil })
	s.mu.Lock()
	s.sent++
	if s.sent == s.want {
		close(s.others)
	}
	s.mu.Unlock()
	return err
}

// A message the mail server is slow to take holds up only its own
// sender: the worker's others send every other message meanwhile.
func TestASlowMessageHoldsUpNoOther(t *testing.T) {
	st := openStore(t, "sqlite:"+filepath.Join(t.TempDir(), "slow.db"))
	queue(t, st, time.Now(), 12)
	sender := &stuck{others: make(chan struct{}), want: 11, timeout: 30 * time.Second}
	w := &mail.Worker{Store: st, Sender: sender, Logger: slog.New(slog.DiscardHandler)}
	if n, err := w.RunOnce(context.Background()); err != nil || n != 12 {
		t.Fatalf("RunOnce = %d, %v; want 12 attempts", n, err)
	}
	if !sender.waited {
		t.Errorf("the first message waited 30 s and %d others were sent meanwhile, want 11", sender.sent)
	}
	if n, err := st.QueuedMessages(context.Background()); err != nil || n != 0 {
		t.Errorf("%d messages still queued: %v", n, err)
	}
}
