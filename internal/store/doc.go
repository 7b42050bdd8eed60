// Package store keeps Ask sessions (session.Store) where they survive a
// restart: in one SQLite file by default, or in PostgreSQL when several
// sidecar instances serve one site and must share their sessions.
//
// Open picks the backend from a DSN ("memory:", "sqlite:PATH" or a plain
// path, "postgres://…"), so the sidecar config names it in one string.
//
// Why these two. SQLite, through modernc.org/sqlite, is pure Go: the
// sidecar stays one static binary with no cgo and no server to run, and a
// file in WAL mode serves one host's instances well. PostgreSQL (pgx and
// its pool) is the database operators already run when they run several
// hosts; nothing else here needs a server.
//
// Compare-and-swap. Both backends write a session in one SQL statement
// that is the check and the write at once: INSERT … ON CONFLICT DO NOTHING
// for a new session (expected revision 0) and UPDATE … WHERE revision = ?
// otherwise. The database serialises two writers of one row, and the one
// that comes second matches no row, so Save reports false and the stored
// record stays as the winner left it. No process-local lock is involved,
// which is what makes several instances (or two handles on one file) safe.
//
// Storage. One row per (site_id, subject, session_id) with the revision,
// the messages as JSON text, bytes (the record's session.Size: that
// text's length plus session.RecordOverheadBytes) and updated_at. The JSON is written with
// JSON.stringify's escaping (internal/ecmajson) and kept as text, never
// jsonb, so Load returns exactly the strings that were saved. SQLite
// keeps each row at a capacity class with a column of zeros after the
// text, so a turn that stays in its class is written in place
// (pad_sqlite.go). Rows are
// decoded strictly on the way out; a row that is not a valid record is a
// CodeCorrupt error, never a panic or a partial record.
//
// Bounds. A record is checked before it is written: at most MaxMessages
// messages, roles user or assistant, content of at most MaxContentLen
// UTF-16 units in valid UTF-8, and a revision one above the expected one.
// Key parts are non-empty text of at most MaxKeyLen bytes. Every operation
// is bounded by the caller's context and by OpTimeout (PostgreSQL also
// gets statement and lock timeouts, and a cancel request when a context
// ends). Bytes are bounded by session.Limits (Options.Limits): Save
// refuses a record over MaxSessionBytes (CodeInvalidRecord wrapping
// session.ErrRecordTooLarge), and a Save that takes its subject over
// MaxSubjectBytes deletes that subject's oldest-written other sessions in
// the same transaction. Sessions otherwise stay until Prune deletes those
// not saved for a while, and then the oldest-written while the table is
// over MaxTotalBytes.
//
// Readiness. Every Backend implements session.Checker: memory is always
// ready, PostgreSQL answers a ping, and SQLite checks that its path still
// names the file it opened (Save checks that too, so a deleted file fails
// writes instead of swallowing them), that the file's mode lets it be
// written, and that the write lock can be taken.
//
// A Save that returns an error may or may not have been applied (the
// commit can succeed as the connection fails); the next Load tells.
//
// Errors are *Error values with a stable Code; branch on it with errors.As
// or CodeOf. No error text contains a DSN's password (Redacted gives a DSN
// fit for a log) or any message content.
package store
