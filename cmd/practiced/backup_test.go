package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupAndRestoreCommands backs a database up, adds a key to it,
// restores the backup and finds the key gone; a restore while the
// database is open is refused.
func TestBackupAndRestoreCommands(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "clinic.db")
	ctx := t.Context()
	var out syncBuffer
	if err := run(ctx, []string{"apikey", "create", "--business", "Backed Up Clinic", "--db", db}, noEnv, &out, &out); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "clinic-backup.db")
	out = syncBuffer{}
	if err := run(ctx, []string{"backup", "--db", db, "--to", backup}, noEnv, &out, &out); err != nil {
		t.Fatal(err)
	}
	if want := "backed up " + filepath.Join(dir, "clinic.db") + " to " + backup + "\n"; out.String() != want {
		t.Errorf("backup printed %q, want %q", out.String(), want)
	}
	if err := run(ctx, []string{"apikey", "create", "--business", "Later Clinic", "--db", db}, noEnv, &out, &out); err != nil {
		t.Fatal(err)
	}

	st, err := openStore(db)
	if err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"restore", "--db", db, "--from", backup}, noEnv, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("restore over an open database: %v", err)
	}
	st.Close()
	if err := run(ctx, []string{"restore", "--db", db, "--from", backup}, noEnv, &out, &out); err != nil {
		t.Fatal(err)
	}
	st, err = openStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.BusinessByName(ctx, "Backed Up Clinic"); err != nil {
		t.Errorf("the business in the backup: %v", err)
	}
	if _, err := st.BusinessByName(ctx, "Later Clinic"); err == nil {
		t.Error("the business made after the backup survived the restore")
	}
}

func TestBackupCommandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backup", "--db", "postgres://x@127.0.0.1/db", "--to", "b.db"}, "backup: the database is PostgreSQL: use pg_dump and pg_restore"},
		{[]string{"restore", "--db", "postgresql://x@127.0.0.1/db", "--from", "b.db"}, "restore: the database is PostgreSQL: use pg_dump and pg_restore"},
		{[]string{"backup", "--db", "mysql://x/db", "--to", "b.db"}, `backup: unknown database URL scheme "mysql"`},
		{[]string{"backup", "--db", filepath.Join(dir, "a.db")}, "backup: --to FILE is required"},
		{[]string{"restore", "--db", filepath.Join(dir, "a.db")}, "restore: --from FILE is required"},
	} {
		err := run(t.Context(), c.args, noEnv, &syncBuffer{}, &syncBuffer{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.db")); !os.IsNotExist(err) {
		t.Errorf("a failed command created the database: %v", err)
	}
}

func TestHealthcheckCommand(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	var out syncBuffer
	if err := run(t.Context(), []string{"healthcheck", "--addr", addr}, noEnv, &out, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "ok\n" {
		t.Errorf("printed %q", out.String())
	}
	status = http.StatusServiceUnavailable
	err := run(t.Context(), []string{"healthcheck", "--addr", addr}, noEnv, &out, &out)
	if err == nil || !strings.HasSuffix(err.Error(), "answered 503 Service Unavailable") {
		t.Errorf("a 503: %v", err)
	}
	// The container sets PRACTICED_ADDR to listen on every interface;
	// the check then asks the loopback address.
	_, port, _ := strings.Cut(addr, ":")
	env := func(k string) string {
		if k == "PRACTICED_ADDR" {
			return "0.0.0.0:" + port
		}
		return ""
	}
	status = http.StatusOK
	if err := run(t.Context(), []string{"healthcheck"}, env, &out, &out); err != nil {
		t.Errorf("healthcheck with PRACTICED_ADDR=0.0.0.0:%s: %v", port, err)
	}
}
