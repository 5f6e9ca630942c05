// Package importer reads CSV files of clients and contacts, checks every
// row with the API's own rules, and stores a file's records all or
// nothing (practiced import). It reads the API's field names and the
// column names of a patient export from Cliniko; docs/import.md lists
// them.
package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// table is a CSV file being read: its header mapped to fields, then its
// rows.
type table struct {
	r      *csv.Reader
	fields []string // per column: the field it fills, "" for none
	names  []string // per column: its name in the header
}

// normalize folds a column name for matching: lower case, without
// spaces, underscores, dots and dashes.
func normalize(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		switch r {
		case ' ', '_', '.', '-':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// openTable reads the header of a CSV file in UTF-8, with or without a
// byte-order mark, separated by commas or semicolons (whichever the
// header line holds more of outside quotes), and maps each column to a
// field through columns (normalized name → field). An unknown column is
// an error naming the accepted ones; so is a field given twice.
func openTable(rd io.Reader, columns map[string]string, accepted []string) (*table, error) {
	br := bufio.NewReaderSize(rd, 1<<16)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	first, err := br.Peek(br.Size())
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	r := csv.NewReader(br)
	r.Comma = separator(first)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the file is empty: its first line must name the columns")
	}
	if err != nil {
		return nil, fmt.Errorf("the header: %w", err)
	}
	t := &table{r: r, fields: make([]string, len(header)), names: append([]string(nil), header...)}
	seen := map[string]string{}
	for i, name := range header {
		if strings.TrimSpace(name) == "" {
			continue // an unnamed column, as spreadsheets leave at the end
		}
		field, ok := columns[normalize(name)]
		if !ok {
			return nil, fmt.Errorf("unknown column %q; the columns are %s (case, spaces and underscores do not matter)", name, strings.Join(accepted, ", "))
		}
		if other, dup := seen[field]; dup {
			return nil, fmt.Errorf("columns %q and %q both fill %s", other, name, field)
		}
		seen[field] = name
		t.fields[i] = field
	}
	return t, nil
}

// separator is ';' when the first line has more semicolons than commas
// outside quotes, else ','.
func separator(data []byte) rune {
	commas, semis, quoted := 0, 0, false
	for _, c := range data {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\n':
			if semis > commas {
				return ';'
			}
			return ','
		case c == ',':
			commas++
		case c == ';':
			semis++
		}
	}
	if semis > commas {
		return ';'
	}
	return ','
}

// next returns the next row as field → value, with the line it starts
// on; io.EOF after the last. Empty cells are left out.
func (t *table) next() (line int, row map[string]string, err error) {
	rec, err := t.r.Read()
	if err != nil {
		return 0, nil, err
	}
	line, _ = t.r.FieldPos(0)
	row = map[string]string{}
	for i, v := range rec {
		if i >= len(t.fields) {
			if strings.TrimSpace(v) != "" {
				return line, nil, fmt.Errorf("line %d has %d cells, more than the header's %d columns", line, len(rec), len(t.fields))
			}
			continue
		}
		if t.fields[i] != "" && strings.TrimSpace(v) != "" {
			row[t.fields[i]] = strings.TrimSpace(v)
		}
	}
	return line, row, nil
}
