package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestServeRefusesBadMailSettings(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "x.db")
	templates := filepath.Join(dir, "templates")
	os.Mkdir(templates, 0o755)
	os.WriteFile(filepath.Join(templates, "reminder.txt"), []byte("Hi {{.Name}}"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--smtp", "smtp://mail.example.org"}, "serve: --smtp needs --mail-from"},
		{[]string{"--smtp", "http://mail.example.org", "--mail-from", "a@example.org"}, `serve: --smtp "http://mail.example.org": the scheme must be smtp or smtps`},
		{[]string{"--smtp", "smtp://mail.example.org", "--mail-from", "nobody"}, `serve: --mail-from "nobody": `},
		{[]string{"--mail-lease", "0s"}, "serve: --mail-lease 0s: give a positive duration"},
		{[]string{"--mail-templates", templates}, "serve: mail templates in " + templates + ", a reminder message: "},
	} {
		args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, c.args...)
		err := run(t.Context(), args, noEnv, io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
