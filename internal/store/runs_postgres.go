package store

import (
	"context"
	"errors"

	"github.com/askplane/askplane/internal/durable"
	"github.com/jackc/pgx/v5"
)

// postgresRunsMigration creates the run tables (runs.go), as SQLite's
// sqliteRunsMigration does; times are Unix milliseconds of the database's
// clock.
const postgresRunsMigration = `CREATE TABLE runs (
		run_id           text   NOT NULL PRIMARY KEY,
		site_id          text   NOT NULL,
		subject          text   NOT NULL,
		session_id       text   NOT NULL,
		idem_key         text   NOT NULL,
		request_digest   text   NOT NULL,
		snap_agent       text   NOT NULL,
		snap_schema      text   NOT NULL,
		snap_model       text   NOT NULL,
		snap_tool        text   NOT NULL,
		max_tokens       bigint NOT NULL,
		max_cost         bigint NOT NULL,
		max_rounds       bigint NOT NULL,
		max_attempts     bigint NOT NULL,
		deadline         bigint NOT NULL,
		state            text   NOT NULL CHECK (state IN ('admitted', 'running', 'completed', 'failed', 'cancelled')),
		code             text   NOT NULL,
		fence            bigint NOT NULL CHECK (fence >= 1),
		lease_owner      text   NOT NULL,
		lease_until      bigint NOT NULL,
		cancel_requested bigint NOT NULL,
		events           bigint NOT NULL,
		event_bytes      bigint NOT NULL,
		attempts         bigint NOT NULL,
		rounds           bigint NOT NULL,
		used_tokens      bigint NOT NULL,
		used_cost        bigint NOT NULL,
		created_at       bigint NOT NULL,
		updated_at       bigint NOT NULL
	);
	CREATE UNIQUE INDEX runs_idem ON runs (site_id, subject, idem_key) WHERE idem_key <> '';
	CREATE INDEX runs_site_live ON runs (site_id, state, deadline);
	CREATE INDEX runs_lease ON runs (state, lease_until);
	CREATE INDEX runs_updated ON runs (updated_at);
	CREATE TABLE run_events (
		run_id text   NOT NULL,
		seq    bigint NOT NULL,
		data   text   NOT NULL,
		PRIMARY KEY (run_id, seq)
	);
	CREATE TABLE run_checkpoints (
		run_id text   NOT NULL PRIMARY KEY,
		step   bigint NOT NULL,
		digest text   NOT NULL,
		data   text   NOT NULL
	);
	CREATE TABLE run_attempts (
		run_id        text   NOT NULL,
		n             bigint NOT NULL,
		round         bigint NOT NULL,
		state         text   NOT NULL CHECK (state IN ('started', 'completed', 'failed', 'unknown')),
		fence         bigint NOT NULL,
		day           bigint NOT NULL,
		reserved_in   bigint NOT NULL,
		reserved_out  bigint NOT NULL,
		reserved_cost bigint NOT NULL,
		input_tokens  bigint NOT NULL,
		output_tokens bigint NOT NULL,
		cost          bigint NOT NULL,
		outcome       text   NOT NULL,
		started_at    bigint NOT NULL,
		ended_at      bigint NOT NULL,
		PRIMARY KEY (run_id, n)
	);
	CREATE TABLE run_usage (
		site_id text   NOT NULL,
		day     bigint NOT NULL,
		tokens  bigint NOT NULL,
		cost    bigint NOT NULL,
		PRIMARY KEY (site_id, day)
	)`

// postgresRuns is the PostgreSQL dialect of runs.go: READ COMMITTED
// transactions that lock the run's row (FOR UPDATE) before they check its
// fence, so a claim and a write of one run are serialised by the row lock
// and the write re-reads the fence the claim committed.
type postgresRuns struct{ p *Postgres }

type postgresRunTx struct{ tx pgx.Tx }

func (d postgresRuns) begin(ctx context.Context) (runTx, error) {
	tx, err := d.p.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return postgresRunTx{tx}, nil
}

func (postgresRuns) skipLocked() string { return " FOR UPDATE SKIP LOCKED" }
func (postgresRuns) forUpdate() string  { return " FOR UPDATE" }

func (d postgresRuns) fail(ctx context.Context, op string, err error) error {
	if runWrites[op] {
		d.p.health.note(ctx, err)
	}
	return durable.Unavailable(ctx, op, safeCause(err, d.p.secrets))
}

func (t postgresRunTx) exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, rebind(q), args...)
	return tag.RowsAffected(), err
}

func (t postgresRunTx) row(ctx context.Context, q string, args []any, dest ...any) (bool, error) {
	err := t.tx.QueryRow(ctx, rebind(q), args...).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func (t postgresRunTx) query(ctx context.Context, q string, args []any, each func(func(...any) error) error) error {
	rows, err := t.tx.Query(ctx, rebind(q), args...)
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

func (t postgresRunTx) now(ctx context.Context) (int64, error) {
	var ms int64
	err := t.tx.QueryRow(ctx, `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint`).Scan(&ms)
	return ms, err
}

// lockSite takes a transaction-scoped advisory lock on the site, so two
// instances admitting for one site see each other's runs (the concurrent
// ceiling, the idempotency key) instead of both inserting.
func (t postgresRunTx) lockSite(ctx context.Context, site string) error {
	_, err := t.tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('askplane.run:' || $1))`, site)
	return err
}

func (t postgresRunTx) commit(ctx context.Context) error { return t.tx.Commit(ctx) }
func (t postgresRunTx) rollback()                        { t.tx.Rollback(context.Background()) }

var _ Runs = (*Postgres)(nil)
