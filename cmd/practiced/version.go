package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion prints the module version, the commit the binary was built
// from and when that commit was made, as the Go toolchain recorded them
// in the binary. A binary built outside a version control checkout has
// no commit; one built with `go run` or from a checkout has the version
// "(devel)".
func runVersion(args []string, stdout io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(stdout, "usage: practiced version (prints the version, commit and build date)")
		return nil
	}
	if len(args) > 0 {
		return fmt.Errorf("version takes no arguments")
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("version: the binary carries no build information")
	}
	fmt.Fprintln(stdout, versionLine(info))
	return nil
}

// versionLine is "practiced VERSION (commit COMMIT[-dirty], built DATE,
// GOVERSION)"; what the build did not record reads "unknown".
func versionLine(info *debug.BuildInfo) string {
	commit, date, dirty := "unknown", "unknown", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
			if len(commit) > 12 {
				commit = commit[:12]
			}
		case "vcs.time":
			date = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty {
		commit += "-dirty"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	return fmt.Sprintf("practiced %s (commit %s, built %s, %s)", version, commit, date, info.GoVersion)
}
