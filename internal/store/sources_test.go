package store_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/store"
)

// sourceBackend opens one backend with the given source limits, and can
// damage a retained row as a disk fault or an operator's edit would.
type sourceBackend struct {
	open    func(t *testing.T, l store.SourceLimits) store.Sources
	corrupt func(t *testing.T, s store.Sources, site, version string)
}

func sourceVersion(data []byte) string { return store.SourceHashForTest(data) }

// corpusBytes is a distinct corpus file of n bytes.
func corpusBytes(i, n int) []byte {
	b := []byte(`{"protocol":"askplane.corpus","n":` + strconv.Itoa(i) + `,"pad":"`)
	b = append(b, bytes.Repeat([]byte("x"), max(0, n-len(b)-2))...)
	return append(b, `"}`...)
}

// checkSources is the Sources contract every backend meets.
func checkSources(t *testing.T, b sourceBackend) {
	const mib = 1 << 20
	t.Run("RoundTripAndPermits", func(t *testing.T) {
		s := b.open(t, store.SourceLimits{})
		if l := s.SourceLimits(); l != store.DefaultSourceLimits() {
			t.Fatalf("limits %+v, want the defaults", l)
		}
		data := corpusBytes(1, 1000)
		v := sourceVersion(data)
		if _, ok, err := s.SourceInfo(t.Context(), "docs", v); ok || err != nil {
			t.Fatalf("before any put: ok=%v err=%v", ok, err)
		}
		for _, engine := range []string{"askplane.bm25/1", "askplane.bm25/1", "askplane.b/2"} {
			if err := s.PutSource(t.Context(), "docs", v, data, engine); err != nil {
				t.Fatal(err)
			}
		}
		info, ok, err := s.SourceInfo(t.Context(), "docs", v)
		if !ok || err != nil || info.Bytes != 1000 || strings.Join(info.Engines, " ") != "askplane.b/2 askplane.bm25/1" {
			t.Fatalf("info %+v ok=%v err=%v", info, ok, err)
		}
		got, ok, err := s.ReadSource(t.Context(), "docs", v)
		if !ok || err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %d bytes ok=%v err=%v", len(got), ok, err)
		}
		// Versions are per site: another site never reads this one.
		if _, ok, err := s.ReadSource(t.Context(), "ops", v); ok || err != nil {
			t.Fatalf("another site read the version: ok=%v err=%v", ok, err)
		}
	})
	t.Run("RefusesBadPuts", func(t *testing.T) {
		s := b.open(t, store.SourceLimits{MaxBytes: mib})
		data := corpusBytes(1, 100)
		for name, tc := range map[string]struct {
			site, version, engine string
			data                  []byte
			code                  store.Code
		}{
			"wrong hash":   {"docs", sourceVersion([]byte("other")), "e/1", data, store.CodeInvalidRecord},
			"too large":    {"docs", sourceVersion(corpusBytes(2, mib+1)), "e/1", corpusBytes(2, mib+1), store.CodeInvalidRecord},
			"bad version":  {"docs", "sha1:abc", "e/1", data, store.CodeInvalidKey},
			"empty site":   {"", sourceVersion(data), "e/1", data, store.CodeInvalidKey},
			"empty engine": {"docs", sourceVersion(data), "", data, store.CodeInvalidKey},
		} {
			if err := s.PutSource(t.Context(), tc.site, tc.version, tc.data, tc.engine); store.CodeOf(err) != tc.code {
				t.Errorf("%s: err = %v, want %s", name, err, tc.code)
			}
		}
	})
	t.Run("RetentionKeepsTheNewestWithinBounds", func(t *testing.T) {
		s := b.open(t, store.SourceLimits{MaxVersions: 3, MaxBytes: 2 * mib})
		var versions []string
		put := func(i, n int) {
			t.Helper()
			data := corpusBytes(i, n)
			versions = append(versions, sourceVersion(data))
			if err := s.PutSource(t.Context(), "docs", versions[len(versions)-1], data, "e/1"); err != nil {
				t.Fatal(err)
			}
		}
		kept := func() (out []bool) {
			for _, v := range versions {
				_, ok, err := s.SourceInfo(t.Context(), "docs", v)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, ok)
			}
			return out
		}
		for i := range 4 {
			put(i, 1000)
		}
		if k := kept(); k[0] || !k[1] || !k[2] || !k[3] {
			t.Fatalf("after 4 puts with maxVersions 3: kept %v, want the newest 3", k)
		}
		// Reloading the oldest kept makes it the newest: the next put
		// evicts version 2, not it.
		data := corpusBytes(1, 1000)
		if err := s.PutSource(t.Context(), "docs", versions[1], data, "e/1"); err != nil {
			t.Fatal(err)
		}
		put(4, 1000)
		if k := kept(); !k[1] || k[2] || !k[3] || !k[4] {
			t.Fatalf("after a reload and a put: kept %v", k)
		}
		// The byte bound: beside a version of 2 MiB less 1500 bytes only
		// one of 1000 fits (version 4); version 1 goes for bytes and 3
		// for the count.
		put(5, 2*mib-1500)
		k := kept()
		if !k[5] || !k[4] || k[1] || k[3] {
			t.Fatalf("after a large put with maxBytes 2 MiB: kept %v", k)
		}
		// An evicted version's permits went with it.
		if info, ok, _ := s.SourceInfo(t.Context(), "docs", versions[1]); ok || info.Engines != nil {
			t.Fatalf("an evicted version still has %+v", info)
		}
	})
	t.Run("DamagedBytesAreRefused", func(t *testing.T) {
		s := b.open(t, store.SourceLimits{})
		data := corpusBytes(7, 500)
		v := sourceVersion(data)
		if err := s.PutSource(t.Context(), "docs", v, data, "e/1"); err != nil {
			t.Fatal(err)
		}
		b.corrupt(t, s, "docs", v)
		got, ok, err := s.ReadSource(t.Context(), "docs", v)
		var se *store.Error
		if got != nil || ok || !errors.As(err, &se) || se.Code != store.CodeCorrupt {
			t.Fatalf("reading damaged bytes: %d bytes, ok=%v, err=%v; want %s and no bytes", len(got), ok, err, store.CodeCorrupt)
		}
		// Loading the version again heals the row.
		if err := s.PutSource(t.Context(), "docs", v, data, "e/1"); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := s.ReadSource(t.Context(), "docs", v); !ok || err != nil || !bytes.Equal(got, data) {
			t.Fatalf("after a reload: ok=%v err=%v", ok, err)
		}
	})
}

func TestMemorySources(t *testing.T) {
	checkSources(t, sourceBackend{
		open: func(t *testing.T, l store.SourceLimits) store.Sources {
			b, err := store.Open(t.Context(), "memory:", store.Options{Sources: l})
			if err != nil {
				t.Fatal(err)
			}
			return b.(store.Sources)
		},
		corrupt: func(t *testing.T, s store.Sources, site, version string) {
			store.CorruptMemorySource(s.(store.Backend), site, version, []byte("damaged"))
		},
	})
}

func TestSQLiteSources(t *testing.T) {
	paths := map[store.Sources]string{}
	checkSources(t, sourceBackend{
		open: func(t *testing.T, l store.SourceLimits) store.Sources {
			path := filepath.Join(t.TempDir(), "sessions.db")
			s := openSQLite(t, path, store.Options{Sources: l})
			paths[s] = path
			return s
		},
		corrupt: func(t *testing.T, s store.Sources, site, version string) {
			if _, err := rawSQLite(t, paths[s]).Exec(`UPDATE sources SET data = CAST('damaged' AS BLOB) WHERE site_id = ? AND version = ?`, site, version); err != nil {
				t.Fatal(err)
			}
		},
	})
}

func TestPostgresSources(t *testing.T) {
	dsns := map[store.Sources]string{}
	checkSources(t, sourceBackend{
		open: func(t *testing.T, l store.SourceLimits) store.Sources {
			dsn := postgresSchema(t)
			s := openPostgres(t, dsn, store.Options{Sources: l})
			dsns[s] = dsn
			return s
		},
		corrupt: func(t *testing.T, s store.Sources, site, version string) {
			if _, err := rawPostgres(t, dsns[s]).Exec(t.Context(), `UPDATE sources SET data = 'damaged'::bytea WHERE site_id = $1 AND version = $2`, site, version); err != nil {
				t.Fatal(err)
			}
		},
	})
}

func TestSourceLimitsAreValidated(t *testing.T) {
	for _, l := range []store.SourceLimits{{MaxVersions: -1}, {MaxBytes: 1000}, {MaxVersions: store.MaxSourceVersions + 1}} {
		if _, err := store.Open(t.Context(), "memory:", store.Options{Sources: l}); store.CodeOf(err) != store.CodeOpenFailed {
			t.Errorf("limits %+v: err = %v", l, err)
		}
	}
}
