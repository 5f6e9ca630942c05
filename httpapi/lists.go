package httpapi

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"

	practiced "github.com/practiced/practiced"
)

// listRequest is a list request being read: its query and page.
type listRequest struct {
	name string
	errs practiced.FieldErrors
	q    *query
	page practiced.PageRequest
}

// newList starts reading a list request. maxLimit is the largest page.
func newList(r *http.Request, name string, maxLimit int) *listRequest {
	l := &listRequest{name: name}
	l.q = newQuery(r.URL, &l.errs)
	l.page = l.q.pagination(name, maxLimit)
	return l
}

// done finishes reading: unknown parameters fail, and any failure is the
// returned 422 error.
func (l *listRequest) done() error {
	l.q.finish()
	return l.errs.Err()
}

// respondList writes a page of records, each given as its JSON document
// (practiced.MarshalDoc), with links to the pages before and after it.
// The links repeat the request's own parameters with a new cursor. The
// body is what writeJSON writes for {"data": records, "links": links}:
// the documents are joined as they are, without decoding them again.
func respondList(s *Server, w http.ResponseWriter, r *http.Request, l *listRequest, data []practiced.Doc, info practiced.PageInfo) error {
	buf := getPageBuffer(0)
	defer putPageBuffer(buf)
	if err := pageBody(buf, s, r, l, data, info); err != nil {
		return err
	}
	writePage(w, buf.Bytes())
	return nil
}

// pageBody writes the body respondList answers into buf.
func pageBody(buf *bytes.Buffer, s *Server, r *http.Request, l *listRequest, data []practiced.Doc, info practiced.PageInfo) error {
	filter := filterKey(r.URL.Query())
	link := func(c cursor) *string {
		c.List, c.Filter = l.name, filter
		v := r.URL.Query()
		v.Set("cursor", c.encode())
		u := s.base(r) + r.URL.Path + "?" + v.Encode()
		return &u
	}
	var out links
	if len(data) > 0 {
		if info.HasPrev {
			out.Prev = link(cursor{Before: true, ID: info.FirstID})
		}
		if info.HasNext {
			out.Next = link(cursor{ID: info.LastID})
		}
	} else {
		// An empty page past the end still leads back to the records
		// before its cursor, and one before the start leads forward.
		switch {
		case l.page.After != "" && info.HasPrev:
			out.Prev = link(cursor{Before: true, Inclusive: true, ID: l.page.After})
		case l.page.Before != "" && info.HasNext:
			out.Next = link(cursor{Inclusive: true, ID: l.page.Before})
		}
	}
	linksDoc, err := practiced.MarshalDoc(out)
	if err != nil {
		return err
	}
	size := len(`{"data":[],"links":}`+"\n") + len(linksDoc)
	for _, d := range data {
		size += len(d) + 1
	}
	buf.Grow(size)
	buf.WriteString(`{"data":[`)
	for i, d := range data {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(string(d))
	}
	buf.WriteString(`],"links":`)
	buf.Write(linksDoc)
	buf.WriteString("}\n")
	return nil
}

// writePage answers 200 with body, its length given, in one write: a
// page of documents is large, and written whole it goes to the
// connection without being copied into its buffer or cut into chunks.
func writePage(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// pageBuffers keeps the buffers pages are put together in, so that a
// list does not allocate (and the collector clear) its page anew on every
// request.
var pageBuffers sync.Pool

// maxPooledPage is the largest buffer kept for reuse; a larger one, from
// an unusually large page, is left to the collector.
const maxPooledPage = 4 << 20

func getPageBuffer(size int) *bytes.Buffer {
	buf, _ := pageBuffers.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	buf.Grow(size)
	return buf
}

func putPageBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledPage {
		return
	}
	buf.Reset()
	pageBuffers.Put(buf)
}

// docsOf returns the JSON documents of records read whole from the
// store, for lists of the kinds that keep no stored documents.
func docsOf[T any](recs []T) ([]practiced.Doc, error) {
	out := make([]practiced.Doc, len(recs))
	for i := range recs {
		doc, err := practiced.MarshalDoc(&recs[i])
		if err != nil {
			return nil, err
		}
		out[i] = practiced.Doc(doc)
	}
	return out, nil
}
