package store

// postgresSubjectsMigration (8) keeps each subject's bytes in a row of
// its own, as SQLite's migration 8 does (subject_sqlite.go): triggers on
// sessions update it on every write, whoever makes it (a save, an
// eviction, a forget, the pruner, another instance), so a save reads its
// subject's total in one index lookup instead of summing every session
// of the subject, and runs the window over them only when the subject is
// past its bound. The partial index holds only emptied (evicted) rows, so
// the purge of those past the grace is an index lookup too.
//
// The triggers are created before the backfill, in the migration's one
// transaction: CREATE TRIGGER locks sessions against writes until the
// commit, so no write lands between the sum and the first trigger.
//
// A subject's row is deleted with its last session. A save that inserts
// a session for the subject meanwhile waits for that delete on the row's
// lock and then inserts the row again, with its own bytes: the total of
// the sessions left.
const postgresSubjectsMigration = `CREATE TABLE session_subjects (
		site_id text   NOT NULL,
		subject text   NOT NULL,
		bytes   bigint NOT NULL, -- the sum of the subject's sessions' bytes
		PRIMARY KEY (site_id, subject)
	);
	CREATE FUNCTION askplane_session_subjects() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF TG_OP = 'INSERT' THEN
			INSERT INTO session_subjects AS t (site_id, subject, bytes) VALUES (NEW.site_id, NEW.subject, NEW.bytes)
				ON CONFLICT (site_id, subject) DO UPDATE SET bytes = t.bytes + excluded.bytes;
		ELSIF TG_OP = 'UPDATE' THEN
			UPDATE session_subjects SET bytes = bytes + NEW.bytes - OLD.bytes
				WHERE site_id = NEW.site_id AND subject = NEW.subject;
		ELSE
			UPDATE session_subjects SET bytes = bytes - OLD.bytes
				WHERE site_id = OLD.site_id AND subject = OLD.subject;
			DELETE FROM session_subjects WHERE site_id = OLD.site_id AND subject = OLD.subject
				AND NOT EXISTS (SELECT FROM sessions WHERE site_id = OLD.site_id AND subject = OLD.subject);
		END IF;
		RETURN NULL;
	END $$;
	CREATE TRIGGER sessions_subject_insert AFTER INSERT ON sessions
		FOR EACH ROW EXECUTE FUNCTION askplane_session_subjects();
	CREATE TRIGGER sessions_subject_update AFTER UPDATE OF bytes ON sessions
		FOR EACH ROW WHEN (NEW.bytes <> OLD.bytes) EXECUTE FUNCTION askplane_session_subjects();
	CREATE TRIGGER sessions_subject_delete AFTER DELETE ON sessions
		FOR EACH ROW EXECUTE FUNCTION askplane_session_subjects();
	INSERT INTO session_subjects (site_id, subject, bytes)
		SELECT site_id, subject, sum(bytes) FROM sessions GROUP BY site_id, subject;
	CREATE INDEX sessions_emptied ON sessions (site_id, subject, updated_at) WHERE bytes = 0`
