package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
)

// Store is what an import writes to.
type Store interface {
	practiced.Store
	SeedAll(ctx context.Context, businessID string, next func() (practiced.SeedData, bool, error)) error
}

// Options say what to import.
type Options struct {
	Store    Store
	Business string // the business's id
	Kind     string // "clients" or "contacts"
	// Open opens the file; it is read twice: once to check every row,
	// once to store them.
	Open   func() (io.ReadCloser, error)
	DryRun bool // check every row, store nothing
	// Progress, when set, is told the stage ("checking", "importing")
	// and the bytes of the file read so far.
	Progress func(stage string, read int64)
	Now      func() time.Time // nil means time.Now
}

// FieldError is one failure of one row: the line it starts on, the
// column (or the API's field path, where no one column holds the field)
// and the message.
type FieldError struct {
	Line    int
	Field   string
	Message string
}

func (e FieldError) String() string {
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Message)
}

// MaxErrors is the most failures an import lists.
const MaxErrors = 100

// Errors is the failures of a file's rows, the first MaxErrors of them.
type Errors struct {
	List  []FieldError
	Rows  int // rows that failed
	Total int // failures in all
}

func (e *Errors) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of the file's rows fail (%d errors); nothing was imported", e.Rows, e.Total)
	for _, f := range e.List {
		b.WriteString("\n  " + f.String())
	}
	if e.Total > len(e.List) {
		fmt.Fprintf(&b, "\n  … and %d more", e.Total-len(e.List))
	}
	return b.String()
}

// batch is how many records go into one SeedAll batch.
const batch = 5000

// Import checks every row of the file, and unless one fails or
// opt.DryRun is set, stores them all in one transaction. It returns the
// number of rows; a file with failing rows is an *Errors, and stores
// nothing.
func Import(ctx context.Context, opt Options) (rows int, err error) {
	k, ok := kinds[opt.Kind]
	if !ok {
		return 0, fmt.Errorf("cannot import %q: use %s", opt.Kind, strings.Join(Kinds(), " or "))
	}
	rd := httpapi.NewReader(opt.Store, opt.Now)
	var failed Errors
	rows, err = k.each(ctx, opt, "checking", rd, func(line int, rec any, errs []FieldError) error {
		if len(errs) > 0 {
			failed.Rows++
			for _, e := range errs {
				failed.Total++
				if len(failed.List) < MaxErrors {
					failed.List = append(failed.List, e)
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if failed.Total > 0 {
		return rows, &failed
	}
	if opt.DryRun || rows == 0 {
		return rows, nil
	}

	// The second reading runs beside the store's writes: rows are read
	// into batches on one goroutine while SeedAll writes the last batch.
	batches := make(chan practiced.SeedData, 1)
	readErr := make(chan error, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var d practiced.SeedData
		n := 0
		flush := func() bool {
			select {
			case batches <- d:
				d, n = practiced.SeedData{}, 0
				return true
			case <-ctx.Done():
				return false
			}
		}
		_, err := k.each(ctx, opt, "importing", rd, func(line int, rec any, errs []FieldError) error {
			if len(errs) > 0 {
				return fmt.Errorf("line %d changed since it was checked: %s", line, errs[0])
			}
			switch r := rec.(type) {
			case practiced.Client:
				d.Clients = append(d.Clients, r)
			case practiced.Contact:
				d.Contacts = append(d.Contacts, r)
			}
			if n++; n == batch && !flush() {
				return ctx.Err()
			}
			return nil
		})
		if err == nil && n > 0 && !flush() {
			err = ctx.Err()
		}
		close(batches)
		readErr <- err
	}()
	stored := 0
	err = opt.Store.SeedAll(ctx, opt.Business, func() (practiced.SeedData, bool, error) {
		d, ok := <-batches
		if !ok {
			if err := <-readErr; err != nil {
				return d, false, err
			}
			return d, false, nil
		}
		stored += len(d.Clients) + len(d.Contacts)
		return d, true, nil
	})
	if err != nil {
		cancel()
		for range batches {
		}
		return 0, fmt.Errorf("nothing was imported: %w", err)
	}
	if stored != rows {
		return 0, fmt.Errorf("the file held %d rows when checked and %d when imported", rows, stored)
	}
	return rows, nil
}

// each reads the file and hands every row's record, or its failures, to
// fn; it returns the number of rows.
func (k *kind) each(ctx context.Context, opt Options, stage string, rd *httpapi.Reader, fn func(line int, rec any, errs []FieldError) error) (int, error) {
	f, err := opt.Open()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	counted := &countingReader{r: f}
	t, err := openTable(counted, k.columns, k.accepted())
	if err != nil {
		return 0, err
	}
	header := t.headerNames()
	rows := 0
	for {
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		line, row, err := t.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rows, err
		}
		rows++
		if opt.Progress != nil && rows%1000 == 0 {
			opt.Progress(stage, counted.n.Load())
		}
		rec, errs := k.read(ctx, rd, opt.Business, row, header)
		for i := range errs {
			errs[i].Line = line
		}
		if err := fn(line, rec, errs); err != nil {
			return rows, err
		}
	}
	if opt.Progress != nil {
		opt.Progress(stage, counted.n.Load())
	}
	return rows, nil
}

// read makes the record of one row with the API's rules.
func (k *kind) read(ctx context.Context, rd *httpapi.Reader, biz string, row, header map[string]string) (any, []FieldError) {
	body, from, errs := k.body(row, header)
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, append(errs, FieldError{Field: "row", Message: err.Error()})
	}
	var rec any
	switch k.name {
	case "clients":
		rec, err = rd.Client(ctx, biz, raw)
	case "contacts":
		rec, err = rd.Contact(ctx, biz, raw)
	}
	var perr *practiced.Error
	switch {
	case err == nil:
	case errors.As(err, &perr) && perr.Fields != nil:
		msgs := perr.Fields.Map()
		for _, field := range perr.Fields.Fields() {
			for _, m := range msgs[field] {
				errs = append(errs, FieldError{Field: column(field, from), Message: m})
			}
		}
	default:
		errs = append(errs, FieldError{Field: "row", Message: err.Error()})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return rec, nil
}

// column names the column a field of the body came from: the field's own
// or its nearest parent's, else the field path itself.
func column(field string, from map[string]string) string {
	for f := field; f != ""; {
		if c, ok := from[f]; ok {
			return c
		}
		i := strings.LastIndex(f, ".")
		if i < 0 {
			break
		}
		f = f[:i]
	}
	return field
}

// headerNames maps each field to the column name the file gave it.
func (t *table) headerNames() map[string]string {
	out := map[string]string{}
	for i, f := range t.fields {
		if f != "" {
			out[f] = t.names[i]
		}
	}
	return out
}

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
