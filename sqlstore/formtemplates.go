package sqlstore

import (
	"context"

	practiced "github.com/practiced/practiced"
)

const formTemplateCols = `id, name, color, completion_message, prefill_client_fields, override_client_fields, content,
	created_at, updated_at, archived_at`

func scanFormTemplate(r rowScanner) (practiced.FormTemplate, error) {
	var t practiced.FormTemplate
	err := r.Scan(&t.ID, &t.Name, &t.Color, &t.CompletionMessage, &t.PrefillClientFields, &t.OverrideClientFields,
		jsonScan{&t.Content}, timeScan{&t.CreatedAt}, timeScan{&t.UpdatedAt}, nullTimeScan{&t.ArchivedAt})
	t.Content = practiced.NormalizeContent(t.Content)
	return t, err
}

func formTemplateValues(t *practiced.FormTemplate) []any {
	return []any{t.ID, t.Name, t.Color, t.CompletionMessage, t.PrefillClientFields, t.OverrideClientFields,
		jsonText(t.Content), tsv(t.CreatedAt), tsv(t.UpdatedAt), nullTs(t.ArchivedAt)}
}

var formTemplates = &table[practiced.FormTemplate]{
	kind: practiced.KindFormTemplate,
	cols: formTemplateCols, scan: scanFormTemplate, values: formTemplateValues,
	normalize: func(t *practiced.FormTemplate) { t.Content = practiced.NormalizeContent(t.Content) },
	docs:      true,
	stamp: func(t *practiced.FormTemplate) *stamps {
		return &stamps{ID: &t.ID, UpdatedAt: &t.UpdatedAt, ArchivedAt: &t.ArchivedAt}
	},
}

// ListFormTemplates returns a page of the business's form templates.
func (s *Store) ListFormTemplates(ctx context.Context, businessID string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.FormTemplate, practiced.PageInfo, error) {
	return formTemplates.list(ctx, s.r, businessID, formTemplateQuery(businessID, f), p)
}

// ListFormTemplateDocs returns the stored documents of the page ListFormTemplates returns.
func (s *Store) ListFormTemplateDocs(ctx context.Context, businessID string, f practiced.ListFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return formTemplates.listDocs(ctx, s.r, s.dialect, formTemplateQuery(businessID, f), p)
}

// formTemplateQuery is the query of a list of form templates.
func formTemplateQuery(businessID string, f practiced.ListFilter) *listQuery {
	return formTemplates.query(businessID, f)
}

// GetFormTemplate returns one form template of the business.
func (s *Store) GetFormTemplate(ctx context.Context, businessID, id string) (practiced.FormTemplate, error) {
	return formTemplates.get(ctx, s.r, businessID, id, "")
}

// CreateFormTemplate stores a new form template.
func (s *Store) CreateFormTemplate(ctx context.Context, businessID string, t *practiced.FormTemplate) error {
	return formTemplates.create(ctx, s, businessID, t)
}

// UpdateFormTemplate changes a form template in one transaction and
// records the change.
func (s *Store) UpdateFormTemplate(ctx context.Context, businessID, id string, change func(*practiced.FormTemplate) error) (practiced.FormTemplate, error) {
	return formTemplates.update(ctx, s, businessID, id, "updated", change)
}

// ArchiveFormTemplate archives or unarchives a form template.
func (s *Store) ArchiveFormTemplate(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.FormTemplate, error) {
	return formTemplates.archive(ctx, s, businessID, id, archived, now)
}
