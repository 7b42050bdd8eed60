package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

func TestOpenOptionsLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	for name, opts := range map[string][]store.Options{
		"SessionTooSmall":     {{Limits: session.Limits{MaxSessionBytes: 1000}}},
		"SubjectBelowSession": {{Limits: session.Limits{MaxSubjectBytes: session.MinSessionBytes - 1}}},
		"Negative":            {{Limits: session.Limits{MaxTotalBytes: -1}}},
		"TwoOptions":          {{}, {}},
	} {
		for _, dsn := range []string{"memory:", path} {
			if s, err := store.Open(t.Context(), dsn, opts...); s != nil || store.CodeOf(err) != store.CodeOpenFailed {
				t.Errorf("%s %s: Open = %v, %v; want %s", name, dsn, s, err, store.CodeOpenFailed)
			}
		}
	}
	_, err := store.Open(t.Context(), "memory:", store.Options{Limits: session.Limits{MaxSessionBytes: 1000}})
	if !errors.Is(err, session.ErrSessionBytesTooSmall) {
		t.Errorf("err = %v, want it to wrap ErrSessionBytesTooSmall", err)
	}
	// Zero fields take the defaults: this MaxSessionBytes under the default
	// subject share is valid, and enforced.
	s, err := store.Open(t.Context(), "memory:", store.Options{Limits: session.Limits{MaxSessionBytes: session.MinSessionBytes}})
	if err != nil {
		t.Fatal(err)
	}
	big := storetest.BigRecord(1, "b")
	big.Messages = append(big.Messages, big.Messages[:2]...)
	if ok, err := s.Save(t.Context(), storetest.Key(t, "s"), big, 0); ok || !errors.Is(err, session.ErrRecordTooLarge) {
		t.Fatalf("Save = %v, %v", ok, err)
	}
}

// checkPruneTotal saves nine BigRecords in nine subjects into a store
// bounded to six, and wants Prune, with nothing aged, to delete the three
// written first.
func checkPruneTotal(t *testing.T, s interface {
	session.Store
	store.Pruner
}) {
	key := func(i int) session.Key {
		return session.Key{SiteID: "site-a", Subject: fmt.Sprint("anon:", i), SessionID: "s"}
	}
	for i := range 9 {
		time.Sleep(3 * time.Millisecond) // apart on a millisecond clock
		storetest.MustSave(t, s, key(i), storetest.BigRecord(1, "t"), 0, true)
	}
	n, err := s.Prune(t.Context(), time.Time{})
	if err != nil || n != 3 {
		t.Fatalf("Prune = %d, %v; want 3", n, err)
	}
	for i := range 9 {
		if kept := storetest.MustLoad(t, s, key(i)).Revision != 0; kept != (i >= 3) {
			t.Errorf("session %d kept = %v", i, kept)
		}
	}
	if n, err := s.Prune(t.Context(), time.Time{}); n != 0 || err != nil {
		t.Fatalf("second Prune = %d, %v; want 0", n, err)
	}
}

var sixBig = session.Limits{MaxSessionBytes: session.MinSessionBytes, MaxSubjectBytes: session.MinSessionBytes, MaxTotalBytes: 6 * session.MinSessionBytes}

func TestSQLitePruneEnforcesTotalBytes(t *testing.T) {
	checkPruneTotal(t, openSQLite(t, filepath.Join(t.TempDir(), "sessions.db"), store.Options{Limits: sixBig}))
}

func TestPostgresPruneEnforcesTotalBytes(t *testing.T) {
	checkPruneTotal(t, openPostgres(t, postgresSchema(t), store.Options{Limits: sixBig}))
}

// v2Record is a record stored before the bytes column existed.
var v2Record = session.Record{Revision: 3, Messages: storetest.Messages("before \"bytes\" é😀\n", 4)}

// v2Messages is v2Record's stored text.
const v2Messages = `[{"role":"user","content":"before \"bytes\" é😀\n turn 0"},{"role":"assistant","content":"before \"bytes\" é😀\n turn 1"},` +
	`{"role":"user","content":"before \"bytes\" é😀\n turn 2"},{"role":"assistant","content":"before \"bytes\" é😀\n turn 3"}]`

// Migration 3 gives existing rows their session.Size, and Save keeps it.
func TestSQLiteMigrationBackfillsBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	raw := rawSQLite(t, path)
	for _, q := range []string{
		`CREATE TABLE sessions (
			site_id TEXT NOT NULL, subject TEXT NOT NULL, session_id TEXT NOT NULL,
			revision INTEGER NOT NULL CHECK (revision >= 1), messages TEXT NOT NULL, updated_at INTEGER NOT NULL,
			PRIMARY KEY (site_id, subject, session_id)) STRICT, WITHOUT ROWID`,
		`CREATE INDEX sessions_updated_at ON sessions (updated_at)`,
		`PRAGMA user_version = 2`,
		`INSERT INTO sessions VALUES ('site-a', 'anon:old', 's1', 3, '` + v2Messages + `', 1000)`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s := openSQLite(t, path)
	subjectTotalsMatch(t, raw) // migration 8 totals the rows it finds
	k := session.Key{SiteID: "site-a", Subject: "anon:old", SessionID: "s1"}
	storetest.Equal(t, storetest.MustLoad(t, s, k), v2Record)
	bytesOf := func() (n int64) {
		if err := raw.QueryRow(`SELECT bytes FROM sessions WHERE session_id = 's1'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := bytesOf(); got != session.Size(v2Record) {
		t.Fatalf("backfilled bytes = %d, want session.Size %d", got, session.Size(v2Record))
	}
	next := session.Record{Revision: 4, Messages: storetest.Messages("after", 3)}
	storetest.MustSave(t, s, k, next, 3, true)
	if got := bytesOf(); got != session.Size(next) {
		t.Fatalf("saved bytes = %d, want %d", got, session.Size(next))
	}
	subjectTotalsMatch(t, raw) // the triggers migration 10 made again follow the save
	var version int
	if err := raw.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version < 5 { // 4: sources, 5: runs; later migrations only add
		t.Fatalf("user_version = %d, %v", version, err)
	}
}

func TestPostgresMigrationBackfillsBytes(t *testing.T) {
	dsn := postgresSchema(t)
	raw := rawPostgres(t, dsn)
	for _, q := range []string{
		`CREATE TABLE askplane_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
		`CREATE TABLE sessions (
			site_id text NOT NULL, subject text NOT NULL, session_id text NOT NULL,
			revision bigint NOT NULL CHECK (revision >= 1), messages text NOT NULL,
			updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (site_id, subject, session_id))`,
		`CREATE INDEX sessions_updated_at ON sessions (updated_at)`,
		`INSERT INTO askplane_migrations (version) VALUES (1), (2)`,
		`INSERT INTO sessions (site_id, subject, session_id, revision, messages) VALUES ('site-a', 'anon:old', 's1', 3, '` + v2Messages + `')`,
	} {
		if _, err := raw.Exec(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	s := openPostgres(t, dsn)
	postgresTotalsMatch(t, raw) // migration 8 totals the rows it finds
	k := session.Key{SiteID: "site-a", Subject: "anon:old", SessionID: "s1"}
	storetest.Equal(t, storetest.MustLoad(t, s, k), v2Record)
	bytesOf := func() (n int64) {
		if err := raw.QueryRow(t.Context(), `SELECT bytes FROM sessions WHERE session_id = 's1'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := bytesOf(); got != session.Size(v2Record) {
		t.Fatalf("backfilled bytes = %d, want session.Size %d", got, session.Size(v2Record))
	}
	next := session.Record{Revision: 4, Messages: storetest.Messages("after", 3)}
	storetest.MustSave(t, s, k, next, 3, true)
	if got := bytesOf(); got != session.Size(next) {
		t.Fatalf("saved bytes = %d, want %d", got, session.Size(next))
	}
	// A row written by another program must say its size.
	if _, err := raw.Exec(t.Context(), `INSERT INTO sessions (site_id, subject, session_id, revision, messages) VALUES ('a', 'b', 'c', 1, '[]')`); err == nil {
		t.Fatal("a row without bytes was accepted")
	}
}
