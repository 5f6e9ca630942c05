package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportAndExportCommands(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "clinic.db")
	ctx := t.Context()
	if err := run(ctx, []string{"apikey", "create", "--business", "Harbour Physio", "--db", db}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "patients.csv")
	csv := "First name,Last name,Email,Mobile,Country\nAda,Lovelace,ada@example.com,0491 570 156,Australia\nBo,Chen,bo@example.com,,NZ\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	if err := run(ctx, []string{"import", "clients", "--business", "Harbour Physio", "--db", db, "--dry-run", file}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if out.String() != "2 clients checked, all valid; nothing stored (--dry-run)\n" {
		t.Errorf("dry run printed %q", out.String())
	}
	out = syncBuffer{}
	if err := run(ctx, []string{"import", "clients", "--business", "Harbour Physio", "--db", db, file}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), `imported 2 clients into "Harbour Physio" in `) {
		t.Errorf("import printed %q", out.String())
	}

	out = syncBuffer{}
	var logs syncBuffer
	if err := run(ctx, []string{"export", "clients", "--business", "Harbour Physio", "--db", db}, noEnv, &out, &logs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "title,first_name,last_name,") || !strings.Contains(out.String(), ",Ada,Lovelace,") ||
		!strings.Contains(out.String(), "+61491570156") {
		t.Errorf("export wrote:\n%s", out.String())
	}
	if logs.String() != "exported 2 clients\n" {
		t.Errorf("export said %q", logs.String())
	}

	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("first_name,last_name\nCy,\n"), 0o600)
	err := run(ctx, []string{"import", "clients", "--business", "Harbour Physio", "--db", db, bad}, noEnv, io.Discard, io.Discard)
	if err == nil || err.Error() != "import "+bad+": 1 of the file's rows fail (1 errors); nothing was imported\n  line 2: last_name: is required" {
		t.Errorf("a bad file: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "import: name what to import: clients, contacts, appointments"},
		{[]string{"import", "clients", "--db", db, file}, "import: --business NAME is required"},
		{[]string{"import", "clients", "--business", "Nobody", "--db", db, file}, `import: business "Nobody": `},
		{[]string{"import", "clients", "--business", "Harbour Physio", "--db", db}, "import: name one CSV file"},
		{[]string{"import", "clients", "--business", "Harbour Physio", "--db", db, filepath.Join(dir, "absent.csv")}, "import: stat "},
		{[]string{"export", "clients", "--db", db}, "export: --business NAME is required"},
		{[]string{"export", "clients", "--business", "Harbour Physio", "--format", "xml", "--db", db}, `export: unknown format "xml"`},
	} {
		err := run(ctx, c.args, noEnv, io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	for _, args := range [][]string{{"import", "--help"}, {"export", "-h"}, {"import", "clients", "--help"}} {
		if err := run(ctx, args, noEnv, io.Discard, io.Discard); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}
