// Package bytesserver serves answers kept whole in memory, as a server
// that has its answer ready would: the machine's limit, which the bench
// commands measure the API beside.
package bytesserver

import (
	"io"
	"net"
	"net/http"
	"strconv"
)

// Answer is a response kept whole.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// Start serves answers, by request path, on a new listener on 127.0.0.1
// and returns its base URL. Each request's body is read and dropped,
// then the answer's headers (its content type and length) and body are
// written; a path with no answer is answered 404.
func Start(answers map[string]Answer) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	lengths := make(map[string]string, len(answers))
	for path, a := range answers {
		lengths[path] = strconv.Itoa(len(a.Body))
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.Copy(io.Discard, r.Body)
		h := w.Header()
		h.Set("Content-Type", a.ContentType)
		h.Set("Content-Length", lengths[r.URL.Path])
		w.WriteHeader(a.Status)
		w.Write(a.Body)
	}))
	return "http://" + ln.Addr().String(), nil
}
