package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/practiced/practiced/sqlstore"
)

// runMigrate brings the database schema up to date.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(getenv), "database URL")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	st, err := sqlstore.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintln(stderr, "database is up to date")
	return nil
}
