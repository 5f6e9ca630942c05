package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"runtime/debug"
	"time"

	"github.com/schollz/progressbar/v3"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/demo"
	"github.com/practiced/practiced/sqlstore"
)

// demoBusiness is the name of the demo clinic's business, the name its
// locations are named after.
const demoBusiness = demo.BusinessName

// runDemo loads the demo clinic and prints an API key for it alone on
// stdout.
func runDemo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(getenv), "database URL")
	seed := fs.Int64("seed", 1, "seed of the generated data; the same seed gives the same clinic")
	clients := fs.Int("clients", 250, "number of clients")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if *clients < 0 {
		return fmt.Errorf("demo: --clients must not be negative")
	}
	// A new SQLite database is made for the load (sqlstore.Options.Load):
	// it is written once rather than twice, and is ready to serve once
	// closed.
	st, err := sqlstore.OpenWith(ctx, *db, sqlstore.Options{Load: true})
	if err != nil {
		return err
	}
	defer func() {
		// What was committed stays: a new database that could not be
		// switched to the write-ahead log here is by the next open.
		if err := st.Close(); err != nil {
			fmt.Fprintf(stderr, "closing the database: %v\n", err)
		}
	}()
	name := demoBusiness
	if _, err := st.BusinessByName(ctx, name); err == nil {
		name = fmt.Sprintf("%s %s", demoBusiness, time.Now().UTC().Format("2006-01-02 15:04:05"))
	}
	biz, err := loadDemoBusiness(ctx, st, name, *seed, *clients, stderr)
	if err != nil {
		return err
	}
	token, _, err := createAPIKey(ctx, st, biz.ID, false)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "loaded the demo clinic as business %q (%s)\n", biz.Name, biz.ID)
	fmt.Fprintln(stdout, token)
	return nil
}

// ensureDemo loads the demo clinic unless the database already has it,
// and returns a new API key for it.
func ensureDemo(ctx context.Context, st demoStore, stderr io.Writer) (string, error) {
	biz, err := st.BusinessByName(ctx, demoBusiness)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		if biz, err = loadDemoBusiness(ctx, st, demoBusiness, 1, 250, stderr); err != nil {
			return "", err
		}
	} else if err != nil {
		return "", err
	}
	token, _, err := createAPIKey(ctx, st, biz.ID, false)
	return token, err
}

// demoStore is a store a failed load can be removed from.
type demoStore interface {
	practiced.Store
	DeleteBusiness(ctx context.Context, id string) error
}

// loadDemoBusiness creates the business name and loads the demo clinic
// into it, all or nothing: when the load fails, or is interrupted, the
// business and everything stored of it are deleted again.
func loadDemoBusiness(ctx context.Context, st demoStore, name string, seed int64, clients int, stderr io.Writer) (practiced.Business, error) {
	biz, err := st.CreateBusiness(ctx, name)
	if err != nil {
		return practiced.Business{}, err
	}
	if err := loadDemo(ctx, st, biz.ID, seed, clients, stderr); err != nil {
		// The clean-up runs even when ctx ended (Ctrl-C): it is what
		// makes an interrupted load leave nothing behind.
		if derr := st.DeleteBusiness(context.WithoutCancel(ctx), biz.ID); derr != nil {
			return practiced.Business{}, fmt.Errorf("%w; removing the half-loaded business %q also failed: %v", err, name, derr)
		}
		return practiced.Business{}, fmt.Errorf("%w (nothing of the demo clinic was kept)", err)
	}
	return biz, nil
}

func loadDemo(ctx context.Context, st practiced.Store, businessID string, seed int64, clients int, stderr io.Writer) error {
	// A load allocates and drops the encoding of every row while little
	// stays live: collecting less often saves a tenth of its CPU time for
	// about 150 MB more memory on a million clients.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	bar := progressbar.NewOptions(clients,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("loading clients"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	sum, err := demo.Load(ctx, st, businessID, demo.Options{
		Seed:    seed,
		Clients: clients,
		Now:     time.Now(),
		Progress: func(done, total int) {
			bar.Set(done)
		},
	})
	bar.Finish()
	if err != nil {
		return err
	}
	if a, ok := st.(interface{ Analyze(context.Context) error }); ok {
		if err := a.Analyze(ctx); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "demo clinic: %d locations, %d practitioners, %d clients, %d contacts, %d appointments, %d forms, %d busy times\n",
		sum.Locations, sum.Practitioners, sum.Clients, sum.Contacts, sum.Appointments, sum.Forms, sum.BusyTimes)
	return nil
}

func parseURL(s string) (*url.URL, error) { return url.Parse(s) }
