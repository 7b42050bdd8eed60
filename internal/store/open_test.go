package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

func TestOpenPicksTheBackendFromTheDSN(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		dsn  string
		want string
	}{
		{"memory:", "memory"},
		{"sqlite:" + filepath.Join(dir, "a", "s.db"), "*store.SQLite"},
		{filepath.Join(dir, "plain.db"), "*store.SQLite"},
		{"sqlite:" + filepath.Join(dir, "with space #1 %20", "s.db"), "*store.SQLite"},
		{"relative-" + filepath.Base(dir) + ".db", "*store.SQLite"},
	}
	t.Chdir(dir)
	for _, c := range cases {
		s, err := store.Open(t.Context(), c.dsn)
		if err != nil {
			t.Fatalf("Open(%q): %v", c.dsn, err)
		}
		got := "memory"
		switch s.(type) {
		case *store.SQLite:
			got = "*store.SQLite"
		case *store.Postgres:
			got = "*store.Postgres"
		}
		if got != c.want {
			t.Errorf("Open(%q) = %s, want %s", c.dsn, got, c.want)
		}
		k := storetest.Key(t, "s1")
		storetest.MustSave(t, s, k, session.Record{Revision: 1, Messages: storetest.Messages("x", 1)}, 0, true)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "a", "s.db"), filepath.Join(dir, "with space #1 %20", "s.db")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("sqlite: DSN did not create its file: %v", err)
		}
	}
}

func TestOpenPostgresURLs(t *testing.T) {
	dsn := postgresSchema(t)
	for _, d := range []string{dsn, "postgresql" + strings.TrimPrefix(dsn, "postgres")} {
		s, err := store.Open(t.Context(), d)
		if err != nil {
			t.Fatalf("Open(%s): %v", store.Redacted(d), err)
		}
		if _, ok := s.(*store.Postgres); !ok {
			t.Fatalf("Open(%s) = %T", store.Redacted(d), s)
		}
		s.Close()
	}
}

func TestOpenRejectsUnknownDSNs(t *testing.T) {
	for _, dsn := range []string{
		"",
		"memory:extra",
		"sqlite:",
		"sqlite:///var/lib/askplane.db",
		"mysql://u:p@localhost/db",
		"postgress://localhost/db",
		"file:sessions.db",
		strings.Repeat("a", store.MaxDSNLen+1),
	} {
		s, err := store.Open(t.Context(), dsn)
		if s != nil || store.CodeOf(err) != store.CodeOpenFailed {
			t.Errorf("Open(%.40q) = %v, %v; want %s", dsn, s, err, store.CodeOpenFailed)
		}
	}
}

// The password of a DSN appears in no error, in any form it may take:
// as written, percent-decoded, in the userinfo or as a parameter, whether
// the URL is malformed, the server unreachable or the database refuses.
func TestOpenErrorsNeverContainThePassword(t *testing.T) {
	const pw = "Sw0rdf1sh-Zq"
	cases := []struct{ name, dsn, secret string }{
		{"Unreachable", "postgres://askplane:" + pw + "@127.0.0.1:1/db?sslmode=disable&connect_timeout=2", pw},
		{"BadPort", "postgres://askplane:" + pw + "@localhost:notaport/db", pw},
		{"BadEscape", "postgres://askplane:" + pw + "%zz@localhost/db", pw},
		{"PercentEncoded", "postgresql://askplane:p%40ss%2F" + pw + "@127.0.0.1:1/db?connect_timeout=2", "p@ss/" + pw},
		{"QueryParameter", "postgres://askplane@127.0.0.1:1/db?password=" + pw + "&connect_timeout=2", pw},
		{"UnknownParameter", "postgres://askplane:" + pw + "@127.0.0.1:1/db?sslmode=bogus", pw},
		{"UnknownScheme", "mysql://askplane:" + pw + "@localhost/db", pw},
	}
	if base := os.Getenv(storetest.PostgresEnv); base != "" {
		// A real server, a missing database: the server's own refusal.
		cases = append(cases, struct{ name, dsn, secret string }{
			"ServerRefuses", withPassword(t, strings.Replace(base, "/askplane_test", "/no_such_db", 1), pw), pw})
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		s, err := store.Open(ctx, c.dsn)
		cancel()
		if err == nil {
			s.Close()
			t.Fatalf("%s: Open succeeded", c.name)
		}
		if store.CodeOf(err) != store.CodeOpenFailed {
			t.Errorf("%s: err = %v, want %s", c.name, err, store.CodeOpenFailed)
		}
		for e := error(err); e != nil; e = errors.Unwrap(e) {
			if text := e.Error(); strings.Contains(text, c.secret) || strings.Contains(text, pw) {
				t.Errorf("%s: error text holds the password: %s", c.name, text)
			}
		}
		if red := store.Redacted(c.dsn); strings.Contains(red, c.secret) || strings.Contains(red, pw) {
			t.Errorf("%s: Redacted holds the password: %s", c.name, red)
		}
	}
}

func TestRedacted(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://u:secret@db.example:5432/askplane?sslmode=require": "postgres://u:xxxxx@db.example:5432/askplane?sslmode=require",
		"postgres://u@db/askplane?password=secret&x=1":                 "postgres://u@db/askplane?password=xxxxx&x=1",
		"postgres://u:x@db/askplane":                                   "postgres://u:xxxxx@db/askplane",
		"postgres://u:sec ret@db:port/askplane":                        "postgres://(unparsable, redacted)",
		"sqlite:/var/lib/askplane/sessions.db":                         "sqlite:/var/lib/askplane/sessions.db",
		"memory:":                                                      "memory:",
	} {
		if got := store.Redacted(dsn); got != want {
			t.Errorf("Redacted(%q) = %q, want %q", dsn, got, want)
		}
	}
}

// TestKind names the backend Open would choose, without opening it.
func TestKind(t *testing.T) {
	for dsn, want := range map[string]string{
		"memory:":                  store.KindMemory,
		"sqlite:/var/lib/a.db":     store.KindSQLite,
		"data/sessions.db":         store.KindSQLite,
		"postgres://db/askplane":   store.KindPostgres,
		"postgresql://db/askplane": store.KindPostgres,
		"sqlite://x":               "",
		"redis://cache":            "",
		"":                         "",
		"postgress://u:pw@db/x":    "",
	} {
		got, err := store.Kind(dsn)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("Kind(%q) = %q, %v; want %q", dsn, got, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("Kind error leaks the DSN: %v", err)
		}
	}
}
