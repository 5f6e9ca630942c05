// Command practiced is the practice-management server and its tools.
//
//	practiced serve   [--db URL] [--addr 127.0.0.1:8080] [--public-url URL] [--tls-cert F --tls-key F] [--demo] [--db-pool N] [--pprof ADDR] [--metrics ADDR] [--log-format text|json] [--rate-limit N] [--page-rate N] [--redis URL] [--trusted-proxy CIDR,...] [--webhooks-allow-private] [--smtp URL --mail-from ADDR] [--mail-templates DIR] [--mail-lease 2m]
//	practiced migrate [--db URL]
//	practiced apikey create --business NAME [--read-only] [--rate N] [--db URL]
//	practiced apikey list --business NAME [--db URL]
//	practiced apikey revoke ID [--db URL]
//	practiced demo    [--db URL] [--seed N] [--clients N]
//	practiced import  clients|contacts|appointments --business NAME [--dry-run] [--db URL] FILE.csv
//	practiced export  clients|contacts --business NAME [--format csv|ndjson] [--db URL]
//	practiced backup  --to FILE [--db URL]
//	practiced restore --from FILE [--db URL]
//	practiced healthcheck [--addr 127.0.0.1:8080]
//	practiced version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
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
  practiced serve   [--db URL] [--addr 127.0.0.1:8080] [--public-url URL] [--tls-cert FILE --tls-key FILE] [--demo] [--db-pool N] [--pprof ADDR] [--metrics ADDR] [--log-format text|json] [--rate-limit N] [--page-rate N] [--redis URL] [--trusted-proxy CIDR,...] [--webhooks-allow-private] [--smtp URL --mail-from ADDR] [--mail-templates DIR] [--mail-lease 2m]
  practiced migrate [--db URL]
  practiced apikey create --business NAME [--read-only] [--rate N] [--db URL]
  practiced apikey list --business NAME [--db URL]
  practiced apikey revoke ID [--db URL]
  practiced demo    [--db URL] [--seed N] [--clients N]
  practiced import  clients|contacts|appointments --business NAME [--dry-run] [--db URL] FILE.csv
  practiced export  clients|contacts --business NAME [--format csv|ndjson] [--db URL]
  practiced backup  --to FILE [--db URL]
  practiced restore --from FILE [--db URL]
  practiced healthcheck [--addr 127.0.0.1:8080]
  practiced version

--db defaults to $PRACTICED_DB, else sqlite:practiced.db. Every flag can
also be set in the environment: PRACTICED_ADDR for --addr, PRACTICED_PUBLIC_URL
for --public-url, and so on; a flag on the command line wins.`

// run runs one subcommand. It is main without the process: tests call it.
// Asking a subcommand for --help is no error: its flags are printed and
// run returns nil.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, getenv, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
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
	case "import":
		return runImport(ctx, args[1:], getenv, stdout, stderr)
	case "export":
		return runExport(ctx, args[1:], getenv, stdout, stderr)
	case "backup":
		return runBackup(ctx, args[1:], getenv, stdout, stderr)
	case "restore":
		return runRestore(ctx, args[1:], getenv, stdout, stderr)
	case "healthcheck":
		return runHealthcheck(ctx, args[1:], getenv, stdout, stderr)
	case "version", "--version":
		return runVersion(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// parseFlags reads a subcommand's flags from the environment and then
// from args, which win: PRACTICED_ followed by the flag's name in upper
// case with dashes as underscores sets it, so PRACTICED_PUBLIC_URL sets
// --public-url. A value the flag refuses is an error naming the variable.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if v := getenv(name); v != "" && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", name, v, e)
			}
		}
	})
	if err != nil {
		return err
	}
	return fs.Parse(args)
}

// envName is the environment variable of a flag.
func envName(flagName string) string {
	return "PRACTICED_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// defaultDB is the database URL when --db is not given.
func defaultDB(getenv func(string) string) string {
	if v := getenv("PRACTICED_DB"); v != "" {
		return v
	}
	return "sqlite:practiced.db"
}
