package testfix

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/practiced/practiced/sqlstore"
)

// PostgresEnv names the variable holding the URL of a PostgreSQL server
// tests may create databases on.
const PostgresEnv = "PRACTICED_TEST_POSTGRES"

// PostgresURL creates a database of its own on the server named by
// PRACTICED_TEST_POSTGRES, drops it when the test ends, and returns its
// URL. Without the variable the test is skipped, saying so.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Skip(PostgresEnv + " is not set: skipping a PostgreSQL test")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "practiced_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close(ctx)
		t.Fatalf("postgres: %v", err)
	}
	t.Cleanup(func() {
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("postgres: dropping %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

// PostgresStore opens a store on a fresh PostgreSQL database.
func PostgresStore(t testing.TB) *sqlstore.Store {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
