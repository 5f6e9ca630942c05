package mail

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/poll"
)

// GiveUpAfter is how long after a message was due the worker stops
// trying to send it; it fails.
const GiveUpAfter = 24 * time.Hour

// DefaultLease is how long a claimed message is left to its worker
// before another may try it: longer than any attempt takes.
const DefaultLease = 2 * time.Minute

// Worker sends the queued messages as they come due, with retries.
// Several processes may each run one on the same database: a message is
// claimed by one at a time.
type Worker struct {
	Store  practiced.MessageStore
	Sender Sender
	Logger *slog.Logger
	// Interval is the pause between polls when nothing is due; 0 is a
	// second.
	Interval time.Duration
	// Now is the clock; nil is time.Now. Tests move it.
	Now func() time.Time
	// Lease is how long a claimed message is left to this worker before
	// another process may try it, as after a crash; 0 is DefaultLease.
	Lease time.Duration
}

// Run sends due messages until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	interval := w.Interval
	if interval == 0 {
		interval = time.Second
	}
	poll.Run(ctx, "messages", interval, w.logger(), w.RunOnce)
}

// AtOnce is how many messages a worker attempts side by side.
const AtOnce = 4

// RunOnce sends the due messages, AtOnce side by side, until none is
// left due; it returns how many it attempted. Each of the AtOnce senders
// claims one message as it starts on it, so that every attempt has its
// claim's whole time (a claim that waited behind others could lapse
// during a slow mail server's answer) and a slow message holds up only
// its own sender.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	var (
		mu        sync.Mutex
		attempted int
		errs      []error
	)
	var wg sync.WaitGroup
	for range AtOnce {
		wg.Go(func() {
			for ctx.Err() == nil {
				claimed, err := w.sendOne(ctx)
				mu.Lock()
				if claimed {
					attempted++
				}
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
				if !claimed || err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return attempted, errors.Join(errs...)
}

// sendOne claims one due message and attempts it; it reports whether
// there was one to claim.
func (w *Worker) sendOne(ctx context.Context) (bool, error) {
	lease := cmp.Or(w.Lease, DefaultLease)
	jobs, err := w.Store.ClaimMessages(ctx, practiced.NewTime(w.now()), lease, 1)
	if err != nil || len(jobs) == 0 {
		return false, err
	}
	j := jobs[0]
	// An attempt ends before its claim lapses, with time left to record
	// its outcome: once it has lapsed, another process may take the
	// message and find it handed over.
	actx, cancel := context.WithTimeout(ctx, j.Until.Sub(w.now())-lease/10)
	defer cancel()
	if actx.Err() != nil {
		// The claim took so long that it is all but over: the message
		// stays claimed and is due again when it lapses.
		return true, nil
	}
	// An attempt under way when ctx ends still records its outcome: a
	// message the server accepted must not stay queued to go again.
	record := context.WithoutCancel(ctx)
	r, ok := w.attempt(actx, record, j)
	if !ok {
		return true, nil
	}
	return true, w.Store.FinishMessage(record, j, r, practiced.NewTime(w.now()))
}

// attempt sends one message and says what came of it, recording its
// hand-over through record; ok is false when the attempt no longer holds
// the message and has nothing to record.
func (w *Worker) attempt(ctx, record context.Context, j practiced.MessageJob) (r practiced.MessageResult, ok bool) {
	if j.HandedOver {
		w.logger().Info("message handed to the mail server before a restart: recorded as sent", "message_id", j.Message.ID, "kind", j.Message.Kind)
		return practiced.MessageResult{Sent: true}, true
	}
	lost := false
	err := w.Sender.Send(ctx, j.Message, func(end func() error) error {
		err := w.Store.HandOverMessage(record, j, practiced.NewTime(w.now()), end)
		lost = practiced.ErrorCode(err) == practiced.ECONFLICT
		return err
	})
	if lost {
		w.logger().Warn("message not sent: its claim lapsed and another attempt holds it", "message_id", j.Message.ID)
		return r, false
	}
	if err == nil {
		w.logger().Info("message sent", "message_id", j.Message.ID, "kind", j.Message.Kind)
		return practiced.MessageResult{Sent: true}, true
	}
	if NoAnswer(err) {
		w.logger().Warn("message handed to the mail server, whose answer never came: recorded as sent", "message_id", j.Message.ID, "kind", j.Message.Kind)
		return practiced.MessageResult{Sent: true}, true
	}
	r = practiced.MessageResult{Error: err.Error(), Permanent: Permanent(err)}
	// The mail server's answer may name the address: it is kept with the
	// message (last_error), never logged.
	w.logger().Warn("message not sent", "message_id", j.Message.ID, "attempt", j.Message.Attempts, "permanent", r.Permanent)
	if r.Permanent {
		return r, true
	}
	next := w.now().Add(Backoff(j.Message.Attempts))
	if next.Before(j.Message.SendAfter.Add(GiveUpAfter)) {
		t := practiced.NewTime(next)
		r.Next = &t
	}
	return r, true
}

// Backoff is the wait before the attempt after the given one: 30
// seconds doubling to at most an hour, with a tenth of jitter.
func Backoff(attempt int) time.Duration {
	return poll.Backoff(attempt, 30*time.Second, time.Hour)
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

func (w *Worker) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.Default()
}
