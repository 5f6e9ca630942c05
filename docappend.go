package practiced

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// appendDocOf appends the document of v and reports true when v is a
// record that writes its own (and false otherwise): exactly the bytes
// encoding/json writes for it without HTML escaping, without reflection
// and without the check encoding/json makes of every value a marshaler
// returns. The records written most often have one (BusyTime, Client),
// and a test holds each to encoding/json. Only the types themselves and
// pointers to them match: a struct that embeds one is encoding/json's,
// which writes its other fields too.
//
// A record whose value encoding/json would refuse (a number that is not
// finite) reports false, and EncodeDoc leaves it to encoding/json, which
// says why.
func appendDocOf(buf []byte, v any) ([]byte, bool) {
	switch r := v.(type) {
	case BusyTime:
		return r.appendDoc(buf)
	case *BusyTime:
		return appendDocAt(buf, r)
	case Client:
		return r.appendDoc(buf)
	case *Client:
		return appendDocAt(buf, r)
	}
	return buf, false
}

// appendDocAt appends the document of *p, or null for a nil p, as
// encoding/json writes a nil pointer.
func appendDocAt[T interface{ appendDoc([]byte) ([]byte, bool) }](buf []byte, p *T) ([]byte, bool) {
	if p == nil {
		return append(buf, "null"...), true
	}
	return (*p).appendDoc(buf)
}

// AppendJSONString appends s as a JSON string, as the API's documents
// carry it: printable ASCII other than '"' and '\' as it is, anything
// else through encoding/json.
func AppendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.Encode(s) // a string always encodes
			return append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// appendJSONStringPtr appends *s as a JSON string, or null.
func appendJSONStringPtr(buf []byte, s *string) []byte {
	if s == nil {
		return append(buf, "null"...)
	}
	return AppendJSONString(buf, *s)
}

// appendJSONStrings appends ss as a JSON array of strings, or null when
// it is nil.
func appendJSONStrings(buf []byte, ss []string) []byte {
	return appendJSONArray(buf, ss, func(s string, buf []byte) []byte { return AppendJSONString(buf, s) })
}

// appendJSONArray appends items as a JSON array, each written by
// appendItem (a method expression such as Medication.appendJSON), or
// null when items is nil.
func appendJSONArray[T any](buf []byte, items []T, appendItem func(T, []byte) []byte) []byte {
	if items == nil {
		return append(buf, "null"...)
	}
	buf = append(buf, '[')
	for i, item := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendItem(item, buf)
	}
	return append(buf, ']')
}

// appendJSONTimePtr appends *t as Time's MarshalJSON writes it, or null.
func appendJSONTimePtr(buf []byte, t *Time) []byte {
	if t == nil {
		return append(buf, "null"...)
	}
	return t.appendJSON(buf)
}

// appendJSONInt appends n as a JSON number.
func appendJSONInt(buf []byte, n int) []byte {
	return strconv.AppendInt(buf, int64(n), 10)
}

// appendJSONBool appends v as a JSON boolean.
func appendJSONBool(buf []byte, v bool) []byte {
	return strconv.AppendBool(buf, v)
}

// appendJSONFloatPtr appends *f as encoding/json writes a float64, or
// null; it reports false for a number that is not finite, which JSON
// cannot carry.
func appendJSONFloatPtr(buf []byte, f *float64) ([]byte, bool) {
	if f == nil {
		return append(buf, "null"...), true
	}
	v := *f
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return buf, false
	}
	// As encoding/json: the shortest decimal that reads back as v, in
	// exponent form only for the very small and the very large, with an
	// exponent of one digit written without its leading zero.
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	buf = strconv.AppendFloat(buf, v, format, -1, 64)
	if format == 'e' {
		if n := len(buf); n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
			buf[n-2] = buf[n-1]
			buf = buf[:n-1]
		}
	}
	return buf, true
}
