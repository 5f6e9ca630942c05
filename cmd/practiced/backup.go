package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/practiced/practiced/sqlstore"
)

// runBackup copies a live SQLite database to a new file.
func runBackup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(getenv), "database URL (SQLite)")
	to := fs.String("to", "", "the new file to write the backup to")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	path, err := sqlitePath("backup", *db)
	if err != nil {
		return err
	}
	if *to == "" {
		return fmt.Errorf("backup: --to FILE is required")
	}
	if err := sqlstore.BackupSQLite(ctx, path, *to); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", path, *to)
	return nil
}

// runRestore replaces a SQLite database that no process has open with a
// backup.
func runRestore(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(getenv), "database URL (SQLite) to replace")
	from := fs.String("from", "", "the backup file to restore")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	path, err := sqlitePath("restore", *db)
	if err != nil {
		return err
	}
	if *from == "" {
		return fmt.Errorf("restore: --from FILE is required")
	}
	if err := sqlstore.RestoreSQLite(ctx, path, *from); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s from %s (the replaced database is %s.before-restore)\n", path, *from, path)
	return nil
}

// sqlitePath is the file of a SQLite database URL; a PostgreSQL URL is
// an error pointing to PostgreSQL's own tools.
func sqlitePath(cmd, db string) (string, error) {
	if sqlstore.IsPostgres(db) {
		return "", fmt.Errorf("%s: the database is PostgreSQL: use pg_dump and pg_restore (docs/deploy.md)", cmd)
	}
	if scheme, _, ok := strings.Cut(db, "://"); ok {
		return "", fmt.Errorf("%s: unknown database URL scheme %q: use sqlite:PATH or a file path", cmd, scheme)
	}
	return strings.TrimPrefix(db, "sqlite:"), nil
}

// runHealthcheck asks a server on this machine for /healthz and fails
// unless it answers 200. A container's health check runs it: the image
// holds no shell and no HTTP client besides this program.
func runHealthcheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "the address the server listens on")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("healthcheck: --addr %q: %w", *addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	url := "http://" + net.JoinHostPort(host, port) + "/healthz"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s", url, res.Status)
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
