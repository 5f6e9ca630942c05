package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// A request body is read field by field, so that every failing field is
// reported at once under its dotted path, and fields nobody asked for are
// reported as unknown instead of vanishing.

// opt is an optional request value. Set is true when the field was sent;
// Null is true when it was sent as null.
type opt[T any] struct {
	Set  bool
	Null bool
	V    T
}

// object is a JSON object of a request body being read.
type object struct {
	path   string
	fields map[string]json.RawMessage
	errs   *practiced.FieldErrors
	known  map[string]bool
}

// decodeObject reads body as a JSON object. It fails with EBADREQUEST
// when body is not valid JSON or not an object.
func decodeObject(body []byte, errs *practiced.FieldErrors) (*object, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) {
		return nil, practiced.Errorf(practiced.EBADREQUEST, "The request body is not valid JSON.")
	}
	if body[0] != '{' {
		return nil, practiced.Errorf(practiced.EBADREQUEST, "The request body must be a JSON object.")
	}
	fields := splitObject(body)
	return &object{fields: fields, errs: errs, known: make(map[string]bool, len(fields))}, nil
}

// splitObject returns the members of body, a JSON object that json.Valid
// accepts with no space around it, by name: each value is its bytes as
// sent, a slice of body. It reads as json.Unmarshal into a map of
// json.RawMessage would, a name sent twice keeping its last value and
// names compared once unescaped, without decoding every value into a
// copy of its own: a request's fields are read again one by one anyway.
func splitObject(body []byte) map[string]json.RawMessage {
	fields := make(map[string]json.RawMessage, 8)
	i := skipJSONSpace(body, 1)
	if body[i] == '}' {
		return fields
	}
	for {
		end := endOfJSONString(body, i)
		name := jsonName(body[i:end])
		i = skipJSONSpace(body, end) + 1 // past the colon
		i = skipJSONSpace(body, i)
		end = endOfJSONValue(body, i)
		fields[name] = body[i:end:end]
		i = skipJSONSpace(body, end)
		if body[i] == '}' {
			return fields
		}
		i = skipJSONSpace(body, i+1) // past the comma
	}
}

// jsonName returns the string of q, a quoted JSON string: as written
// when it holds neither an escape nor a byte past ASCII, and otherwise
// as encoding/json unescapes it, invalid UTF-8 included.
func jsonName(q []byte) string {
	inner := q[1 : len(q)-1]
	for _, c := range inner {
		if c == '\\' || c >= utf8.RuneSelf {
			var s string
			json.Unmarshal(q, &s) // q is a valid JSON string
			return s
		}
	}
	return string(inner)
}

// skipJSONSpace returns the index of the first byte of b from i on that
// is not JSON's white space.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// endOfJSONString returns the index just past the valid JSON string that
// starts at b[i].
func endOfJSONString(b []byte, i int) int {
	for i++; ; i++ {
		switch b[i] {
		case '\\':
			i++ // the escaped byte; \uXXXX's digits are plain bytes
		case '"':
			return i + 1
		}
	}
}

// endOfJSONValue returns the index just past the valid JSON value that
// starts at b[i].
func endOfJSONValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return endOfJSONString(b, i)
	case '{', '[':
		depth := 0
		for {
			switch b[i] {
			case '"':
				i = endOfJSONString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	// A number, true, false or null: it ends where the object's
	// punctuation or white space begins.
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// name returns the dotted path of a field of o.
func (o *object) name(field string) string {
	if o.path == "" {
		return field
	}
	return o.path + "." + field
}

func (o *object) fail(field, msg string) { o.errs.Add(o.name(field), msg) }

// raw returns the raw value of a field, marking the field as known.
// ok is false when the field was not sent; null is true when it was null.
func (o *object) raw(field string) (v json.RawMessage, ok, null bool) {
	v, ok = o.fields[field]
	if !ok {
		return nil, false, false
	}
	// Only fields sent are marked, so the marks never outgrow the room
	// made for them.
	o.known[field] = true
	return v, true, string(v) == "null" // a value is its bytes, no space around them (splitObject)
}

// has reports whether field was sent.
func (o *object) has(field string) bool {
	_, ok := o.fields[field]
	return ok
}

// finish reports every field that no reader asked for as unknown.
func (o *object) finish() {
	var unknown []string
	for k := range o.fields {
		if !o.known[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		o.fail(k, "is not a known field")
	}
}

// kind names the JSON type of v for error messages.
func kind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// str reads a string of at most max characters.
func (o *object) str(field string, max int) opt[string] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[string]{Set: ok, Null: null}
	}
	s, good := o.decodeString(field, v)
	if !good {
		return opt[string]{}
	}
	if n := utf8.RuneCountInString(s); n > max {
		o.fail(field, fmt.Sprintf("must be at most %d characters (it has %d)", max, n))
		return opt[string]{}
	}
	return opt[string]{Set: true, V: s}
}

func (o *object) decodeString(field string, v json.RawMessage) (string, bool) {
	if s, ok := plainString(v); ok {
		if strings.ContainsRune(s, 0) {
			o.fail(field, "must not contain NUL characters")
			return "", false
		}
		return s, true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		o.fail(field, "must be a string, not "+kind(v))
		return "", false
	}
	if strings.ContainsRune(s, 0) {
		o.fail(field, "must not contain NUL characters")
		return "", false
	}
	return s, true
}

// plainString returns the JSON string v when it has no escapes and is
// valid UTF-8, the common case a copy reads exactly as json.Unmarshal
// would. v is a value of a body already checked to be JSON.
func plainString(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	in := v[1 : len(v)-1]
	if bytes.IndexByte(in, '\\') >= 0 || !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}

// requiredStr reads a string that must be sent and not be empty.
func (o *object) requiredStr(field string, max int) opt[string] {
	v := o.str(field, max)
	o.required(field, v.Set, v.Null)
	if v.Set && !v.Null && strings.TrimSpace(v.V) == "" {
		o.fail(field, "must not be empty")
		return opt[string]{}
	}
	return v
}

// required records the failure of a required field that was not sent or
// was null.
func (o *object) required(field string, set, null bool) {
	if !set && !o.errs.Has(o.name(field)) {
		o.fail(field, "is required")
	} else if null {
		o.fail(field, "is required and cannot be null")
	}
}

// id reads a record id with one of the given prefixes.
func (o *object) id(field string, prefixes ...string) opt[string] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[string]{Set: ok, Null: null}
	}
	s, good := o.idValue(field, v, prefixes)
	if !good {
		return opt[string]{}
	}
	return opt[string]{Set: true, V: s}
}

func (o *object) idValue(field string, v json.RawMessage, prefixes []string) (string, bool) {
	if kind(v) == "a number" {
		o.fail(field, fmt.Sprintf("must be an id string such as \"%s_01h455vb4pex5vsknk084sn02q\"; ids are prefixed strings, not numbers", prefixes[0]))
		return "", false
	}
	s, good := o.decodeString(field, v)
	if !good {
		return "", false
	}
	for _, p := range prefixes {
		if tid.Valid(s, p) {
			return s, true
		}
	}
	o.fail(field, "must be an id starting with "+strings.Join(withUnderscore(prefixes), " or "))
	return "", false
}

func withUnderscore(prefixes []string) []string {
	out := make([]string, len(prefixes))
	for i, p := range prefixes {
		out[i] = p + "_"
	}
	return out
}

// requiredID reads a record id that must be sent.
func (o *object) requiredID(field string, prefixes ...string) opt[string] {
	v := o.id(field, prefixes...)
	o.required(field, v.Set || o.errs.Has(o.name(field)), v.Null)
	return v
}

// Time limits: timestamps outside these years are refused as absurd.
const (
	minYear = 1900
	maxYear = 2200
)

// timestamp reads an RFC 3339 timestamp with any offset, as UTC.
func (o *object) timestamp(field string) opt[time.Time] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[time.Time]{Set: ok, Null: null}
	}
	s, good := o.decodeString(field, v)
	if !good {
		return opt[time.Time]{}
	}
	t, msg := parseTimestamp(s)
	if msg != "" {
		o.fail(field, msg)
		return opt[time.Time]{}
	}
	return opt[time.Time]{Set: true, V: t}
}

// parseTimestamp parses an RFC 3339 timestamp and returns it in UTC, or
// a message saying what is wrong with it.
func parseTimestamp(s string) (time.Time, string) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if _, derr := time.Parse(time.DateOnly, s); derr == nil {
			return time.Time{}, "must be a timestamp with a time and an offset, such as 2026-03-02T09:30:00Z, not a date"
		}
		return time.Time{}, "must be a timestamp in RFC 3339 format, such as 2026-03-02T09:30:00Z"
	}
	if y := t.UTC().Year(); y < minYear || y > maxYear {
		return time.Time{}, fmt.Sprintf("must be between the years %d and %d", minYear, maxYear)
	}
	return t.UTC().Truncate(time.Second), ""
}

// boolean reads a boolean.
func (o *object) boolean(field string) opt[bool] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[bool]{Set: ok, Null: null}
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		o.fail(field, "must be a boolean, not "+kind(v))
		return opt[bool]{}
	}
	return opt[bool]{Set: true, V: b}
}

// integer reads a whole number within [min, max].
func (o *object) integer(field string, min, max int) opt[int] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[int]{Set: ok, Null: null}
	}
	var f float64
	if kind(v) != "a number" || json.Unmarshal(v, &f) != nil || f != math.Trunc(f) {
		o.fail(field, "must be a whole number, not "+kind(v))
		return opt[int]{}
	}
	if f < float64(min) || f > float64(max) {
		o.fail(field, fmt.Sprintf("must be between %d and %d", min, max))
		return opt[int]{}
	}
	return opt[int]{Set: true, V: int(f)}
}

// number reads a number within [min, max].
func (o *object) number(field string, min, max float64) opt[float64] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[float64]{Set: ok, Null: null}
	}
	var f float64
	if kind(v) != "a number" || json.Unmarshal(v, &f) != nil {
		o.fail(field, "must be a number, not "+kind(v))
		return opt[float64]{}
	}
	if f < min || f > max {
		o.fail(field, fmt.Sprintf("must be between %s and %s", strconv.FormatFloat(min, 'f', -1, 64), strconv.FormatFloat(max, 'f', -1, 64)))
		return opt[float64]{}
	}
	return opt[float64]{Set: true, V: f}
}

// enum reads a string that must be one of values.
func (o *object) enum(field string, values []string) opt[string] {
	v := o.str(field, 255)
	if v.Set && !v.Null && !slices.Contains(values, v.V) {
		o.fail(field, "must be one of: "+strings.Join(values, ", "))
		return opt[string]{}
	}
	return v
}

// email reads an e-mail address.
func (o *object) email(field string) opt[string] {
	v := o.str(field, 255)
	if v.Set && !v.Null && v.V != "" {
		if !practiced.ValidEmail(v.V) {
			o.fail(field, "must be an e-mail address such as name@example.com")
			return opt[string]{}
		}
	}
	return v
}

// phone reads a phone number and returns it in E.164
// (practiced.NormalizePhone): a number without a leading + is read as a
// national number of region (phoneRegion).
func (o *object) phone(field, region string) opt[string] {
	v := o.str(field, 255)
	if v.Set && !v.Null && v.V != "" {
		n, ok := practiced.NormalizePhone(v.V, region)
		if !ok {
			o.fail(field, phoneMessage(region))
			return opt[string]{}
		}
		v.V = n
	}
	return v
}

// phoneMessage says what a phone field accepts when a number is read in
// region.
func phoneMessage(region string) string {
	international, national := practiced.PhoneExamples(region)
	return "must be a phone number in international format, such as " + international +
		", or in the national format of " + region + " (the record's address.country_code, else " +
		practiced.DefaultPhoneRegion + "), such as " + national
}

// phoneRegion returns the country whose national numbers the phone
// numbers of a body are read in: the address.country_code the body sends,
// else the stored record's (stored), else practiced.DefaultPhoneRegion.
func (o *object) phoneRegion(stored string) string {
	var body struct {
		Address *struct {
			CountryCode *string `json:"country_code"`
		} `json:"address"`
	}
	if a, ok := o.fields["address"]; ok && json.Unmarshal([]byte(`{"address":`+string(a)+`}`), &body) == nil &&
		body.Address != nil && body.Address.CountryCode != nil {
		return practiced.PhoneRegion(*body.Address.CountryCode, stored)
	}
	return practiced.PhoneRegion(stored)
}

// dialCode reads a country dial code such as "61" or "+61".
func (o *object) dialCode(field string) opt[string] {
	v := o.str(field, 8)
	if v.Set && !v.Null && v.V != "" {
		d := strings.TrimPrefix(strings.TrimSpace(v.V), "+")
		if len(d) < 1 || len(d) > 4 || strings.Trim(d, "0123456789") != "" {
			o.fail(field, "must be a country dial code of 1 to 4 digits, such as 61")
			return opt[string]{}
		}
		v.V = d
	}
	return v
}

// country reads an ISO 3166-1 alpha-2 country code, upper-cased.
func (o *object) country(field string) opt[string] {
	v := o.str(field, 2)
	if v.Set && !v.Null && v.V != "" {
		up := strings.ToUpper(v.V)
		if !practiced.IsCountry(up) {
			o.fail(field, "must be an ISO 3166-1 alpha-2 country code such as AU")
			return opt[string]{}
		}
		v.V = up
	}
	return v
}

// date reads a calendar date "YYYY-MM-DD". When acceptTimestamp is set, a
// timestamp is accepted too and its date, as written, is used.
func (o *object) date(field string, acceptTimestamp bool) opt[string] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[string]{Set: ok, Null: null}
	}
	s, good := o.decodeString(field, v)
	if !good {
		return opt[string]{}
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil && acceptTimestamp {
		var t time.Time
		if t, err = time.Parse(time.RFC3339Nano, s); err == nil {
			d = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		}
	}
	if err != nil {
		o.fail(field, "must be a date such as 1990-05-31")
		return opt[string]{}
	}
	if d.Year() < minYear || d.Year() > maxYear {
		o.fail(field, fmt.Sprintf("must be between the years %d and %d", minYear, maxYear))
		return opt[string]{}
	}
	return opt[string]{Set: true, V: d.Format(time.DateOnly)}
}

// obj reads a nested object. It returns nil when the field was not sent,
// was null (null reports whether it was) or was not an object.
func (o *object) obj(field string) (child *object, set, null bool) {
	v, ok, null := o.raw(field)
	if !ok || null {
		return nil, ok, null
	}
	var fields map[string]json.RawMessage
	if kind(v) != "an object" || json.Unmarshal(v, &fields) != nil {
		o.fail(field, "must be an object, not "+kind(v))
		return nil, true, false
	}
	return &object{path: o.name(field), fields: fields, errs: o.errs, known: make(map[string]bool, len(fields))}, true, false
}

// array reads an array of at most max items, returning the raw items.
func (o *object) array(field string, max int) (items []json.RawMessage, set, null bool) {
	v, ok, null := o.raw(field)
	if !ok || null {
		return nil, ok, null
	}
	if kind(v) != "an array" || json.Unmarshal(v, &items) != nil {
		o.fail(field, "must be an array, not "+kind(v))
		return nil, true, false
	}
	if len(items) > max {
		o.fail(field, fmt.Sprintf("must have at most %d items", max))
		return nil, true, false
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, true, false
}

// objects reads an array of objects; each item is read by fn, which must
// call finish on it. Items are named field.N.
func (o *object) objects(field string, max int, fn func(i int, item *object)) (set, null bool) {
	items, set, null := o.array(field, max)
	for i, raw := range items {
		name := o.name(field) + "." + strconv.Itoa(i)
		var fields map[string]json.RawMessage
		if kind(raw) != "an object" || json.Unmarshal(raw, &fields) != nil {
			o.errs.Add(name, "must be an object, not "+kind(raw))
			continue
		}
		fn(i, &object{path: name, fields: fields, errs: o.errs, known: make(map[string]bool, len(fields))})
	}
	return set, null
}

// strings reads an array of strings of at most maxLen characters each.
func (o *object) strings(field string, max, maxLen int) opt[[]string] {
	items, set, null := o.array(field, max)
	if !set || null {
		return opt[[]string]{Set: set, Null: null}
	}
	out := make([]string, 0, len(items))
	good := true
	for i, raw := range items {
		item := field + "." + strconv.Itoa(i)
		s, ok := o.decodeString(item, raw)
		if !ok {
			good = false
			continue
		}
		if n := utf8.RuneCountInString(s); n > maxLen {
			o.fail(item, fmt.Sprintf("must be at most %d characters (it has %d)", maxLen, n))
			good = false
			continue
		}
		out = append(out, s)
	}
	if !good {
		return opt[[]string]{}
	}
	return opt[[]string]{Set: true, V: out}
}

// ids reads an array of distinct record ids with the given prefix.
func (o *object) ids(field string, max int, prefix string) opt[[]string] {
	items, set, null := o.array(field, max)
	if !set || null || items == nil {
		return opt[[]string]{Set: set && items != nil, Null: null}
	}
	out := make([]string, 0, len(items))
	good := true
	for i, raw := range items {
		id, ok := o.idValue(field+"."+strconv.Itoa(i), raw, []string{prefix})
		if !ok {
			good = false
			continue
		}
		if slices.Contains(out, id) {
			o.fail(field+"."+strconv.Itoa(i), "repeats an id given earlier")
			good = false
			continue
		}
		out = append(out, id)
	}
	if !good {
		return opt[[]string]{}
	}
	return opt[[]string]{Set: true, V: out}
}

// addressPatch reads an address whose parts change one by one: it returns
// the change to make, or nil when the field was not sent or failed. null
// clears the whole address.
func (o *object) addressPatch(field string) func(*practiced.Address) {
	a, set, null := o.obj(field)
	if null {
		return func(dst *practiced.Address) { *dst = practiced.Address{} }
	}
	if !set || a == nil {
		return nil
	}
	var changes []func(*practiced.Address)
	for _, f := range []struct {
		field string
		dst   func(*practiced.Address) *string
	}{
		{"line1", func(a *practiced.Address) *string { return &a.Line1 }},
		{"city", func(a *practiced.Address) *string { return &a.City }},
		{"state", func(a *practiced.Address) *string { return &a.State }},
		{"postal_code", func(a *practiced.Address) *string { return &a.PostalCode }},
		{"place_id", func(a *practiced.Address) *string { return &a.PlaceID }},
		{"formatted_address_geocoder_estimate", func(a *practiced.Address) *string { return &a.FormattedAddress }},
	} {
		dst := f.dst
		if v := a.str(f.field, 255); v.Set {
			changes = append(changes, func(a *practiced.Address) { *dst(a) = v.V })
		}
	}
	if v := a.str("line2", 255); v.Set {
		changes = append(changes, func(a *practiced.Address) {
			a.Line2 = nil
			if !v.Null && v.V != "" {
				line2 := v.V
				a.Line2 = &line2
			}
		})
	}
	if v := a.country("country_code"); v.Set {
		changes = append(changes, func(a *practiced.Address) { a.CountryCode = v.V })
	}
	if v := a.number("latitude", -90, 90); v.Set {
		changes = append(changes, func(a *practiced.Address) { a.Latitude = floatPtr(v) })
	}
	if v := a.number("longitude", -180, 180); v.Set {
		changes = append(changes, func(a *practiced.Address) { a.Longitude = floatPtr(v) })
	}
	a.finish()
	return func(dst *practiced.Address) {
		for _, f := range changes {
			f(dst)
		}
	}
}

func floatPtr(v opt[float64]) *float64 {
	if !v.Set || v.Null {
		return nil
	}
	f := v.V
	return &f
}

// phoneInput is a phone number as a request sends it. An id names one of
// the record's numbers, whose id it keeps.
type phoneInput struct {
	id, code, number, kind string
}

// phoneNumbers reads a list of phone numbers, replaced whole: set is true
// when the field was sent (null empties the list). Each is kept as
// practiced.NormalizePhoneNumber shapes it: a number with a leading +
// carries its country, else it is read in the country of code, else of
// region.
func (o *object) phoneNumbers(field string, max int, region string) (items []phoneInput, set bool) {
	sent, null := o.objects(field, max, func(i int, it *object) {
		id := it.id("id", practiced.PrefixPhoneNumber)
		number := it.str("number", 255)
		it.required("number", number.Set || it.errs.Has(it.name("number")), number.Null)
		if number.Set && !number.Null && strings.TrimSpace(number.V) == "" {
			it.fail("number", "must not be empty")
		}
		code := it.dialCode("code")
		kind := it.enum("type", practiced.PhoneTypes)
		if number.Set && !number.Null && strings.TrimSpace(number.V) != "" && !it.errs.Has(it.name("code")) {
			c, n, ok := practiced.NormalizePhoneNumber(code.V, number.V, region)
			if !ok {
				it.fail("number", phoneNumberMessage(code.V, region))
			}
			code.V, number.V = c, n
		}
		it.finish()
		t := "mobile"
		if kind.Set && !kind.Null {
			t = kind.V
		}
		items = append(items, phoneInput{id: id.V, code: code.V, number: number.V, kind: t})
	})
	return items, sent || null
}

// phoneNumberMessage says what the number of a PhoneNumber accepts.
func phoneNumberMessage(code, region string) string {
	if code == "" {
		return phoneMessage(region)
	}
	return "must be a phone number of the country of code +" + strings.TrimPrefix(code, "+") +
		", in its national format or in international format with that code"
}

// mergePhoneNumbers makes the new list of numbers: a number sent with the
// id of one of the old numbers keeps that id; any other gets a new one.
func mergePhoneNumbers(old []practiced.PhoneNumber, in []phoneInput) []practiced.PhoneNumber {
	ids := map[string]bool{}
	for _, ph := range old {
		ids[ph.ID] = true
	}
	out := make([]practiced.PhoneNumber, 0, len(in))
	for _, ph := range in {
		id := ph.id
		if !ids[id] {
			id = tid.New(practiced.PrefixPhoneNumber)
		}
		delete(ids, id)
		out = append(out, practiced.PhoneNumber{ID: id, Code: ph.code, Number: ph.number, Type: ph.kind})
	}
	return out
}

// color reads a color: a CSS color name or a "#rgb" or "#rrggbb" hex
// color, in any case, stored in lower case; "" means no color.
func (o *object) color(field string) opt[string] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[string]{Set: ok, Null: null}
	}
	s, good := o.decodeString(field, v)
	if !good {
		return opt[string]{}
	}
	if s == "" {
		return opt[string]{Set: true}
	}
	c, valid := practiced.NormalizeColor(s)
	if !valid {
		o.fail(field, practiced.ColorRule)
		return opt[string]{}
	}
	return opt[string]{Set: true, V: c}
}

// clock reads a local wall-clock time "HH:MM" (24:00 allowed, for the
// end of a day).
func (o *object) clock(field string) opt[string] {
	v, ok, null := o.raw(field)
	if !ok || null {
		return opt[string]{Set: ok, Null: null}
	}
	s, good := o.decodeString(field, v)
	if !good {
		return opt[string]{}
	}
	if _, valid := practiced.ParseClock(s); !valid {
		o.fail(field, "must be a time of day such as 09:30, from 00:00 to 24:00")
		return opt[string]{}
	}
	return opt[string]{Set: true, V: s}
}

// refuseNull records the failure of a field that may be left out of a
// partial update but not sent as null, because it has no empty value.
func (o *object) refuseNull(field string, null bool) {
	if null {
		o.fail(field, "cannot be null")
	}
}
