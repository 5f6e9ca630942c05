// Package practiced holds the domain of the practice-management server:
// the records a clinic keeps, the error codes every layer speaks, and the
// Store interface the database packages implement.
package practiced

import (
	"errors"
	"fmt"
)

// Error codes. The HTTP layer maps each to one status code.
const (
	EINVALID      = "invalid"      // 422: the request named fields that failed validation
	EBADREQUEST   = "bad_request"  // 400: the body is not a JSON object
	EUNAUTHORIZED = "unauthorized" // 401
	EFORBIDDEN    = "forbidden"    // 403
	ENOTFOUND     = "not_found"    // 404
	ECONFLICT     = "conflict"     // 409
	EINTERNAL     = "internal"     // 500
)

// Error is an error the API can show to its caller as it is.
type Error struct {
	Code    string
	Message string
	// Fields is set for EINVALID errors.
	Fields *FieldErrors
}

func (e *Error) Error() string {
	return fmt.Sprintf("practiced: %s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, or EINTERNAL for any error that is not
// an *Error, so unknown failures are never shown to callers as their own.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of err, or a generic message for
// errors that are not an *Error.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// NotFound returns the ENOTFOUND error for a record of the given kind.
// A record of another business gets exactly the same error.
func NotFound(kind string) *Error {
	return Errorf(ENOTFOUND, "%s not found.", kind)
}

// FieldErrors collects validation failures per field, in the order they
// were found, so all of them can be reported at once.
type FieldErrors struct {
	order []string
	msgs  map[string][]string
	count int
}

// Add records that field failed with msg. Field names are dotted paths
// for nested values, e.g. "address.country_code" or "phone_numbers.1.number".
func (f *FieldErrors) Add(field, msg string) {
	if f.msgs == nil {
		f.msgs = make(map[string][]string)
	}
	if _, ok := f.msgs[field]; !ok {
		f.order = append(f.order, field)
	}
	f.msgs[field] = append(f.msgs[field], msg)
	f.count++
}

// Has reports whether field has failed.
func (f *FieldErrors) Has(field string) bool {
	_, ok := f.msgs[field]
	return ok
}

// Empty reports whether nothing has failed.
func (f *FieldErrors) Empty() bool { return f.count == 0 }

// MaxReportedFields is the most failing fields an error reports, so that
// the answer to a request stays small whatever the request sent.
const MaxReportedFields = 100

// Map returns the failures of the first MaxReportedFields failing fields,
// as an error reports them: field → messages.
func (f *FieldErrors) Map() map[string][]string {
	shown := f.order[:min(len(f.order), MaxReportedFields)]
	out := make(map[string][]string, len(shown))
	for _, k := range shown {
		out[k] = append([]string(nil), f.msgs[k]...)
	}
	return out
}

// Fields returns the failing field names in the order they failed.
func (f *FieldErrors) Fields() []string { return append([]string(nil), f.order...) }

// Err returns nil when nothing failed, and otherwise an EINVALID *Error
// whose message is the first failure, followed by "(and N more errors)"
// when there are more. When more than MaxReportedFields fields failed, the
// message says that Map lists only the first of them.
func (f *FieldErrors) Err() error {
	if f.Empty() {
		return nil
	}
	first := f.order[0]
	msg := first + " " + f.msgs[first][0]
	switch n := f.count - 1; {
	case len(f.order) > MaxReportedFields:
		msg += fmt.Sprintf(" (and %d more errors; the first %d of %d failing fields are listed)", n, MaxReportedFields, len(f.order))
	case n == 0:
	case n == 1:
		msg += " (and 1 more error)"
	default:
		msg += fmt.Sprintf(" (and %d more errors)", n)
	}
	return &Error{Code: EINVALID, Message: msg, Fields: f}
}

// Records check the rules that span several of their fields with a Check
// method, on the record as a create or an update leaves it: one side of a
// rule may come from the stored record. Check adds every failure to errs
// under the field's dotted path.

// Invalid returns an EINVALID error for a single field.
func Invalid(field, msg string) error {
	var f FieldErrors
	f.Add(field, msg)
	return f.Err()
}
