package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/session"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// SQLite is a session.Store in one SQLite file: the embedded default, with
// no server to run. Several handles, in one process or several, may share
// the file: every write is one statement that SQLite serialises, and
// busy_timeout makes a writer wait for another instead of failing.
type SQLite struct {
	db *sql.DB
}

// SQLite connection settings, applied to every pooled connection through
// the DSN (PRAGMAs are per connection).
const (
	// sqliteBusyMillis is how long a statement waits for another
	// connection's write lock before it fails.
	sqliteBusyMillis = 5000
	// sqliteMaxConns bounds the pool: WAL lets readers run beside the one
	// writer, and more connections only queue on the write lock.
	sqliteMaxConns = 4
)

// sqliteMigrations are applied in order, each once, tracked by PRAGMA
// user_version. STRICT makes the column types real; WITHOUT ROWID keeps
// the rows in the primary key's b-tree, which is the only way they are
// found.
var sqliteMigrations = []string{
	`CREATE TABLE sessions (
		site_id    TEXT    NOT NULL,
		subject    TEXT    NOT NULL,
		session_id TEXT    NOT NULL,
		revision   INTEGER NOT NULL CHECK (revision >= 1),
		messages   TEXT    NOT NULL,
		updated_at INTEGER NOT NULL, -- Unix milliseconds
		PRIMARY KEY (site_id, subject, session_id)
	) STRICT, WITHOUT ROWID`,
	`CREATE INDEX sessions_updated_at ON sessions (updated_at)`,
}

// OpenSQLite opens (creating when absent) the SQLite file at path and its
// folder, switches it to WAL and applies the schema. The file is created
// readable by its owner only, since it holds users' conversations.
func OpenSQLite(ctx context.Context, path string) (*SQLite, error) {
	fail := func(reason string, err error) (*SQLite, error) {
		return nil, &Error{Code: CodeOpenFailed, Op: "open", Reason: reason, Err: err}
	}
	// The driver cuts its DSN at the first '?', and C strings end at NUL.
	if path == "" || strings.ContainsAny(path, "?\x00") {
		return fail("SQLite path is empty or holds '?' or NUL", nil)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail("SQLite path cannot be made absolute", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return fail("SQLite folder cannot be created", err)
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fail("SQLite file cannot be opened", err)
	}
	f.Close()
	dsn := abs + "?_pragma=busy_timeout(" + strconv.Itoa(sqliteBusyMillis) + ")" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return fail("SQLite driver refused the file", err)
	}
	db.SetMaxOpenConns(sqliteMaxConns)
	db.SetMaxIdleConns(sqliteMaxConns)
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	// WAL is a property of the file, set once: readers no longer block the
	// writer, and synchronous=NORMAL is durable against a crashed process
	// (a power cut may lose the last commits, which for chat history is the
	// better trade than an fsync on every save).
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode); err != nil || mode != "wal" {
		db.Close()
		return fail("SQLite file cannot use WAL", err)
	}
	if err := sqliteMigrate(ctx, db); err != nil {
		db.Close()
		return fail("SQLite schema migration failed", err)
	}
	return &SQLite{db: db}, nil
}

// sqliteMigrate applies the missing migrations in one immediate
// transaction, so two processes opening a new file at once apply them
// once.
func sqliteMigrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version > len(sqliteMigrations) {
		return errSchemaNewer
	}
	for _, m := range sqliteMigrations[version:] {
		if _, err := tx.ExecContext(ctx, m); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(len(sqliteMigrations))); err != nil {
		return err
	}
	return tx.Commit()
}

// Load implements session.Store.
func (s *SQLite) Load(ctx context.Context, k session.Key) (session.Record, error) {
	if err := checkKey("load", k); err != nil {
		return session.Record{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var rev int64
	var raw string
	err := s.db.QueryRowContext(ctx,
		`SELECT revision, messages FROM sessions WHERE site_id = ? AND subject = ? AND session_id = ?`,
		k.SiteID, k.Subject, k.SessionID).Scan(&rev, &raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return session.Record{}, nil
	case err != nil:
		return session.Record{}, unavailable(ctx, "load", err)
	}
	return decodeRow(rev, raw)
}

// Save implements session.Store: an INSERT that does nothing when the
// row exists (expectedRevision 0), or an UPDATE guarded by the expected
// revision. Either is one statement, so the check and the write cannot be
// split by another writer; a stale revision changes no row and reports
// false.
func (s *SQLite) Save(ctx context.Context, k session.Key, r session.Record, expectedRevision int) (bool, error) {
	if err := checkKey("save", k); err != nil {
		return false, err
	}
	if err := checkRecord(r, expectedRevision); err != nil {
		return false, err
	}
	raw := string(encodeMessages(r.Messages))
	now := time.Now().UnixMilli()
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var res sql.Result
	var err error
	if expectedRevision == 0 {
		res, err = s.db.ExecContext(ctx,
			`INSERT INTO sessions (site_id, subject, session_id, revision, messages, updated_at)
			 VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			k.SiteID, k.Subject, k.SessionID, r.Revision, raw, now)
	} else {
		res, err = s.db.ExecContext(ctx,
			`UPDATE sessions SET revision = ?, messages = ?, updated_at = ?
			 WHERE site_id = ? AND subject = ? AND session_id = ? AND revision = ?`,
			r.Revision, raw, now, k.SiteID, k.Subject, k.SessionID, expectedRevision)
	}
	if err != nil {
		return false, unavailable(ctx, "save", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, unavailable(ctx, "save", err)
	}
	return n == 1, nil
}

// Prune implements Pruner, deleting in batches so the write lock is never
// held for long.
func (s *SQLite) Prune(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		n, err := s.pruneBatch(ctx, before.UnixMilli())
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
	}
}

func (s *SQLite) pruneBatch(ctx context.Context, beforeMillis int64) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	res, err := s.db.ExecContext(ctx,
		`DELETE FROM sessions WHERE (site_id, subject, session_id) IN
		 (SELECT site_id, subject, session_id FROM sessions WHERE updated_at < ? LIMIT ?)`,
		beforeMillis, pruneBatch)
	if err != nil {
		return 0, unavailable(ctx, "prune", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, unavailable(ctx, "prune", err)
	}
	return n, nil
}

// Close closes the database; operations in flight finish first.
func (s *SQLite) Close() error { return s.db.Close() }

var (
	_ Backend = (*SQLite)(nil)
	_ Pruner  = (*SQLite)(nil)
)
