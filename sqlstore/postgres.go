package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// PoolSize is the default number of PostgreSQL connections per process.
const PoolSize = 16

// openPostgres opens a pool of connections to url. pgx caches prepared
// statements per connection, so the shared queries are parsed once.
func openPostgres(ctx context.Context, url string, poolSize int) (*Store, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	db := stdlib.OpenDB(*cfg)
	if poolSize <= 0 {
		poolSize = PoolSize
	}
	db.SetMaxOpenConns(poolSize)
	db.SetMaxIdleConns(poolSize)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &Store{w: db, r: db, dialect: postgresDialect, blocks: newBlocksCache(blocksKept), kept: newKeptDocs(keptDocBytes),
		keyReads: &keyReads{db: db}}, nil
}
