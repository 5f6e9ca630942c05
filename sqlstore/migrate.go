package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// migrations holds the schema changes, applied in the order of their
// numeric file-name prefix and never edited once released. A file under
// migrations/<dialect>/ replaces the shared file of the same name for
// that dialect, where the SQL must differ.
//
// A database records only the number of each migration it has had, so a
// released number never changes, while the words after it may. Every
// file is named NNNN_snake_case_words.sql, the words saying what it
// does. Numbers before 0011 have gaps that released databases already
// know; from 0011 on each migration takes the next number, without gaps
// (TestMigrationNames keeps both rules).
//
//go:embed migrations
var migrations embed.FS

// Migrate applies the migrations the database has not had yet, each in
// its own transaction, then runs the steps SQL cannot do: fillDocs gives
// each record without a stored document (the rows from before migration
// 0013) its document, which only the Go encoder can write; the clients'
// before migration 0030 drops the columns they are written from, the
// others' after the last migration. That step is idempotent and finds
// nothing to do on a database already filled.
func (s *Store) Migrate(ctx context.Context) error {
	if s.dialect.name == "postgres" {
		// Servers starting together on one database take turns.
		conn, err := s.w.Conn(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, migrationLock)
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY,
		name TEXT NOT NULL
	)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	files, err := s.migrationFiles()
	if err != nil {
		return err
	}
	for _, m := range files {
		var n int
		if err := s.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.version).Scan(&n); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if n > 0 {
			continue
		}
		if m.version == clientsDocumentOnly {
			if err := s.fillDocs(ctx, []docFiller{filler(clientsByColumns)}); err != nil {
				return fmt.Errorf("migrate: %w", err)
			}
		}
		if err := s.apply(ctx, m); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	if err := s.fillDocs(ctx, docTables()); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// apply runs one migration and records it, in one transaction. On
// SQLite, migration 0030 builds the clients' table again, which needs
// foreign keys off: the writer is one connection, so the setting holds
// for the transaction, and every reference is checked before it commits.
func (s *Store) apply(ctx context.Context, m migration) error {
	rebuild := s.dialect.name == "sqlite" && m.version == clientsDocumentOnly
	if rebuild {
		if _, err := s.w.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
			return err
		}
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, stmt := range splitStatements(m.sql) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
		}
		if rebuild {
			if err := foreignKeysHold(ctx, tx); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name)
		return err
	})
	if rebuild {
		if _, onErr := s.w.ExecContext(context.Background(), `PRAGMA foreign_keys = ON`); onErr != nil {
			err = errors.Join(err, onErr)
		}
	}
	return err
}

// foreignKeysHold reports the first row of a SQLite database whose
// reference finds no row.
func foreignKeysHold(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return err
		}
		return fmt.Errorf("a row of %s (rowid %d) refers to a row of %s that does not exist", table, rowid.Int64, parent)
	}
	return rows.Err()
}

// migrationLock is the PostgreSQL advisory lock key held while migrating.
const migrationLock = 7_263_002_001

type migration struct {
	version int
	name    string
	sql     string
}

func (s *Store) migrationFiles() ([]migration, error) {
	byName := map[string]string{}
	for _, dir := range []string{"migrations", "migrations/" + s.dialect.name} {
		entries, err := fs.ReadDir(migrations, dir)
		if err != nil {
			continue // a dialect needs no folder of its own
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
				continue
			}
			b, err := migrations.ReadFile(dir + "/" + e.Name())
			if err != nil {
				return nil, err
			}
			byName[e.Name()] = string(b)
		}
	}
	var out []migration
	seen := map[int]string{}
	for name, text := range byName {
		prefix, _, _ := strings.Cut(name, "_")
		v, err := strconv.Atoi(prefix)
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", name)
		}
		if other, ok := seen[v]; ok {
			return nil, fmt.Errorf("migrations %s and %s have the same number", other, name)
		}
		seen[v] = name
		out = append(out, migration{version: v, name: name, sql: text})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// splitStatements splits a migration on the semicolons that end lines.
// Migrations keep one statement per semicolon-terminated line group; a
// PostgreSQL function body between $$ lines stays whole.
func splitStatements(text string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "--") && !quoted {
			continue
		}
		cur.WriteString(line)
		cur.WriteString("\n")
		if strings.Count(line, "$$")%2 == 1 {
			quoted = !quoted
		}
		if strings.HasSuffix(trimmed, ";") && !quoted {
			if stmt := strings.TrimSpace(cur.String()); stmt != ";" {
				out = append(out, stmt)
			}
			cur.Reset()
		}
	}
	if stmt := strings.TrimSpace(cur.String()); stmt != "" {
		out = append(out, stmt)
	}
	return out
}
