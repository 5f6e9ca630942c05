package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"

	practiced "github.com/practiced/practiced"
)

// Seed inserts a batch of records in one transaction, without events.
// Rows go in multi-row INSERTs, table by table in dependency order; on
// PostgreSQL the records' tables are filled with COPY.
func (s *Store) Seed(ctx context.Context, businessID string, d practiced.SeedData) error {
	done := false
	return s.SeedAll(ctx, businessID, func() (practiced.SeedData, bool, error) {
		if done {
			return practiced.SeedData{}, false, nil
		}
		done = true
		return d, true, nil
	})
}

// SeedAll inserts the batches next returns, until it reports no more, in
// one transaction, without events: all of them or, when next or a write
// fails, none. Each batch may refer to records of the batches before it.
// It streams: a batch is written before the next is asked for.
func (s *Store) SeedAll(ctx context.Context, businessID string, next func() (d practiced.SeedData, ok bool, err error)) error {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	ins := inserter{ctx: ctx, biz: businessID, positional: s.dialect.name == "sqlite", params: maxParams}
	if s.dialect.name == "postgres" {
		ins.copy = copyFrom(ctx, conn)
	} else {
		// Restored however loadSettings ends: a cancelled context can
		// report an error for a pragma the connection has taken.
		defer restoreSettings(conn)
		if err := loadSettings(ctx, conn); err != nil {
			return err
		}
		ins.params = sqliteLoadParams
		ins.laterIndexes = true
	}
	if ins.tx, err = conn.BeginTx(ctx, nil); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if s.loadBegun != nil {
		s.loadBegun(ins.tx)
	}
	for {
		d, ok, err := next()
		if err == nil && ok {
			err = s.seed(ctx, &ins, d)
		}
		if err != nil {
			ins.tx.Rollback()
			return err
		}
		if !ok {
			break
		}
	}
	if err := ins.buildIndexes(); err != nil {
		ins.tx.Rollback()
		return err
	}
	if err := ins.tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// OneWriter reports whether the store writes one transaction at a time,
// as SQLite does: a load gains nothing from transactions side by side.
func (s *Store) OneWriter() bool { return s.dialect.name == "sqlite" }

// copyFrom returns a function that writes rows to a table of the
// PostgreSQL connection conn with COPY, inside the transaction open on it.
// The rows travel in COPY's text format, so each value is parsed by its
// column's type exactly as the text parameter of an INSERT is.
func copyFrom(ctx context.Context, conn *sql.Conn) func(table string, cols []string, rows [][]any) error {
	var buf []byte
	return func(table string, cols []string, rows [][]any) error {
		buf = buf[:0]
		for _, row := range rows {
			for c, v := range row {
				if c > 0 {
					buf = append(buf, '\t')
				}
				var err error
				if buf, err = appendCopyText(buf, v); err != nil {
					return err
				}
			}
			buf = append(buf, '\n')
		}
		query := "COPY " + table + " (" + strings.Join(cols, ", ") + ") FROM STDIN"
		return conn.Raw(func(dc any) error {
			_, err := dc.(*stdlib.Conn).Conn().PgConn().CopyFrom(ctx, bytes.NewReader(buf), query)
			return err
		})
	}
}

// copyEscaper escapes the characters COPY's text format escapes. For
// single bytes a Replacer counts each with a vectorised search and
// returns a value that has none, as most have, unchanged.
var copyEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

// appendCopyText appends v as a value of COPY's text format.
func appendCopyText(buf []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(buf, `\N`...), nil
	case string:
		return append(buf, copyEscaper.Replace(v)...), nil
	case int:
		return strconv.AppendInt(buf, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(buf, v, 10), nil
	case bool:
		return strconv.AppendBool(buf, v), nil
	}
	return buf, fmt.Errorf("copy a value of type %T", v)
}

// seed writes d through ins.
func (s *Store) seed(ctx context.Context, ins *inserter, d practiced.SeedData) error {
	seedRows(ins, locations, d.Locations)
	seedRows(ins, services, d.Services)
	for _, v := range d.Services {
		for _, l := range v.LocationIDs {
			ins.row("service_locations", "service_id, location_id", nil, []any{v.ID, l})
		}
	}
	seedRows(ins, practitioners, d.Practitioners)
	for _, p := range d.Practitioners {
		for _, l := range p.LocationIDs {
			ins.row("practitioner_locations", "practitioner_id, location_id", nil, []any{p.ID, l})
		}
	}
	for _, p := range d.Practitioners {
		for _, sv := range p.ServiceIDs {
			ins.row("practitioner_services", "practitioner_id, service_id", nil, []any{p.ID, sv})
		}
	}
	for _, t := range []struct {
		kind practiced.Kind
		rows []practiced.Named
	}{
		{practiced.KindTag, d.Tags}, {practiced.KindReferralType, d.ReferralTypes},
		{practiced.KindCancellationReason, d.CancellationReasons}, {practiced.KindBusyTimeType, d.BusyTimeTypes},
	} {
		seedRows(ins, namedTables[t.kind.Prefix], t.rows)
	}
	seedRows(ins, contacts, d.Contacts)
	seedRows(ins, clients, d.Clients)
	seedRows(ins, cases, d.Cases)
	seedRows(ins, clientPackages, d.ClientPackages)
	for _, a := range settleSeeded(d.Appointments, d.AppointmentClients) {
		ins.row("appointments", appointmentCols, nil, appointmentValues(&a))
	}
	for i := range d.AppointmentClients {
		ins.row("appointment_clients", appointmentClientCols, nil, appointmentClientValues(&d.AppointmentClients[i]))
	}
	seedRows(ins, formTemplates, d.FormTemplates)
	for i := range d.Forms {
		ins.row("forms", formCols, nil, formValues(&d.Forms[i]))
	}
	seedRows(ins, busyTimes, d.BusyTimes)
	for i := range d.Messages {
		ins.row("messages", messageRowCols, nil, messageRowValues(&d.Messages[i]))
	}
	if err := ins.flush(); err != nil {
		return err
	}
	if err := locations.rewriteDocs(ctx, ins.tx, ins.biz, joinedLocations(d)); err != nil {
		return err
	}
	return s.settleStored(ctx, ins.tx, ins.biz, d)
}

// joinedLocations returns the seeded locations and those the seeded
// practitioners and services joined, whose documents list them: a
// location's document is written before the records that join it.
func joinedLocations(d practiced.SeedData) []string {
	var ids []string
	for _, l := range d.Locations {
		ids = append(ids, l.ID)
	}
	for _, p := range d.Practitioners {
		ids = append(ids, p.LocationIDs...)
	}
	for _, v := range d.Services {
		ids = append(ids, v.LocationIDs...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// settleSeeded returns the seeded appointments, each settled with its
// seeded attendees (practiced.SettleAppointment), so that seeded data
// keeps what every other write keeps: cancelled_at is set exactly when
// the appointment is cancelled. The caller's records are left as given.
func settleSeeded(apts []practiced.Appointment, attendees []practiced.AppointmentClient) []practiced.Appointment {
	byAppointment := map[string][]practiced.AppointmentClient{}
	for _, c := range attendees {
		byAppointment[c.AppointmentID] = append(byAppointment[c.AppointmentID], c)
	}
	out := slices.Clone(apts)
	for i := range out {
		practiced.SettleAppointment(&out[i], byAppointment[out[i].ID])
	}
	return out
}

// settleStored settles the stored appointments that attendees of d joined
// without their appointment being in d, as settleSeeded does for the rest.
func (s *Store) settleStored(ctx context.Context, tx *sql.Tx, businessID string, d practiced.SeedData) error {
	seeded := map[string]bool{}
	for _, a := range d.Appointments {
		seeded[a.ID] = true
	}
	for _, c := range d.AppointmentClients {
		if seeded[c.AppointmentID] {
			continue
		}
		seeded[c.AppointmentID] = true
		a, err := appointments.get(ctx, tx, businessID, c.AppointmentID, "")
		if err != nil {
			return err
		}
		if a.CancelledAt != nil {
			continue
		}
		acs, err := s.attendees(ctx, tx, businessID, a.ID)
		if err != nil {
			return err
		}
		if practiced.SettleAppointment(&a, acs); a.CancelledAt != nil {
			if _, err := appointments.write(ctx, tx, businessID, &a); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxParams bounds the parameters of one multi-row INSERT, below
// SQLite's limit of 32,766 and PostgreSQL's of 65,535; a load on SQLite
// keeps to sqliteLoadParams.
const maxParams = 30000

// sqliteLoadParams bounds the parameters of one INSERT of a load on
// SQLite. The driver copies each statement's values into memory of its
// own and frees it after the statement; past a few megabytes of it at a
// time (about 750 clients), that memory is handed back to the system and
// faulted in again for the next statement, which cost a fifth of a
// million-client load. 8,000 parameters are about 200 clients.
const sqliteLoadParams = 8000

// copyRows is how many rows go into one COPY.
const copyRows = 5000

// laterIndexRows is how many rows a load writes to a table before it
// decides whether to build the table's indexes after its rows (SQLite):
// it does when the table held no more rows before the load than the load
// has written by then.
// Below it the build costs more than it saves: 10,000 clients imported
// into a new database took 144–148 µs a row with their indexes built
// after them against 131–139 kept up row by row, where a million took
// 89 s against 116.
var laterIndexRows = 50_000

// inserter collects the rows of one table and writes them in multi-row
// INSERTs, so a large batch costs few round trips. Rows of the next table
// start after the previous table's rows are written, so foreign keys
// always find what they refer to. It keeps the first error.
type inserter struct {
	ctx context.Context
	tx  *sql.Tx
	biz string
	// positional writes "?" placeholders instead of "$N": SQLite treats
	// "$N" as a named parameter and finds each by a linear search, which
	// makes a statement with thousands of them quadratic.
	positional bool
	// params bounds the parameters of one statement.
	params int
	// stmts are the INSERTs prepared in tx, by their text: a batch of
	// many rows writes the same full-size statement again and again, and
	// parsing one of thousands of parameters costs as much as binding
	// them.
	stmts map[string]*sql.Stmt
	// copy, if set, writes the rows of seedRows with COPY (PostgreSQL).
	copy func(table string, cols []string, rows [][]any) error
	// laterIndexes lets a load drop a table's secondary indexes and build
	// them again before it commits (dropIndexes); written counts the rows
	// it has written to each table, later holds the statements that build
	// the dropped indexes and laterStats their statistics.
	laterIndexes bool
	written      map[string]int
	later        []string
	laterStats   []statRow
	// versioned are the lists whose version trigger dropIndexes dropped,
	// and counted those whose inserts no trigger counts (insertsCounted)
	// that the load wrote to, on SQLite: buildIndexes adds one to each
	// list's version, once.
	versioned []string
	counted   []string
	// batches counts the batches of rows a load on PostgreSQL has begun
	// to write to each table, and marks the tables of more than one in
	// the transaction's setting practiced.loading (markLoading);
	// revision is the one revision it gives the clients after their
	// first batch.
	batches  map[string]int
	revision int64
	table    string
	cols     []string
	vals     []any
	rows     int
	err      error
}

func (in *inserter) row(table, cols string, extra []string, vals []any) {
	if in.err != nil {
		return
	}
	if table != in.table {
		if in.err = in.flush(); in.err != nil {
			return
		}
		in.table = table
		in.cols = append(append([]string{"business_id"}, splitCols(cols)...), extra...)
	}
	in.vals = append(in.vals, in.biz)
	in.vals = append(in.vals, vals...)
	in.rows++
	if len(in.vals)+len(in.cols) > in.params {
		in.err = in.flush()
	}
}

// dropIndexes drops the secondary indexes of table, for buildIndexes to
// build again before the load commits. It decides once, when the load's
// rows of table, with the recs it is about to write, reach laterIndexRows:
// it drops them when the table held no more rows before the load than
// that. Kept up row by row, an index costs a search of its B-tree and a
// write of the page it lands in for every row, in random order; built
// after the rows, it is one sort. The drop is part of the load's
// transaction, so nothing else ever sees the table without the index,
// and a load that fails leaves it as it was. Unique indexes stay, as they
// check each row as it goes in, and so does the primary key.
//
// The table's version trigger (<table>_version_insert, migration 0023),
// which adds one to its list's version for every row inserted, goes
// aside with the indexes: buildIndexes makes it again and adds one to
// the version once, which is all a reader of the version can tell.
func (in *inserter) dropIndexes(table string, recs int) error {
	if !in.laterIndexes {
		return nil
	}
	if in.written == nil {
		in.written = map[string]int{}
	}
	written := in.written[table] // this load's rows of table written so far
	load := written + recs
	in.written[table] = load
	if written >= laterIndexRows || load < laterIndexRows {
		return nil // decided at an earlier batch, or not yet
	}
	// The table holds the rows it held before the load and the load's
	// written rows; counting stops once the first are more than load.
	var held int
	if err := in.tx.QueryRowContext(in.ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+table+` LIMIT ?)`, written+load+1).Scan(&held); err != nil {
		return fmt.Errorf("seed %s: count rows: %w", table, err)
	}
	if prior := held - written; prior > load {
		return nil
	}
	rows, err := in.tx.QueryContext(in.ctx, `SELECT name, sql FROM sqlite_master
		WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %' ORDER BY name`, table)
	if err != nil {
		return fmt.Errorf("seed %s: read indexes: %w", table, err)
	}
	var names []string
	for rows.Next() {
		var name, create string
		if err := rows.Scan(&name, &create); err != nil {
			rows.Close()
			return fmt.Errorf("seed %s: read indexes: %w", table, err)
		}
		names = append(names, name)
		in.later = append(in.later, create)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("seed %s: read indexes: %w", table, err)
	}
	if err := in.keepStats(table, names); err != nil {
		return err
	}
	for _, name := range names {
		if _, err := in.tx.ExecContext(in.ctx, `DROP INDEX "`+strings.ReplaceAll(name, `"`, `""`)+`"`); err != nil {
			return fmt.Errorf("seed %s: drop index %s: %w", table, name, err)
		}
	}
	return in.dropVersionTrigger(table)
}

// dropVersionTrigger drops the trigger that adds one to the version of
// table's list for every row inserted, if it has one, and the one that
// gives each row inserted its revision (migration 0029), which writes
// the row again, for buildIndexes to make again.
func (in *inserter) dropVersionTrigger(table string) error {
	for _, name := range []string{table + "_version_insert", table + "_revision_insert"} {
		var create string
		err := in.tx.QueryRowContext(in.ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`, name).Scan(&create)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		} else if err != nil {
			return fmt.Errorf("seed %s: read trigger %s: %w", table, name, err)
		}
		if _, err := in.tx.ExecContext(in.ctx, `DROP TRIGGER "`+name+`"`); err != nil {
			return fmt.Errorf("seed %s: drop trigger %s: %w", table, name, err)
		}
		in.later = append(in.later, create)
		if name == table+"_version_insert" {
			in.versioned = append(in.versioned, table)
		}
	}
	return nil
}

// statTables are the tables where ANALYZE keeps the planner's
// statistics of each index; dropping an index deletes its rows.
var statTables = []string{"sqlite_stat1", "sqlite_stat4"}

// statRow is a row of one of statTables.
type statRow struct {
	table string
	vals  []any
}

// keepStats keeps the planner's statistics of the named indexes of table,
// for buildIndexes to write back: a rebuilt index is planned as before.
func (in *inserter) keepStats(table string, names []string) error {
	for _, stat := range statTables {
		analyzed, err := hasTable(in.ctx, in.tx, stat)
		if err != nil {
			return fmt.Errorf("seed %s: read statistics: %w", table, err)
		}
		if !analyzed {
			continue
		}
		for _, name := range names {
			if err := in.keepStatRows(stat, table, name); err != nil {
				return fmt.Errorf("seed %s: read statistics: %w", table, err)
			}
		}
	}
	return nil
}

// keepStatRows keeps the rows of stat, one of statTables, for index name
// of table.
func (in *inserter) keepStatRows(stat, table, name string) error {
	rows, err := in.tx.QueryContext(in.ctx, `SELECT * FROM `+stat+` WHERE tbl = ? AND idx = ?`, table, name)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		in.laterStats = append(in.laterStats, statRow{stat, vals})
	}
	return rows.Err()
}

// buildIndexes builds the indexes and makes the version triggers that
// dropIndexes dropped, from the statements that made them, adds one to
// each of those lists' versions, and gives the indexes back their
// statistics, which the connection then reads again (ANALYZE
// sqlite_schema): it would otherwise plan with the defaults a new index
// gets until it opened the schema afresh.
func (in *inserter) buildIndexes() error {
	for _, create := range in.later {
		if _, err := in.tx.ExecContext(in.ctx, create); err != nil {
			return fmt.Errorf("seed: build index: %w", err)
		}
	}
	for _, list := range slices.Concat(in.versioned, in.counted) {
		if _, err := in.tx.ExecContext(in.ctx, countListSQL, in.biz, list); err != nil {
			return fmt.Errorf("seed: version of %s: %w", list, err)
		}
	}
	if len(in.laterStats) == 0 {
		return nil
	}
	for _, r := range in.laterStats {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(r.vals)), ", ")
		if _, err := in.tx.ExecContext(in.ctx, `INSERT INTO `+r.table+` VALUES (`+marks+`)`, r.vals...); err != nil {
			return fmt.Errorf("seed: statistics of index %v: %w", r.vals[1], err)
		}
	}
	if _, err := in.tx.ExecContext(in.ctx, `ANALYZE sqlite_schema`); err != nil {
		return fmt.Errorf("seed: read statistics again: %w", err)
	}
	return nil
}

// markLoading is called before each batch of rows a load writes to
// table on PostgreSQL. Before the second, it marks the table as loaded
// by this transaction (migrations 0034 and 0035): the insert triggers
// then leave the rows' list version, counted once at commit by the
// triggers of the first batch's rows, and their revision, which the
// load gives them, alone. A load of one batch marks nothing.
func (in *inserter) markLoading(table string) error {
	if in.copy == nil {
		return nil
	}
	if in.batches == nil {
		in.batches = map[string]int{}
	}
	in.batches[table]++
	if in.batches[table] != 2 {
		return nil
	}
	if _, err := in.tx.ExecContext(in.ctx, `SELECT set_config('practiced.loading', COALESCE(current_setting('practiced.loading', true), '') || $1, true)`,
		"/"+table+":"+in.biz+"/"); err != nil {
		return fmt.Errorf("seed %s: mark the load: %w", table, err)
	}
	return nil
}

// flush writes the collected rows.
func (in *inserter) flush() error {
	if in.err != nil || in.rows == 0 {
		return in.err
	}
	err := in.markLoading(in.table)
	if err == nil {
		err = in.insert(in.table, in.cols, in.rows, in.vals)
	}
	in.vals, in.rows = in.vals[:0], 0
	return err
}

// insert writes rows rows of cols, whose values vals holds row after row,
// in one statement.
func (in *inserter) insert(table string, cols []string, rows int, vals []any) error {
	query := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + valuesText(rows, len(cols), in.positional)
	stmt := in.stmts[query]
	if stmt == nil {
		var err error
		if stmt, err = in.tx.PrepareContext(in.ctx, query); err != nil {
			return fmt.Errorf("seed %s: %w", table, translate(err))
		}
		if in.stmts == nil {
			in.stmts = map[string]*sql.Stmt{}
		}
		in.stmts[query] = stmt
	}
	if _, err := stmt.ExecContext(in.ctx, vals...); err != nil {
		return fmt.Errorf("seed %s: %w", table, translate(err))
	}
	return nil
}

// seedRows writes recs to t's table as t.insert writes each, with its
// document. The rows of the next statement are encoded on another
// goroutine while the database writes the current one: for a large batch
// the encoding, documents included, costs as much as the writing.
func seedRows[T any](in *inserter, t *table[T], recs []T) {
	if in.err = in.flush(); in.err != nil || len(recs) == 0 {
		return
	}
	if in.err = in.dropIndexes(t.kind.Plural, len(recs)); in.err != nil {
		return
	}
	if t.insertsCounted && in.positional && !slices.Contains(in.counted, t.kind.Plural) {
		in.counted = append(in.counted, t.kind.Plural) // as countInserts would, once
	}
	cols := append([]string{"business_id"}, t.allCols()...)
	// On SQLite a load that has set aside the revision trigger (with the
	// version trigger, dropIndexes) gives its rows the next revision
	// itself and then takes that number from the counter; where the
	// trigger stays, it gives each row a number of its own.
	var revision int64
	revised := t.revised && in.copy == nil && slices.Contains(in.versioned, t.kind.Plural)
	// On PostgreSQL a load gives the rows after its first chunk of a
	// table one revision of its own, from the sequence: the insert
	// trigger numbers the first chunk's rows and leaves the later ones,
	// which the load marks (markLoading), alone. A load of one chunk
	// takes no number.
	copied := t.revised && in.copy != nil
	if revised || copied {
		cols = append(cols, "revision")
	}
	if copied {
		if in.revision == 0 && (len(recs) > copyRows || in.batches[t.kind.Plural] > 0) {
			if in.err = in.tx.QueryRowContext(in.ctx, `SELECT nextval('client_revisions')`).Scan(&in.revision); in.err != nil {
				in.err = fmt.Errorf("seed %s: revision: %w", t.kind.Plural, in.err)
				return
			}
		}
		revision = in.revision
	}
	if revised {
		if in.err = in.tx.QueryRowContext(in.ctx, `SELECT COALESCE((SELECT version FROM list_versions WHERE business = '' AND list = 'client_revisions'), 0) + 1`).
			Scan(&revision); in.err != nil {
			in.err = fmt.Errorf("seed %s: revision: %w", t.kind.Plural, in.err)
			return
		}
		defer func() {
			if in.err != nil {
				return
			}
			if _, err := in.tx.ExecContext(in.ctx, `INSERT INTO list_versions (business, list, version) VALUES ('', 'client_revisions', ?)
				ON CONFLICT (business, list) DO UPDATE SET version = MAX(version, excluded.version)`, revision); err != nil {
				in.err = fmt.Errorf("seed %s: revision: %w", t.kind.Plural, err)
			}
		}()
	}
	per := in.params / len(cols)
	if in.copy != nil {
		per = copyRows
	}
	encode := func(start, end int) []any {
		vals := make([]any, 0, (end-start)*len(cols))
		for i := start; i < end; i++ {
			t.tidy(&recs[i])
			vals = append(vals, in.biz)
			vals = append(vals, t.allValues(&recs[i])...)
			if revised || copied {
				vals = append(vals, revision)
			}
		}
		return vals
	}
	chunks := make(chan []any, 1)
	stop := make(chan struct{})
	go func() {
		defer close(chunks)
		for start := 0; start < len(recs); start += per {
			select {
			case chunks <- encode(start, min(start+per, len(recs))):
			case <-stop:
				return
			}
		}
	}()
	for vals := range chunks {
		if in.err != nil {
			continue // the encoder stops after the chunk it is on
		}
		if in.copy != nil {
			rows := make([][]any, len(vals)/len(cols))
			for r := range rows {
				rows[r] = vals[r*len(cols) : (r+1)*len(cols)]
			}
			if in.err = in.markLoading(t.kind.Plural); in.err == nil {
				if in.err = in.copy(t.kind.Plural, cols, rows); in.err != nil {
					in.err = fmt.Errorf("seed %s: %w", t.kind.Plural, translate(in.err))
				}
			}
		} else {
			in.err = in.insert(t.kind.Plural, cols, len(vals)/len(cols), vals)
		}
		if in.err != nil {
			close(stop)
		}
	}
}
