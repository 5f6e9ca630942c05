package mail

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

// scriptedSMTP is a mail server on loopback that answers the end of a
// message's data with dataReply and then, when hangUp is set, drops the
// connection instead of answering the next command. It counts the
// messages whose data it answered 250.
type scriptedSMTP struct {
	ln        net.Listener
	dataReply string
	hangUp    bool
	accepted  chan string
	// lines has each line of a message's data as it is read; ended
	// whether the end of the data came before the sender handed the
	// message over (handedOver set).
	lines      chan string
	handedOver atomic.Bool
	ended      chan bool
	// closed has a value each time a session ends.
	closed chan struct{}
}

func newScriptedSMTP(t *testing.T, dataReply string, hangUp bool) *scriptedSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptedSMTP{ln: ln, dataReply: dataReply, hangUp: hangUp, accepted: make(chan string, 10),
		lines: make(chan string, 1000), ended: make(chan bool, 10), closed: make(chan struct{}, 10)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

func (s *scriptedSMTP) serve(conn net.Conn) {
	defer func() { s.closed <- struct{}{} }()
	defer conn.Close()
	r := bufio.NewReader(conn)
	say := func(line string) { conn.Write([]byte(line + "\r\n")) }
	say("220 scripted ESMTP")
	afterData := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		if afterData && s.hangUp {
			return
		}
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			say("250-scripted")
			say("250 8BITMIME")
		case strings.HasPrefix(cmd, "MAIL"), strings.HasPrefix(cmd, "RCPT"), cmd == "RSET", cmd == "NOOP":
			say("250 OK")
		case cmd == "DATA":
			say("354 go ahead")
			var body strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					s.ended <- s.handedOver.Load()
					break
				}
				s.lines <- l
				body.WriteString(l)
			}
			if s.dataReply == "" {
				// Never answers: waits for the client to hang up.
				io.Copy(io.Discard, r)
				return
			}
			say(s.dataReply)
			if strings.HasPrefix(s.dataReply, "250") {
				s.accepted <- body.String()
			}
			afterData = true
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}

func (s *scriptedSMTP) url() string { return "smtp://" + s.ln.Addr().String() }

func sendOne(t *testing.T, s *scriptedSMTP) error {
	t.Helper()
	return sendHandingOver(t, s, func(end func() error) error { s.handedOver.Store(true); return end() })
}

func sendHandingOver(t *testing.T, s *scriptedSMTP, handOver func(end func() error) error) error {
	t.Helper()
	return sendWithin(t, context.Background(), s, handOver)
}

func sendWithin(t *testing.T, ctx context.Context, s *scriptedSMTP, handOver func(end func() error) error) error {
	t.Helper()
	sender, err := NewSMTP(s.url(), "Clinic <clinic@example.org>")
	if err != nil {
		t.Fatal(err)
	}
	return sender.Send(ctx, practiced.Message{
		ID: "msg_01jz0000000000000000000000", Kind: practiced.MessageFormLink,
		To: "client@example.org", Subject: "Your form", Text: "Please fill in the form.", HTML: "<p>Please fill in the form.</p>",
	}, handOver)
}

// A server that accepted the message and then hung up before the session
// ended has the message: it counts as sent, so it is never sent again.
func TestAMessageAcceptedBeforeTheServerHangsUpIsSent(t *testing.T) {
	s := newScriptedSMTP(t, "250 queued as 1", true)
	if err := sendOne(t, s); err != nil {
		t.Fatalf("Send = %v, want nil: the server accepted the message", err)
	}
	if len(s.accepted) != 1 {
		t.Fatalf("the server accepted %d messages, want 1", len(s.accepted))
	}
	if body := <-s.accepted; !strings.Contains(body, "Message-ID: <msg_01jz0000000000000000000000@practiced>") {
		t.Errorf("the accepted message has no Message-ID of its own:\n%s", body)
	}
}

// A message the server refused at the end of its data is not sent:
// temporarily (4xx) it is tried again, for good (5xx) it fails.
func TestAMessageRefusedAtTheEndOfItsDataIsNotSent(t *testing.T) {
	for reply, permanent := range map[string]bool{"451 try again later": false, "554 rejected": true} {
		s := newScriptedSMTP(t, reply, false)
		err := sendOne(t, s)
		if err == nil {
			t.Fatalf("%s: Send = nil, want an error", reply)
		}
		if Permanent(err) != permanent {
			t.Errorf("%s: Permanent(%v) = %v, want %v", reply, err, Permanent(err), permanent)
		}
		if err.Error() != reply {
			t.Errorf("Send = %q, want the server's answer %q", err, reply)
		}
		if len(s.accepted) != 0 {
			t.Errorf("%s: %d messages accepted", reply, len(s.accepted))
		}
	}
}

// The message's data reaches the mail server before the hand-over, and
// its end only after it: what is left to send after the hand-over is
// the short line that ends the data.
func TestAMessageIsHandedOverJustBeforeItsEnd(t *testing.T) {
	s := newScriptedSMTP(t, "250 queued as 1", false)
	var last string
	err := sendHandingOver(t, s, func(end func() error) error {
		// The data's last line is the closing boundary of the message's
		// parts ("--…--"): it is at the server before the hand-over.
		timeout := time.After(10 * time.Second)
		for !(strings.HasPrefix(last, "--") && strings.HasSuffix(last, "--\r\n")) {
			select {
			case last = <-s.lines:
			case <-timeout:
				return fmt.Errorf("the data had not reached the server at the hand-over; last line %q", last)
			}
		}
		s.handedOver.Store(true)
		return end()
	})
	if err != nil {
		t.Fatalf("Send = %v", err)
	}
	if before := <-s.ended; !before {
		t.Error("the end of the data reached the server before the hand-over")
	}
	if len(s.lines) != 0 {
		t.Errorf("%d lines of data came after the hand-over, want none", len(s.lines))
	}
	if len(s.accepted) != 1 {
		t.Errorf("%d messages accepted, want 1", len(s.accepted))
	}
}

// A hand-over that fails leaves the message without its end: the server
// never accepts it, and Send reports the hand-over's error.
func TestAMessageWhoseHandOverFailsIsNeverAccepted(t *testing.T) {
	s := newScriptedSMTP(t, "250 queued as 1", false)
	failed := errors.New("the claim lapsed")
	if err := sendHandingOver(t, s, func(end func() error) error { return failed }); !errors.Is(err, failed) {
		t.Fatalf("Send = %v, want the hand-over's error", err)
	}
	select {
	case <-s.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end")
	}
	if len(s.ended) != 0 {
		t.Error("the end of the data reached the server")
	}
	if len(s.accepted) != 0 {
		t.Errorf("%d messages accepted, want 0", len(s.accepted))
	}
}

// Once the end has been sent, the server's answer decides, whatever the
// hand-over reports after it (the answer to its commit was lost).
func TestTheServersAnswerDecidesOnceTheEndIsSent(t *testing.T) {
	for reply, want := range map[string]string{"250 queued as 1": "", "451 try again later": "451 try again later"} {
		s := newScriptedSMTP(t, reply, false)
		err := sendHandingOver(t, s, func(end func() error) error {
			s.handedOver.Store(true)
			return errors.Join(end(), errors.New("the commit's answer was lost"))
		})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: Send = %q, want %q", reply, got, want)
		}
	}
}

// A server that has the end of a message and never answers may have
// accepted it: Send says so (NoAnswer), for the message to be taken for
// sent rather than sent again.
func TestNoAnswerToTheEndIsNotAFailure(t *testing.T) {
	s := newScriptedSMTP(t, "", false)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := sendWithin(t, ctx, s, func(end func() error) error { s.handedOver.Store(true); return end() })
	if !NoAnswer(err) || Permanent(err) {
		t.Fatalf("Send = %v, want no answer (and not permanent)", err)
	}
	if before := <-s.ended; !before {
		t.Error("the end reached the server before the hand-over")
	}
}
