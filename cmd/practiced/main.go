// Command practiced is the practice-management server and its tools.
//
//	practiced serve   [--db URL] [--addr 127.0.0.1:8080] [--public-url URL] [--tls-cert F --tls-key F] [--demo] [--db-pool N]
//	practiced migrate [--db URL]
//	practiced apikey create --business NAME [--read-only] [--db URL]
//	practiced apikey revoke ID [--db URL]
//	practiced demo    [--db URL] [--seed N] [--clients N]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "practiced:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  practiced serve   [--db URL] [--addr 127.0.0.1:8080] [--public-url URL] [--tls-cert FILE --tls-key FILE] [--demo] [--db-pool N]
  practiced migrate [--db URL]
  practiced apikey create --business NAME [--read-only] [--db URL]
  practiced apikey revoke ID [--db URL]
  practiced demo    [--db URL] [--seed N] [--clients N]

--db defaults to $PRACTICED_DB, else sqlite:practiced.db.`

// run runs one subcommand. It is main without the process: tests call it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("no command given")
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], getenv, stdout, stderr)
	case "migrate":
		return runMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "apikey":
		return runAPIKey(ctx, args[1:], getenv, stdout, stderr)
	case "demo":
		return runDemo(ctx, args[1:], getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// defaultDB is the database URL when --db is not given.
func defaultDB(getenv func(string) string) string {
	if v := getenv("PRACTICED_DB"); v != "" {
		return v
	}
	return "sqlite:practiced.db"
}
