package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/askplane/askplane/internal/durable"
)

// sqliteRunsMigration creates the run tables (runs.go). Times are Unix
// milliseconds. A run's checkpoint is one row, replaced as the run goes:
// it holds the whole transcript, so older ones add nothing. idem_key is
// ” for none, and unique per site and subject otherwise.
const sqliteRunsMigration = `CREATE TABLE runs (
		run_id           TEXT    NOT NULL PRIMARY KEY,
		site_id          TEXT    NOT NULL,
		subject          TEXT    NOT NULL,
		session_id       TEXT    NOT NULL,
		idem_key         TEXT    NOT NULL,
		request_digest   TEXT    NOT NULL,
		snap_agent       TEXT    NOT NULL,
		snap_schema      TEXT    NOT NULL,
		snap_model       TEXT    NOT NULL,
		snap_tool        TEXT    NOT NULL,
		max_tokens       INTEGER NOT NULL,
		max_cost         INTEGER NOT NULL,
		max_rounds       INTEGER NOT NULL,
		max_attempts     INTEGER NOT NULL,
		deadline         INTEGER NOT NULL,
		state            TEXT    NOT NULL CHECK (state IN ('admitted', 'running', 'completed', 'failed', 'cancelled')),
		code             TEXT    NOT NULL,
		fence            INTEGER NOT NULL CHECK (fence >= 1),
		lease_owner      TEXT    NOT NULL,
		lease_until      INTEGER NOT NULL,
		cancel_requested INTEGER NOT NULL,
		events           INTEGER NOT NULL,
		event_bytes      INTEGER NOT NULL,
		attempts         INTEGER NOT NULL,
		rounds           INTEGER NOT NULL,
		used_tokens      INTEGER NOT NULL,
		used_cost        INTEGER NOT NULL,
		created_at       INTEGER NOT NULL,
		updated_at       INTEGER NOT NULL
	) STRICT;
	CREATE UNIQUE INDEX runs_idem ON runs (site_id, subject, idem_key) WHERE idem_key <> '';
	CREATE INDEX runs_site_live ON runs (site_id, state, deadline);
	CREATE INDEX runs_lease ON runs (state, lease_until);
	CREATE INDEX runs_updated ON runs (updated_at);
	CREATE TABLE run_events (
		run_id TEXT    NOT NULL,
		seq    INTEGER NOT NULL,
		data   TEXT    NOT NULL,
		PRIMARY KEY (run_id, seq)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE run_checkpoints (
		run_id TEXT    NOT NULL PRIMARY KEY,
		step   INTEGER NOT NULL,
		digest TEXT    NOT NULL,
		data   TEXT    NOT NULL
	) STRICT;
	CREATE TABLE run_attempts (
		run_id        TEXT    NOT NULL,
		n             INTEGER NOT NULL,
		round         INTEGER NOT NULL,
		state         TEXT    NOT NULL CHECK (state IN ('started', 'completed', 'failed', 'unknown')),
		fence         INTEGER NOT NULL,
		day           INTEGER NOT NULL,
		reserved_in   INTEGER NOT NULL,
		reserved_out  INTEGER NOT NULL,
		reserved_cost INTEGER NOT NULL,
		input_tokens  INTEGER NOT NULL,
		output_tokens INTEGER NOT NULL,
		cost          INTEGER NOT NULL,
		outcome       TEXT    NOT NULL,
		started_at    INTEGER NOT NULL,
		ended_at      INTEGER NOT NULL,
		PRIMARY KEY (run_id, n)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE run_usage (
		site_id TEXT    NOT NULL,
		day     INTEGER NOT NULL,
		tokens  INTEGER NOT NULL,
		cost    INTEGER NOT NULL,
		PRIMARY KEY (site_id, day)
	) STRICT, WITHOUT ROWID`

// sqliteRuns is the SQLite dialect of runs.go: every transaction is
// BEGIN IMMEDIATE, so it holds the write lock from its first statement
// and needs no row locks.
type sqliteRuns struct{ s *SQLite }

type sqliteRunTx struct{ tx *sql.Tx }

func (d sqliteRuns) begin(ctx context.Context) (runTx, error) {
	if d.s.fileGone() {
		return nil, errors.New(reasonFileGone)
	}
	tx, err := d.s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return nil, err
	}
	return sqliteRunTx{tx}, nil
}

func (sqliteRuns) skipLocked() string { return "" }
func (sqliteRuns) forUpdate() string  { return "" }

func (d sqliteRuns) fail(ctx context.Context, op string, err error) error {
	if runWrites[op] {
		d.s.health.note(ctx, err)
	}
	return durable.Unavailable(ctx, op, err)
}

func (t sqliteRunTx) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := t.tx.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t sqliteRunTx) row(ctx context.Context, q string, args []any, dest ...any) (bool, error) {
	err := t.tx.QueryRowContext(ctx, q, args...).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func (t sqliteRunTx) query(ctx context.Context, q string, args []any, each func(func(...any) error) error) error {
	rows, err := t.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (sqliteRunTx) now(context.Context) (int64, error)     { return time.Now().UnixMilli(), nil }
func (sqliteRunTx) lockSite(context.Context, string) error { return nil }
func (t sqliteRunTx) commit(context.Context) error         { return t.tx.Commit() }
func (t sqliteRunTx) rollback()                            { t.tx.Rollback() }

var _ Runs = (*SQLite)(nil)
