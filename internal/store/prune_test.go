package store_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

// agedSessions is more than one prune batch, so Prune must loop.
const agedSessions = 2500

// checkPrune saves a fresh session, lets addAged write agedSessions rows
// last saved a day ago, and wants Prune to delete exactly those.
func checkPrune(t *testing.T, s interface {
	session.Store
	store.Pruner
}, addAged func(n int)) {
	fresh := storetest.Key(t, "fresh")
	storetest.MustSave(t, s, fresh, session.Record{Revision: 1, Messages: storetest.Messages("fresh", 1)}, 0, true)
	addAged(agedSessions)
	n, err := s.Prune(t.Context(), time.Now().Add(-time.Hour))
	if err != nil || n != agedSessions {
		t.Fatalf("Prune = %d, %v; want %d", n, err, agedSessions)
	}
	if r := storetest.MustLoad(t, s, fresh); r.Revision != 1 {
		t.Fatalf("the fresh session was pruned")
	}
	if r := storetest.MustLoad(t, s, session.Key{SiteID: "site-a", Subject: "anon:aged", SessionID: "aged-7"}); r.Revision != 0 {
		t.Fatalf("an aged session survived: %+v", r)
	}
	if n, err := s.Prune(t.Context(), time.Now().Add(-time.Hour)); n != 0 || err != nil {
		t.Fatalf("second Prune = %d, %v; want 0", n, err)
	}
}

func TestSQLitePrune(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	raw := rawSQLite(t, path)
	checkPrune(t, s, func(n int) {
		dayAgo := time.Now().Add(-24 * time.Hour).UnixMilli()
		tx, err := raw.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if _, err := tx.Exec(`INSERT INTO sessions (site_id, subject, session_id, revision, bytes, updated_at, messages)
				VALUES ('site-a', 'anon:aged', ?, 1, 66, ?, '[]')`, fmt.Sprintf("aged-%d", i), dayAgo); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPostgresPrune(t *testing.T) {
	dsn := postgresSchema(t)
	s := openPostgres(t, dsn)
	raw := rawPostgres(t, dsn)
	checkPrune(t, s, func(n int) {
		if _, err := raw.Exec(t.Context(),
			`INSERT INTO sessions (site_id, subject, session_id, revision, messages, bytes, updated_at)
			 SELECT 'site-a', 'anon:aged', 'aged-' || i, 1, '[]', 66, now() - interval '1 day'
			 FROM generate_series(0, $1 - 1) AS i`, n); err != nil {
			t.Fatal(err)
		}
	})
}

// SQLite's pruner walks sessions_subject_recent in batches that resume
// after the last key deleted: aged sessions spread over many subjects,
// each beside a fresh one written before and after them in the index's
// order, all go, over several batches, and no fresh one does.
func TestSQLitePruneResumesAcrossSubjects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	raw := rawSQLite(t, path)
	const subjects = 1200 // 2 aged sessions each: 2,400, more than two batches
	now := time.Now().UnixMilli()
	dayAgo := time.Now().Add(-24 * time.Hour).UnixMilli()
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range subjects {
		for j, at := range []int64{dayAgo, dayAgo + 1, now} {
			if _, err := tx.Exec(`INSERT INTO sessions (site_id, subject, session_id, revision, bytes, updated_at, messages)
				VALUES ('site-a', ?, ?, 1, 66, ?, '[]')`, fmt.Sprintf("anon:%04d", i), fmt.Sprintf("s%d", 2-j), at); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	n, err := s.Prune(t.Context(), time.Now().Add(-time.Hour))
	if err != nil || n != 2*subjects {
		t.Fatalf("Prune = %d, %v; want %d", n, err, 2*subjects)
	}
	var fresh, aged int
	if err := raw.QueryRow(`SELECT count(*) FILTER (WHERE updated_at = ?), count(*) FILTER (WHERE updated_at < ?) FROM sessions`, now, now).Scan(&fresh, &aged); err != nil {
		t.Fatal(err)
	}
	if fresh != subjects || aged != 0 {
		t.Fatalf("after Prune: %d fresh sessions, %d aged; want %d, 0", fresh, aged, subjects)
	}
}
