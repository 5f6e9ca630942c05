package httpapi

import (
	"context"
	"net/http"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Handlers shared by every kind of record: read one, archive, unarchive.
// Each takes the kind and the store's method.

// getter reads one record of the business.
type getter[T any] func(ctx context.Context, businessID, id string) (T, error)

// archiver archives (true) or unarchives (false) one record.
type archiver[T any] func(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (T, error)

// pathID returns the id a record path names when it is an id of the
// kind; a malformed id is answered like an unknown one. Client paths name
// the id {client}, as the API description does; every other kind's
// paths name it {id}.
func pathID(r *http.Request, k practiced.Kind) (string, error) {
	name := "id"
	if k == practiced.KindClient {
		name = "client"
	}
	id := r.PathValue(name)
	if !tid.Valid(id, k.Prefix) {
		return "", practiced.NotFound(k.Name)
	}
	return id, nil
}

// loadRecord reads the id a record path names and the record of the
// kind it names in the request's business. A malformed id, an unknown
// one and one of another business are the same 404, answered before any
// body is read.
func loadRecord[T any](r *http.Request, k practiced.Kind, get getter[T]) (string, T, error) {
	var rec T
	id, err := pathID(r, k)
	if err != nil {
		return "", rec, err
	}
	rec, err = get(r.Context(), businessID(r.Context()), id)
	return id, rec, err
}

// recordRequest is what a handler of a record's path reads before its
// own fields: the business, the record's id, the record as stored, and
// the request body. The body's field failures gather in errs.
type recordRequest[T any] struct {
	biz    string
	id     string
	stored T
	body   *object
	errs   practiced.FieldErrors
}

// readRecordRequest reads the record a path names, then the request
// body, so a 404 for the path is answered before anything about the body.
// With a nil get only the id is checked, and the store's method answers
// for an unknown one.
func readRecordRequest[T any](w http.ResponseWriter, r *http.Request, k practiced.Kind, get getter[T]) (*recordRequest[T], error) {
	req := &recordRequest[T]{biz: businessID(r.Context())}
	var err error
	if get == nil {
		req.id, err = pathID(r, k)
	} else {
		req.id, req.stored, err = loadRecord(r, k, get)
	}
	if err != nil {
		return nil, err
	}
	if req.body, err = readBody(w, r, &req.errs); err != nil {
		return nil, err
	}
	return req, nil
}

// noFields refuses every field of a body that carries none, and returns
// the failures gathered so far.
func (req *recordRequest[T]) noFields() error {
	req.body.finish()
	return req.errs.Err()
}

// getOne answers GET /v1/<plural>/{id}.
func getOne[T any](k practiced.Kind, get getter[T]) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, rec, err := loadRecord(r, k, get)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, rec)
		return nil
	}
}

// archiveOne answers POST /v1/<plural>/{id}/archive (archived is true)
// and …/unarchive; the body carries no field.
func archiveOne[T any](k practiced.Kind, archive archiver[T], archived bool, now func() time.Time) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		req, err := readRecordRequest[T](w, r, k, nil)
		if err != nil {
			return err
		}
		if err := req.noFields(); err != nil {
			return err
		}
		rec, err := archive(r.Context(), req.biz, req.id, archived, practiced.NewTime(now()))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, rec)
		return nil
	}
}
