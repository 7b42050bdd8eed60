package store

// sqliteSessionsRowidMigration (10) makes sessions a rowid table, its key
// a UNIQUE index. In a WITHOUT ROWID table the rows are the key's b-tree:
// a row keeps about a kilobyte in its page and the rest of its messages
// in overflow pages, and every seek that compares a key against such a
// row (each step of the binary search in a leaf) first copied the whole
// row, overflow pages and all, to compare its first three columns: under
// the load bench about a fifth of a session turn's CPU. A rowid table
// keeps a row of up to about 4 KB whole in its leaf, and its key's index
// holds only the key: seeks compare short keys, and a turn rewrites one
// table page instead of a page and its overflow chain. The subject
// triggers and the other indexes go with the old table and are made
// again, the same. pad, last, holds the zeros that keep a row's length
// in its class (pad_sqlite.go).
const sqliteSessionsRowidMigration = `CREATE TABLE sessions_v10 (
		site_id    TEXT    NOT NULL,
		subject    TEXT    NOT NULL,
		session_id TEXT    NOT NULL,
		revision   INTEGER NOT NULL CHECK (revision >= 1),
		bytes      INTEGER NOT NULL CHECK (bytes >= 0), -- session.Size
		updated_at INTEGER NOT NULL, -- Unix milliseconds
		messages   TEXT    NOT NULL,
		pad        BLOB    NOT NULL DEFAULT x'', -- zeros (pad_sqlite.go)
		UNIQUE (site_id, subject, session_id)
	) STRICT;
	INSERT INTO sessions_v10 (site_id, subject, session_id, revision, bytes, updated_at, messages)
		SELECT site_id, subject, session_id, revision, bytes, updated_at, messages FROM sessions;
	DROP TABLE sessions;
	ALTER TABLE sessions_v10 RENAME TO sessions;
	CREATE INDEX sessions_subject_recent ON sessions (site_id, subject, updated_at, session_id, bytes);
	CREATE INDEX sessions_emptied ON sessions (site_id, subject, updated_at) WHERE bytes = 0;
	` + sqliteSubjectTriggers
