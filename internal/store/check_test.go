package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

func wantUnavailable(t *testing.T, what string, err error, reason string) {
	t.Helper()
	var se *store.Error
	if store.CodeOf(err) != store.CodeUnavailable || !errorsAs(err, &se) || !strings.Contains(se.Reason, reason) {
		t.Fatalf("%s: err = %v; want %s, %q", what, err, store.CodeUnavailable, reason)
	}
}

// A SQLite file deleted under the store (an operator's rm, a cleaner) or
// replaced: Check and Save fail instead of writing to a file no one will
// open again; put back, the store works again.
func TestSQLiteCheckAndSaveNoticeARemovedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions.db")
	s := openSQLite(t, path)
	k := storetest.Key(t, "s1")
	storetest.MustSave(t, s, k, session.Record{Revision: 1, Messages: storetest.Messages("a", 1)}, 0, true)
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check: %v", err)
	}
	if err := os.Link(path, filepath.Join(dir, "kept.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	wantUnavailable(t, "Check after rm", s.Check(t.Context()), "file was removed or replaced")
	ok, err := s.Save(t.Context(), k, session.Record{Revision: 2, Messages: storetest.Messages("lost", 2)}, 1)
	if ok {
		t.Fatal("Save to a removed file succeeded")
	}
	wantUnavailable(t, "Save after rm", err, "file was removed or replaced")
	// Another file at the path is not the one opened either.
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	wantUnavailable(t, "Check on a replaced file", s.Check(t.Context()), "file was removed or replaced")
	// The very file back at its path: ready again.
	os.Remove(path)
	if err := os.Link(filepath.Join(dir, "kept.db"), path); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check with the file restored: %v", err)
	}
	storetest.MustSave(t, s, k, session.Record{Revision: 2, Messages: storetest.Messages("b", 2)}, 1, true)
}

// A read-only file is not ready, even for root, whose writes a mode does
// not stop: the next restart would fail to open it.
func TestSQLiteCheckNoticesAReadOnlyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	wantUnavailable(t, "Check on mode 0400", s.Check(t.Context()), "read-only")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check after chmod 0600: %v", err)
	}
}

// Another connection holding the write lock past CheckTimeout makes
// Check fail: writes would stall.
func TestSQLiteCheckTakesTheWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s := openSQLite(t, path)
	conn, err := rawSQLite(t, path).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Check under another writer's lock: %v", err)
	}
	if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check after the lock is released: %v", err)
	}
}

func TestSQLiteCheckAfterClose(t *testing.T) {
	s, err := store.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Check(t.Context()); store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Check after Close: %v", err)
	}
}

func TestPostgresCheck(t *testing.T) {
	const pw = "Sw0rdf1sh-Check"
	dsn := postgresSchema(t)
	// trust authentication ignores the password, which must still appear
	// in no error.
	s, err := store.OpenPostgres(t.Context(), withPassword(t, dsn, pw))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check on a live database: %v", err)
	}
	s.Close()
	err = s.Check(t.Context())
	if store.CodeOf(err) != store.CodeUnavailable || strings.Contains(err.Error(), pw) {
		t.Fatalf("Check after Close: %v; want %s without the password", err, store.CodeUnavailable)
	}
}

func TestOpenMemoryCheck(t *testing.T) {
	s, err := store.Open(t.Context(), "memory:")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func errorsAs(err error, target **store.Error) bool { return errors.As(err, target) }
