package openapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocumentsLintClean runs Redocly's recommended rules and Spectral's
// OpenAPI rules, at the versions package.json pins, on both served
// documents: any error or warning fails. The linters come from npm
// (npm ci at the repository's root); without them the test is skipped,
// except in CI.
func TestDocumentsLintClean(t *testing.T) {
	bin, _ := filepath.Abs("../node_modules/.bin")
	redocly, spectral := filepath.Join(bin, "redocly"), filepath.Join(bin, "spectral")
	for _, tool := range []string{redocly, spectral} {
		if _, err := os.Stat(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing: .ci/run installs it with npm ci", tool)
			}
			t.Skipf("%s is missing: run npm ci at the repository's root to lint the OpenAPI documents", tool)
		}
	}
	// The linters name findings by file, so the documents are written
	// under their served names beside the linters' configuration.
	dir := t.TempDir()
	files := map[string][]byte{"openapi.json": Document, "openapi-3.0.json": Document30}
	for _, name := range []string{"redocly.yaml", ".redocly.lint-ignore.yaml", ".spectral.yaml"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := []string{filepath.Join(dir, "openapi.json"), filepath.Join(dir, "openapi-3.0.json")}

	t.Run("redocly", func(t *testing.T) {
		out, err := exec.Command(redocly, append([]string{"lint", "--config", filepath.Join(dir, "redocly.yaml")}, docs...)...).CombinedOutput()
		// Redocly exits 0 on warnings; it counts them in a last line.
		if err != nil || strings.Contains(string(out), "You have ") {
			t.Errorf("redocly lint: %v\n%s", err, out)
		}
	})
	t.Run("spectral", func(t *testing.T) {
		args := append([]string{"lint", "--quiet", "--fail-severity", "warn", "--ruleset", filepath.Join(dir, ".spectral.yaml")}, docs...)
		if out, err := exec.Command(spectral, args...).CombinedOutput(); err != nil {
			t.Errorf("spectral lint: %v\n%s", err, out)
		}
	})
}
