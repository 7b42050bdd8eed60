package store_test

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

// Issue 25: 1.7% of answers of 20 concurrent workers on one subject, each
// on its own session, ended ASK_PERSISTENCE_CONFLICT after their text
// streamed. The cause: another session's save went past MaxSubjectBytes
// and evicted (deleted) the session an answer was being written for,
// between that answer's load and its save, whose compare-and-swap then
// found no row. An evicted session now keeps its row and revision with
// no messages (a conversation that starts again), so the answer in
// flight still saves; a session the reader forgot (Delete) is gone, and
// a save to it still conflicts.
func checkEvictionMidAnswer(t *testing.T, s session.Store) {
	ctx := t.Context()
	key := func(id string) session.Key { return session.Key{SiteID: "docs", Subject: "anon:a", SessionID: id} }
	a, b := key("a"), key("b")
	// Two sessions of about 60 KB: together past MaxSubjectBytes.
	storetest.MustSave(t, s, a, bigRecord(1, 60_000), 0, true)
	// a's next answer loads it (revision 1) ... meanwhile b saves and
	// evicts a.
	storetest.MustSave(t, s, b, bigRecord(1, 60_000), 0, true)
	if got := storetest.MustLoad(t, s, a); len(got.Messages) != 0 {
		t.Fatalf("a was not evicted: revision %d, %d messages", got.Revision, len(got.Messages))
	}
	// ... and a's answer saves, over revision 1.
	if ok, err := s.Save(ctx, a, bigRecord(2, 60_000), 1); !ok || err != nil {
		t.Fatalf("the save of an answer whose session was evicted meanwhile = %v, %v; want it saved", ok, err)
	}
	if got := storetest.MustLoad(t, s, a); got.Revision != 2 || len(got.Messages) == 0 {
		t.Fatalf("a after its save: revision %d, %d messages", got.Revision, len(got.Messages))
	}
	// The subject bound still holds: a's save evicted b in turn.
	if got := storetest.MustLoad(t, s, b); len(got.Messages) != 0 {
		t.Fatalf("b kept %d messages past MaxSubjectBytes", len(got.Messages))
	}
	// A forgotten session is gone: its answer's save conflicts.
	if _, err := s.(session.Deleter).Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Save(ctx, a, bigRecord(3, 100), 2); ok || err != nil {
		t.Fatalf("a save to a forgotten session = %v, %v; want a conflict", ok, err)
	}
}

var subjectOfTwo = session.Limits{MaxSessionBytes: session.MinSessionBytes, MaxSubjectBytes: session.MinSessionBytes, MaxTotalBytes: 100 * session.MinSessionBytes}

func TestSQLiteEvictionMidAnswerStillSaves(t *testing.T) {
	checkEvictionMidAnswer(t, openSQLite(t, filepath.Join(t.TempDir(), "sessions.db"), store.Options{Limits: subjectOfTwo}))
}

func TestPostgresEvictionMidAnswerStillSaves(t *testing.T) {
	checkEvictionMidAnswer(t, openPostgres(t, postgresSchema(t), store.Options{Limits: subjectOfTwo}))
}

func TestMemoryEvictionMidAnswerStillSaves(t *testing.T) {
	s, err := store.Open(t.Context(), "memory:", store.Options{Limits: subjectOfTwo})
	if err != nil {
		t.Fatal(err)
	}
	checkEvictionMidAnswer(t, s)
}

// TestSQLiteEvictedRowsGoAfterTheGrace: an evicted session's emptied row
// stays while an answer may be in flight for it (EvictedGrace) and is
// deleted by the subject's next save after that, which only then runs
// the purge (a save decides it from the same pass over the index as
// the subject's bytes).
func TestSQLiteEvictedRowsGoAfterTheGrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path, store.Options{Limits: subjectOfTwo})
	key := func(id string) session.Key { return session.Key{SiteID: "docs", Subject: "anon:a", SessionID: id} }
	storetest.MustSave(t, s, key("a"), bigRecord(1, 60_000), 0, true)
	storetest.MustSave(t, s, key("b"), bigRecord(1, 60_000), 0, true) // evicts a
	storetest.MustSave(t, s, key("c"), bigRecord(1, 100), 0, true)
	if got := storetest.MustLoad(t, s, key("a")); got.Revision != 1 || len(got.Messages) != 0 {
		t.Fatalf("a within the grace: revision %d, %d messages; want its emptied row", got.Revision, len(got.Messages))
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), `UPDATE sessions SET updated_at = updated_at - ? WHERE session_id = 'a'`,
		(store.EvictedGrace + time.Second).Milliseconds()); err != nil {
		t.Fatal(err)
	}
	storetest.MustSave(t, s, key("c"), bigRecord(2, 100), 1, true)
	if got := storetest.MustLoad(t, s, key("a")); got.Revision != 0 {
		t.Fatalf("a past the grace: revision %d; want its row deleted", got.Revision)
	}
	if got := storetest.MustLoad(t, s, key("b")); got.Revision != 1 || len(got.Messages) == 0 {
		t.Fatalf("b: revision %d, %d messages; want it kept", got.Revision, len(got.Messages))
	}
}
