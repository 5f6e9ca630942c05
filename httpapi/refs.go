package httpapi

import (
	"context"
	"slices"

	practiced "github.com/practiced/practiced"
)

// ref is a reference a request makes to another record, by field path.
type ref struct {
	field string
	id    string
}

// checkRefs adds "does not exist" to each field whose id names no record
// of the business.
func (s *Server) checkRefs(ctx context.Context, biz string, errs *practiced.FieldErrors, refs ...ref) error {
	if len(refs) == 0 {
		return nil
	}
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.id
	}
	missing, err := s.store.MissingRefs(ctx, biz, ids)
	if err != nil {
		return err
	}
	for _, r := range refs {
		if slices.Contains(missing, r.id) {
			errs.Add(r.field, "does not exist")
		}
	}
	return nil
}
