package main

import (
	"flag"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLineNamesVersionCommitAndDate(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Path: "github.com/practiced/practiced", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-23T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	want := "practiced v1.2.3 (commit 0123456789ab-dirty, built 2026-11-23T10:00:00Z, go1.26.0)"
	if got := versionLine(info); got != want {
		t.Errorf("versionLine = %q, want %q", got, want)
	}
}

func TestVersionLineSaysWhatTheBuildDidNotRecord(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/practiced/practiced"}}
	want := "practiced (devel) (commit unknown, built unknown, go1.26.0)"
	if got := versionLine(info); got != want {
		t.Errorf("versionLine = %q, want %q", got, want)
	}
}

func TestVersionCommandPrintsOneLine(t *testing.T) {
	var stdout, stderr syncBuffer
	if err := run(t.Context(), []string{"version"}, noEnv, &stdout, &stderr); err != nil {
		t.Fatalf("version: %v", err)
	}
	out := stdout.String()
	if !strings.HasPrefix(out, "practiced ") || strings.Count(out, "\n") != 1 {
		t.Errorf("version printed %q, want one line starting with \"practiced \"", out)
	}
	if err := run(t.Context(), []string{"version", "extra"}, noEnv, &stdout, &stderr); err == nil || err.Error() != "version takes no arguments" {
		t.Errorf("version extra: err = %v, want \"version takes no arguments\"", err)
	}
}

func TestEveryFlagReadsItsEnvironmentVariable(t *testing.T) {
	env := map[string]string{"PRACTICED_ADDR": "127.0.0.1:9999", "PRACTICED_PUBLIC_URL": "https://clinic.example", "PRACTICED_DEMO": "true"}
	getenv := func(k string) string { return env[k] }
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "")
	public := fs.String("public-url", "", "")
	demo := fs.Bool("demo", false, "")
	pool := fs.Int("db-pool", 16, "")
	if err := parseFlags(fs, []string{"--addr", "127.0.0.1:7000"}, getenv); err != nil {
		t.Fatal(err)
	}
	if *addr != "127.0.0.1:7000" || *public != "https://clinic.example" || !*demo || *pool != 16 {
		t.Errorf("addr %q public-url %q demo %v db-pool %d; want the command line's addr, the environment's public-url and demo, the default pool",
			*addr, *public, *demo, *pool)
	}

	env = map[string]string{"PRACTICED_DB_POOL": "many"}
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Int("db-pool", 16, "")
	err := parseFlags(fs, nil, getenv)
	if err == nil || !strings.HasPrefix(err.Error(), `PRACTICED_DB_POOL="many": `) {
		t.Errorf("err = %v, want one naming PRACTICED_DB_POOL", err)
	}
}
