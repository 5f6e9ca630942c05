package sqlstore

import (
	"encoding/json"
	"fmt"
	"time"

	practiced "github.com/practiced/practiced"
)

// Timestamps travel to the database as RFC 3339 UTC text with whole
// seconds. SQLite keeps that text, which sorts as time does; PostgreSQL
// parses it into timestamptz. Reading accepts either form back.

// ts returns the parameter value of t.
func ts(t time.Time) string { return practiced.Time{Time: t}.String() }

// tsv returns the parameter value of a practiced.Time.
func tsv(t practiced.Time) string { return ts(t.Time) }

// nullTs returns the parameter value of an optional time.
func nullTs(t *practiced.Time) any {
	if t == nil {
		return nil
	}
	return ts(t.Time)
}

// nullStr returns the parameter value of an optional string.
func nullStr(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// jsonList returns the list s as JSON text for a JSON column: an empty
// list, the commonest value of most list columns, without the encoder's
// reflection (which made up a fifth of encoding a client's row).
func jsonList[S ~[]E, E any](s S) string {
	if len(s) == 0 {
		return "[]"
	}
	return jsonText(s)
}

// jsonText returns v as JSON text for a JSON column. A nil slice is
// stored as an empty list.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("sqlstore: encode %T: %v", v, err))
	}
	if string(b) == "null" {
		return "[]"
	}
	return string(b)
}

// timeScan scans a timestamp column into a practiced.Time.
type timeScan struct{ dst *practiced.Time }

func (s timeScan) Scan(src any) error {
	t, err := parseTime(src)
	if err != nil {
		return err
	}
	*s.dst = practiced.NewTime(t)
	return nil
}

// nullTimeScan scans a nullable timestamp column.
type nullTimeScan struct{ dst **practiced.Time }

func (s nullTimeScan) Scan(src any) error {
	if src == nil {
		*s.dst = nil
		return nil
	}
	t, err := parseTime(src)
	if err != nil {
		return err
	}
	*s.dst = practiced.TimePtr(t)
	return nil
}

func parseTime(src any) (time.Time, error) {
	switch v := src.(type) {
	case time.Time:
		return v, nil
	case string:
		return parseTimeText(v)
	case []byte:
		return parseTimeText(string(v))
	}
	return time.Time{}, fmt.Errorf("sqlstore: cannot read %T as a time", src)
}

func parseTimeText(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("sqlstore: cannot read %q as a time", s)
}

// dateScan scans a nullable date column into "YYYY-MM-DD".
type dateScan struct{ dst **string }

func (s dateScan) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.dst = nil
	case time.Time:
		d := v.Format("2006-01-02")
		*s.dst = &d
	case string:
		d := v
		*s.dst = &d
	case []byte:
		d := string(v)
		*s.dst = &d
	default:
		return fmt.Errorf("sqlstore: cannot read %T as a date", src)
	}
	return nil
}

// jsonScan scans a JSON text column into dst.
type jsonScan struct{ dst any }

func (s jsonScan) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		return nil
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("sqlstore: cannot read %T as JSON", src)
	}
	return json.Unmarshal(b, s.dst)
}

// nullJSON returns v as JSON text, or nil when v is nil.
func nullJSON[T any](v *T) any {
	if v == nil {
		return nil
	}
	return jsonText(v)
}
