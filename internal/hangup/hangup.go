// Package hangup tells a request that failed because its client went
// away from one that failed on the server, for the API and the pages
// alike.
package hangup

import (
	"context"
	"errors"
	"net/http"
)

// StatusClientClosed is the status a request gets in the log and the
// metrics when its client closed the connection before the answer: the
// number proxies use for it. No client ever receives it.
const StatusClientClosed = 499

// Answered reports whether err ended r because r's client went away
// (net/http cancels a request's context when its connection closes),
// and if so answers StatusClientClosed with no body: it is no fault of
// the server's, and nothing reaches the client. A cancellation of the
// server's own, with the request's context still live, is not one.
func Answered(w http.ResponseWriter, r *http.Request, err error) bool {
	if !errors.Is(err, context.Canceled) || r.Context().Err() == nil {
		return false
	}
	w.WriteHeader(StatusClientClosed)
	return true
}
