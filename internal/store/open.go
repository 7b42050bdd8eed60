package store

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"

	"github.com/askplane/askplane/internal/session"
)

// Backend is a session.Store that holds resources (a file, a pool) until
// Close, and reports its readiness through Check. Close waits for
// operations in flight to finish or fail; on SQLite and PostgreSQL, Load,
// Save, Delete and Check after Close fail with CodeUnavailable (the memory backend
// has nothing to release and keeps working).
type Backend interface {
	session.Store
	session.Deleter
	session.Checker
	session.Limited
	io.Closer
}

// Options configure Open and the Open* constructors.
type Options struct {
	// Limits bound the stored bytes. Each zero field takes the backend's
	// default: session.DefaultLimits for memory, session.DefaultDurableLimits
	// for SQLite and PostgreSQL. The result must pass Limits.Validate.
	Limits session.Limits
	// Sources bound the retained corpus versions (see Sources); each zero
	// field takes DefaultSourceLimits' value.
	Sources SourceLimits
}

// limits resolves the at most one Options a constructor was given against
// the backend's defaults.
func limits(opts []Options, defaults session.Limits) (session.Limits, error) {
	if len(opts) > 1 {
		return session.Limits{}, &Error{Code: CodeOpenFailed, Op: "open", Reason: "more than one Options"}
	}
	l := defaults
	if len(opts) == 1 {
		l = opts[0].Limits.Or(defaults)
	}
	if err := l.Validate(); err != nil {
		return session.Limits{}, &Error{Code: CodeOpenFailed, Op: "open", Reason: "limits are invalid", Err: err}
	}
	return l, nil
}

// MaxDSNLen bounds a DSN; longer ones are rejected unread.
const MaxDSNLen = 4096

// Open opens the session store a DSN names:
//
//	memory:                          in-process, forgotten on restart
//	sqlite:PATH or a plain PATH      SQLite file, created with its folder
//	postgres://… or postgresql://…   PostgreSQL, shared by several instances
//
// opts is at most one Options (limits); none means the defaults.
//
// Every failure is an *Error with CodeOpenFailed whose text never
// contains the DSN's password; log the DSN itself through Redacted.
func Open(ctx context.Context, dsn string, opts ...Options) (Backend, error) {
	kind, target, reason := parseDSN(dsn)
	switch kind {
	case KindMemory:
		return openMemory(opts)
	case KindSQLite:
		s, err := OpenSQLite(ctx, target, opts...)
		if err != nil {
			return nil, err // not a nil *SQLite in a non-nil Backend
		}
		return s, nil
	case KindPostgres:
		p, err := OpenPostgres(ctx, target, opts...)
		if err != nil {
			return nil, err
		}
		return p, nil
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
type memory struct {
	m *session.MemoryStore
	*memorySources
}

func openMemory(opts []Options) (Backend, error) {
	l, err := limits(opts, session.DefaultLimits())
	if err != nil {
		return nil, err
	}
	sl, err := sourceLimits(opts)
	if err != nil {
		return nil, err
	}
	m, err := session.NewMemoryStoreWith(l)
	if err != nil { // Validate passed in limits
		return nil, &Error{Code: CodeOpenFailed, Op: "open", Reason: "limits are invalid", Err: err}
	}
	return memory{m, &memorySources{limits: sl, rows: map[[2]string]*memorySource{}}}, nil
}

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

func (s memory) Delete(ctx context.Context, k session.Key) (bool, error) {
	if err := checkKey("delete", k); err != nil {
		return false, err
	}
	ok, err := s.m.Delete(ctx, k)
	if err != nil {
		return false, unavailable(ctx, "delete", err)
	}
	return ok, nil
}

func (s memory) Save(ctx context.Context, k session.Key, r session.Record, expectedRevision int) (bool, error) {
	if err := checkKey("save", k); err != nil {
		return false, err
	}
	// MemoryStore measures the record itself: checkRecord's size check
	// would measure it twice.
	if err := checkSchema(r, expectedRevision); err != nil {
		return false, err
	}
	ok, err := s.m.Save(ctx, k, r, expectedRevision)
	if errors.Is(err, session.ErrRecordTooLarge) {
		return false, &Error{Code: CodeInvalidRecord, Op: "save", Reason: reasonTooLarge, Limit: int(s.m.Limits().MaxSessionBytes), Err: err}
	}
	if err != nil {
		return false, unavailable(ctx, "save", err)
	}
	return ok, nil
}

// Limits implements session.Limited.
func (s memory) Limits() session.Limits { return s.m.Limits() }

// Check implements session.Checker: memory is always ready.
func (memory) Check(context.Context) error { return nil }

func (memory) Close() error { return nil }

var (
	_ Backend = memory{}
	_ Sources = memory{}
)
