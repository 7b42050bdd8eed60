package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
	"github.com/jackc/pgx/v5"
)

// postgresTotalsMatch fails unless session_subjects holds exactly each
// subject's sum of bytes, and no row for a subject without sessions.
func postgresTotalsMatch(t *testing.T, raw *pgx.Conn) {
	t.Helper()
	var wrong, extra int
	if err := raw.QueryRow(t.Context(), `SELECT count(*) FROM (
		SELECT site_id, subject, sum(bytes) AS b FROM sessions GROUP BY site_id, subject
		EXCEPT SELECT site_id, subject, bytes FROM session_subjects) AS w`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if err := raw.QueryRow(t.Context(), `SELECT count(*) FROM session_subjects g WHERE NOT EXISTS
		(SELECT FROM sessions s WHERE s.site_id = g.site_id AND s.subject = g.subject)`).Scan(&extra); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 || extra != 0 {
		t.Fatalf("session_subjects: %d subjects with a wrong total, %d rows without sessions", wrong, extra)
	}
}

// TestPostgresSubjectTotalsFollowEveryWrite: the running per-subject total
// a save reads instead of summing the subject's sessions stays equal to
// that sum through inserts, saves, evictions, a conflict, forgets, a
// purge, the pruner and a write by another program.
func TestPostgresSubjectTotalsFollowEveryWrite(t *testing.T) {
	dsn := postgresSchema(t)
	s := openPostgres(t, dsn, store.Options{Limits: subjectOfTwo})
	raw := rawPostgres(t, dsn)
	key := func(subject, id string) session.Key {
		return session.Key{SiteID: "docs", Subject: subject, SessionID: id}
	}
	for i := range 4 {
		storetest.MustSave(t, s, key("anon:a", fmt.Sprint("s", i)), bigRecord(1, 30_000), 0, true) // evicts as it goes
		storetest.MustSave(t, s, key("anon:b", fmt.Sprint("s", i)), bigRecord(1, 100), 0, true)
		time.Sleep(2 * time.Millisecond)
	}
	postgresTotalsMatch(t, raw)
	var emptied int
	if err := raw.QueryRow(t.Context(), `SELECT count(*) FROM sessions WHERE subject = 'anon:a' AND bytes = 0`).Scan(&emptied); err != nil || emptied == 0 {
		t.Fatalf("%d sessions of anon:a emptied by its bound, %v", emptied, err)
	}
	storetest.MustSave(t, s, key("anon:a", "s3"), bigRecord(2, 50_000), 1, true)
	storetest.MustSave(t, s, key("anon:b", "s3"), bigRecord(1, 100), 0, false) // a conflict writes nothing
	postgresTotalsMatch(t, raw)
	if _, err := s.Delete(t.Context(), key("anon:b", "s0")); err != nil {
		t.Fatal(err)
	}
	postgresTotalsMatch(t, raw)
	// Another program's write is counted too.
	if _, err := raw.Exec(t.Context(), `UPDATE sessions SET bytes = bytes + 7 WHERE subject = 'anon:b' AND session_id = 's1'`); err != nil {
		t.Fatal(err)
	}
	postgresTotalsMatch(t, raw)
	// An emptied row past the grace is purged by the subject's next save.
	if _, err := raw.Exec(t.Context(), `UPDATE sessions SET updated_at = updated_at - $1::interval WHERE subject = 'anon:a' AND bytes = 0`,
		fmt.Sprintf("%d seconds", int((store.EvictedGrace+time.Second).Seconds()))); err != nil {
		t.Fatal(err)
	}
	storetest.MustSave(t, s, key("anon:a", "s3"), bigRecord(3, 100), 2, true)
	if err := raw.QueryRow(t.Context(), `SELECT count(*) FROM sessions WHERE subject = 'anon:a' AND bytes = 0`).Scan(&emptied); err != nil || emptied != 0 {
		t.Fatalf("%d emptied rows of anon:a left past the grace, %v", emptied, err)
	}
	postgresTotalsMatch(t, raw)
	// The pruner deletes everything written before now: no totals left.
	if _, err := s.Prune(t.Context(), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	postgresTotalsMatch(t, raw)
	var left int
	if err := raw.QueryRow(t.Context(), `SELECT count(*) FROM session_subjects`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d totals left after every session was pruned, %v", left, err)
	}
}

// TestPostgresSubjectTotalsUnderConcurrentSaves: savers of one subject
// racing (each its own session, as several tabs of one reader), with the
// subject past its bound, neither deadlock nor conflict, and leave the
// running total equal to the sum.
func TestPostgresSubjectTotalsUnderConcurrentSaves(t *testing.T) {
	dsn := postgresSchema(t)
	s := openPostgres(t, dsn, store.Options{Limits: subjectOfTwo})
	raw := rawPostgres(t, dsn)
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			var err error
			for i := 0; i < 6 && err == nil; i++ {
				k := session.Key{SiteID: "docs", Subject: "anon:a", SessionID: fmt.Sprintf("w%d-s%d", w, i)}
				var ok bool
				if ok, err = s.Save(t.Context(), k, bigRecord(1, 20_000), 0); err == nil && !ok {
					err = fmt.Errorf("%s: a conflict on a new session", k.SessionID)
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	postgresTotalsMatch(t, raw)
}
