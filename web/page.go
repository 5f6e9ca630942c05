package web

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
)

// renderPage writes a page with the headers every page carries; what
// names the page in the log. The page is rendered in full before
// anything is written, so a failure is a clean 500.
func renderPage(w http.ResponseWriter, r *http.Request, logger *slog.Logger, what string, status int, name string, data pageData) {
	var buf bytes.Buffer
	style := pageStyle(data.accent())
	if err := pages.ExecuteTemplate(&buf, name, pageFrame{Title: data.title(), Style: style, Data: data}); err != nil {
		logger.Error(what+": render", "request_id", w.Header().Get("X-Request-Id"), "template", name, "error", err.Error())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, "Something went wrong.\n")
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	// The inline style is allowed by its hash alone; no script runs; the
	// page posts only to itself and cannot be framed (clickjacking).
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src '"+styleHash(style)+"'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("X-Content-Type-Options", "nosniff")
	// The pages show what a client entered: keep them out of caches,
	// search engines and other sites' logs.
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Robots-Tag", "noindex, nofollow")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// maxForm is the largest request body a page accepts.
const maxForm = 1 << 20

// parsePost reads the form a page posts, of at most maxForm bytes. When
// it cannot, it returns the status of the problem page to show: 413 for
// a larger post, 400 for one that is not a form.
func parsePost(w http.ResponseWriter, r *http.Request) (status int, ok bool) {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	err := r.ParseForm()
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return http.StatusOK, true
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, false
	}
	return http.StatusBadRequest, false
}

// crossOriginProtection refuses posts that the browser says come from
// another site (Sec-Fetch-Site, or else Origin against the request's
// host), answering them with deny. Posts from the origin of publicURL
// are the page's own even when a proxy gives the server another Host
// and the browser sends no Sec-Fetch-Site. No cookies or sessions are
// needed.
func crossOriginProtection(publicURL string, logger *slog.Logger, what string, deny http.HandlerFunc) *http.CrossOriginProtection {
	p := http.NewCrossOriginProtection()
	if u, err := url.Parse(publicURL); err == nil && u.Scheme != "" && u.Host != "" {
		if err := p.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			logger.Warn(what+": the public URL is not an origin; only same-host posts are accepted", "error", err.Error())
		}
	}
	p.SetDenyHandler(deny)
	return p
}
