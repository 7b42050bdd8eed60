package store

import (
	"context"
	"io"
	"regexp"
	"strings"

	"github.com/askplane/askplane/internal/session"
)

// Backend is a session.Store that holds resources (a file, a pool) until
// Close. Close waits for operations in flight to finish or fail; on SQLite
// and PostgreSQL, Load and Save after Close fail with CodeUnavailable (the
// memory backend has nothing to release and keeps working).
type Backend interface {
	session.Store
	io.Closer
}

// MaxDSNLen bounds a DSN; longer ones are rejected unread.
const MaxDSNLen = 4096

// Open opens the session store a DSN names:
//
//	memory:                          in-process, forgotten on restart
//	sqlite:PATH or a plain PATH      SQLite file, created with its folder
//	postgres://… or postgresql://…   PostgreSQL, shared by several instances
//
// Every failure is an *Error with CodeOpenFailed whose text never
// contains the DSN's password; log the DSN itself through Redacted.
func Open(ctx context.Context, dsn string) (Backend, error) {
	kind, target, reason := parseDSN(dsn)
	switch kind {
	case KindMemory:
		return memory{session.NewMemoryStore()}, nil
	case KindSQLite:
		return OpenSQLite(ctx, target)
	case KindPostgres:
		return OpenPostgres(ctx, target)
	}
	return nil, &Error{Code: CodeOpenFailed, Op: "open", Reason: reason}
}

// Backend kinds a DSN names, as Kind reports them.
const (
	KindMemory   = "memory"
	KindSQLite   = "sqlite"
	KindPostgres = "postgres"
)

// Kind reports which backend dsn names, without opening it, by the rules
// Open applies; the error is Open's, and never contains the DSN.
func Kind(dsn string) (string, error) {
	kind, _, reason := parseDSN(dsn)
	if reason != "" {
		return "", &Error{Code: CodeOpenFailed, Op: "open", Reason: reason}
	}
	return kind, nil
}

// scheme matches a URL-like scheme prefix, which a plain path must not
// have, so that a mistyped "postgress://…" fails instead of becoming a
// SQLite file of that name.
var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// parseDSN returns the backend kind and its target, or a reason when the
// DSN names none. Reasons are fixed text: they never echo the DSN.
func parseDSN(dsn string) (kind, target, reason string) {
	switch {
	case dsn == "":
		return "", "", "DSN is empty"
	case len(dsn) > MaxDSNLen:
		return "", "", "DSN is too long"
	case dsn == "memory:":
		return KindMemory, "", ""
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return KindPostgres, dsn, ""
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" || strings.HasPrefix(path, "//") {
			return "", "", "a SQLite DSN is sqlite:PATH"
		}
		return KindSQLite, path, ""
	case scheme.MatchString(dsn):
		return "", "", "DSN scheme is not memory:, sqlite: or postgres://"
	}
	return KindSQLite, dsn, ""
}

// memory is session.MemoryStore behind the same key and record checks as the
// persistent backends, so a config that switches backends keeps its
// behaviour.
type memory struct{ m *session.MemoryStore }

func (s memory) Load(ctx context.Context, k session.Key) (session.Record, error) {
	if err := checkKey("load", k); err != nil {
		return session.Record{}, err
	}
	r, err := s.m.Load(ctx, k)
	if err != nil {
		return session.Record{}, unavailable(ctx, "load", err)
	}
	return r, nil
}

func (s memory) Save(ctx context.Context, k session.Key, r session.Record, expectedRevision int) (bool, error) {
	if err := checkKey("save", k); err != nil {
		return false, err
	}
	if err := checkRecord(r, expectedRevision); err != nil {
		return false, err
	}
	ok, err := s.m.Save(ctx, k, r, expectedRevision)
	if err != nil {
		return false, unavailable(ctx, "save", err)
	}
	return ok, nil
}

func (memory) Close() error { return nil }

var _ Backend = memory{}
