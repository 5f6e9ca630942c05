package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const formCols = `id, client_id, location_id, form_template_id, appointment_client_id, name, color,
	completion_message, prefill_client_fields, override_client_fields, status, sent_status, content,
	sent_at, viewed_at, completed_at, created_at, updated_at, archived_at`

func scanForm(r rowScanner) (practiced.Form, error) {
	var f practiced.Form
	err := r.Scan(&f.ID, &f.ClientID, &f.LocationID, &f.FormTemplateID, &f.AppointmentClientID, &f.Name, &f.Color,
		&f.CompletionMessage, &f.PrefillClientFields, &f.OverrideClientFields, &f.Status, &f.SentStatus, jsonScan{&f.Content},
		nullTimeScan{&f.SentAt}, nullTimeScan{&f.ViewedAt}, nullTimeScan{&f.CompletedAt},
		timeScan{&f.CreatedAt}, timeScan{&f.UpdatedAt}, nullTimeScan{&f.ArchivedAt})
	f.Content = practiced.NormalizeContent(f.Content)
	return f, err
}

func formValues(f *practiced.Form) []any {
	return []any{f.ID, f.ClientID, nullStr(f.LocationID), f.FormTemplateID, nullStr(f.AppointmentClientID), f.Name, f.Color,
		f.CompletionMessage, f.PrefillClientFields, f.OverrideClientFields, f.Status, f.SentStatus, jsonText(f.Content),
		nullTs(f.SentAt), nullTs(f.ViewedAt), nullTs(f.CompletedAt), tsv(f.CreatedAt), tsv(f.UpdatedAt), nullTs(f.ArchivedAt)}
}

// ListForms returns a page of the business's forms. The hosted form URL
// is filled in by the caller, which knows the public address.
func (s *Store) ListForms(ctx context.Context, businessID string, f practiced.FormFilter, p practiced.PageRequest) ([]practiced.Form, practiced.PageInfo, error) {
	q := newListQuery(businessID, formCols, "forms", "business_id", "id")
	q.common("", f.ListFilter)
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
	return list(ctx, s.r, q, p, scanForm)
}
