// Package crashtest kills the real server with SIGKILL while it writes,
// over and over, and checks that every write it answered survived.
//
// Each round starts `practiced serve` (built once from cmd/practiced) on
// the same database, first checks that everything answered in the round
// before is stored exactly as answered (and after the last round,
// everything answered in any round), then writes from twelve
// connections at once (busy times, client updates, appointments) and
// kills the process at a random moment. After the last round the database
// must pass its integrity checks. docs/durability.md describes it.
package crashtest

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// rounds is how many times each store is killed.
const rounds = 20

var binary string // the practiced binary, built by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crashtest")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "practiced")
	build := exec.Command("go", "build", "-o", binary, "github.com/practiced/practiced/cmd/practiced")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building practiced: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestKillNineSQLite(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "crash.db")
	killRounds(t, db)

	// SQLite's own checks of the file the killed processes left.
	path := db[len("sqlite:"):]
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var result string
	if err := raw.QueryRow(`PRAGMA integrity_check`).Scan(&result); err != nil || result != "ok" {
		t.Errorf("integrity_check: %q, %v", result, err)
	}
	rows, err := raw.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, parent string
		var rowid, fk sql.NullInt64
		rows.Scan(&table, &rowid, &parent, &fk)
		t.Errorf("foreign_key_check: a row of %s (rowid %d) names a missing %s", table, rowid.Int64, parent)
	}
}

func TestKillNinePostgres(t *testing.T) {
	db := testfix.PostgresURL(t)
	killRounds(t, db)

	// PostgreSQL's amcheck verifies every B-tree index of the schema
	// against its table: an index entry without its row, or a row its
	// index lost, fails here.
	raw, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE EXTENSION IF NOT EXISTS amcheck`); err != nil {
		t.Skipf("amcheck is not available (%v): skipping the index check", err)
	}
	var checked int
	err = raw.QueryRow(`SELECT COUNT(bt_index_check(c.oid, true))
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam
		WHERE n.nspname = 'public' AND a.amname = 'btree'`).Scan(&checked)
	if err != nil {
		t.Errorf("amcheck: %v", err)
	}
	if checked < 10 {
		t.Errorf("amcheck checked %d indexes", checked)
	}
}

// killRounds sets up a clinic in the database at url and runs the rounds.
func killRounds(t *testing.T, url string) {
	st, err := sqlstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	clinic := testfix.NewClinic(t, st, "Crash Clinic")
	st.Close()

	w := &writes{
		token:   clinic.Token,
		sydney:  clinic.Sydney.ID,
		alice:   clinic.Alice.ID,
		bob:     clinic.Bob.ID,
		consult: clinic.Consult.ID,
		created: map[string]answer{},
	}
	for _, c := range clinic.Clients {
		w.clients = append(w.clients, &clientState{id: c.ID})
	}
	start := time.Now()
	for round := range rounds {
		srv := startServer(t, url)
		w.base = srv.base
		if round == 0 {
			w.addClients(t, 3) // one client for each updating connection
		}
		w.verify(t, round, false)
		if t.Failed() {
			srv.kill(t)
			t.FailNow()
		}
		w.load(t, round, time.Duration(50+rand.IntN(450))*time.Millisecond, srv)
	}
	srv := startServer(t, url)
	w.base = srv.base
	w.verify(t, rounds, true)
	srv.kill(t)
	t.Logf("%d rounds in %v: %d records created and %d client updates answered, every one found as answered; %d updates in flight at a kill found applied",
		rounds, time.Since(start).Round(time.Millisecond), len(w.created), w.updates, w.inFlightApplied)
	if len(w.created) < rounds || w.updates < rounds {
		t.Errorf("the load wrote too little to prove anything: %d records, %d updates", len(w.created), w.updates)
	}
}

// sessionsEnded waits, when url is a PostgreSQL database, until no
// session of a client is left on it but its own, and returns how long
// that took. A killed server's sessions outlive it for a while: one whose
// COMMIT had been sent finishes that commit, however long its locks or
// the disk keep it waiting, and its write then becomes visible, answered
// or not. A check made before they end could read a client as last
// answered and see the unanswered update appear only later.
func sessionsEnded(t *testing.T, url string) time.Duration {
	t.Helper()
	if !sqlstore.IsPostgres(url) {
		return 0 // a killed process leaves nothing running on SQLite
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	for {
		var others int
		err := db.QueryRow(`SELECT COUNT(*) FROM pg_stat_activity
			WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`).Scan(&others)
		if err != nil {
			t.Fatal(err)
		}
		if others == 0 {
			return time.Since(start)
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("%d sessions of a killed server are still open after a minute", others)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// server is one running practiced process.
type server struct {
	cmd  *exec.Cmd
	base string
	// stderr is what the process logged; read it once the process has
	// ended.
	stderr *bytes.Buffer
}

// startServer starts `practiced serve` on db, once the sessions of the
// server killed before it have ended (sessionsEnded).
func startServer(t *testing.T, db string, extra ...string) *server {
	t.Helper()
	if waited := sessionsEnded(t, db); waited > 100*time.Millisecond {
		t.Logf("the sessions of the server killed last outlived it by %v", waited.Round(time.Millisecond))
	}
	// The load is far over the default rate limit of a key; the limit is
	// not what this test is about.
	args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--db-pool", "8", "--rate-limit", "100000000"}, extra...)
	cmd := exec.Command(binary, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	serving := regexp.MustCompile(`practiced is serving (http://\S+)/v1`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case base, ok := <-found:
		if !ok {
			cmd.Wait()
			t.Fatalf("the server stopped before serving: %s", stderr.String())
		}
		return &server{cmd: cmd, base: base, stderr: &stderr}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the server did not start in 60 s: %s", stderr.String())
	}
	return nil
}

// kill sends SIGKILL and waits for the process to end.
func (s *server) kill(t *testing.T) {
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
}

// answer is a record as the server answered its write.
type answer struct {
	path string // where to read it back
	body map[string]any
}

// clientState is what one updating connection knows of its client.
type clientState struct {
	id       string
	answered map[string]any // the last update answered, or nil
	inFlight string         // the notes of an update sent but not answered
}

// writes is the load and everything it was answered.
type writes struct {
	base                                string
	token                               string
	sydney, alice, bob, consult         string
	mu                                  sync.Mutex
	created                             map[string]answer // by id
	unchecked                           []answer          // created since the last check
	clients                             []*clientState
	updates, inFlightApplied, bookingNo int
}

func (w *writes) do(client *http.Client, method, path string, body any) (int, map[string]any, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, w.base+path, bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+w.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return res.StatusCode, nil, fmt.Errorf("%s %s answered %d with %q", method, path, res.StatusCode, raw)
	}
	return res.StatusCode, v, nil
}

func (w *writes) addClients(t *testing.T, n int) {
	client := &http.Client{Timeout: 30 * time.Second}
	for i := range n {
		status, body, err := w.do(client, "POST", "/v1/clients", map[string]any{"first_name": "Crash", "last_name": fmt.Sprint("Client", i)})
		if err != nil || status != http.StatusCreated {
			t.Fatalf("creating a client: %d %v %v", status, body, err)
		}
		id := body["id"].(string)
		w.clients = append(w.clients, &clientState{id: id, answered: body})
	}
}

// load writes from twelve connections until the server is killed after d.
func (w *writes) load(t *testing.T, round int, d time.Duration, srv *server) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	for g := range 4 {
		// Busy times of Alice: each connection its own hours.
		wg.Go(func() {
			for i := 0; ; i++ {
				starts := time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC).Add(time.Duration((round*4+g)*1000+i) * time.Hour)
				body := map[string]any{"location_id": w.sydney, "practitioner_id": w.alice,
					"starts_at": starts.Format(time.RFC3339), "ends_at": starts.Add(30 * time.Minute).Format(time.RFC3339),
					"name": fmt.Sprintf("Round %d writer %d", round, g)}
				if !w.create(t, client, "/v1/busy_times", body) {
					return
				}
			}
		})
		// Appointments of Bob.
		wg.Go(func() {
			for i := 0; ; i++ {
				starts := time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC).Add(time.Duration((round*4+g)*1000+i) * time.Hour)
				body := map[string]any{"location_id": w.sydney, "practitioner_id": w.bob, "service_id": w.consult,
					"starts_at": starts.Format(time.RFC3339), "clients": []any{map[string]any{"client_id": w.clients[g%len(w.clients)].id}}}
				if !w.create(t, client, "/v1/appointments", body) {
					return
				}
			}
		})
	}
	for g := range 3 {
		// Updates of one client each; 3 + g skips the clients the
		// appointments use.
		c := w.clients[3+g]
		wg.Go(func() {
			for i := 0; ; i++ {
				notes := fmt.Sprintf("round %d update %d", round, i)
				c.inFlight = notes
				status, body, err := w.do(client, "POST", "/v1/clients/"+c.id, map[string]any{"notes": notes})
				if err != nil {
					return // the server is gone; the update may or may not be stored
				}
				if status != http.StatusOK {
					t.Errorf("updating a client: %d %v", status, body)
					return
				}
				c.answered, c.inFlight = body, ""
				w.mu.Lock()
				w.updates++
				w.mu.Unlock()
			}
		})
	}
	time.Sleep(d)
	srv.cmd.Process.Kill()
	srv.cmd.Wait()
	wg.Wait()
}

// create posts body to path and keeps a 201's answer; it reports whether
// the server is still there.
func (w *writes) create(t *testing.T, client *http.Client, path string, body any) bool {
	status, answered, err := w.do(client, "POST", path, body)
	if err != nil {
		return false
	}
	if status != http.StatusCreated {
		t.Errorf("POST %s: %d %v", path, status, answered)
		return false
	}
	id := answered["id"].(string)
	w.mu.Lock()
	w.created[id] = answer{path: path + "/" + id, body: answered}
	w.unchecked = append(w.unchecked, w.created[id])
	w.mu.Unlock()
	return true
}

// verify reads back the records created since the last check (all of
// them when all is set) and the last answered state of every updated
// client.
func (w *writes) verify(t *testing.T, round int, all bool) {
	client := &http.Client{Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	check := w.unchecked
	if all {
		check = check[:0:0]
		for _, a := range w.created {
			check = append(check, a)
		}
	}
	w.unchecked = nil
	for _, a := range check {
		status, got, err := w.do(client, "GET", a.path, nil)
		if err != nil || status != http.StatusOK {
			t.Errorf("before round %d: %s, answered 201, now %d %v %v", round, a.path, status, got, err)
			continue
		}
		if !reflect.DeepEqual(got, a.body) {
			t.Errorf("before round %d: %s was answered\n%v\nand is stored as\n%v", round, a.path, a.body, got)
		}
	}
	for _, c := range w.clients {
		if c.answered == nil {
			continue // a client of the clinic's set-up, not updated
		}
		status, got, err := w.do(client, "GET", "/v1/clients/"+c.id, nil)
		if err != nil || status != http.StatusOK {
			t.Errorf("before round %d: client %s: %d %v", round, c.id, status, err)
			continue
		}
		switch {
		case c.inFlight != "" && got["notes"] == c.inFlight:
			// The update in flight when the server died was committed
			// before the kill; it is now the client's last state.
			c.answered = got
			w.inFlightApplied++
		case !reflect.DeepEqual(got, c.answered):
			t.Errorf("before round %d: client %s was last answered\n%v\nand is stored as\n%v", round, c.id, c.answered, got)
		}
		c.inFlight = ""
	}
}

// loadAndKill runs rounds of load against a server: each round starts a
// server (the first round uses srv), has two connections call step
// with their number and a growing count until step says to stop (an
// error: the server is gone), and kills the server with SIGKILL after
// between least and least+spread.
func loadAndKill(rounds int, srv *server, serve func() *server, least, spread time.Duration, step func(round, g, i int) bool) {
	for round := range rounds {
		if round > 0 {
			srv = serve()
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if !step(round, g, i) {
						return
					}
				}
			})
		}
		time.Sleep(least + time.Duration(rand.Int64N(int64(spread))))
		srv.cmd.Process.Kill()
		srv.cmd.Wait()
		close(stop)
		wg.Wait()
	}
}
