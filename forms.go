package practiced

import "context"

// FormTemplateStore keeps form templates.
type FormTemplateStore interface {
}

// FormStore keeps forms.
type FormStore interface {
	ListForms(ctx context.Context, businessID string, f FormFilter, p PageRequest) ([]Form, PageInfo, error)
}
