package openapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedClientsCompile runs the two common Go code generators,
// at the versions go.mod keeps as tools, on the 3.0.3 rendering and
// builds what they produce in a module of its own.
func TestGeneratedClientsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the code generators and builds their output: a minute or so")
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "openapi-3.0.json")
	if err := os.WriteFile(doc, Document30, 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "client", "go.mod"), "module example.com/client\n\ngo 1.26\n")
	config, _ := filepath.Abs("testdata/oapi-codegen.yaml")
	ogenConfig, _ := filepath.Abs("testdata/ogen.yaml")

	run(t, ".", "go", "tool", "oapi-codegen", "-config", config,
		"-o", filepath.Join(dir, "client", "oapicodegen", "client.gen.go"), doc)
	run(t, ".", "go", "tool", "ogen", "-config", ogenConfig, "-package", "ogen",
		"-target", filepath.Join(dir, "client", "ogen"), "-clean", doc)

	// The generated code needs its generators' runtime libraries: the
	// module resolves them like any user of the document would.
	run(t, filepath.Join(dir, "client"), "go", "mod", "tidy")
	run(t, filepath.Join(dir, "client"), "go", "build", "./...")
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs a command in dir and fails the test with its output if it
// fails.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
