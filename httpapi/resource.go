package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Most kinds of records (clients, form templates, the clinic's set-up
// and people) are created and updated the same way: the kind's reader
// turns the body into a patch, the references the patch makes are
// checked, the rules that span fields are checked on the record as the
// change would leave it, and the store writes it. Busy times and
// attendees read their bodies into a patch too, and write it with
// handlers of their own.

// patch is a checked create or update body: the changes to make to a
// record, and the references they make to other records.
type patch[T any] struct {
	changes []func(*T)
	refs    []ref
}

func (p *patch[T]) change(f func(*T)) { p.changes = append(p.changes, f) }

func (p *patch[T]) ref(field, id string) { p.refs = append(p.refs, ref{field, id}) }

func (p *patch[T]) apply(rec *T) {
	for _, f := range p.changes {
		f(rec)
	}
}

// setText registers the change of a text field; null empties it.
func setText[T any](p *patch[T], v opt[string], dst func(*T) *string) {
	if v.Set {
		p.change(func(r *T) { *dst(r) = v.V })
	}
}

// setOptional registers the change of a field that is null when unset.
func setOptional[T any](p *patch[T], v opt[string], dst func(*T) **string) {
	if v.Set {
		p.change(func(r *T) { *dst(r) = optPtr(v) })
	}
}

// setRef registers the change of an optional id and the reference it
// makes.
func setRef[T any](p *patch[T], field string, v opt[string], dst func(*T) **string) {
	setOptional(p, v, dst)
	if v.Set && !v.Null {
		p.ref(field, v.V)
	}
}

// setInt registers the change of a number; null restores its default.
func setInt[T any](p *patch[T], v opt[int], def int, dst func(*T) *int) {
	if v.Set {
		n := def
		if !v.Null {
			n = v.V
		}
		p.change(func(r *T) { *dst(r) = n })
	}
}

// setBool registers the change of a boolean; null makes it false.
func setBool[T any](p *patch[T], v opt[bool], dst func(*T) *bool) {
	if v.Set {
		p.change(func(r *T) { *dst(r) = v.V && !v.Null })
	}
}

// setIDs registers the change of a list of ids, replaced whole (null
// empties it), and the reference each id makes.
func setIDs[T any](p *patch[T], field string, v opt[[]string], dst func(*T) *[]string) {
	switch {
	case v.Null:
		p.change(func(r *T) { *dst(r) = []string{} })
	case v.Set:
		p.change(func(r *T) { *dst(r) = v.V })
		for i, id := range v.V {
			p.ref(field+"."+strconv.Itoa(i), id)
		}
	}
}

// mandatoryStr reads a text field every record has: a create must send
// it; an update may leave it out, but not null or empty it.
func mandatoryStr(o *object, field string, max int, create bool) opt[string] {
	if create {
		return o.requiredStr(field, max)
	}
	v := o.str(field, max)
	switch {
	case v.Null:
		o.fail(field, "is required and cannot be null")
		return opt[string]{}
	case v.Set && strings.TrimSpace(v.V) == "":
		o.fail(field, "must not be empty")
		return opt[string]{}
	}
	return v
}

// mandatoryInt reads a number every record has, within [min, max], as
// mandatoryStr reads text.
func mandatoryInt(o *object, field string, min, max int, create bool) opt[int] {
	v := o.integer(field, min, max)
	if create {
		o.required(field, v.Set || o.errs.Has(o.name(field)), v.Null)
	} else if v.Null {
		o.fail(field, "is required and cannot be null")
	}
	if v.Null {
		return opt[int]{}
	}
	return v
}

// mandatoryEnum reads one of values every record has, as mandatoryStr
// reads text.
func mandatoryEnum(o *object, field string, values []string, create bool) opt[string] {
	v := o.enum(field, values)
	if create {
		o.required(field, v.Set || o.errs.Has(o.name(field)), v.Null)
	} else if v.Null {
		o.fail(field, "is required and cannot be null")
	}
	if v.Null {
		return opt[string]{}
	}
	return v
}

// ownerClient reads client_id, the client a record belongs to: a create
// must name an existing client; an update may repeat it but not change
// it, since the record's history (its appointments) belongs to that
// client.
func ownerClient[T any](o *object, p *patch[T], stored *string, what string, dst func(*T) *string) {
	v := o.id("client_id", practiced.PrefixClient)
	if stored == nil {
		o.required("client_id", v.Set || o.errs.Has(o.name("client_id")), v.Null)
		if v.Set && !v.Null {
			p.change(func(r *T) { *dst(r) = v.V })
			p.ref("client_id", v.V)
		}
		return
	}
	switch {
	case v.Null:
		o.fail("client_id", "is required and cannot be null")
	case v.Set && v.V != *stored:
		o.fail("client_id", "cannot be changed: "+what+" belongs to the client it was created for")
	}
}

// Length limits of the set-up records' text.
const longDescription = 2000

// resource is what the shared create and update handlers need to know of
// one kind of record.
type resource[T any] struct {
	kind   practiced.Kind
	get    getter[T]
	create func(ctx context.Context, businessID string, rec *T) error
	update func(ctx context.Context, businessID, id string, change func(*T) error) (T, error)
	// fresh returns a new record with its id, timestamps and defaults.
	fresh func(id string, now practiced.Time) T
	// read reads a create body (stored is nil) or an update body of the
	// stored record into a patch; it calls o.finish.
	read func(o *object, stored *T) *patch[T]
	// check, when set, checks the rules that span fields.
	check func(*T, *practiced.FieldErrors)
	// touch sets the record's updated_at.
	touch func(*T, practiced.Time)
}

// checkRules checks the rules that span fields of rec, unless a field
// has failed on its own already: a rule between two fields means little
// while one of them is wrong.
func (res *resource[T]) checkRules(rec *T, errs *practiced.FieldErrors) {
	if res.check != nil && errs.Empty() {
		res.check(rec, errs)
	}
}

// build reads a create body into a new record, with a new id, created
// now; it fails with every failing field at once.
func (res *resource[T]) build(ctx context.Context, s *Server, biz string, o *object, errs *practiced.FieldErrors) (T, error) {
	var zero T
	p := res.read(o, nil)
	// References are checked even when other fields failed, so every
	// failure is reported at once.
	if err := s.checkRefs(ctx, biz, errs, p.refs...); err != nil {
		return zero, err
	}
	rec := res.fresh(tid.New(res.kind.Prefix), practiced.NewTime(s.now()))
	p.apply(&rec)
	res.checkRules(&rec, errs)
	if err := errs.Err(); err != nil {
		return zero, err
	}
	return rec, nil
}

// createHandler answers POST /v1/<plural>: 201 with the new record.
func (res *resource[T]) createHandler(s *Server) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		biz := businessID(ctx)
		var errs practiced.FieldErrors
		o, err := readBody(w, r, &errs)
		if err != nil {
			return err
		}
		rec, err := res.build(ctx, s, biz, o, &errs)
		if err != nil {
			return err
		}
		if err := res.create(ctx, biz, &rec); err != nil {
			return err
		}
		writeJSON(w, http.StatusCreated, rec)
		return nil
	}
}

// updateHandler answers POST /v1/<plural>/{id}, a partial update: 200
// with the whole record after the change. A malformed or unknown id is a
// 404 before the body is read.
func (res *resource[T]) updateHandler(s *Server) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		req, err := readRecordRequest(w, r, res.kind, res.get)
		if err != nil {
			return err
		}
		p := res.read(req.body, &req.stored)
		if err := s.checkRefs(ctx, req.biz, &req.errs, p.refs...); err != nil {
			return err
		}
		if err := req.errs.Err(); err != nil {
			return err
		}
		// The rules that span fields are checked on the record as the
		// change leaves it, in the transaction that writes it.
		now := practiced.NewTime(s.now())
		rec, err := res.update(ctx, req.biz, req.id, func(rec *T) error {
			p.apply(rec)
			res.touch(rec, now)
			var errs practiced.FieldErrors
			res.checkRules(rec, &errs)
			return errs.Err()
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, rec)
		return nil
	}
}
