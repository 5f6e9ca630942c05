package httpapi

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// query reads the query parameters of a request. Like body fields, every
// failing parameter is reported at once, and parameters nobody asked for
// are reported as unknown.
type query struct {
	values url.Values
	errs   *practiced.FieldErrors
	known  map[string]bool
}

func newQuery(u *url.URL, errs *practiced.FieldErrors) *query {
	return &query{values: u.Query(), errs: errs, known: map[string]bool{}}
}

// get returns the single value of name; a repeated parameter fails.
func (q *query) get(name string) (string, bool) {
	q.known[name] = true
	vs, ok := q.values[name]
	if !ok {
		return "", false
	}
	if len(vs) > 1 {
		q.errs.Add(name, "must be given once")
		return "", false
	}
	return vs[0], true
}

// all returns every value of a repeatable parameter.
func (q *query) all(name string) []string {
	q.known[name] = true
	return q.values[name]
}

// finish reports unknown parameters. One that names a known parameter
// in another spelling says which to use, such as "; use q".
func (q *query) finish() {
	var unknown []string
	for k := range q.values {
		if !q.known[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		msg := "is not a known query parameter"
		if use := q.hint(k); use != "" {
			msg += "; use " + use
		}
		q.errs.Add(k, msg)
	}
}

// spellings are the names other APIs give to parameters this one has,
// each with what it may be here, in order of preference. A hint names
// parameters joined by " and " when both are meant.
var spellings = map[string][]string{
	"search":         {"q"},
	"query":          {"q"},
	"page":           {"limit and cursor"},
	"per_page":       {"limit and cursor"},
	"page_size":      {"limit and cursor"},
	"offset":         {"limit and cursor"},
	"updated_after":  {"updated_since", "since"},
	"modified_since": {"updated_since", "since"},
	"since":          {"updated_since"},
	"updated_since":  {"since"},
	"archived":       {"include_archived"},
}

// hint returns the known parameter an unknown one most likely means, or
// "": a name from spellings, the name with or without filter[…], without
// a trailing [] or in lower case.
func (q *query) hint(name string) string {
	candidates := spellings[name]
	if inner, ok := strings.CutPrefix(name, "filter["); ok {
		candidates = append(candidates, strings.TrimSuffix(inner, "]"))
	} else {
		candidates = append(candidates, "filter["+name+"]")
	}
	candidates = append(candidates, strings.TrimSuffix(name, "[]"), strings.ToLower(name))
	for _, c := range candidates {
		if c != name && q.knows(c) {
			return c
		}
	}
	return ""
}

// knows reports whether every parameter a hint names was read.
func (q *query) knows(hint string) bool {
	for _, name := range strings.Split(hint, " and ") {
		if !q.known[name] {
			return false
		}
	}
	return true
}

func (q *query) id(name, prefix string) string {
	v, ok := q.get(name)
	if !ok {
		return ""
	}
	if !tid.Valid(v, prefix) {
		q.errs.Add(name, "must be an id starting with "+prefix+"_")
		return ""
	}
	return v
}

func (q *query) timestamp(name string) *time.Time {
	v, ok := q.get(name)
	if !ok {
		return nil
	}
	t, msg := parseTimestamp(v)
	if msg != "" {
		q.errs.Add(name, msg)
		return nil
	}
	return &t
}

func (q *query) boolean(name string) bool {
	v, ok := q.get(name)
	if !ok {
		return false
	}
	switch v {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	q.errs.Add(name, "must be true or false")
	return false
}

// integer returns the parameter, def when it is absent, and ok false when
// it is present but invalid.
func (q *query) integer(name string, min, max, def int) (int, bool) {
	v, ok := q.get(name)
	if !ok {
		return def, !q.errs.Has(name)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.errs.Add(name, "must be a whole number")
		return def, false
	}
	if n < min || n > max {
		q.errs.Add(name, fmt.Sprintf("must be between %d and %d", min, max))
		return def, false
	}
	return n, true
}

func (q *query) enum(name string, values []string) string {
	v, ok := q.get(name)
	if !ok {
		return ""
	}
	if !slices.Contains(values, v) {
		q.errs.Add(name, "must be one of: "+strings.Join(values, ", "))
		return ""
	}
	return v
}

func (q *query) text(name string, max int) string {
	v, ok := q.get(name)
	if !ok {
		return ""
	}
	if len([]rune(v)) > max {
		q.errs.Add(name, fmt.Sprintf("must be at most %d characters", max))
		return ""
	}
	return v
}

// listFilter reads the filters every list accepts.
func (q *query) listFilter() practiced.ListFilter {
	return practiced.ListFilter{
		UpdatedSince:    q.timestamp("updated_since"),
		IncludeArchived: q.boolean("include_archived"),
	}
}

// cursor is what a page link carries: which list it belongs to, the
// filters it was made under, the direction and the id to continue from.
type cursor struct {
	List      string `json:"l"`
	Filter    string `json:"f"`
	Before    bool   `json:"b,omitempty"`
	Inclusive bool   `json:"i,omitempty"`
	ID        string `json:"id"`
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// filterKey digests every parameter of the request but cursor and limit,
// so a cursor cannot be replayed under other filters.
func filterKey(values url.Values) string {
	keys := make([]string, 0, len(values))
	for k := range values {
		if k != "cursor" && k != "limit" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		for _, v := range values[k] {
			fmt.Fprintf(h, "%q=%q;", k, v)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// pagination reads cursor and limit for the named list.
func (q *query) pagination(list string, maxLimit int) practiced.PageRequest {
	limit, _ := q.integer("limit", 1, maxLimit, 10)
	p := practiced.PageRequest{Limit: limit}
	raw, ok := q.get("cursor")
	if !ok {
		return p
	}
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || json.Unmarshal(b, &c) != nil || c.ID == "" || len(c.ID) > 64 {
		q.errs.Add("cursor", "is not a valid cursor; use the links of a previous page unchanged")
		return p
	}
	if c.List != list || c.Filter != filterKey(q.values) {
		q.errs.Add("cursor", "was made for another list or other filters; use the links of a previous page unchanged")
		return p
	}
	p.Inclusive = c.Inclusive
	if c.Before {
		p.Before = c.ID
	} else {
		p.After = c.ID
	}
	return p
}
