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
//
// The store remembers the file it opened: once the path names another
// file or none (deleted, replaced by a restore), Save and Check fail with
// CodeUnavailable instead of writing to a file no one will open again.
// Load keeps reading the open file.
type SQLite struct {
	db     *sql.DB
	path   string
	file   os.FileInfo // the file at path when opened
	limits session.Limits
	// sources bound the retained corpus versions (sources_sqlite.go).
	sources  SourceLimits
	runStore // durable runs (runs.go, runs_sqlite.go)
	health   writeHealth
	// sess is one connection of its own for the session statements
	// every question runs (Load, Save, Delete). SQLite drops a
	// connection's whole page cache when it begins a transaction after
	// another connection has written; with the sessions spread over db's
	// pool, almost every Load and Save began that way and read its pages
	// again (29 pread calls a question under the load bench, 5 on one
	// connection). Saves are serialised by SQLite's write lock anyway,
	// and a Load is a point read, so one connection costs them little
	// waiting. The rest (runs, sources, insights, pruning, checks) keeps
	// the pool.
	sess *sql.DB
	// conn is sess's one connection, held for the store's life, and turn
	// lets one session operation at a time use it (taken within the
	// caller's context). Holding it is what lets a Save run its own
	// BEGIN IMMEDIATE and COMMIT as prepared statements, and run the
	// statements between them, and Load's point read, without a context
	// the driver must watch: database/sql's transactions and rows, and the
	// driver's statements, each start a goroutine to watch a cancellable
	// context (six or seven an answer, with their contexts, about a tenth
	// of a session turn's CPU). The one wait a session statement can meet,
	// for another process's write lock, is BEGIN IMMEDIATE's (and a
	// Delete's), and those still end with the caller's context; a save
	// past its BEGIN holds the lock, so it runs to its commit in
	// microseconds.
	conn *sql.Conn
	turn chan struct{}
	// stmts are the session statements, prepared once on conn: parsing
	// them anew cost a sixth of the server's CPU under load.
	stmts sqliteStmts
}

// sqliteStmts are the prepared session statements.
type sqliteStmts struct {
	load, insert, update, subject, oldest, evict, purge, del, begin, commit, rollback *sql.Stmt
}

// The session statements Load and Save run.
const (
	sqliteLoad   = `SELECT revision, messages FROM sessions WHERE site_id = ? AND subject = ? AND session_id = ?`
	sqliteInsert = `INSERT INTO sessions (site_id, subject, session_id, revision, bytes, updated_at, messages, pad)
			 VALUES (?, ?, ?, ?, ?, ?, ?, zeroblob(?)) ON CONFLICT DO NOTHING`
	sqliteUpdate = `UPDATE sessions SET revision = ?, bytes = ?, updated_at = ?, messages = ?, pad = zeroblob(?)
			 WHERE site_id = ? AND subject = ? AND session_id = ? AND revision = ?`
	sqliteDelete = `DELETE FROM sessions WHERE site_id = ? AND subject = ? AND session_id = ?`
)

// quiet is the context of the session statements that cannot wait on
// another connection (see SQLite.conn): one the driver need not watch.
var quiet = context.Background()

// prepare prepares the session statements on conn.
func (st *sqliteStmts) prepare(ctx context.Context, conn *sql.Conn) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		text string
	}{{&st.load, sqliteLoad}, {&st.insert, sqliteInsert}, {&st.update, sqliteUpdate}, {&st.subject, sqliteSubjectState}, {&st.oldest, sqliteSubjectOldest}, {&st.evict, sqliteEvictSession}, {&st.purge, sqlitePurgeEvicted},
		{&st.del, sqliteDelete}, {&st.begin, "BEGIN IMMEDIATE"}, {&st.commit, "COMMIT"}, {&st.rollback, "ROLLBACK"}} {
		stmt, err := conn.PrepareContext(ctx, p.text)
		if err != nil {
			st.close()
			return err
		}
		*p.stmt = stmt
	}
	return nil
}

// close closes the statements prepared.
func (st *sqliteStmts) close() {
	for _, stmt := range []*sql.Stmt{st.load, st.insert, st.update, st.subject, st.oldest, st.evict, st.purge, st.del, st.begin, st.commit, st.rollback} {
		if stmt != nil {
			stmt.Close()
		}
	}
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
	// sqliteCheckpointPages is the WAL's length, in pages, at which a
	// commit copies it into the database file (SQLite's default is
	// 1,000). Each checkpoint costs two fsyncs and copies each page once
	// however often it was written, and a session save writes about six
	// pages, most of them the same few index and table pages: a longer
	// WAL (about 16 MiB on disk) does the same work in fewer, cheaper
	// checkpoints.
	sqliteCheckpointPages = 4000
	// sqliteMmapBytes is how much of the file the session connection
	// reads through a memory map rather than pread(2). A session's
	// messages overflow their table page, and SQLite reads overflow
	// pages straight from the file, bypassing its page cache: about ten
	// pread calls a question, none with the map (a load and save turn
	// costs a sixth less CPU). Only reads use it; writes stay pwrite, so
	// a full disk is still an error. The pages it touches count in the
	// process's RSS as file pages the kernel can reclaim.
	sqliteMmapBytes = 64 << 20
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
	// 3: bytes, each row's session.Size, set by every Save and summed by
	// the subject and total bounds. The table is rebuilt so that bytes and
	// updated_at come before messages in the row: the bounds read them
	// without reading the messages' overflow pages. Existing rows get the
	// size of their text, which is what Size gives for it. The index on
	// (updated_at, bytes) covers the pruner's scans (a WITHOUT ROWID
	// table's index entries hold the primary key too).
	`CREATE TABLE sessions_v3 (
		site_id    TEXT    NOT NULL,
		subject    TEXT    NOT NULL,
		session_id TEXT    NOT NULL,
		revision   INTEGER NOT NULL CHECK (revision >= 1),
		bytes      INTEGER NOT NULL CHECK (bytes >= 0), -- session.Size
		updated_at INTEGER NOT NULL, -- Unix milliseconds
		messages   TEXT    NOT NULL,
		PRIMARY KEY (site_id, subject, session_id)
	) STRICT, WITHOUT ROWID;
	INSERT INTO sessions_v3 (site_id, subject, session_id, revision, bytes, updated_at, messages)
		SELECT site_id, subject, session_id, revision, octet_length(messages) + ` + strconv.Itoa(session.RecordOverheadBytes) + `, updated_at, messages
		FROM sessions;
	DROP TABLE sessions;
	ALTER TABLE sessions_v3 RENAME TO sessions;
	CREATE INDEX sessions_updated_at_bytes ON sessions (updated_at, bytes)`,
	// 4: retained corpus versions (sources_sqlite.go). A rowid table, not
	// WITHOUT ROWID: its rows are megabytes, which SQLite keeps in
	// overflow pages either way, and the eviction scans read only seq and
	// bytes through the index. seq orders puts (a new put, or a reload,
	// takes the next); permits are deleted with their version.
	`CREATE TABLE sources (
		site_id   TEXT    NOT NULL,
		version   TEXT    NOT NULL,
		seq       INTEGER NOT NULL,
		bytes     INTEGER NOT NULL CHECK (bytes >= 0),
		stored_at INTEGER NOT NULL, -- Unix milliseconds
		data      BLOB    NOT NULL,
		PRIMARY KEY (site_id, version)
	) STRICT;
	CREATE INDEX sources_seq_bytes ON sources (seq, bytes);
	CREATE TABLE source_engines (
		site_id TEXT NOT NULL,
		version TEXT NOT NULL,
		engine  TEXT NOT NULL,
		PRIMARY KEY (site_id, version, engine)
	) STRICT, WITHOUT ROWID`,
	// 5: durable runs (runs_sqlite.go).
	sqliteRunsMigration,
	// 6: insights (insights_sqlite.go).
	sqliteInsightsMigration,
	// 7: the subject bound's scans (the eviction's, sqlitePurgeEvicted,
	// run by every Save) read this index, not the table: a table row keeps
	// up to about a kilobyte of its messages in the page, so a subject's
	// few dozen sessions filled as many pages, read again on every save
	// (another connection's write discards a connection's page cache).
	`CREATE INDEX sessions_subject_recent ON sessions (site_id, subject, updated_at, session_id, bytes)`,
	// 8: each subject's bytes, kept by triggers (subject_sqlite.go).
	sqliteSubjectsMigration,
	// 9: the pruner's index goes (prune_sqlite.go): every save moved the
	// row's entry in it (a WAL frame and two b-tree seeks a save) for a
	// scan that runs once an hour; the pruner walks
	// sessions_subject_recent instead.
	`DROP INDEX sessions_updated_at_bytes`,
	// 10: sessions becomes a rowid table (sessions_rowid_sqlite.go).
	sqliteSessionsRowidMigration,
}

// OpenSQLite opens (creating when absent) the SQLite file at path and its
// folder, switches it to WAL and applies the schema. The file is created
// readable by its owner only, since it holds users' conversations. opts is
// at most one Options; the limits default to session.DefaultDurableLimits.
func OpenSQLite(ctx context.Context, path string, opts ...Options) (*SQLite, error) {
	fail := func(reason string, err error) (*SQLite, error) {
		return nil, &Error{Code: CodeOpenFailed, Op: "open", Reason: reason, Err: err}
	}
	lim, err := limits(opts, session.DefaultDurableLimits())
	if err != nil {
		return nil, err
	}
	slim, err := sourceLimits(opts)
	if err != nil {
		return nil, err
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
		"&_pragma=synchronous(NORMAL)&_pragma=wal_autocheckpoint(" + strconv.Itoa(sqliteCheckpointPages) + ")&_txlock=immediate"
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
	// The driver has the file open now: this is the file Check compares.
	fi, err := os.Stat(abs)
	if err != nil {
		db.Close()
		return fail("SQLite file cannot be opened", err)
	}
	sess, err := sql.Open("sqlite", dsn+"&_pragma=mmap_size("+strconv.Itoa(sqliteMmapBytes)+")")
	if err != nil {
		db.Close()
		return fail("SQLite driver refused the file", err)
	}
	sess.SetMaxOpenConns(1)
	sess.SetMaxIdleConns(1)
	conn, err := sess.Conn(ctx)
	if err != nil {
		sess.Close()
		db.Close()
		return fail("SQLite file cannot be opened", err)
	}
	s := &SQLite{db: db, sess: sess, conn: conn, turn: make(chan struct{}, 1), path: abs, file: fi, limits: lim, sources: slim}
	if err := s.stmts.prepare(ctx, conn); err != nil {
		conn.Close()
		sess.Close()
		db.Close()
		return fail("SQLite statements cannot be prepared", err)
	}
	s.runStore = runStore{sqliteRuns{s}}
	return s, nil
}

// acquire waits for the session connection, within ctx; release gives
// it back.
func (s *SQLite) acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err // a done context never runs a statement, free connection or not
	}
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *SQLite) release() { <-s.turn }

// Reasons Check and Save give for a file they will not use.
const (
	reasonFileGone     = "SQLite file was removed or replaced"
	reasonFileReadOnly = "SQLite file is read-only (its mode has no write bit)"
)

// fileGone reports whether the path no longer names the file opened. It
// costs one stat(2), about a microsecond, which Save pays every time: a
// small price beside the write itself (hundreds of microseconds), for not
// losing a write to an unlinked file.
func (s *SQLite) fileGone() bool {
	fi, err := os.Stat(s.path)
	return err != nil || !os.SameFile(fi, s.file)
}

// Check implements session.Checker, within CheckTimeout: the path still
// names the file opened; its mode still has a write bit (root writes
// whatever the mode, so a chmod would otherwise go unnoticed until a
// restart fails); the write lock can be taken (BEGIN IMMEDIATE, rolled
// back, on a pooled connection) and a SELECT 1 answers.
func (s *SQLite) Check(ctx context.Context) error {
	if s.fileGone() {
		return &Error{Code: CodeUnavailable, Op: "check", Reason: reasonFileGone}
	}
	if fi, err := os.Stat(s.path); err == nil && fi.Mode().Perm()&0o222 == 0 {
		return &Error{Code: CodeUnavailable, Op: "check", Reason: reasonFileReadOnly}
	}
	ctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return unavailable(ctx, "check", err)
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return unavailable(ctx, "check", err)
	}
	tx.Rollback()
	return s.health.writable(ctx, "check", s.probe)
}

// Writable implements session.WriteChecker: nil unless the last write
// failed and neither a write nor a probe write has succeeded since.
func (s *SQLite) Writable(ctx context.Context) error {
	return s.health.writable(ctx, "writable", s.probe)
}

// probe writes the file's header (user_version, set to what it is) in an
// immediate transaction: a commit that needs the disk, and changes
// nothing.
func (s *SQLite) probe(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(len(sqliteMigrations))); err != nil {
		return err
	}
	return tx.Commit()
}

// wrote records a write's result in the store's write health and returns
// err as the store error of op.
func (s *SQLite) wrote(ctx context.Context, op string, err error) error {
	s.health.note(ctx, err)
	if err == nil {
		return nil
	}
	return unavailable(ctx, op, err)
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
	if err := s.acquire(ctx); err != nil {
		return session.Record{}, unavailable(ctx, "load", err)
	}
	var rev int64
	var raw string
	err := s.stmts.load.QueryRowContext(quiet, k.SiteID, k.Subject, k.SessionID).Scan(&rev, &raw) // WAL: a read waits for no writer
	s.release()
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return session.Record{}, nil
	case err != nil:
		return session.Record{}, unavailable(ctx, "load", err)
	}
	return decodeRow(rev, raw)
}

// Delete implements session.Deleter: one DELETE of the key's row.
func (s *SQLite) Delete(ctx context.Context, k session.Key) (bool, error) {
	if err := checkKey("delete", k); err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	if s.fileGone() {
		return false, &Error{Code: CodeUnavailable, Op: "delete", Reason: reasonFileGone}
	}
	if err := s.acquire(ctx); err != nil {
		return false, unavailable(ctx, "delete", err)
	}
	res, err := s.stmts.del.ExecContext(ctx, k.SiteID, k.Subject, k.SessionID)
	s.release()
	if err != nil {
		return false, s.wrote(ctx, "delete", err)
	}
	s.health.note(ctx, nil)
	n, err := res.RowsAffected()
	if err != nil {
		return false, unavailable(ctx, "delete", err)
	}
	return n == 1, nil
}

// Save implements session.Store: an INSERT that does nothing when the
// row exists (expectedRevision 0), or an UPDATE guarded by the expected
// revision. Either is one statement, so the check and the write cannot be
// split by another writer; a stale revision changes no row and reports
// false. A write that lands is followed, in the same immediate
// transaction, by the subject bound (boundSubject): the subject's other
// sessions, newest first, are kept while they fit MaxSubjectBytes beside
// this one, and the older ones emptied.
func (s *SQLite) Save(ctx context.Context, k session.Key, r session.Record, expectedRevision int) (bool, error) {
	if err := checkKey("save", k); err != nil {
		return false, err
	}
	enc, size, err := checkRecord(r, expectedRevision, s.limits.MaxSessionBytes)
	if err != nil {
		return false, err
	}
	now := time.Now().UnixMilli()
	raw := string(enc)
	pad := sqlitePadLen(k, int64(r.Revision), size, now, len(raw))
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return false, unavailable(ctx, "save", err)
	}
	if s.fileGone() {
		return false, &Error{Code: CodeUnavailable, Op: "save", Reason: reasonFileGone}
	}
	if err := s.health.injected("save"); err != nil {
		return false, s.wrote(ctx, "save", err)
	}
	if err := s.acquire(ctx); err != nil {
		return false, unavailable(ctx, "save", err)
	}
	defer s.release()
	// The write lock, waiting for another process's within ctx; from
	// here on nothing waits, and the statements run without it.
	if _, err := s.stmts.begin.ExecContext(ctx); err != nil {
		return false, unavailable(ctx, "save", err)
	}
	committed := false
	defer func() {
		if !committed {
			s.stmts.rollback.ExecContext(quiet) // an error here means SQLite rolled back already
		}
	}()
	var res sql.Result
	if expectedRevision == 0 {
		res, err = s.stmts.insert.ExecContext(quiet,
			k.SiteID, k.Subject, k.SessionID, r.Revision, size, now, raw, pad)
	} else {
		res, err = s.stmts.update.ExecContext(quiet,
			r.Revision, size, now, raw, pad, k.SiteID, k.Subject, k.SessionID, expectedRevision)
	}
	if err != nil {
		return false, s.wrote(ctx, "save", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, unavailable(ctx, "save", err)
	}
	if n != 1 {
		return false, nil // a stale revision; not a fault
	}
	if err := s.boundSubject(k, now); err != nil {
		return false, s.wrote(ctx, "save", err)
	}
	if _, err := s.stmts.commit.ExecContext(quiet); err != nil {
		return false, s.wrote(ctx, "save", err)
	}
	committed = true
	s.health.note(ctx, nil)
	return true, nil
}

// Close closes the database; operations in flight finish first.
func (s *SQLite) Close() error {
	s.stmts.close()
	return errors.Join(s.conn.Close(), s.sess.Close(), s.db.Close())
}

var (
	_ Backend = (*SQLite)(nil)
	_ Pruner  = (*SQLite)(nil)
)

// Limits implements session.Limited.
func (s *SQLite) Limits() session.Limits { return s.limits }
