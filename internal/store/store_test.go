package store_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

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

type insightsBounded interface {
	store.Insights
	PruneInsightsTo(ctx context.Context, site string, before time.Time, maxEvents int) error
}

// Past the row bound, a site's oldest events go first, whatever their age.
func testInsightBound(t *testing.T, s insightsBounded) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i := range 30 {
		err := s.PutInsight(t.Context(), store.InsightPut{
			Event: store.InsightEvent{Site: "s", At: now.Add(time.Duration(i) * time.Millisecond), Outcome: "answered", Lang: "en",
				Key: "deploy", Reader: fmt.Sprintf("%032x", i)},
			Hidden: []store.HiddenTerm{{Hash: "#01", Stem: "x"}}, MinCrowd: 100, Since: now.Add(-time.Hour),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PruneInsightsTo(t.Context(), "s", now.Add(-time.Hour), 10); err != nil {
		t.Fatal(err)
	}
	evs, err := s.InsightEvents(t.Context(), "s", time.Time{})
	if err != nil || len(evs) != 10 || !evs[9].At.Equal(now.Add(20*time.Millisecond)) {
		t.Fatalf("%d events (%v), want the newest 10", len(evs), err)
	}
}

func TestSQLiteInsightBound(t *testing.T) {
	testInsightBound(t, openSQLite(t, filepath.Join(t.TempDir(), "s.db")))
}

func TestPostgresInsightBound(t *testing.T) {
	testInsightBound(t, openPostgres(t, postgresSchema(t)))
}
