package practiced

import (
	"context"
	"encoding/json"
)

// Named is a small record with a name: tags, referral types, cancellation
// reasons and busy time types (see NamedKinds). Only tags and busy time
// types have a color; MarshalJSON leaves it out of the other kinds.
type Named struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Color      string `json:"color"`
	CreatedAt  Time   `json:"created_at"`
	UpdatedAt  Time   `json:"updated_at"`
	ArchivedAt *Time  `json:"archived_at"`
}

// MarshalJSON writes color for the kinds that have one, even when it is
// empty, and never for the others, so that each kind has one fixed shape.
func (n Named) MarshalJSON() ([]byte, error) {
	type plain Named // without this method
	if k, ok := NamedKindOf(n.ID); ok && !k.HasColor {
		return json.Marshal(struct {
			plain
			Color *string `json:"color,omitempty"` // shadows plain's color
		}{plain: plain(n)})
	}
	return json.Marshal(plain(n))
}

// NamedStore keeps tags, referral types, cancellation reasons and busy
// time types. ListNamed lists the kind with the given id prefix; the
// other methods find the kind by the prefix of the record's id, and an id
// of no named kind is ENOTFOUND (EINVALID for CreateNamed).
type NamedStore interface {
	ListNamed(ctx context.Context, businessID, prefix string, f ListFilter, p PageRequest) ([]Named, PageInfo, error)
	GetNamed(ctx context.Context, businessID, id string) (Named, error)
	CreateNamed(ctx context.Context, businessID string, n *Named) error
	UpdateNamed(ctx context.Context, businessID, id string, change func(*Named) error) (Named, error)
	ArchiveNamed(ctx context.Context, businessID, id string, archived bool, now Time) (Named, error)
}
