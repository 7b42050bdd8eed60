package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is a session.Store in a PostgreSQL database, for several sidecar
// instances sharing their sessions. Each Save is one statement whose WHERE
// clause (or ON CONFLICT) is the compare-and-swap, so instances need no
// lock of their own: PostgreSQL's row lock serialises two writers of one
// session, and the loser re-checks the revision and changes nothing.
//
// messages is text, not jsonb: jsonb rewrites the document (and rejects
// \u0000, which a message may hold), while text gives back the bytes that
// were written. Nothing queries inside the messages, so jsonb's indexing
// would buy nothing.
type Postgres struct {
	pool     *pgxpool.Pool
	secrets  []string // the DSN's password forms, scrubbed from errors
	limits   session.Limits
	sources  SourceLimits // sources_postgres.go
	runStore              // durable runs (runs.go, runs_postgres.go)
	health   writeHealth
}

// postgresMigrations are applied in order, each once, tracked in
// askplane_migrations. A plain CREATE TABLE (no IF NOT EXISTS) fails on a
// foreign "sessions" table instead of adopting it; put askplane in its own
// schema with ?search_path=… when the database is shared.
var postgresMigrations = []string{
	`CREATE TABLE sessions (
		site_id    text        NOT NULL,
		subject    text        NOT NULL,
		session_id text        NOT NULL,
		revision   bigint      NOT NULL CHECK (revision >= 1),
		messages   text        NOT NULL,
		updated_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (site_id, subject, session_id)
	)`,
	`CREATE INDEX sessions_updated_at ON sessions (updated_at)`,
	// 3: bytes, each row's session.Size, set by every Save and summed by
	// the subject and total bounds. Existing rows get the size of their
	// text, which is what Size gives for it; then the default goes, so a
	// row written by another program must say its size. The index on
	// (updated_at, bytes) serves the pruner's scans.
	`ALTER TABLE sessions ADD COLUMN bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0);
	UPDATE sessions SET bytes = octet_length(messages) + ` + strconv.Itoa(session.RecordOverheadBytes) + `;
	ALTER TABLE sessions ALTER COLUMN bytes DROP DEFAULT;
	DROP INDEX sessions_updated_at;
	CREATE INDEX sessions_updated_at_bytes ON sessions (updated_at, bytes)`,
	// 4: retained corpus versions (sources_postgres.go). seq orders puts
	// (a reload takes the next value); permits go with their version.
	`CREATE SEQUENCE source_order;
	CREATE TABLE sources (
		site_id   text        NOT NULL,
		version   text        NOT NULL,
		seq       bigint      NOT NULL DEFAULT nextval('source_order'),
		bytes     bigint      NOT NULL CHECK (bytes >= 0),
		stored_at timestamptz NOT NULL DEFAULT now(),
		data      bytea       NOT NULL,
		PRIMARY KEY (site_id, version)
	);
	CREATE INDEX sources_seq_bytes ON sources (seq, bytes);
	CREATE TABLE source_engines (
		site_id text NOT NULL,
		version text NOT NULL,
		engine  text NOT NULL,
		PRIMARY KEY (site_id, version, engine),
		FOREIGN KEY (site_id, version) REFERENCES sources ON DELETE CASCADE
	)`,
	// 5: shared limits (limits_postgres.go). limit_tats holds each rate
	// limit key's GCRA time, keyed by SHA-256 so no address is stored;
	// tat is not indexed, so the update of every question stays a HOT
	// update in place (fillfactor leaves room), and pruning scans.
	// generation_slots holds one row per slot of a site's cap.
	`CREATE TABLE limit_tats (
		key bytea       PRIMARY KEY CHECK (octet_length(key) = 32),
		tat timestamptz NOT NULL
	) WITH (fillfactor = 70);
	CREATE TABLE generation_slots (
		site_id    text        NOT NULL,
		slot       integer     NOT NULL CHECK (slot >= 0),
		holder     text        NOT NULL DEFAULT '',
		expires_at timestamptz NOT NULL DEFAULT '-infinity',
		PRIMARY KEY (site_id, slot)
	)`,
	// 6: durable runs (runs_postgres.go).
	postgresRunsMigration,
	// 7: insights (insights_postgres.go).
	postgresInsightsMigration,
	// 8: each subject's bytes, kept by triggers (subject_postgres.go).
	postgresSubjectsMigration,
}

// postgresMigrationLock is the advisory lock key that serialises instances
// migrating at once ("askplane" in ASCII).
const postgresMigrationLock int64 = 0x61736b706c616e65

const (
	// postgresConnectTimeout applies when the DSN sets no connect_timeout.
	postgresConnectTimeout = 10 * time.Second
	// postgresCancelGrace is how long a cancelled statement may take to
	// return the server's answer to the cancel request before the socket
	// is closed.
	postgresCancelGrace = 2 * time.Second
)

// OpenPostgres connects a pool to the database dsn names (a pgx URL,
// including pool_max_conns and search_path parameters), checks that it
// answers and applies the schema. Failures never contain the password.
// opts is at most one Options; the limits default to
// session.DefaultDurableLimits.
func OpenPostgres(ctx context.Context, dsn string, opts ...Options) (*Postgres, error) {
	sec := secrets(dsn)
	fail := func(reason string, err error) (*Postgres, error) {
		return nil, &Error{Code: CodeOpenFailed, Op: "open", Reason: reason, Err: safeCause(err, sec)}
	}
	lim, err := limits(opts, session.DefaultDurableLimits())
	if err != nil {
		return nil, err
	}
	slim, err := sourceLimits(opts)
	if err != nil {
		return nil, err
	}
	if len(dsn) > MaxDSNLen {
		return fail("DSN is too long", nil)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The parser's message may quote the DSN; the reason is enough.
		return fail("PostgreSQL DSN is invalid", nil)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = postgresConnectTimeout
	}
	// Server-side bounds, unless the DSN sets its own: a statement or a
	// lock wait outlives no operation, even when the client is gone.
	for name, value := range map[string]string{
		"application_name":  "askplane",
		"statement_timeout": strconv.FormatInt(OpTimeout.Milliseconds(), 10),
		"lock_timeout":      strconv.FormatInt(OpTimeout.Milliseconds(), 10),
	} {
		if _, ok := cfg.ConnConfig.RuntimeParams[name]; !ok {
			cfg.ConnConfig.RuntimeParams[name] = value
		}
	}
	// A done context sends PostgreSQL a cancel request, so a Save that
	// returned a deadline error is not left waiting on a row lock, to
	// commit later. pgx's default only closes the socket, which a server
	// blocked on a lock does not notice.
	cfg.ConnConfig.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: postgresCancelGrace}
	}
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fail("PostgreSQL pool cannot be created", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return fail("PostgreSQL did not accept a connection", err)
	}
	if err := postgresMigrate(ctx, pool); err != nil {
		pool.Close()
		return fail("PostgreSQL schema migration failed", err)
	}
	p := &Postgres{pool: pool, secrets: sec, limits: lim, sources: slim}
	p.runStore = runStore{postgresRuns{p}}
	return p, nil
}

// postgresMigrate applies the missing migrations in one transaction under
// an advisory lock, so instances starting together migrate once.
func postgresMigrate(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, postgresMigrationLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS askplane_migrations (
		version    integer     PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return err
	}
	var version int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM askplane_migrations`).Scan(&version); err != nil {
		return err
	}
	if version > len(postgresMigrations) {
		return errSchemaNewer
	}
	for i := version; i < len(postgresMigrations); i++ {
		if _, err := tx.Exec(ctx, postgresMigrations[i]); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO askplane_migrations (version) VALUES ($1)`, i+1); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// Load implements session.Store.
func (p *Postgres) Load(ctx context.Context, k session.Key) (session.Record, error) {
	if err := checkKey("load", k); err != nil {
		return session.Record{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var rev int64
	var raw string
	err := p.pool.QueryRow(ctx,
		`SELECT revision, messages FROM sessions WHERE site_id = $1 AND subject = $2 AND session_id = $3`,
		k.SiteID, k.Subject, k.SessionID).Scan(&rev, &raw)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return session.Record{}, nil
	case err != nil:
		return session.Record{}, p.unavailable(ctx, "load", err)
	}
	return decodeRow(rev, raw)
}

// Save implements session.Store with the same two statements as SQLite.
// Under READ COMMITTED an UPDATE that waited for another writer's row lock
// re-evaluates its WHERE on the row that writer committed, so exactly one
// of several racing instances wins a revision.
//
// The subject bound rides in the same statement (data-modifying WITH
// queries, one round trip): when the write lands, the subject's other
// sessions, newest first, are kept while they fit MaxSubjectBytes beside
// this one, and the older ones emptied. Whether the subject is past its
// bound is read from its running total (session_subjects, migration 8):
// the window over its sessions runs only when it is. Rows another writer
// holds locked are skipped (SKIP LOCKED) rather than waited for, by the
// eviction and by the purge of emptied rows: they are being written now,
// so they are not the oldest, and waiting could deadlock two savers of one
// subject (each holds its own row and, through the triggers, waits for
// the subject's total). Two such savers each see the other's row as it
// was, so the subject may stay over its bound by a racing save until its
// next one.
func (p *Postgres) Save(ctx context.Context, k session.Key, r session.Record, expectedRevision int) (bool, error) {
	if err := checkKey("save", k); err != nil {
		return false, err
	}
	enc, size, err := checkRecord(r, expectedRevision, p.limits.MaxSessionBytes)
	if err != nil {
		return false, err
	}
	raw := string(enc)
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	sql := postgresInsert
	args := []any{k.SiteID, k.Subject, k.SessionID, r.Revision, raw, size, p.limits.MaxSubjectBytes}
	if expectedRevision != 0 {
		sql = postgresUpdate
		args = append(args, expectedRevision)
	}
	var n int64
	err = p.health.injected("save")
	if err == nil {
		err = p.pool.QueryRow(ctx, sql, args...).Scan(&n)
	}
	p.health.note(ctx, err)
	if err != nil {
		return false, p.unavailable(ctx, "save", err)
	}
	return n == 1, nil
}

// Delete implements session.Deleter: one DELETE of the key's row.
func (p *Postgres) Delete(ctx context.Context, k session.Key) (bool, error) {
	if err := checkKey("delete", k); err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	tag, err := p.pool.Exec(ctx, `DELETE FROM sessions WHERE site_id = $1 AND subject = $2 AND session_id = $3`, k.SiteID, k.Subject, k.SessionID)
	if err != nil {
		return false, p.unavailable(ctx, "delete", err)
	}
	return tag.RowsAffected() == 1, nil
}

// Save's statements: $1..$3 the key, $4 the revision, $5 the messages,
// $6 their size, $7 MaxSubjectBytes, $8 the expected revision.
const (
	postgresInsert = `WITH saved AS (
		INSERT INTO sessions (site_id, subject, session_id, revision, messages, bytes)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1
	)` + postgresEvictSubject
	postgresUpdate = `WITH saved AS (
		UPDATE sessions SET revision = $4, messages = $5, bytes = $6, updated_at = now()
		WHERE site_id = $1 AND subject = $2 AND session_id = $3 AND revision = $8 RETURNING 1
	)` + postgresEvictSubject
	postgresEvictSubject = `,
	state AS (
		SELECT coalesce((SELECT bytes FROM session_subjects WHERE site_id = $1 AND subject = $2), 0)
			- coalesce((SELECT bytes FROM sessions WHERE site_id = $1 AND subject = $2 AND session_id = $3), 0)
			+ $6 - $7 AS excess
	),
	ranked AS (
		SELECT session_id, sum(bytes) OVER (ORDER BY updated_at DESC, session_id DESC ROWS UNBOUNDED PRECEDING) AS newer
		FROM sessions WHERE site_id = $1 AND subject = $2 AND session_id <> $3
	),
	victims AS (
		SELECT session_id FROM sessions
		WHERE site_id = $1 AND subject = $2
		  AND bytes > 0
		  AND session_id IN (SELECT session_id FROM ranked WHERE newer + $6 > $7)
		  AND EXISTS (SELECT FROM saved) AND (SELECT excess FROM state) > 0
		FOR UPDATE SKIP LOCKED
	),
	evicted AS (
		UPDATE sessions SET messages = '[]', bytes = 0, updated_at = now()
		WHERE site_id = $1 AND subject = $2 AND session_id IN (SELECT session_id FROM victims)
	),
	purged AS (
		DELETE FROM sessions WHERE site_id = $1 AND subject = $2 AND session_id IN (
			SELECT session_id FROM sessions WHERE site_id = $1 AND subject = $2 AND session_id <> $3 AND bytes = 0
			  AND updated_at < now() - interval '5 minutes' AND EXISTS (SELECT FROM saved)
			FOR UPDATE SKIP LOCKED)
	)
	SELECT count(*) FROM saved`
)

// Check implements session.Checker: a ping through the pool within
// CheckTimeout.
func (p *Postgres) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	if err := p.pool.Ping(ctx); err != nil {
		return p.unavailable(ctx, "check", err)
	}
	return p.health.writable(ctx, "check", p.probe)
}

// Writable implements session.WriteChecker: nil unless the last write
// failed and neither a write nor a probe write has succeeded since.
func (p *Postgres) Writable(ctx context.Context) error {
	return p.health.writable(ctx, "writable", p.probe)
}

// probe rewrites the newest migration row as it is: a write the server
// must find room for, which changes nothing.
func (p *Postgres) probe(ctx context.Context) error {
	_, err := p.pool.Exec(ctx, `UPDATE askplane_migrations SET version = version WHERE version = (SELECT max(version) FROM askplane_migrations)`)
	return err
}

// unavailable is the package's unavailable with the DSN's password
// scrubbed from the cause when (unusually) its text holds it; otherwise
// the cause keeps its chain, so errors.As finds a *pgconn.PgError.
func (p *Postgres) unavailable(ctx context.Context, op string, err error) error {
	for _, s := range p.secrets {
		if strings.Contains(err.Error(), s) {
			err = safeCause(err, p.secrets)
			break
		}
	}
	return unavailable(ctx, op, err)
}

// Prune implements Pruner, deleting in batches so no statement holds
// many row locks for long.
func (p *Postgres) Prune(ctx context.Context, before time.Time) (int64, error) {
	total, err := p.pruneBefore(ctx, before)
	if err != nil {
		return total, err
	}
	// The total bound: the newest row that does not fit beside the rows
	// written after it, and every row written no later, go.
	qctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var cutoff *time.Time
	if err := p.pool.QueryRow(qctx, `SELECT max(updated_at) FROM (
		SELECT updated_at, sum(bytes) OVER (ORDER BY updated_at DESC ROWS UNBOUNDED PRECEDING) AS newer FROM sessions) AS s
		WHERE newer > $1`, p.limits.MaxTotalBytes).Scan(&cutoff); err != nil {
		return total, p.unavailable(qctx, "prune", err)
	}
	if cutoff == nil {
		return total, nil
	}
	n, err := p.pruneBefore(ctx, cutoff.Add(time.Microsecond)) // timestamptz counts microseconds
	return total + n, err
}

func (p *Postgres) pruneBefore(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		n, err := p.pruneBatch(ctx, before)
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
	}
}

// pruneBatch skips rows another writer holds locked (SKIP LOCKED): such a
// row is being saved now, so it is not old, and waiting for it while
// holding the subject totals of the rows already deleted (their triggers
// take them) could deadlock with that save, which waits for its own
// subject's total.
func (p *Postgres) pruneBatch(ctx context.Context, before time.Time) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	tag, err := p.pool.Exec(ctx,
		`DELETE FROM sessions WHERE (site_id, subject, session_id) IN
		 (SELECT site_id, subject, session_id FROM sessions WHERE updated_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
		before, pruneBatch)
	if err != nil {
		return 0, p.unavailable(ctx, "prune", err)
	}
	return tag.RowsAffected(), nil
}

// Close closes the pool, waiting for acquired connections to be released.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

var (
	_ Backend = (*Postgres)(nil)
	_ Pruner  = (*Postgres)(nil)
)

// Limits implements session.Limited.
func (p *Postgres) Limits() session.Limits { return p.limits }
