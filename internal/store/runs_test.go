package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/durable/runtest"
	"github.com/askplane/askplane/internal/store"
)

// The run store on SQLite: several handles on one file are several
// instances; the injected failures are triggers, so the transaction
// really fails at that statement.
func TestSQLiteRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	runtest.Run(t, runtest.Backend{
		Open: func(t *testing.T) durable.Store { return openSQLite(t, path) },
		FailInserts: func(t *testing.T, table string) func() {
			openSQLite(t, path) // the schema exists
			db := rawSQLite(t, path)
			exec(t, db, `CREATE TRIGGER fail_`+table+` BEFORE INSERT ON `+table+` BEGIN SELECT RAISE(ABORT, 'injected'); END`)
			return func() { exec(t, db, `DROP TRIGGER fail_`+table) }
		},
	})
}

func exec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q); err != nil {
		t.Fatal(err)
	}
}

// The run store on PostgreSQL, each Open a pool of its own.
func TestPostgresRuns(t *testing.T) {
	dsn := postgresSchema(t)
	runtest.Run(t, runtest.Backend{
		Open: func(t *testing.T) durable.Store { return openPostgres(t, dsn) },
		FailInserts: func(t *testing.T, table string) func() {
			raw := rawPostgres(t, dsn)
			ctx := context.Background()
			for _, q := range []string{
				`CREATE OR REPLACE FUNCTION askplane_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$ LANGUAGE plpgsql`,
				`CREATE TRIGGER fail_` + table + ` BEFORE INSERT ON ` + table + ` FOR EACH ROW EXECUTE FUNCTION askplane_test_fail()`,
			} {
				if _, err := raw.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			return func() {
				if _, err := raw.Exec(ctx, `DROP TRIGGER fail_`+table+` ON `+table); err != nil {
					t.Fatal(err)
				}
			}
		},
	})
}

var _ store.Runs = (*store.SQLite)(nil)
