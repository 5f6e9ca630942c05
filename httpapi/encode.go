package httpapi

import (
	"errors"
	"net/http"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/hangup"
)

// codeStatus maps each error code to its HTTP status.
var codeStatus = map[string]int{
	practiced.EINVALID:      http.StatusUnprocessableEntity,
	practiced.EBADREQUEST:   http.StatusBadRequest,
	practiced.EUNAUTHORIZED: http.StatusUnauthorized,
	practiced.EFORBIDDEN:    http.StatusForbidden,
	practiced.ENOTFOUND:     http.StatusNotFound,
	practiced.ECONFLICT:     http.StatusConflict,
	practiced.EINTERNAL:     http.StatusInternalServerError,
	codeTooLarge:            http.StatusRequestEntityTooLarge,
	codeUnsupportedMedia:    http.StatusUnsupportedMediaType,
	codeTooManyRequests:     http.StatusTooManyRequests,
}

// Codes only the HTTP layer produces.
const (
	codeTooLarge         = "too_large"
	codeUnsupportedMedia = "unsupported_media"
	codeTooManyRequests  = "too_many_requests"
)

// writeJSON writes v as the JSON response body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	// Links carry "&", which the default encoder would write as \u0026:
	// the API's documents are encoded without HTML escaping.
	err := practiced.EncodeDoc(v, func(body []byte) {
		setJSONHeaders(w.Header())
		w.WriteHeader(status)
		w.Write(body)
	})
	if err != nil {
		http.Error(w, `{"message":"Internal error."}`, http.StatusInternalServerError)
	}
}

// setJSONHeaders sets the headers of every JSON answer: its type, no
// guessing of another type by the browser, and no caching, since answers
// carry client records.
func setJSONHeaders(h http.Header) {
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
}

// messageBody is the body of every error but validation errors.
type messageBody struct {
	Message string `json:"message"`
}

// validationBody is the body of a 422.
type validationBody struct {
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
}

// writeError writes err with the status of its code. Internal errors are
// logged with the request id and shown to the caller only as that id:
// never a stack trace, SQL or record data. A request that failed because
// its client went away is answered as hangup.Answered does.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if hangup.Answered(w, r, err) {
		return
	}
	code := practiced.ErrorCode(err)
	status, ok := codeStatus[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if code == practiced.EINTERNAL {
		id := requestID(r.Context())
		s.logger.Error("internal error", "request_id", id, "method", r.Method, "route", routeOf(r), "error", err.Error())
		writeJSON(w, status, messageBody{Message: "Internal error. Quote request id " + id + " when reporting it."})
		return
	}
	var e *practiced.Error
	if code == practiced.EINVALID && errors.As(err, &e) && e.Fields != nil {
		writeJSON(w, status, validationBody{Message: e.Message, Errors: e.Fields.Map()})
		return
	}
	if code == practiced.EINVALID {
		writeJSON(w, status, validationBody{Message: practiced.ErrorMessage(err), Errors: map[string][]string{}})
		return
	}
	writeJSON(w, status, messageBody{Message: practiced.ErrorMessage(err)})
}

// links are the links of a page of a list (respondList).
type links struct {
	Prev *string `json:"prev"`
	Next *string `json:"next"`
}
