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
