package storetest

import (
	"os"
	"testing"
)

// PostgresEnv names the environment variable holding the test database's
// URL. scripts/test.sh sets it to a throwaway cluster (scripts/postgres.sh)
// when PostgreSQL is installed.
const PostgresEnv = "ASKPLANE_TEST_POSTGRES_URL"

// PostgresURL returns the test database's URL. Without one the test is
// skipped on a developer's machine but fails when CI is set, so CI cannot
// pass by silently testing nothing.
func PostgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(PostgresEnv)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is unset in CI: PostgreSQL tests must run (scripts/test.sh starts a cluster via scripts/postgres.sh)", PostgresEnv)
		}
		t.Skipf("%s is unset: skipping PostgreSQL (run scripts/test.sh, or bash scripts/postgres.sh start)", PostgresEnv)
	}
	return url
}
