package sqlstore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// The power-loss test cuts the power under a SQLite store that is busy
// writing, and checks that every write it answered is still there. A
// child process (this test binary again) writes clients from 16
// goroutines on a LazyFS mount and prints each client once its write
// returns; the test kill -9s it, tells LazyFS to drop every byte not
// fsynced, reopens the database and looks every printed client up.
// docs/durability.md explains; run it with
//
//	PRACTICED_LAZYFS=/tmp/lazyfs-build/lazyfs/build/lazyfs go test ./sqlstore/ -run PowerLoss -v
const (
	lazyfsEnv = "PRACTICED_LAZYFS" // the LazyFS binary
	// The child's instructions: database, business and synchronous setting.
	childDBEnv   = "PRACTICED_POWERLOSS_DB"
	childBizEnv  = "PRACTICED_POWERLOSS_BUSINESS"
	childSyncEnv = "PRACTICED_POWERLOSS_SYNC"
)

func TestPowerLoss(t *testing.T) {
	if os.Getenv(childDBEnv) != "" {
		powerLossChild(t)
		return
	}
	fs := mountLazyFS(t)
	t.Run("full", func(t *testing.T) {
		lost, answered := powerCuts(t, fs, "", 3)
		if lost > 0 {
			t.Errorf("synchronous=FULL lost %d of %d answered writes", lost, answered)
		}
	})
	// The same cuts with synchronous=NORMAL lose answered writes: the test
	// can tell.
	t.Run("normal loses writes", func(t *testing.T) {
		lost, answered := powerCuts(t, fs, "NORMAL", 2)
		if lost == 0 {
			t.Errorf("synchronous=NORMAL lost none of %d answered writes; the test cannot tell a lost write", answered)
		}
	})
}

// powerCuts runs rounds of write, power cut, restart on a new database
// of fs with the given synchronous setting, and returns how many answered
// writes were missing after the cuts, of how many.
func powerCuts(t *testing.T, fs *lazyFS, sync string, rounds int) (lost, answered int) {
	ctx := context.Background()
	path := filepath.Join(fs.mnt, "practiced-"+strings.ToLower(sync)+".db")
	opt := Options{sqliteSync: sync}
	st, err := openLazy(ctx, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	biz, err := st.CreateBusiness(ctx, "Power Cut Clinic")
	if err != nil {
		t.Fatal(err)
	}
	// Closing checkpoints the log into the database and fsyncs it,
	// whatever the setting: the rounds measure the clients alone.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	var all []practiced.Client
	for round := range rounds {
		written := writeUntilCut(t, path, biz.ID, sync, 300+200*round)
		fs.clearCache(t)
		all = append(all, written...)

		st, err := openLazy(ctx, path, opt)
		if err != nil {
			t.Fatalf("round %d: reopening after the cut: %v", round, err)
		}
		var check string
		if err := st.r.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Errorf("round %d: integrity_check: %q, %v", round, check, err)
		}
		missing := 0
		for _, want := range all {
			got, err := st.GetClient(ctx, biz.ID, want.ID)
			if err != nil {
				missing++
				continue
			}
			if g, w := mustJSON(t, got), mustJSON(t, want); !bytes.Equal(g, w) {
				t.Errorf("round %d: client %s is\n%s\nnot as answered\n%s", round, want.ID, g, w)
			}
		}
		st.Close()
		t.Logf("round %d: %d answered writes checked, %d missing after the cut", round, len(all), missing)
		if missing > 0 {
			// A lost write is counted once; the next round checks only the rest.
			lost += missing
			all = present(t, path, opt, biz.ID, all)
		}
	}
	return lost, lost + len(all)
}

// present returns the clients of cs that the database at path holds.
func present(t *testing.T, path string, opt Options, businessID string, cs []practiced.Client) []practiced.Client {
	st, err := openLazy(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var kept []practiced.Client
	for _, c := range cs {
		if _, err := st.GetClient(context.Background(), businessID, c.ID); err == nil {
			kept = append(kept, c)
		}
	}
	return kept
}

// writeUntilCut starts the child on path, and kill -9s it once it has
// answered n writes (or after ten seconds). It returns the clients the
// child reported written.
func writeUntilCut(t *testing.T, path, businessID, sync string, n int) []practiced.Client {
	cmd, out := startChild(t, "TestPowerLoss", childDBEnv+"="+path, childBizEnv+"="+businessID, childSyncEnv+"="+sync)
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- bytes.Clone(sc.Bytes())
		}
	}()
	var written []practiced.Client
	deadline := time.After(10 * time.Second)
read:
	for len(written) < n {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the writer ended before the cut: %v", cmd.Wait())
			}
			var c practiced.Client
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatalf("the writer printed %q: %v", line, err)
			}
			written = append(written, c)
		case <-deadline:
			break read
		}
	}
	cmd.Process.Kill()
	// Clients answered between the count and the kill count too; a line
	// cut short by the kill was never whole, so never answered.
	for line := range lines {
		var c practiced.Client
		if json.Unmarshal(line, &c) == nil {
			written = append(written, c)
		}
	}
	cmd.Wait()
	if len(written) == 0 {
		t.Fatal("the writer answered no write before the cut")
	}
	return written
}

// startChild runs the test binary again, for the named test alone, with
// env added to its environment; it returns the process and its standard
// output. Its standard error is the test's.
func startChild(t *testing.T, test string, env ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// powerLossChild writes clients from 16 goroutines until it is killed,
// printing each one as a line of JSON once its write has returned.
func powerLossChild(t *testing.T) {
	ctx := context.Background()
	st, err := openLazy(ctx, os.Getenv(childDBEnv), Options{sqliteSync: os.Getenv(childSyncEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "power-loss writer: opening the database:", err)
		os.Exit(1)
	}
	biz := os.Getenv(childBizEnv)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := 0; ; i++ {
				now := practiced.NewTime(time.Now())
				c := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: fmt.Sprintf("Writer%d", g),
					LastName: fmt.Sprintf("Write%d", i), Email: fmt.Sprintf("w%d.%d@example.com", g, i), CreatedAt: now, UpdatedAt: now}
				if err := st.CreateClient(ctx, biz, &c); err != nil {
					fmt.Fprintln(os.Stderr, "power-loss writer:", err)
					os.Exit(1)
				}
				line := append(mustJSON(t, c), '\n')
				mu.Lock()
				os.Stdout.Write(line)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// openLazy opens the SQLite database at path on a LazyFS mount. Now and
// then, just after a process using the database ended, LazyFS fails to
// open the write-ahead log's shared-memory file (SQLITE_IOERR_SHMOPEN,
// 4618), where a disk would not; openLazy tries again for up to five
// seconds before giving up.
func openLazy(ctx context.Context, path string, opt Options) (*Store, error) {
	var err error
	for range 50 {
		var st *Store
		if st, err = OpenWith(ctx, "sqlite:"+path, opt); err == nil {
			return st, nil
		}
		if !strings.Contains(err.Error(), "(4618)") {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lazyFS is a LazyFS mount: a directory whose writes stay in LazyFS's
// memory until fsynced, and are dropped on command.
type lazyFS struct {
	mnt    string
	faults *os.File // commands
	done   *bufio.Reader
}

// mountLazyFS mounts a LazyFS directory for the test, or skips the test
// when there is no LazyFS binary or no FUSE.
func mountLazyFS(t *testing.T) *lazyFS {
	bin := os.Getenv(lazyfsEnv)
	if bin == "" {
		t.Skipf("%s is not set: no LazyFS to cut the power with (docs/durability.md)", lazyfsEnv)
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skipf("no FUSE here: %v", err)
	}
	if _, err := exec.LookPath("fusermount3"); err != nil {
		t.Skipf("no fusermount3 here: %v", err)
	}
	dir := t.TempDir()
	mnt, root := filepath.Join(dir, "mnt"), filepath.Join(dir, "root")
	for _, d := range []string{mnt, root} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	faults, done := filepath.Join(dir, "faults.fifo"), filepath.Join(dir, "done.fifo")
	config := fmt.Sprintf(`[faults]
fifo_path=%q
fifo_path_completed=%q
[cache]
apply_eviction=false
[cache.simple]
custom_size="128mb"
blocks_per_page=1
[filesystem]
log_all_operations=false
logfile=%q
`, faults, done, filepath.Join(dir, "lazyfs.log"))
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, mnt, "--config-path", filepath.Join(dir, "config.toml"),
		"-o", "allow_other", "-o", "modules=subdir", "-o", "subdir="+root, "-f")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		exec.Command("fusermount3", "-u", mnt).Run()
		cmd.Process.Kill()
		<-exited
	})
	for start := time.Now(); !mounted(mnt); time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			t.Skipf("LazyFS did not mount (no FUSE?): %s", logs.String())
		default:
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("LazyFS did not mount in 30s: %s", logs.String())
		}
	}
	fs := &lazyFS{mnt: mnt}
	// LazyFS opens the answer fifo for writing and waits for a reader;
	// reading and writing it here never blocks.
	d, err := os.OpenFile(done, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	fs.done = bufio.NewReader(d)
	if fs.faults, err = os.OpenFile(faults, os.O_WRONLY, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.faults.Close() })
	return fs
}

func mounted(dir string) bool {
	b, err := os.ReadFile("/proc/mounts")
	return err == nil && bytes.Contains(b, []byte(" "+dir+" "))
}

// clearCache drops every write not fsynced: the power cut.
func (fs *lazyFS) clearCache(t *testing.T) {
	fs.command(t, "lazyfs::clear-cache", "finished::clear-cache")
}

func (fs *lazyFS) command(t *testing.T, cmd, answer string) {
	t.Helper()
	if _, err := io.WriteString(fs.faults, cmd+"\n"); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		line, _ := fs.done.ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case line := <-got:
		if line != answer {
			t.Fatalf("LazyFS answered %q to %s", line, cmd)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("LazyFS did not answer %s in 30s", cmd)
	}
}
