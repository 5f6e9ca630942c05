package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/httpapi"
)

// Options say what to import.
type Options struct {
	Store    practiced.Store
	Business string // the business's id
	Kind     string // "clients" or "contacts"
	// Open opens the file.
	Open   func() (io.ReadCloser, error)
	DryRun bool // check every row, store nothing
	// Progress, when set, is told the stage ("checking") and the bytes
	// of the file read so far.
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

// Import checks every row of the file with the API's rules and stores
// them all in one transaction, or none: when any row fails, every
// failing row is still checked and reported (an *Errors) and the
// transaction is rolled back. With opt.DryRun the rows are only checked.
// It returns the number of rows. Rows are checked on every core while
// the store writes the batches checked before.
func Import(ctx context.Context, opt Options) (rows int, err error) {
	if opt.Kind == "appointments" {
		return importAppointments(ctx, opt)
	}
	k, ok := kinds[opt.Kind]
	if !ok {
		return 0, fmt.Errorf("cannot import %q: use clients, contacts or appointments", opt.Kind)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan practiced.SeedData, 2)
	done := make(chan error, 1)
	var failed Errors
	go func() {
		var d practiced.SeedData
		n := 0
		send := func() bool {
			select {
			case batches <- d:
				d, n = practiced.SeedData{}, 0
				return true
			case <-ctx.Done():
				return false
			}
		}
		var err error
		rows, err = k.check(ctx, opt, func(rec any, errs []FieldError) error {
			if len(errs) > 0 {
				failed.add(errs)
				return nil
			}
			if failed.Total > 0 || opt.DryRun {
				return nil // nothing will be stored: only check
			}
			switch r := rec.(type) {
			case practiced.Client:
				if d.Clients == nil {
					d.Clients = make([]practiced.Client, 0, batch)
				}
				d.Clients = append(d.Clients, r)
			case practiced.Contact:
				if d.Contacts == nil {
					d.Contacts = make([]practiced.Contact, 0, batch)
				}
				d.Contacts = append(d.Contacts, r)
			}
			if n++; n == batch && !send() {
				return ctx.Err()
			}
			return nil
		})
		if err == nil && failed.Total > 0 {
			err = &failed
		}
		if err == nil && n > 0 && !send() {
			err = ctx.Err()
		}
		close(batches)
		done <- err
	}()
	if opt.DryRun {
		for range batches {
		}
		return rows, <-done
	}
	err = opt.Store.SeedAll(ctx, opt.Business, func() (practiced.SeedData, bool, error) {
		if d, ok := <-batches; ok {
			return d, true, nil
		}
		err := <-done
		done <- err // for the caller below
		return practiced.SeedData{}, false, err
	})
	if err != nil {
		cancel()
		for range batches {
		}
		var failedRows *Errors
		if errors.As(err, &failedRows) {
			return rows, err
		}
		return 0, fmt.Errorf("nothing was imported: %w", err)
	}
	return rows, nil
}

// add records the failures of one row, keeping the MaxErrors of the
// lowest lines whatever order rows are checked in.
func (e *Errors) add(errs []FieldError) {
	e.Rows++
	for _, f := range errs {
		e.Total++
		i := sort.Search(len(e.List), func(i int) bool { return e.List[i].Line > f.Line })
		if i >= MaxErrors {
			continue
		}
		e.List = slices.Insert(e.List, i, f)
		if len(e.List) > MaxErrors {
			e.List = e.List[:MaxErrors]
		}
	}
}

// check reads the file and checks its rows on every core, handing each
// row's record, or its failures, to fn on one goroutine. It returns the
// number of rows.
func (k *kind) check(ctx context.Context, opt Options, fn func(rec any, errs []FieldError) error) (int, error) {
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
	rd := httpapi.NewReader(opt.Store, opt.Now)

	type job struct {
		line int
		row  map[string]string
	}
	type result struct {
		rec  any
		errs []FieldError
	}
	jobs := make(chan job, 256)
	results := make(chan result, 256)
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Go(func() {
			for j := range jobs {
				rec, errs := k.read(ctx, rd, opt.Business, j.row, header)
				for i := range errs {
					errs[i].Line = j.line
				}
				results <- result{rec, errs}
			}
		})
	}
	go func() {
		workers.Wait()
		close(results)
	}()

	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		for rows := 1; ; rows++ {
			line, row, err := t.next()
			if errors.Is(err, io.EOF) {
				readErr <- nil
				return
			}
			if err != nil {
				readErr <- err
				return
			}
			select {
			case jobs <- job{line, row}:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
			if opt.Progress != nil && rows%1000 == 0 {
				opt.Progress("checking", counted.n.Load())
			}
		}
	}()
	rows := 0
	var fnErr error
	for r := range results {
		rows++
		if fnErr == nil {
			fnErr = fn(r.rec, r.errs)
		}
	}
	if err := <-readErr; err != nil {
		return rows, err
	}
	if opt.Progress != nil {
		opt.Progress("checking", counted.n.Load())
	}
	return rows, fnErr
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
