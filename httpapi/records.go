package httpapi

import (
	"context"
	"net/http"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// Handlers shared by every kind of record: read one, archive, unarchive.
// Each takes the kind's prefix and name, and the store's method.

// getter reads one record of the business.
type getter[T any] func(ctx context.Context, businessID, id string) (T, error)

// archiver archives (true) or unarchives (false) one record.
type archiver[T any] func(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (T, error)

// pathID returns the {id} path value when it is an id of the kind; a
// malformed id is answered like an unknown one.
func pathID(r *http.Request, name, prefix, kind string) (string, error) {
	id := r.PathValue(name)
	if !tid.Valid(id, prefix) {
		return "", practiced.NotFound(kind)
	}
	return id, nil
}

// loadRecord reads the {id} path value of a kind and the record it names
// in the request's business. A malformed id, an unknown one and one of
// another business are the same 404, answered before any body is read.
func loadRecord[T any](r *http.Request, prefix, kind string, get getter[T]) (string, T, error) {
	var rec T
	id, err := pathID(r, "id", prefix, kind)
	if err != nil {
		return "", rec, err
	}
	rec, err = get(r.Context(), businessID(r.Context()), id)
	return id, rec, err
}

// getOne answers GET /v1/<kind>/{id}.
func getOne[T any](prefix, kind string, get getter[T], finish func(*http.Request, *T)) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, rec, err := loadRecord(r, prefix, kind, get)
		if err != nil {
			return err
		}
		if finish != nil {
			finish(r, &rec)
		}
		writeJSON(w, http.StatusOK, rec)
		return nil
	}
}

// archiveOne answers POST /v1/<kind>/{id}/archive and …/unarchive.
func (s *Server) archiveOne(prefix, kind string, archive archiver[any], archived bool) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathID(r, "id", prefix, kind)
		if err != nil {
			return err
		}
		var errs practiced.FieldErrors
		o, err := readBody(w, r, &errs)
		if err != nil {
			return err
		}
		o.finish()
		if err := errs.Err(); err != nil {
			return err
		}
		rec, err := archive(r.Context(), businessID(r.Context()), id, archived, practiced.NewTime(s.now()))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, rec)
		return nil
	}
}

// anyArchiver adapts a store's typed archive method to archiveOne.
func anyArchiver[T any](f archiver[T]) archiver[any] {
	return func(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (any, error) {
		return f(ctx, businessID, id, archived, now)
	}
}
