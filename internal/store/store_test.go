package store_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
	"github.com/jackc/pgx/v5"
)

func TestMemoryStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) session.Store { return session.NewMemoryStore() })
}

func TestOpenMemoryConformance(t *testing.T) {
	open := func(t *testing.T) session.Store {
		s, err := store.Open(t.Context(), "memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	storetest.Run(t, open)
	storetest.RunBounds(t, open)
	storetest.RunLimits(t, func(t *testing.T, l session.Limits) session.Store {
		s, err := store.Open(t.Context(), "memory:", store.Options{Limits: l})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// sqliteStorage returns an Opener on a new SQLite file in a temp folder
// (a subfolder, so OpenSQLite must create it).
func sqliteStorage(t *testing.T) storetest.Opener {
	path := filepath.Join(t.TempDir(), "state", "sessions.db")
	return func(t *testing.T) storetest.Handle {
		s, err := store.OpenSQLite(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

func TestSQLiteConformance(t *testing.T) {
	open := func(t *testing.T) session.Store { return sqliteStorage(t)(t) }
	storetest.Run(t, open)
	storetest.RunDurable(t, sqliteStorage)
	storetest.RunBounds(t, open)
	storetest.RunLimits(t, func(t *testing.T, l session.Limits) session.Store {
		return openSQLite(t, filepath.Join(t.TempDir(), "sessions.db"), store.Options{Limits: l})
	})
}

// postgresSchema creates a schema of its own for one test in the test
// database, dropped at cleanup, and returns a URL whose search_path points
// at it: every test starts from an empty database, migrations included.
func postgresSchema(t testing.TB) string {
	base := storetest.PostgresURL(t)
	admin, err := pgx.Connect(t.Context(), base)
	if err != nil {
		t.Fatalf("connecting to %s: %v", storetest.PostgresEnv, err)
	}
	var b [8]byte
	rand.Read(b[:])
	schema := "askplane_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if _, err := admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping %s: %v", schema, err)
		}
		admin.Close(ctx)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// postgresStorage returns an Opener on a new schema; each call opens a
// new pool, as another sidecar instance would.
func postgresStorage(t *testing.T) storetest.Opener {
	dsn := postgresSchema(t)
	return func(t *testing.T) storetest.Handle {
		s, err := store.OpenPostgres(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

func TestPostgresConformance(t *testing.T) {
	open := func(t *testing.T) session.Store { return postgresStorage(t)(t) }
	storetest.Run(t, open)
	storetest.RunDurable(t, postgresStorage)
	storetest.RunBounds(t, open)
	storetest.RunLimits(t, func(t *testing.T, l session.Limits) session.Store {
		return openPostgres(t, postgresSchema(t), store.Options{Limits: l})
	})
}

func TestSQLiteInsights(t *testing.T) {
	storetest.RunInsights(t, func(t *testing.T) store.Insights {
		return openSQLite(t, filepath.Join(t.TempDir(), "s.db"))
	})
}

func TestPostgresInsights(t *testing.T) {
	storetest.RunInsights(t, func(t *testing.T) store.Insights { return openPostgres(t, postgresSchema(t)) })
}
