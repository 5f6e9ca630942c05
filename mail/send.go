package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	practiced "github.com/practiced/practiced"
)

// Sender sends one message. When all but the line that ends the
// message's data has been sent (after that line the mail server may
// accept the message), it calls handOver with end, a function that sends
// the line. handOver records the hand-over and calls end; if it returns
// without calling end, Send abandons the message unsent and returns
// handOver's error. Once end was called, the server's answer decides.
// A permanent failure (the mail server refused the address for good) is
// reported as an error for which Permanent is true.
type Sender interface {
	Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error
}

// permanentError is a refusal that another attempt will not change.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// PermanentError marks err as a refusal another attempt will not change.
func PermanentError(err error) error { return permanentError{err} }

// Permanent reports whether err is a permanent refusal.
func Permanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

// SMTP sends messages through a mail server.
type SMTP struct {
	host     string
	port     int
	implicit bool // smtps: TLS from the first byte
	loopback bool // a server on loopback may be reached without TLS
	user     string
	password string
	from     *mail.Address
}

// NewSMTP reads the server's URL and the sender's address:
// smtp://user:pass@host:587 uses STARTTLS when the server offers it
// (and insists on it unless host is a loopback address), smtps://…:465
// implicit TLS. from is "Clinic <x@example.org>" or an address.
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("--smtp %q: want smtp://[user:pass@]host[:port] or smtps://…", rawURL)
	}
	s := &SMTP{host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		s.port = 587
	case "smtps":
		s.port, s.implicit = 465, true
	default:
		return nil, fmt.Errorf("--smtp %q: the scheme must be smtp or smtps", rawURL)
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("--smtp %q: bad port", rawURL)
		}
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	s.loopback = s.host == "localhost"
	if ip := net.ParseIP(s.host); ip != nil && ip.IsLoopback() {
		s.loopback = true
	}
	if s.from, err = mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("--mail-from %q: %v", from, err)
	}
	return s, nil
}

// sessionTimeout bounds a session with the mail server, and endTimeout
// the write of the line that ends a message.
const (
	sessionTimeout = 30 * time.Second
	endTimeout     = time.Second
)

// Send implements Sender. It holds back the line that ends the message's
// data for handOver to send, so that the mail server cannot accept a
// message whose hand-over was not recorded.
func (s *SMTP) Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error {
	msg, err := build(s.from, m)
	if err != nil {
		return permanentError{err}
	}
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(sessionTimeout)}
	switch {
	case s.implicit:
		opts = append(opts, gomail.WithSSL())
	case s.loopback:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(s.user), gomail.WithPassword(s.password))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return err
	}
	sc, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return err
	}
	// The session ends by ctx's deadline if that comes first: the worker
	// gives each attempt until shortly before its claim lapses.
	deadline := time.Now().Add(sessionTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := sc.UpdateDeadline(time.Until(deadline)); err != nil {
		return err
	}
	// Once the server has answered the end of the data, the session's
	// QUIT changes nothing: its error is of no interest.
	defer c.CloseWithSMTPClient(sc)
	from, err := msg.GetSender(false)
	if err != nil {
		return permanentError{err}
	}
	if err := sc.Mail(from); err != nil {
		return smtpError(err)
	}
	if err := sc.Rcpt(m.To); err != nil {
		return smtpError(err)
	}
	w, err := sc.Data()
	if err != nil {
		return smtpError(err)
	}
	data, ok := w.(*smtp.DataCloser)
	if !ok {
		return fmt.Errorf("smtp: unexpected data writer %T", w)
	}
	if _, err := msg.WriteTo(data); err != nil {
		return err
	}
	// Everything but the end goes out now, so that what is left for
	// the hand-over is one short write.
	if err := sc.Text.W.Flush(); err != nil {
		return err
	}
	ended := false
	err = handOver(func() error {
		ended = true
		// The dot writer's Close writes the line that ends the data and
		// flushes it, without reading the server's answer. The store's
		// writes may wait for it, so a server that stopped reading gets
		// a second, not the session's whole time.
		if err := sc.UpdateDeadline(endTimeout); err != nil {
			return err
		}
		err := data.WriteCloser.Close()
		if derr := sc.UpdateDeadline(time.Until(deadline)); err == nil {
			err = derr
		}
		return err
	})
	if !ended {
		// Without its end the server discards the message.
		sc.Close()
		return err
	}
	_, _, err = sc.Text.ReadResponse(250)
	var te *textproto.Error
	if err != nil && !errors.As(err, &te) {
		// The end went out and no answer came back (a timeout, a
		// dropped connection): the server may well have the message.
		return noAnswer{err}
	}
	return smtpError(err)
}

// noAnswer is the failure to hear the server's answer to a message's end.
type noAnswer struct{ err error }

func (e noAnswer) Error() string { return "no answer to the end of the message: " + e.err.Error() }
func (e noAnswer) Unwrap() error { return e.err }

// NoAnswer reports whether err says the end of the message was sent and
// the mail server's answer never came. The message is then taken for
// sent, as after a crash at that moment: sending it again could deliver
// it twice.
func NoAnswer(err error) bool {
	var n noAnswer
	return errors.As(err, &n)
}

// smtpError turns a refusal by the mail server into its answer as the
// server wrote it ("550 5.1.1 no such mailbox"), permanent for a 5xx
// code; anything else may pass on another attempt.
func smtpError(err error) error {
	var te *textproto.Error
	if !errors.As(err, &te) {
		return err
	}
	err = fmt.Errorf("%03d %s", te.Code, te.Msg)
	if te.Code >= 500 {
		return permanentError{err}
	}
	return err
}

// build makes the MIME message of m: text, HTML, and the appointment's
// invitation both as an alternative part and as an .ics attachment, so
// that mail programs offer to add it to a calendar.
func build(from *mail.Address, m practiced.Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	name := m.FromName
	if name == "" {
		name = from.Name
	}
	if err := msg.FromFormat(name, from.Address); err != nil {
		return nil, err
	}
	if err := msg.To(m.To); err != nil {
		return nil, err
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return nil, err
		}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.ID + "@practiced")
	msg.SetGenHeader("X-Practiced-Message", m.ID)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	if m.ICS != "" {
		method := "REQUEST"
		if m.Kind == practiced.MessageCancellation {
			method = "CANCEL"
		}
		if err := msg.AttachReader("appointment.ics", strings.NewReader(m.ICS),
			gomail.WithFileContentType(gomail.ContentType("text/calendar; method="+method))); err != nil {
			return nil, err
		}
	}
	return msg, nil
}

// Log "sends" messages by writing them to the log: the demo's sender,
// so that nothing leaves the machine.
type Log struct{ Logger *slog.Logger }

// Send implements Sender.
func (l Log) Send(ctx context.Context, m practiced.Message, handOver func(end func() error) error) error {
	ended := false
	err := handOver(func() error { ended = true; return nil })
	if !ended {
		return err
	}
	l.Logger.Info("message logged instead of e-mailed (no --smtp)", "message_id", m.ID, "kind", m.Kind, "subject", m.Subject)
	return nil
}
