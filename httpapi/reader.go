package httpapi

import (
	"context"
	"time"

	practiced "github.com/practiced/practiced"
)

// Reader reads new records from JSON objects with exactly the rules of
// the API's create operations, for tools that store records without a
// request: practiced import. A record it returns is what the create
// operation would have stored; a record it refuses fails with the same
// EINVALID error, listing every failing field with the API's messages.
type Reader struct{ s *Server }

// NewReader returns a Reader that checks references against store; now
// tells the time (nil means time.Now).
func NewReader(store practiced.Store, now func() time.Time) *Reader {
	if now == nil {
		now = time.Now
	}
	return &Reader{s: &Server{store: store, now: now}}
}

// Client reads body as the body of POST /v1/clients in the business.
func (r *Reader) Client(ctx context.Context, businessID string, body []byte) (practiced.Client, error) {
	return readNew(ctx, r.s, r.s.clients(), businessID, body)
}

// Contact reads body as the body of POST /v1/contacts in the business.
func (r *Reader) Contact(ctx context.Context, businessID string, body []byte) (practiced.Contact, error) {
	return readNew(ctx, r.s, r.s.contacts(), businessID, body)
}

// readNew reads body as the create body of res.
func readNew[T any](ctx context.Context, s *Server, res *resource[T], biz string, body []byte) (T, error) {
	var errs practiced.FieldErrors
	o, err := decodeObject(body, &errs)
	if err != nil {
		var zero T
		return zero, err
	}
	return res.build(ctx, s, biz, o, &errs)
}
