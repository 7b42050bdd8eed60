package store

import (
	"database/sql"
	"errors"

	"github.com/askplane/askplane/internal/session"
)

// sqliteSubjectsMigration (8) keeps each subject's bytes in a row of its
// own, updated by triggers on every write to sessions (whoever makes it:
// a save, an eviction, a forget, the pruner, another instance), so a
// save reads its subject's total in one lookup. Summing the subject's
// sessions on every save cost a save more the longer the subject asked:
// after 30 s of the load bench the sum and the eviction's window over
// every session of the subject were half of a save. The partial index
// holds only emptied (evicted) rows, so whether any is old enough to
// purge is one lookup too.
const sqliteSubjectsMigration = `CREATE TABLE session_subjects (
		site_id TEXT    NOT NULL,
		subject TEXT    NOT NULL,
		bytes   INTEGER NOT NULL, -- the sum of the subject's sessions' bytes
		PRIMARY KEY (site_id, subject)
	) STRICT, WITHOUT ROWID;
	INSERT INTO session_subjects (site_id, subject, bytes)
		SELECT site_id, subject, sum(bytes) FROM sessions GROUP BY site_id, subject;
	` + sqliteSubjectTriggers + `
	CREATE INDEX sessions_emptied ON sessions (site_id, subject, updated_at) WHERE bytes = 0`

// sqliteSubjectTriggers keep session_subjects (migrations 8 and 10).
const sqliteSubjectTriggers = `	CREATE TRIGGER sessions_subject_insert AFTER INSERT ON sessions BEGIN
		INSERT INTO session_subjects (site_id, subject, bytes) VALUES (new.site_id, new.subject, new.bytes)
			ON CONFLICT (site_id, subject) DO UPDATE SET bytes = bytes + excluded.bytes;
	END;
	CREATE TRIGGER sessions_subject_update AFTER UPDATE OF bytes ON sessions WHEN new.bytes <> old.bytes BEGIN
		UPDATE session_subjects SET bytes = bytes + new.bytes - old.bytes
			WHERE site_id = new.site_id AND subject = new.subject;
	END;
	CREATE TRIGGER sessions_subject_delete AFTER DELETE ON sessions BEGIN
		UPDATE session_subjects SET bytes = bytes - old.bytes
			WHERE site_id = old.site_id AND subject = old.subject;
		DELETE FROM session_subjects WHERE site_id = old.site_id AND subject = old.subject
			AND NOT EXISTS (SELECT 1 FROM sessions WHERE site_id = old.site_id AND subject = old.subject);
	END;`

// The subject bound's statements.
const (
	// sqliteSubjectState is subject (?1, ?2)'s bytes, this save's
	// included, and when the oldest of its sessions that an eviction
	// emptied was written (NULL when none is empty): the first entry of
	// the partial index. The session just saved is never among them (a
	// saved record has at least RecordOverheadBytes), so no filter keeps
	// min() from reading that one entry.
	sqliteSubjectState = `SELECT (SELECT bytes FROM session_subjects WHERE site_id = ?1 AND subject = ?2),
		(SELECT min(updated_at) FROM sessions WHERE site_id = ?1 AND subject = ?2 AND bytes = 0)`
	// sqliteSubjectOldest is subject (?1, ?2)'s sessions other than ?3
	// that hold bytes, oldest-written first (the index's order: no sort,
	// and the caller stops reading once it has enough).
	sqliteSubjectOldest = `SELECT session_id, bytes FROM sessions
		WHERE site_id = ?1 AND subject = ?2 AND session_id <> ?3 AND bytes > 0 ORDER BY updated_at, session_id`
	// sqliteEvictSession empties session (?1, ?2, ?3), written at ?4. An
	// evicted session keeps its row and revision, with no messages and no
	// bytes: an answer being written for it (loaded before it was
	// evicted) still saves over that revision, where a deleted row would
	// make its save a conflict after its text streamed. The purge deletes
	// the emptied rows once no answer can be in flight for them.
	sqliteEvictSession = `UPDATE sessions SET messages = '[]', pad = x'', bytes = 0, updated_at = ?4
		WHERE site_id = ?1 AND subject = ?2 AND session_id = ?3 AND bytes > 0`
	// sqlitePurgeEvicted deletes subject (?1, ?2)'s sessions other than
	// ?3 that were evicted before ?4 (EvictedGrace ago).
	sqlitePurgeEvicted = `DELETE FROM sessions WHERE site_id = ?1 AND subject = ?2 AND session_id <> ?3 AND bytes = 0 AND updated_at < ?4`
)

// boundSubject enforces MaxSubjectBytes after k's save of size bytes at
// now, inside that save's transaction: the subject's other sessions,
// newest first, are kept while they fit beside this one, and the older
// ones emptied; sessions emptied before the grace are deleted.
//
// Walking oldest first, a session is emptied exactly when the sessions
// older than it hold less than the subject's excess (its bytes past the
// bound): the same sessions a running sum from the newest down would
// find not fitting, read from the oldest end of the index until the
// excess is covered, usually one or two rows.
//
// It runs on the session connection inside the save's transaction, so its
// statements wait for nothing and need no context (SQLite.conn).
func (s *SQLite) boundSubject(k session.Key, now int64) error {
	var total sql.NullInt64
	var emptied sql.NullInt64
	if err := s.stmts.subject.QueryRowContext(quiet, k.SiteID, k.Subject).Scan(&total, &emptied); err != nil {
		return err
	}
	if excess := total.Int64 - s.limits.MaxSubjectBytes; excess > 0 {
		rows, err := s.stmts.oldest.QueryContext(quiet, k.SiteID, k.Subject, k.SessionID)
		if err != nil {
			return err
		}
		var evict []string
		for older := int64(0); older < excess && rows.Next(); {
			var id string
			var bytes int64
			if err := rows.Scan(&id, &bytes); err != nil {
				rows.Close()
				return err
			}
			evict = append(evict, id)
			older += bytes
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		for _, id := range evict {
			if _, err := s.stmts.evict.ExecContext(quiet, k.SiteID, k.Subject, id, now); err != nil {
				return err
			}
		}
	}
	// Sessions emptied just now are dated now, inside the grace.
	if cutoff := now - EvictedGrace.Milliseconds(); emptied.Valid && emptied.Int64 < cutoff {
		if _, err := s.stmts.purge.ExecContext(quiet, k.SiteID, k.Subject, k.SessionID, cutoff); err != nil {
			return err
		}
	}
	return nil
}
