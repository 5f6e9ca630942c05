package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	practiced "github.com/practiced/practiced"
)

// Sender sends one message. A permanent failure (the mail server refused
// the address for good) is reported as an error for which Permanent is
// true.
type Sender interface {
	Send(ctx context.Context, m practiced.Message) error
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

// Send implements Sender.
func (s *SMTP) Send(ctx context.Context, m practiced.Message) error {
	msg, err := build(s.from, m)
	if err != nil {
		return permanentError{err}
	}
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(30 * time.Second)}
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
	err = c.DialAndSendWithContext(ctx, msg)
	if err != nil && msg.IsDelivered() {
		// The server accepted the message; what failed came after it (the
		// RSET or QUIT that ends the session). Trying again would send it
		// twice.
		return nil
	}
	var se *gomail.SendError
	if errors.As(err, &se) && !se.IsTemp() && se.ErrorCode() >= 500 {
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
func (l Log) Send(ctx context.Context, m practiced.Message) error {
	l.Logger.Info("message logged instead of e-mailed (no --smtp)", "message_id", m.ID, "kind", m.Kind, "subject", m.Subject)
	return nil
}
