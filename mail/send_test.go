package mail

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"

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
}

func newScriptedSMTP(t *testing.T, dataReply string, hangUp bool) *scriptedSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptedSMTP{ln: ln, dataReply: dataReply, hangUp: hangUp, accepted: make(chan string, 10)}
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
					break
				}
				body.WriteString(l)
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
	sender, err := NewSMTP(s.url(), "Clinic <clinic@example.org>")
	if err != nil {
		t.Fatal(err)
	}
	return sender.Send(context.Background(), practiced.Message{
		ID: "msg_01jz0000000000000000000000", Kind: practiced.MessageFormLink,
		To: "client@example.org", Subject: "Your form", Text: "Please fill in the form.", HTML: "<p>Please fill in the form.</p>",
	})
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
		if len(s.accepted) != 0 {
			t.Errorf("%s: %d messages accepted", reply, len(s.accepted))
		}
	}
}
