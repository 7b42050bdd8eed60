package store_test

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
	"github.com/jackc/pgx/v5"
)

// rawPostgres connects to the schema dsn names, as an operator's psql or
// another program would.
func rawPostgres(t *testing.T, dsn string) *pgx.Conn {
	c, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func openPostgres(t *testing.T, dsn string, opts ...store.Options) *store.Postgres {
	s, err := store.OpenPostgres(t.Context(), dsn, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPostgresCorruptRowsAreTypedErrors(t *testing.T) {
	dsn := postgresSchema(t)
	s := openPostgres(t, dsn)
	raw := rawPostgres(t, dsn)
	checkCorruptLoads(t, s, func(k session.Key, messages string) {
		if _, err := raw.Exec(t.Context(), `INSERT INTO sessions (site_id, subject, session_id, revision, messages, bytes) VALUES ($1, $2, $3, 1, $4, 100)`,
			k.SiteID, k.Subject, k.SessionID, messages); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPostgresCorruptRowCanBeOverwritten(t *testing.T) {
	dsn := postgresSchema(t)
	s := openPostgres(t, dsn)
	raw := rawPostgres(t, dsn)
	checkCorruptOverwrite(t, s, func(k session.Key, revision int, messages string) {
		if _, err := raw.Exec(t.Context(), `INSERT INTO sessions (site_id, subject, session_id, revision, messages, bytes) VALUES ($1, $2, $3, $4, $5, 100)`,
			k.SiteID, k.Subject, k.SessionID, revision, messages); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPostgresMigratesOnceAndRefusesNewerSchema(t *testing.T) {
	dsn := postgresSchema(t)
	k := storetest.Key(t, "s1")
	storetest.MustSave(t, openPostgres(t, dsn), k, session.Record{Revision: 1}, 0, true)
	if r := storetest.MustLoad(t, openPostgres(t, dsn), k); r.Revision != 1 {
		t.Fatalf("after reopen revision = %d", r.Revision)
	}
	if _, err := rawPostgres(t, dsn).Exec(t.Context(), `INSERT INTO askplane_migrations (version) VALUES (99)`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenPostgres(t.Context(), dsn); store.CodeOf(err) != store.CodeOpenFailed {
		t.Fatalf("opening a newer schema: err = %v, want %s", err, store.CodeOpenFailed)
	}
}

// A database that already has a sessions table of its own is not adopted.
func TestPostgresRefusesAForeignSessionsTable(t *testing.T) {
	dsn := postgresSchema(t)
	if _, err := rawPostgres(t, dsn).Exec(t.Context(), `CREATE TABLE sessions (id serial PRIMARY KEY, token text)`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenPostgres(t.Context(), dsn); store.CodeOf(err) != store.CodeOpenFailed {
		t.Fatalf("err = %v, want %s", err, store.CodeOpenFailed)
	}
}

// Instances starting together against a new database migrate once.
func TestPostgresConcurrentOpensMigrateOnce(t *testing.T) {
	dsn := postgresSchema(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := store.OpenPostgres(t.Context(), dsn)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Every open succeeded (a migration applied twice fails its CREATE),
	// and the versions run 1..n without a gap.
	var n, top int
	if err := rawPostgres(t, dsn).QueryRow(t.Context(), `SELECT count(*), max(version) FROM askplane_migrations`).Scan(&n, &top); err != nil || n < 1 || n != top {
		t.Fatalf("%d migration rows up to version %d, %v", n, top, err)
	}
}

// Another instance holding the row (a long transaction) makes Save wait,
// but never past the caller's deadline.
func TestPostgresWaitsForALockedRowWithinTheDeadline(t *testing.T) {
	dsn := postgresSchema(t)
	s := openPostgres(t, dsn)
	k := storetest.Key(t, "s1")
	storetest.MustSave(t, s, k, session.Record{Revision: 1}, 0, true)
	raw := rawPostgres(t, dsn)
	tx, err := raw.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(t.Context(), `SELECT 1 FROM sessions WHERE session_id = $1 FOR UPDATE`, k.SessionID); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	ok, err := s.Save(ctx, k, session.Record{Revision: 2}, 1)
	if ok || !errors.Is(err, context.DeadlineExceeded) || store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Save on a locked row = %v, %v; want false, %s wrapping DeadlineExceeded", ok, err, store.CodeUnavailable)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("Save took %v past a 300ms deadline", took)
	}
	if err := tx.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	storetest.MustSave(t, s, k, session.Record{Revision: 2}, 1, true)
}

func TestPostgresUnreachableIsOpenFailed(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	// Port 1 on loopback refuses at once.
	_, err := store.OpenPostgres(ctx, "postgres://askplane@127.0.0.1:1/askplane?sslmode=disable&connect_timeout=2")
	if store.CodeOf(err) != store.CodeOpenFailed {
		t.Fatalf("err = %v, want %s", err, store.CodeOpenFailed)
	}
}

// postgresURLWithSchema is dsn with its password replaced, for tests that
// check what an error may say.
func withPassword(t *testing.T, dsn, password string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), password)
	return u.String()
}

// Both backends store the very same JSON text for a record: PostgreSQL
// keeps text byte for byte (jsonb would rewrite it), so a database moved
// between backends, or read by another program, sees identical bytes.
func TestStoredTextIsIdenticalAcrossBackends(t *testing.T) {
	var msgs []protocol.AskMessage
	for _, c := range storetest.RoundTripContents {
		msgs = append(msgs, protocol.AskMessage{Role: protocol.RoleUser, Content: c})
	}
	rec := session.Record{Revision: 1, Messages: msgs}
	k := storetest.Key(t, "s1")

	dsn := postgresSchema(t)
	storetest.MustSave(t, openPostgres(t, dsn), k, rec, 0, true)
	var fromPostgres string
	if err := rawPostgres(t, dsn).QueryRow(t.Context(), `SELECT messages FROM sessions`).Scan(&fromPostgres); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	storetest.MustSave(t, openSQLite(t, path), k, rec, 0, true)
	var fromSQLite string
	if err := rawSQLite(t, path).QueryRow(`SELECT messages FROM sessions`).Scan(&fromSQLite); err != nil {
		t.Fatal(err)
	}
	if fromPostgres != fromSQLite {
		t.Fatalf("stored texts differ: PostgreSQL %d bytes, SQLite %d bytes", len(fromPostgres), len(fromSQLite))
	}
	if !strings.Contains(fromSQLite, "line\u2028separator") || !strings.Contains(fromSQLite, `\u0000`) {
		t.Fatalf("stored text is not JSON.stringify's escaping")
	}
}
