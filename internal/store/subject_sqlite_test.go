package store_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

// subjectTotalsMatch fails unless session_subjects holds exactly each
// subject's sum of bytes, and no row for a subject without sessions.
func subjectTotalsMatch(t *testing.T, raw *sql.DB) {
	t.Helper()
	var wrong int
	if err := raw.QueryRow(`SELECT count(*) FROM (
		SELECT site_id, subject, sum(bytes) AS b FROM sessions GROUP BY site_id, subject
		EXCEPT SELECT site_id, subject, bytes FROM session_subjects)`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	var extra int
	if err := raw.QueryRow(`SELECT count(*) FROM session_subjects g WHERE NOT EXISTS
		(SELECT 1 FROM sessions s WHERE s.site_id = g.site_id AND s.subject = g.subject)`).Scan(&extra); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 || extra != 0 {
		t.Fatalf("session_subjects: %d subjects with a wrong total, %d rows without sessions", wrong, extra)
	}
}

// TestSQLiteSubjectTotalsFollowEveryWrite: the running per-subject total
// a save reads instead of summing the subject's sessions stays equal to
// that sum through inserts, saves, evictions, forgets, a purge and the
// pruner, whichever connection makes them.
func TestSQLiteSubjectTotalsFollowEveryWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path, store.Options{Limits: subjectOfTwo})
	raw := rawSQLite(t, path)
	key := func(subject, id string) session.Key {
		return session.Key{SiteID: "docs", Subject: subject, SessionID: id}
	}
	for i := range 4 {
		storetest.MustSave(t, s, key("anon:a", fmt.Sprint("s", i)), bigRecord(1, 30_000), 0, true) // evicts as it goes
		storetest.MustSave(t, s, key("anon:b", fmt.Sprint("s", i)), bigRecord(1, 100), 0, true)
		time.Sleep(2 * time.Millisecond)
	}
	subjectTotalsMatch(t, raw)
	storetest.MustSave(t, s, key("anon:a", "s3"), bigRecord(2, 50_000), 1, true)
	storetest.MustSave(t, s, key("anon:b", "s3"), bigRecord(1, 100), 0, false) // a conflict writes nothing
	subjectTotalsMatch(t, raw)
	if _, err := s.Delete(t.Context(), key("anon:b", "s0")); err != nil {
		t.Fatal(err)
	}
	subjectTotalsMatch(t, raw)
	// An emptied row past the grace is purged by the subject's next save.
	if _, err := raw.Exec(`UPDATE sessions SET updated_at = updated_at - ? WHERE subject = 'anon:a' AND bytes = 0`,
		(store.EvictedGrace + time.Second).Milliseconds()); err != nil {
		t.Fatal(err)
	}
	storetest.MustSave(t, s, key("anon:a", "s3"), bigRecord(3, 100), 2, true)
	var emptied int
	if err := raw.QueryRow(`SELECT count(*) FROM sessions WHERE subject = 'anon:a' AND bytes = 0`).Scan(&emptied); err != nil || emptied != 0 {
		t.Fatalf("%d emptied rows of anon:a left past the grace, %v", emptied, err)
	}
	subjectTotalsMatch(t, raw)
	// The pruner deletes everything written before now: no totals left.
	if _, err := s.Prune(t.Context(), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	subjectTotalsMatch(t, raw)
	var left int
	if err := raw.QueryRow(`SELECT count(*) FROM session_subjects`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d totals left after every session was pruned, %v", left, err)
	}
}

// TestSubjectBoundEvictsOldestUntilItFits: a save that takes its subject
// far past MaxSubjectBytes empties as many of the oldest-written
// sessions as it takes and no more (SQLite walks them oldest first from
// the running total, PostgreSQL ranks them when its total is past the
// bound; memory keeps its own order): with four of about
// 20 KB and one of 60 KB against a bound of about 96 KiB, the three
// oldest go and the fourth stays.
func TestSubjectBoundEvictsOldestUntilItFits(t *testing.T) {
	run := func(t *testing.T, s session.Store) {
		key := func(id string) session.Key { return session.Key{SiteID: "docs", Subject: "anon:a", SessionID: id} }
		for i := range 4 {
			storetest.MustSave(t, s, key(fmt.Sprint("s", i)), bigRecord(1, 20_000), 0, true)
			time.Sleep(3 * time.Millisecond)
		}
		storetest.MustSave(t, s, key("new"), bigRecord(1, 60_000), 0, true)
		for i, kept := range []bool{false, false, false, true} {
			r := storetest.MustLoad(t, s, key(fmt.Sprint("s", i)))
			if (len(r.Messages) != 0) != kept {
				t.Errorf("s%d kept = %v, want %v", i, len(r.Messages) != 0, kept)
			}
		}
		if r := storetest.MustLoad(t, s, key("new")); len(r.Messages) == 0 {
			t.Errorf("the session saved was evicted")
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		run(t, openSQLite(t, filepath.Join(t.TempDir(), "sessions.db"), store.Options{Limits: subjectOfTwo}))
	})
	t.Run("postgres", func(t *testing.T) {
		run(t, openPostgres(t, postgresSchema(t), store.Options{Limits: subjectOfTwo}))
	})
	t.Run("memory", func(t *testing.T) {
		s, err := store.Open(t.Context(), "memory:", store.Options{Limits: subjectOfTwo})
		if err != nil {
			t.Fatal(err)
		}
		run(t, s)
	})
}
