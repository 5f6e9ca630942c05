package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/mail"
	"github.com/practiced/practiced/tid"

	"github.com/jackc/pgx/v5/stdlib"
)

// Messages to clients are planned inside the transaction of the change
// that causes them, from the events that transaction writes: while a
// write function runs, recordEvent notes each event of an appointment
// or an attendance in the function's eventLog, and when the function
// has succeeded, planMessages plans (or re-plans) the messages of the
// attendances those events touched, in the same transaction. A write
// that fails plans nothing; a message is never planned twice for one
// cause (the messages table is unique on it).

// EnableMessages makes the store plan messages to clients, with links
// to pages under publicURL ("https://clinic.example.org"), reading the
// time from now (nil is time.Now; tests move it). Call it before the
// store is shared between goroutines. Without it no message is ever
// planned.
func (s *Store) EnableMessages(publicURL string, now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	s.messages = &messaging{publicURL: publicURL, now: now}
}

// SetMessageTemplates has messages rendered with t (serve
// --mail-templates) instead of the built-in templates. Call it before
// the store is shared between goroutines.
func (s *Store) SetMessageTemplates(t *mail.Templates) { s.templates = t }

// messaging is the store's message settings.
type messaging struct {
	publicURL string
	now       func() time.Time
}

// eventLog is what a write function's events touched, in its business.
type eventLog struct {
	biz          string
	attendances  []string            // attendance ids, in order of first touch
	actions      map[string][]string // per attendance: created, cancelled, rescheduled
	appointments []string            // appointments whose attendances to look up
	moved        map[string]bool     // appointments rescheduled
}

func (l *eventLog) touch(apc, action string) {
	if _, ok := l.actions[apc]; !ok {
		l.attendances = append(l.attendances, apc)
		l.actions[apc] = nil
	}
	if action != "" && !slices.Contains(l.actions[apc], action) {
		l.actions[apc] = append(l.actions[apc], action)
	}
}

// logs holds the eventLog of each transaction whose write function is
// running. A transaction runs one write function at a time (group
// commit runs them one after another), so the transaction names it.
var logs sync.Map // *sql.Tx → *eventLog

// noteEvent records an event in the log of the transaction db, if any.
func noteEvent(db queryer, businessID, recordType, action, recordID string) {
	tx, ok := db.(*sql.Tx)
	if !ok {
		return
	}
	v, ok := logs.Load(tx)
	if !ok {
		return
	}
	l := v.(*eventLog)
	l.biz = businessID
	switch recordType {
	case practiced.KindAppointmentClient.Type:
		switch action {
		case "created", "cancelled":
			l.touch(recordID, action)
		default:
			l.touch(recordID, "")
		}
	case practiced.KindAppointment.Type:
		if !slices.Contains(l.appointments, recordID) {
			l.appointments = append(l.appointments, recordID)
		}
		if action == "rescheduled" {
			l.moved[recordID] = true
		}
	}
}

// withMessages wraps a write function so that the messages its changes
// cause are planned in its transaction.
func (s *Store) withMessages(ctx context.Context, fn func(tx *sql.Tx) error) func(tx *sql.Tx) error {
	return func(tx *sql.Tx) error {
		l := &eventLog{actions: map[string][]string{}, moved: map[string]bool{}}
		logs.Store(tx, l)
		err := func() error {
			defer logs.Delete(tx) // fn may panic, and run again
			return fn(tx)
		}()
		if err != nil || len(l.attendances) == 0 && len(l.appointments) == 0 {
			return err
		}
		return s.planMessages(ctx, tx, l, practiced.Notify(ctx))
	}
}

// planMessages plans the messages of the attendances l touched.
func (s *Store) planMessages(ctx context.Context, tx *sql.Tx, l *eventLog, notify bool) error {
	for _, apt := range l.appointments {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM appointment_clients WHERE business_id = $1 AND appointment_id = $2 ORDER BY id`, l.biz, apt)
		if err != nil {
			return fmt.Errorf("plan messages: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			action := ""
			if l.moved[apt] {
				action = "rescheduled"
			}
			l.touch(id, action)
		}
	}
	now := practiced.NewTime(s.messages.now())
	for _, apc := range l.attendances {
		if err := s.planAttendance(ctx, tx, l.biz, apc, l.actions[apc], notify, now); err != nil {
			return fmt.Errorf("plan messages of %s: %w", apc, err)
		}
	}
	return nil
}

// attendanceView is what an attendance's messages are made of.
type attendanceView struct {
	biz         string
	business    string
	ac          practiced.AppointmentClient
	appointment practiced.Appointment
	client      practiced.Client
	location    practiced.Location
	pract       practiced.Practitioner
	service     *practiced.Service
	secret      string
	sequence    int
}

// loadAttendance reads an attendance and everything its messages name.
func (s *Store) loadAttendance(ctx context.Context, db queryer, businessID, apc string) (attendanceView, error) {
	var v attendanceView
	v.biz = businessID
	var secret sql.NullString
	err := db.QueryRowContext(ctx, `SELECT b.name, ac.page_secret, ac.message_sequence FROM appointment_clients ac
		JOIN businesses b ON b.id = ac.business_id WHERE ac.business_id = $1 AND ac.id = $2`, businessID, apc).
		Scan(&v.business, &secret, &v.sequence)
	if errors.Is(err, sql.ErrNoRows) {
		return v, practiced.NotFound(practiced.KindAppointmentClient.Name)
	} else if err != nil {
		return v, err
	}
	v.secret = secret.String
	if v.ac, err = appointmentClients.get(ctx, db, businessID, apc, ""); err != nil {
		return v, err
	}
	if v.appointment, err = appointments.get(ctx, db, businessID, v.ac.AppointmentID, ""); err != nil {
		return v, err
	}
	if v.client, err = clients.get(ctx, db, businessID, v.ac.ClientID, ""); err != nil {
		return v, err
	}
	if v.location, err = locations.get(ctx, db, businessID, v.appointment.LocationID, ""); err != nil {
		return v, err
	}
	if v.pract, err = practitioners.get(ctx, db, businessID, v.appointment.PractitionerID, ""); err != nil {
		return v, err
	}
	if v.appointment.ServiceID != nil {
		svc, err := services.get(ctx, db, businessID, *v.appointment.ServiceID, "")
		if err != nil {
			return v, err
		}
		v.service = &svc
	}
	return v, nil
}

// planAttendance plans the messages of one attendance after a change:
// its reminder is planned, moved or dropped, and with notify the
// confirmation, change or cancellation notice the actions call for.
func (s *Store) planAttendance(ctx context.Context, tx *sql.Tx, biz, apc string, actions []string, notify bool, now practiced.Time) error {
	v, err := s.loadAttendance(ctx, tx, biz, apc)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		return nil // deleted in this transaction
	} else if err != nil {
		return err
	}
	reachable := v.client.Email != "" && !v.client.NoMessages
	minutes := 0
	if v.service != nil {
		minutes = v.service.ReminderMinutes
	} else {
		minutes = practiced.DefaultReminderMinutes
	}
	due, remind := practiced.ReminderDue(v.appointment, v.ac, minutes, now.Time)
	if !reachable {
		remind = false
	}
	reminderCause := "reminder:" + apc
	if remind {
		if err := s.putMessage(ctx, tx, &v, practiced.MessageReminder, reminderCause, practiced.NewTime(due), now, true); err != nil {
			return err
		}
	} else if err := dropQueued(ctx, tx, biz, reminderCause); err != nil {
		return err
	}
	if !notify || !reachable {
		return nil
	}
	booked := v.ac.Status == practiced.StatusBooked && v.appointment.CancelledAt == nil
	for _, a := range actions {
		switch {
		case a == "created" && booked:
			err = s.putMessage(ctx, tx, &v, practiced.MessageConfirmation, "confirmation:"+apc, now, now, false)
		case a == "rescheduled" && booked:
			cause := fmt.Sprintf("change:%s:%d", apc, v.appointment.StartsAt.Unix())
			err = s.putMessage(ctx, tx, &v, practiced.MessageChange, cause, now, now, false)
		case a == "cancelled":
			err = s.putMessage(ctx, tx, &v, practiced.MessageCancellation, "cancellation:"+apc, now, now, false)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// dropQueued deletes the message of cause while it is queued, recording
// its deletion in the change feed.
func dropQueued(ctx context.Context, tx *sql.Tx, biz, cause string) error {
	m, err := scanMessage(tx.QueryRowContext(ctx, `SELECT `+messageCols+` FROM messages WHERE business_id = $1 AND cause = $2 AND status = $3`,
		biz, cause, practiced.MessageQueued))
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	} else if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE business_id = $1 AND id = $2`, biz, m.ID); err != nil {
		return err
	}
	return recordEvent(ctx, tx, biz, practiced.KindMessage.Type, "deleted", m.ID, m.Redacted())
}

// putMessage plans the message of kind for cause, due at sendAfter. A
// message of the cause already planned is left alone, unless replace
// is set and it is still queued: then it is rendered and timed anew (a
// reminder of an appointment that moved).
func (s *Store) putMessage(ctx context.Context, tx *sql.Tx, v *attendanceView, kind, cause string, sendAfter, now practiced.Time, replace bool) error {
	var id, status string
	err := tx.QueryRowContext(ctx, `SELECT id, status FROM messages WHERE business_id = $1 AND cause = $2`, v.biz, cause).Scan(&id, &status)
	exists := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if exists && (!replace || status != practiced.MessageQueued) {
		return nil
	}
	v.sequence++
	if _, err := tx.ExecContext(ctx, `UPDATE appointment_clients SET message_sequence = $3 WHERE business_id = $1 AND id = $2`,
		v.biz, v.ac.ID, v.sequence); err != nil {
		return err
	}
	if v.secret == "" {
		v.secret = rand.Text()
		if _, err := tx.ExecContext(ctx, `UPDATE appointment_clients SET page_secret = $3 WHERE business_id = $1 AND id = $2`,
			v.biz, v.ac.ID, v.secret); err != nil {
			return err
		}
	}
	link := s.messages.publicURL + "/a/" + practiced.AppointmentToken(v.ac.ID, v.secret)
	service, color := "", ""
	if v.service != nil {
		service, color = v.service.Name, v.service.Color
	}
	r, err := s.templates.RenderAppointment(v.biz, kind, mail.Appointment{Business: v.business, Location: v.location,
		Practitioner: practitionerName(v.pract), Service: service, Color: color, ClientName: clientName(v.client),
		Appointment: v.appointment, Attendance: v.ac, PageURL: link, Sequence: v.sequence})
	if err != nil {
		return err
	}
	m := practiced.Message{Kind: kind, Status: practiced.MessageQueued, To: v.client.Email, ClientID: v.client.ID,
		AppointmentClientID: &v.ac.ID, Subject: r.Subject, Text: r.Text, HTML: r.HTML, ICS: r.ICS, Cause: cause,
		Link: link, ReplyTo: v.location.Email, FromName: v.business, SendAfter: sendAfter, CreatedAt: now, UpdatedAt: now}
	if exists {
		_, err := tx.ExecContext(ctx, `UPDATE messages SET to_address = $3, reply_to = $4, from_name = $5, subject = $6, text = $7,
			html = $8, ics = $9, link = $10, send_after = $11, next_attempt_at = $11, updated_at = $12 WHERE business_id = $1 AND id = $2`,
			v.biz, id, m.To, m.ReplyTo, m.FromName, m.Subject, m.Text, m.HTML, m.ICS, m.Link, tsv(sendAfter), tsv(now))
		if err != nil {
			return err
		}
		return recordMessage(ctx, tx, v.biz, "updated", id)
	}
	return insertMessage(ctx, tx, v.biz, &m)
}

// AppointmentPage implements practiced.MessageStore.
func (s *Store) AppointmentPage(ctx context.Context, apc string) (practiced.AppointmentPage, error) {
	var biz string
	err := s.r.QueryRowContext(ctx, `SELECT business_id FROM appointment_clients WHERE id = $1`, apc).Scan(&biz)
	if errors.Is(err, sql.ErrNoRows) {
		return practiced.AppointmentPage{}, practiced.NotFound(practiced.KindAppointmentClient.Name)
	} else if err != nil {
		return practiced.AppointmentPage{}, err
	}
	v, err := s.loadAttendance(ctx, s.r, biz, apc)
	if err != nil {
		return practiced.AppointmentPage{}, err
	}
	p := practiced.AppointmentPage{BusinessID: biz, Business: v.business, Secret: v.secret, Attendance: v.ac,
		Appointment: v.appointment, Location: v.location, Practitioner: practitionerName(v.pract), ClientName: clientName(v.client)}
	if v.service != nil {
		p.Service = v.service.Name
	}
	return p, nil
}

// messageRowCols are the columns a new message sets, in
// messageRowValues order.
const messageRowCols = `id, kind, status, cause, to_address, reply_to, from_name, client_id, appointment_client_id, form_id,
	subject, text, html, ics, link, send_after, next_attempt_at, attempts, last_error, sent_at, created_at, updated_at`

func messageRowValues(m *practiced.Message) []any {
	var next any
	if m.Status == practiced.MessageQueued {
		next = tsv(m.SendAfter)
	}
	return []any{m.ID, m.Kind, m.Status, m.Cause, m.To, m.ReplyTo, m.FromName, m.ClientID, nullStr(m.AppointmentClientID),
		nullStr(m.FormID), m.Subject, m.Text, m.HTML, m.ICS, m.Link, tsv(m.SendAfter), next, m.Attempts, nullStr(m.LastError),
		nullTs(m.SentAt), tsv(m.CreatedAt), tsv(m.UpdatedAt)}
}

// insertMessage stores a new queued message.
func insertMessage(ctx context.Context, tx *sql.Tx, biz string, m *practiced.Message) error {
	m.ID = tid.New(practiced.PrefixMessage)
	vals := append([]any{biz}, messageRowValues(m)...)
	var a args
	marks := make([]string, len(vals))
	for i, v := range vals {
		marks[i] = a.add(v)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO messages (business_id, `+messageRowCols+`) VALUES (`+strings.Join(marks, ", ")+`)`, a.vals...)
	if err != nil {
		return err
	}
	return recordMessage(ctx, tx, biz, "created", m.ID)
}

// recordMessage writes the change feed's event of a change of a message,
// with the message as it is now, its secret link hidden (the feed and
// webhooks are not only for keys that can write).
func recordMessage(ctx context.Context, tx *sql.Tx, biz, action, id string) error {
	m, err := getMessage(ctx, tx, biz, id)
	if err != nil {
		return fmt.Errorf("message %s: %w", id, err)
	}
	return recordEvent(ctx, tx, biz, practiced.KindMessage.Type, action, id, m.Redacted())
}

// clientName is how a message greets its client.
func clientName(c practiced.Client) string {
	if c.PreferredName != "" {
		return c.PreferredName
	}
	return c.FirstName
}

// practitionerName is a practitioner as clients know them.
func practitionerName(p practiced.Practitioner) string {
	if p.DisplayName != "" {
		return p.DisplayName
	}
	name := p.FirstName + " " + p.LastName
	if p.Title != "" {
		name = p.Title + " " + name
	}
	return name
}

const messageCols = `id, kind, status, to_address, client_id, appointment_client_id, form_id, subject, text,
	send_after, attempts, last_error, sent_at, created_at, updated_at, html, ics, cause, link, reply_to, from_name`

func scanMessage(r rowScanner) (practiced.Message, error) {
	var m practiced.Message
	var lastErr sql.NullString
	err := r.Scan(&m.ID, &m.Kind, &m.Status, &m.To, &m.ClientID, &m.AppointmentClientID, &m.FormID, &m.Subject, &m.Text,
		timeScan{&m.SendAfter}, &m.Attempts, &lastErr, nullTimeScan{&m.SentAt}, timeScan{&m.CreatedAt}, timeScan{&m.UpdatedAt},
		&m.HTML, &m.ICS, &m.Cause, &m.Link, &m.ReplyTo, &m.FromName)
	if lastErr.Valid {
		m.LastError = &lastErr.String
	}
	return m, err
}

// ListMessages implements practiced.MessageStore.
func (s *Store) ListMessages(ctx context.Context, businessID string, f practiced.MessageFilter, p practiced.PageRequest) ([]practiced.Message, practiced.PageInfo, error) {
	q := newListQuery(businessID, messageCols, "messages", "business_id", "id")
	for _, c := range []struct{ col, v string }{{"kind", f.Kind}, {"status", f.Status}, {"to_address", f.To},
		{"client_id", f.ClientID}, {"appointment_client_id", f.AppointmentClientID}, {"form_id", f.FormID}} {
		if c.v != "" {
			q.filter(c.col + " = " + q.args.add(c.v))
		}
	}
	if f.UpdatedSince != nil {
		q.filter("updated_at >= " + q.args.add(ts(*f.UpdatedSince)))
	}
	return list(ctx, s.r, q, p, scanMessage, func(m *practiced.Message) string { return m.ID })
}

// GetMessage implements practiced.MessageStore.
func (s *Store) GetMessage(ctx context.Context, businessID, id string) (practiced.Message, error) {
	return getMessage(ctx, s.r, businessID, id)
}

// getMessage reads one message of the business through db; ENOTFOUND if
// it has none of the id.
func getMessage(ctx context.Context, db queryer, businessID, id string) (practiced.Message, error) {
	m, err := scanMessage(db.QueryRowContext(ctx, `SELECT `+messageCols+` FROM messages WHERE business_id = $1 AND id = $2`, businessID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, practiced.NotFound(practiced.KindMessage.Name)
	}
	return m, err
}

// QueueFormLink implements practiced.MessageStore.
func (s *Store) QueueFormLink(ctx context.Context, businessID, formID, cause string, now practiced.Time) (practiced.Message, error) {
	var m practiced.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		f, err := forms.get(ctx, tx, businessID, formID, s.dialect.lockRow)
		if err != nil {
			return err
		}
		var existing string
		err = tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE business_id = $1 AND cause = $2`, businessID, cause).Scan(&existing)
		if err == nil {
			m, err = getMessage(ctx, tx, businessID, existing)
			return err
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		c, err := clients.get(ctx, tx, businessID, f.ClientID, "")
		if err != nil {
			return err
		}
		switch {
		case f.ArchivedAt != nil:
			return practiced.Invalid("sent_status", "cannot become sent: the form is archived; unarchive it first")
		case c.NoMessages:
			return practiced.Invalid("client_id", "the client is marked no_messages: the form's link cannot be e-mailed")
		case c.Email == "":
			return practiced.Invalid("client_id", "the client has no e-mail address to send the form's link to")
		}
		var business string
		if err := tx.QueryRowContext(ctx, `SELECT name FROM businesses WHERE id = $1`, businessID).Scan(&business); err != nil {
			return err
		}
		link := s.publicURL() + "/f/" + f.ID + "?secret=" + f.LinkSecret
		r, err := s.templates.RenderForm(businessID, mail.Form{Business: business, ClientName: clientName(c), FormName: f.Name, URL: link, Color: f.Color})
		if err != nil {
			return err
		}
		replyTo := ""
		if f.LocationID != nil {
			if l, err := locations.get(ctx, tx, businessID, *f.LocationID, ""); err == nil {
				replyTo = l.Email
			}
		}
		m = practiced.Message{Kind: practiced.MessageFormLink, Status: practiced.MessageQueued, To: c.Email, ClientID: c.ID,
			FormID: &f.ID, Subject: r.Subject, Text: r.Text, HTML: r.HTML, Cause: cause, Link: link, ReplyTo: replyTo,
			FromName: business, SendAfter: now, CreatedAt: now, UpdatedAt: now}
		if err := insertMessage(ctx, tx, businessID, &m); err != nil {
			return err
		}
		return setSentStatus(ctx, tx, businessID, f, practiced.SentQueued, now)
	})
	return m, err
}

// setSentStatus gives the form f, read locked in tx, the sent status its
// link's e-mail has reached, with its event; a viewed form stays viewed,
// and the first sending sets sent_at.
func setSentStatus(ctx context.Context, tx *sql.Tx, businessID string, f practiced.Form, status string, now practiced.Time) error {
	if f.SentStatus == practiced.SentViewed {
		return nil
	}
	before := f
	f.SentStatus, f.UpdatedAt = status, now
	if status == practiced.SentSent && f.SentAt == nil {
		f.SentAt = &now
	}
	doc, err := forms.write(ctx, tx, businessID, &f)
	if err != nil {
		return err
	}
	return forms.recordChange(ctx, tx, businessID, "updated", &before, &f, doc)
}

// publicURL is where the server's pages are, for links.
func (s *Store) publicURL() string {
	if s.messages == nil {
		return ""
	}
	return s.messages.publicURL
}

// ClaimMessages implements practiced.MessageStore.
func (s *Store) ClaimMessages(ctx context.Context, now practiced.Time, lease time.Duration, limit int) ([]practiced.MessageJob, error) {
	// A read first, so that an idle server takes no write lock.
	var due int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM messages
		WHERE status = $1 AND next_attempt_at <= $2 LIMIT 1) d`, practiced.MessageQueued, tsv(now)).Scan(&due); err != nil {
		return nil, err
	}
	if due == 0 {
		return nil, nil
	}
	var jobs []practiced.MessageJob
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		jobs = nil
		rows, err := tx.QueryContext(ctx, `SELECT business_id, handed_over_at IS NOT NULL, claims, `+messageCols+` FROM messages
			WHERE status = $1 AND next_attempt_at <= $2 ORDER BY next_attempt_at, id LIMIT $3`+s.skipLocked("messages"),
			practiced.MessageQueued, tsv(now), limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var j practiced.MessageJob
			m, err := scanMessage(prefixed{rows, []any{&j.BusinessID, &j.HandedOver, &j.Claim}})
			if err != nil {
				rows.Close()
				return err
			}
			j.Message = m
			jobs = append(jobs, j)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		until := practiced.NewTime(now.Add(lease))
		for i := range jobs {
			// A message handed over before its worker ended is only
			// recorded as sent: that is no attempt, but it is a claim.
			if !jobs[i].HandedOver {
				jobs[i].Message.Attempts++
			}
			jobs[i].Claim++
			jobs[i].Until = until
			if _, err := tx.ExecContext(ctx, `UPDATE messages SET attempts = $3, claims = $4, next_attempt_at = $5 WHERE business_id = $1 AND id = $2`,
				jobs[i].BusinessID, jobs[i].Message.ID, jobs[i].Message.Attempts, jobs[i].Claim, tsv(until)); err != nil {
				return err
			}
		}
		return nil
	})
	return jobs, err
}

// prefixed scans a row whose first columns go to first and the rest to
// the dest of Scan.
type prefixed struct {
	r     rowScanner
	first []any
}

func (p prefixed) Scan(dest ...any) error { return p.r.Scan(append(p.first, dest...)...) }

// HandOverMessage implements practiced.MessageStore.
//
// The moment that matters is the one between the record and end: a
// process that ends in it leaves the message recorded as sent and never
// accepted. So neither store waits for the disk before end. SQLite
// commits the record without an fsync (a commit survives the end of the
// process once it is written; a power cut may lose the record, and the
// message is then sent again), and the committer calls end the moment
// the commit is written. On PostgreSQL the COMMIT is written and
// end called before the COMMIT's answer is read (see handOverPostgres).
func (s *Store) HandOverMessage(ctx context.Context, job practiced.MessageJob, now practiced.Time, end func() error) error {
	if s.group == nil {
		return s.handOverPostgres(ctx, job, now, end)
	}
	return s.inTxUnsynced(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, handOverSQL, handOverArgs(job, now)...)
		if err != nil {
			return err
		}
		return handedOver(res.RowsAffected())
	}, end)
}

// handOverSQL marks the message of a job handed over, if the job's
// claim is the latest and has not lapsed.
const handOverSQL = `UPDATE messages SET handed_over_at = $3
	WHERE business_id = $1 AND id = $2 AND status = $4 AND claims = $5 AND handed_over_at IS NULL AND next_attempt_at > $3`

func handOverArgs(job practiced.MessageJob, now practiced.Time) []any {
	return []any{job.BusinessID, job.Message.ID, tsv(now), practiced.MessageQueued, job.Claim}
}

// handedOver turns the count of rows handOverSQL marked into its error.
func handedOver(n int64, err error) error {
	if err != nil {
		return err
	}
	if n == 0 {
		return practiced.Errorf(practiced.ECONFLICT, "the message is no longer this attempt's to send")
	}
	return nil
}

// handOverPostgres is HandOverMessage on PostgreSQL, on one connection
// of the pool driven through pgx, which can send a COMMIT without
// waiting for its answer.
func (s *Store) handOverPostgres(ctx context.Context, job practiced.MessageJob, now practiced.Time, end func() error) error {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		if _, err := c.Exec(ctx, "BEGIN"); err != nil {
			return err
		}
		tag, err := c.Exec(ctx, handOverSQL, handOverArgs(job, now)...)
		if err == nil {
			err = handedOver(tag.RowsAffected(), nil)
		}
		if err != nil {
			// A connection that cannot roll back is closed, and the pool
			// drops it.
			c.Exec(context.WithoutCancel(ctx), "ROLLBACK")
			return err
		}
		// The COMMIT is written held back by the kernel, end writes the
		// message's last line, and only then does the COMMIT leave. A
		// process killed between the two writes leaves the COMMIT to be
		// sent as its socket closes; had the COMMIT left first, the
		// database, woken by it, could take the processor before end
		// ran, and a kill then would leave a message recorded as sent
		// that the mail server never received.
		release := holdWrites(c.PgConn().Conn())
		commit := c.PgConn().Exec(ctx, "COMMIT")
		if !c.PgConn().IsBusy() {
			// The COMMIT was never written (the connection failed): the
			// record is not made, so the message must not end.
			release()
			_, err := commit.ReadAll()
			c.Exec(context.WithoutCancel(ctx), "ROLLBACK")
			return errors.Join(errors.New("sqlstore: the hand-over's COMMIT was not sent"), err)
		}
		endErr := end()
		release()
		_, err = commit.ReadAll()
		return errors.Join(endErr, err)
	})
}

// FinishMessage implements practiced.MessageStore.
func (s *Store) FinishMessage(ctx context.Context, job practiced.MessageJob, r practiced.MessageResult, now practiced.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		m := job.Message
		// A message is sent when it was handed over, if it was.
		status, next, sentAt := practiced.MessageQueued, nullTs(r.Next), `NULL`
		switch {
		case r.Sent:
			status, next, sentAt = practiced.MessageSent, nil, `COALESCE(handed_over_at, $7)`
		case r.Permanent || r.Next == nil:
			status, next = practiced.MessageFailed, nil
		}
		var lastErr any
		if r.Error != "" {
			lastErr = r.Error
		}
		// Only the attempt of the latest claim records its outcome.
		res, err := tx.ExecContext(ctx, `UPDATE messages SET status = $3, next_attempt_at = $4, last_error = $5, sent_at = `+sentAt+`,
			handed_over_at = NULL, updated_at = $7 WHERE business_id = $1 AND id = $2 AND status = $6 AND claims = $8`,
			job.BusinessID, m.ID, status, next, lastErr, practiced.MessageQueued, tsv(now), job.Claim)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if err := recordMessage(ctx, tx, job.BusinessID, "updated", m.ID); err != nil {
			return err
		}
		if m.FormID == nil || status == practiced.MessageQueued {
			return nil
		}
		f, err := forms.get(ctx, tx, job.BusinessID, *m.FormID, s.dialect.lockRow)
		if practiced.ErrorCode(err) == practiced.ENOTFOUND {
			return nil
		} else if err != nil {
			return err
		}
		sent := practiced.SentFailed
		switch {
		case r.Sent:
			sent = practiced.SentSent
		case r.Permanent:
			sent = practiced.SentBounced
		}
		return setSentStatus(ctx, tx, job.BusinessID, f, sent, now)
	})
}

// QueuedMessages implements practiced.MessageStore.
func (s *Store) QueuedMessages(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE status = $1`, practiced.MessageQueued).Scan(&n)
	return n, err
}

// MessagesEnabled reports whether EnableMessages was called: whether
// this server sends e-mail to clients.
func (s *Store) MessagesEnabled() bool { return s.messages != nil }
