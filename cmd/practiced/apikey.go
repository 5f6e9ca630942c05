package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// runAPIKey creates or revokes API keys.
func runAPIKey(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, "usage:\n  practiced apikey create --business NAME [--read-only] [--rate N] [--db URL]\n  practiced apikey list --business NAME [--db URL]\n  practiced apikey revoke ID [--db URL]\n")
		if len(args) == 0 {
			return fmt.Errorf("apikey: say create, list or revoke")
		}
		return flag.ErrHelp
	}
	fs := flag.NewFlagSet("apikey "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(getenv), "database URL")
	switch args[0] {
	case "create":
		business := fs.String("business", "", "name of the business the key acts for (created if new)")
		readOnly := fs.Bool("read-only", false, "the key may only read")
		rate := fs.Int("rate", 0, "the key's rate limit in requests a minute (default: serve's --rate-limit)")
		if err := parseFlags(fs, args[1:], getenv); err != nil {
			return err
		}
		if strings.TrimSpace(*business) == "" {
			return fmt.Errorf("apikey create: --business is required")
		}
		if *rate < 0 || (*rate == 0 && flagSet(fs, "rate")) {
			return fmt.Errorf("apikey create: --rate %d: give a number of requests a minute of at least 1", *rate)
		}
		st, err := sqlstore.Open(ctx, *db)
		if err != nil {
			return err
		}
		defer st.Close()
		biz, err := findOrCreateBusiness(ctx, st, *business)
		if err != nil {
			return err
		}
		token, key, err := newAPIKey(ctx, st, practiced.APIKey{BusinessID: biz.ID, ReadOnly: *readOnly, RatePerMinute: *rate})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "created API key %s for business %s (%s)\n", key.ID, biz.Name, biz.ID)
		fmt.Fprintln(stdout, token)
		return nil
	case "revoke":
		rest := args[1:]
		var id string
		if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			id, rest = rest[0], rest[1:]
		}
		if err := parseFlags(fs, rest, getenv); err != nil {
			return err
		}
		if id == "" && fs.NArg() > 0 {
			id = fs.Arg(0)
		}
		if id == "" {
			return fmt.Errorf("apikey revoke: give the key id")
		}
		st, err := sqlstore.Open(ctx, *db)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := st.RevokeAPIKey(ctx, id); err != nil {
			return fmt.Errorf("apikey revoke: %s", practiced.ErrorMessage(err))
		}
		fmt.Fprintf(stderr, "revoked API key %s\n", id)
		return nil
	case "list":
		business := fs.String("business", "", "name of the business whose keys to list")
		if err := parseFlags(fs, args[1:], getenv); err != nil {
			return err
		}
		if strings.TrimSpace(*business) == "" {
			return fmt.Errorf("apikey list: --business is required")
		}
		st, biz, err := openBusiness(ctx, "apikey list", *db, *business)
		if err != nil {
			return err
		}
		defer st.Close()
		keys, err := st.ListAPIKeys(ctx, biz.ID)
		if err != nil {
			return err
		}
		writeKeys(stdout, keys)
		return nil
	}
	return fmt.Errorf("apikey: unknown action %q; say create, list or revoke", args[0])
}

// writeKeys prints one line per key: its id, what it may do, when it was
// created and, if so, revoked. Tokens are never stored, so never shown.
func writeKeys(w io.Writer, keys []practiced.APIKey) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACCESS\tRATE\tCREATED\tREVOKED")
	for _, k := range keys {
		access, revoked, rate := "read-write", "-", "default"
		if k.RatePerMinute > 0 {
			rate = fmt.Sprintf("%d/min", k.RatePerMinute)
		}
		if k.ReadOnly {
			access = "read-only"
		}
		if k.RevokedAt != nil {
			revoked = k.RevokedAt.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, access, rate, k.CreatedAt, revoked)
	}
	tw.Flush()
}

func findOrCreateBusiness(ctx context.Context, st practiced.Store, name string) (practiced.Business, error) {
	b, err := st.BusinessByName(ctx, name)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		return st.CreateBusiness(ctx, name)
	}
	return b, err
}

// createAPIKey makes a new key with 256 random bits and stores only its
// hash. The token is returned to be shown once.
func createAPIKey(ctx context.Context, st practiced.Store, businessID string, readOnly bool) (string, practiced.APIKey, error) {
	return newAPIKey(ctx, st, practiced.APIKey{BusinessID: businessID, ReadOnly: readOnly})
}

// newAPIKey stores key with a new id, token and creation time.
func newAPIKey(ctx context.Context, st practiced.Store, key practiced.APIKey) (string, practiced.APIKey, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", practiced.APIKey{}, err
	}
	token := "pk_" + base64.RawURLEncoding.EncodeToString(b[:])
	key.ID = tid.New(practiced.PrefixAPIKey)
	key.TokenHash = practiced.HashToken(token)
	key.CreatedAt = practiced.Now()
	return token, key, st.CreateAPIKey(ctx, key)
}

// flagSet reports whether the flag name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
