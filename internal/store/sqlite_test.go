package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

// rawSQLite opens the file directly, beside the store, as another process
// or an operator's sqlite3 shell would.
func rawSQLite(t *testing.T, path string) *sql.DB {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openSQLite(t *testing.T, path string, opts ...store.Options) *store.SQLite {
	s, err := store.OpenSQLite(t.Context(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteCreatesPrivateFileInNewFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "sessions.db")
	openSQLite(t, path)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, want 0600", fi.Mode().Perm())
	}
	var mode string
	if err := rawSQLite(t, path).QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
}

func TestSQLiteCorruptRowsAreTypedErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	raw := rawSQLite(t, path)
	checkCorruptLoads(t, s, func(k session.Key, messages string) {
		if _, err := raw.Exec(`INSERT INTO sessions (site_id, subject, session_id, revision, bytes, updated_at, messages) VALUES (?, ?, ?, 1, 100, 0, ?)`,
			k.SiteID, k.Subject, k.SessionID, messages); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSQLiteCorruptRowCanBeOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	raw := rawSQLite(t, path)
	checkCorruptOverwrite(t, s, func(k session.Key, revision int, messages string) {
		if _, err := raw.Exec(`INSERT INTO sessions (site_id, subject, session_id, revision, bytes, updated_at, messages) VALUES (?, ?, ?, ?, 100, 0, ?)`,
			k.SiteID, k.Subject, k.SessionID, revision, messages); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSQLiteMigratesOnceAndRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	k := storetest.Key(t, "s1")
	storetest.MustSave(t, openSQLite(t, path), k, session.Record{Revision: 1}, 0, true)
	// Reopening applies nothing and keeps the data.
	if r := storetest.MustLoad(t, openSQLite(t, path), k); r.Revision != 1 {
		t.Fatalf("after reopen revision = %d", r.Revision)
	}
	if _, err := rawSQLite(t, path).Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err := store.OpenSQLite(t.Context(), path)
	if store.CodeOf(err) != store.CodeOpenFailed {
		t.Fatalf("opening a newer schema: err = %v, want %s", err, store.CodeOpenFailed)
	}
}

func TestSQLiteRejectsBadPaths(t *testing.T) {
	for _, p := range []string{"", "a?b.db", "a\x00b.db"} {
		if _, err := store.OpenSQLite(t.Context(), p); store.CodeOf(err) != store.CodeOpenFailed {
			t.Errorf("OpenSQLite(%q): err = %v, want %s", p, err, store.CodeOpenFailed)
		}
	}
	// A file where the folder should be.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := store.OpenSQLite(t.Context(), filepath.Join(file, "sessions.db")); store.CodeOf(err) != store.CodeOpenFailed {
		t.Errorf("path under a file: err = %v, want %s", err, store.CodeOpenFailed)
	}
}

// Another process holding the write lock makes Save wait (busy_timeout)
// rather than fail, but never past the caller's deadline.
func TestSQLiteWaitsForAnotherWriterWithinTheDeadline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	k := storetest.Key(t, "s1")
	conn, err := rawSQLite(t, path).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	ok, err := s.Save(ctx, k, session.Record{Revision: 1}, 0)
	took := time.Since(start)
	if ok || !errors.Is(err, context.DeadlineExceeded) || store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Save under another writer's lock = %v, %v; want false, %s wrapping DeadlineExceeded", ok, err, store.CodeUnavailable)
	}
	if took > 3*time.Second {
		t.Fatalf("Save took %v past a 300ms deadline", took)
	}

	// Released while Save waits: the wait ends in success.
	go func() {
		time.Sleep(200 * time.Millisecond)
		conn.ExecContext(context.Background(), "COMMIT")
	}()
	storetest.MustSave(t, s, k, session.Record{Revision: 1}, 0, true)
}

// While a Save waits for another process's write lock it holds the one
// session connection: a Load, a Delete and another Save queued behind it
// end at their own deadlines, not at the waiting Save's, and a Load
// started after the lock is released reads the Save's commit. A Save
// that failed to take the lock leaves no transaction open behind it.
func TestSQLiteSessionOpsWaitForTheConnectionWithinTheirDeadlines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	k := storetest.Key(t, "s1")
	rec1 := session.Record{Revision: 1, Messages: storetest.Messages("q", 2)}
	conn, err := rawSQLite(t, path).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	saved := make(chan error, 1)
	go func() {
		ok, err := s.Save(t.Context(), k, rec1, 0) // waits on busy_timeout
		if err == nil && !ok {
			err = errors.New("conflict")
		}
		saved <- err
	}()
	time.Sleep(100 * time.Millisecond) // the Save holds the connection now
	short := func() context.Context {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	start := time.Now()
	_, loadErr := s.Load(short(), k)
	_, delErr := s.Delete(short(), k)
	_, saveErr := s.Save(short(), storetest.Key(t, "s2"), rec1, 0)
	for name, err := range map[string]error{"Load": loadErr, "Delete": delErr, "Save": saveErr} {
		if !errors.Is(err, context.DeadlineExceeded) || store.CodeOf(err) != store.CodeUnavailable {
			t.Errorf("%s behind a waiting Save = %v, want %s wrapping DeadlineExceeded", name, err, store.CodeUnavailable)
		}
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("three operations with 200ms deadlines took %v", took)
	}
	if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := <-saved; err != nil {
		t.Fatalf("the waiting Save: %v", err)
	}
	storetest.Equal(t, storetest.MustLoad(t, s, k), rec1)

	// A Save whose BEGIN gave up left nothing open: another process can
	// take the write lock, and the next Save commits.
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(short(), storetest.Key(t, "s3"), rec1, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Save under the lock = %v", err)
	}
	if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	storetest.MustSave(t, s, storetest.Key(t, "s3"), rec1, 0, true)
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatalf("the store's connection kept the write lock after its commit: %v", err)
	}
	conn.ExecContext(context.Background(), "ROLLBACK")
}
