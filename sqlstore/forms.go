package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	practiced "github.com/practiced/practiced"
)

const formCols = `id, client_id, location_id, form_template_id, appointment_client_id, name, color,
	completion_message, prefill_client_fields, override_client_fields, status, sent_status, content,
	sent_at, viewed_at, completed_at, created_at, updated_at, archived_at, link_secret`

func scanForm(r rowScanner) (practiced.Form, error) {
	var f practiced.Form
	err := r.Scan(&f.ID, &f.ClientID, &f.LocationID, &f.FormTemplateID, &f.AppointmentClientID, &f.Name, &f.Color,
		&f.CompletionMessage, &f.PrefillClientFields, &f.OverrideClientFields, &f.Status, &f.SentStatus, jsonScan{&f.Content},
		nullTimeScan{&f.SentAt}, nullTimeScan{&f.ViewedAt}, nullTimeScan{&f.CompletedAt},
		timeScan{&f.CreatedAt}, timeScan{&f.UpdatedAt}, nullTimeScan{&f.ArchivedAt}, &f.LinkSecret)
	f.Content = practiced.NormalizeContent(f.Content)
	return f, err
}

// formValues are a form's columns. A form written without a link secret
// (a new one, or one of a bulk load) gets a new random one, so that every
// stored form's page needs a secret besides its id.
func formValues(f *practiced.Form) []any {
	if f.LinkSecret == "" {
		f.LinkSecret = rand.Text()
	}
	return []any{f.ID, f.ClientID, nullStr(f.LocationID), f.FormTemplateID, nullStr(f.AppointmentClientID), f.Name, f.Color,
		f.CompletionMessage, f.PrefillClientFields, f.OverrideClientFields, f.Status, f.SentStatus, jsonText(f.Content),
		nullTs(f.SentAt), nullTs(f.ViewedAt), nullTs(f.CompletedAt), tsv(f.CreatedAt), tsv(f.UpdatedAt), nullTs(f.ArchivedAt), f.LinkSecret}
}

var forms = &table[practiced.Form]{
	kind: practiced.KindForm,
	cols: formCols, scan: scanForm, values: formValues,
	normalize: func(f *practiced.Form) { f.Content = practiced.NormalizeContent(f.Content) },
	domain:    practiced.FormEvents,
	stamp: func(f *practiced.Form) *stamps {
		return &stamps{ID: &f.ID, UpdatedAt: &f.UpdatedAt, ArchivedAt: &f.ArchivedAt}
	},
}

// ListForms returns a page of the business's forms. The hosted form URL
// is filled in by the caller, which knows the public address.
func (s *Store) ListForms(ctx context.Context, businessID string, f practiced.FormFilter, p practiced.PageRequest) ([]practiced.Form, practiced.PageInfo, error) {
	q := forms.query(businessID, f.ListFilter)
	for _, c := range [][2]string{
		{"status", f.Status},
		{"client_id", f.ClientID},
		{"appointment_client_id", f.AppointmentClientID},
		{"location_id", f.LocationID},
		{"form_template_id", f.FormTemplateID},
		{"sent_status", f.SentStatus},
	} {
		if c[1] != "" {
			q.filter(c[0] + " = " + q.args.add(c[1]))
		}
	}
	return forms.list(ctx, s.r, businessID, q, p)
}

// GetForm returns one form of the business.
func (s *Store) GetForm(ctx context.Context, businessID, id string) (practiced.Form, error) {
	return forms.get(ctx, s.r, businessID, id, "")
}

// CreateForm stores a new form. An appointment client must attend for
// the form's client; that is checked in the transaction that inserts the
// form, so it holds however the two are changed meanwhile.
func (s *Store) CreateForm(ctx context.Context, businessID string, f *practiced.Form) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if f.AppointmentClientID != nil {
			var owner string
			err := tx.QueryRowContext(ctx, `SELECT client_id FROM appointment_clients WHERE business_id = $1 AND id = $2`,
				businessID, *f.AppointmentClientID).Scan(&owner)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				return practiced.Invalid("appointment_client_id", "does not exist")
			case err != nil:
				return fmt.Errorf("form: %w", err)
			case owner != f.ClientID:
				return practiced.Invalid("appointment_client_id", "is another client's attendance (client "+owner+"), not client_id's")
			}
		}
		return forms.insert(ctx, tx, businessID, f)
	})
}

// UpdateForm changes a form in one transaction and records the change.
func (s *Store) UpdateForm(ctx context.Context, businessID, id string, change func(*practiced.Form) error) (practiced.Form, error) {
	return forms.update(ctx, s, businessID, id, "updated", change)
}

// CompleteForm changes a form and, when the change fills it in, its
// client, in one transaction with an event for each record written.
func (s *Store) CompleteForm(ctx context.Context, businessID, id string, change func(*practiced.Form, *practiced.Client) error) (practiced.Form, error) {
	var f practiced.Form
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if f, err = forms.get(ctx, tx, businessID, id, s.dialect.lockRow); err != nil {
			return err
		}
		c, err := clients.get(ctx, tx, businessID, f.ClientID, s.dialect.lockRow)
		if err != nil {
			return err
		}
		clientBefore, err := json.Marshal(c)
		if err != nil {
			return err
		}
		before, clientStamp := f, c.UpdatedAt
		if err := change(&f, &c); err != nil {
			return err
		}
		if f.UpdatedAt == before.UpdatedAt {
			f.UpdatedAt = practiced.Now()
		}
		formDoc, err := forms.write(ctx, tx, businessID, &f)
		if err != nil {
			return err
		}
		if err := forms.recordChange(ctx, tx, businessID, "updated", &before, &f, formDoc); err != nil {
			return err
		}
		clientAfter, err := json.Marshal(c)
		if err != nil || string(clientAfter) == string(clientBefore) {
			return err
		}
		if c.UpdatedAt == clientStamp {
			c.UpdatedAt = practiced.Now()
		}
		clientDoc, err := clients.write(ctx, tx, businessID, &c)
		if err != nil {
			return err
		}
		return recordEvent(ctx, tx, businessID, clients.kind.Type, "updated", c.ID, clientDoc)
	})
	return f, err
}

// ArchiveForm archives or unarchives a form.
func (s *Store) ArchiveForm(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.Form, error) {
	return forms.archive(ctx, s, businessID, id, archived, now)
}

// HostedForm finds a form by its id alone, with its business's name. The
// forms_by_id index (migration 0002) makes this one index probe.
func (s *Store) HostedForm(ctx context.Context, id string) (practiced.HostedForm, error) {
	var h practiced.HostedForm
	var businessID string
	row := s.r.QueryRowContext(ctx, `SELECT `+formColsOf("f", formCols)+`, f.business_id, b.name
		FROM forms f JOIN businesses b ON b.id = f.business_id WHERE f.id = $1`, id)
	f, err := scanForm(scanWith{row, []any{&businessID, &h.BusinessName}})
	if errors.Is(err, sql.ErrNoRows) {
		return h, practiced.NotFound(practiced.KindForm.Name)
	} else if err != nil {
		return h, fmt.Errorf("hosted form: %w", err)
	}
	f.BusinessID = businessID
	h.Form = f
	return h, nil
}

// formColsOf prefixes every column of a column list with a table alias.
func formColsOf(alias, cols string) string {
	names := splitCols(cols)
	for i, n := range names {
		names[i] = alias + "." + n
	}
	return strings.Join(names, ", ")
}

// scanWith scans a row whose columns are a record's followed by more.
type scanWith struct {
	r     rowScanner
	extra []any
}

func (s scanWith) Scan(dest ...any) error { return s.r.Scan(append(dest, s.extra...)...) }
