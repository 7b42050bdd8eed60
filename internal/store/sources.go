package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// Sources retains corpus versions, the exact bytes of each corpus file a
// sidecar loaded, by site and content hash, so evidence built from a
// version can be rebuilt after a redeploy has moved the site on
// (internal/replay). Each version also records the engines permitted to
// replay it: the one that was current when it was loaded (a reload under
// a newer engine adds that one too). Permitting any other pair is the
// operator's decision, made in the sidecar's config, never here.
//
// Retention is bounded by SourceLimits over the whole table: after every
// PutSource the most recently put versions are kept while they fit
// MaxVersions and MaxBytes, and older ones are deleted with their
// permits; the version just put is never the one deleted. Several
// instances sharing a database share the bound.
//
// Bytes are checked against their version on the way in and again on the
// way out: ReadSource returns CodeCorrupt, never bytes, for a row that no
// longer hashes to its version.
type Sources interface {
	// PutSource retains data as version ("sha256:" + hex of data) of
	// site's corpus, permitted for engine, and applies the retention bound.
	PutSource(ctx context.Context, site, version string, data []byte, engine string) error
	// SourceInfo describes a retained version without reading its bytes;
	// ok is false when it is not retained.
	SourceInfo(ctx context.Context, site, version string) (info SourceInfo, ok bool, err error)
	// ReadSource returns a retained version's verified bytes; ok is false
	// when it is not retained (never, or evicted since SourceInfo).
	ReadSource(ctx context.Context, site, version string) (data []byte, ok bool, err error)
	// SourceLimits are the retention bounds in force.
	SourceLimits() SourceLimits
	// SourceVersions lists site's retained versions, newest first, each
	// with the engines permitted to replay it (Bytes included, data not).
	SourceVersions(ctx context.Context, site string) ([]SourceInfo, error)
}

// SourceInfo is one retained version.
type SourceInfo struct {
	Site    string
	Version string
	Bytes   int64
	// Engines are the engine ids permitted to replay it, sorted.
	Engines []string
}

// SourceLimits bound the retained versions.
type SourceLimits struct {
	// MaxVersions bounds how many versions are kept, all sites together.
	MaxVersions int
	// MaxBytes bounds their bytes together; a version larger than this is
	// refused.
	MaxBytes int64
}

// Defaults and bounds of SourceLimits.
const (
	DefaultMaxSourceVersions       = 20
	DefaultMaxSourceBytes    int64 = 256 << 20
	MaxSourceVersions              = 10_000
	MinSourceBytes           int64 = 1 << 20
	MaxSourceBytes           int64 = 64 << 30
)

// Or fills zero fields from def.
func (l SourceLimits) Or(def SourceLimits) SourceLimits {
	if l.MaxVersions == 0 {
		l.MaxVersions = def.MaxVersions
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = def.MaxBytes
	}
	return l
}

// DefaultSourceLimits are 20 versions and 256 MiB.
func DefaultSourceLimits() SourceLimits {
	return SourceLimits{MaxVersions: DefaultMaxSourceVersions, MaxBytes: DefaultMaxSourceBytes}
}

// Validate checks the limits are within 1..MaxSourceVersions versions and
// MinSourceBytes..MaxSourceBytes bytes.
func (l SourceLimits) Validate() error {
	if l.MaxVersions < 1 || l.MaxVersions > MaxSourceVersions || l.MaxBytes < MinSourceBytes || l.MaxBytes > MaxSourceBytes {
		return &Error{Code: CodeOpenFailed, Op: "open", Reason: "source limits must be 1 to 10000 versions and 1 MiB to 64 GiB"}
	}
	return nil
}

func sourceLimits(opts []Options) (SourceLimits, error) {
	l := DefaultSourceLimits()
	if len(opts) == 1 {
		l = opts[0].Sources.Or(l)
	}
	return l, l.Validate()
}

// Reasons of source failures.
const (
	reasonSourceHash    = "the bytes do not hash to the version"
	reasonSourceTooBig  = "the source is larger than the retention bound"
	reasonSourceKey     = "site, version or engine is malformed"
	reasonSourceCorrupt = "the retained bytes no longer hash to their version"
)

// sourceHash spells data's version.
func sourceHash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// checkSource validates PutSource's arguments.
func checkSource(l SourceLimits, site, version string, data []byte, engine string) error {
	if err := checkSourceKey("put source", site, version); err != nil {
		return err
	}
	switch {
	case engine == "" || len(engine) > MaxKeyLen || !validText(engine):
		return &Error{Code: CodeInvalidKey, Op: "put source", Reason: reasonSourceKey}
	case int64(len(data)) > l.MaxBytes:
		return &Error{Code: CodeInvalidRecord, Op: "put source", Reason: reasonSourceTooBig, Limit: int(min(l.MaxBytes, 1<<62))}
	case sourceHash(data) != version:
		return &Error{Code: CodeInvalidRecord, Op: "put source", Reason: reasonSourceHash}
	}
	return nil
}

func checkSourceKey(op, site, version string) error {
	if site == "" || len(site) > MaxKeyLen || !validText(site) || !protocol.ValidContentHash(version) {
		return &Error{Code: CodeInvalidKey, Op: op, Reason: reasonSourceKey}
	}
	return nil
}

// validText is plain text as keys must be: valid UTF-8 without NUL.
func validText(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }

// verifySource is ReadSource's check of the bytes a backend returned.
func verifySource(version string, data []byte) error {
	if sourceHash(data) != version {
		return &Error{Code: CodeCorrupt, Op: "read source", Reason: reasonSourceCorrupt}
	}
	return nil
}

// memorySources is the memory backend's Sources: the same bound, in
// process memory, forgotten on restart.
type memorySources struct {
	limits SourceLimits
	mu     sync.Mutex
	seq    int64
	rows   map[[2]string]*memorySource
}

type memorySource struct {
	seq     int64
	data    []byte
	engines []string
}

func (m *memorySources) PutSource(ctx context.Context, site, version string, data []byte, engine string) error {
	if err := checkSource(m.limits, site, version, data, engine); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return unavailable(ctx, "put source", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := [2]string{site, version}
	m.seq++
	row := m.rows[k]
	if row == nil {
		row = &memorySource{}
		m.rows[k] = row
	}
	row.seq, row.data = m.seq, slices.Clone(data)
	if !slices.Contains(row.engines, engine) {
		row.engines = append(row.engines, engine)
		slices.Sort(row.engines)
	}
	// Keep the newest while they fit, beside the one just put.
	keys := make([][2]string, 0, len(m.rows))
	for key := range m.rows {
		if key != k {
			keys = append(keys, key)
		}
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return int(m.rows[b].seq - m.rows[a].seq) })
	n, total := 1, int64(len(data))
	for _, key := range keys {
		n++
		total += int64(len(m.rows[key].data))
		if n > m.limits.MaxVersions || total > m.limits.MaxBytes {
			delete(m.rows, key)
		}
	}
	return nil
}

func (m *memorySources) SourceInfo(ctx context.Context, site, version string) (SourceInfo, bool, error) {
	if err := checkSourceKey("source info", site, version); err != nil {
		return SourceInfo{}, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	row := m.rows[[2]string{site, version}]
	if row == nil {
		return SourceInfo{}, false, nil
	}
	return SourceInfo{Site: site, Version: version, Bytes: int64(len(row.data)), Engines: slices.Clone(row.engines)}, true, nil
}

func (m *memorySources) ReadSource(ctx context.Context, site, version string) ([]byte, bool, error) {
	if err := checkSourceKey("read source", site, version); err != nil {
		return nil, false, err
	}
	m.mu.Lock()
	row := m.rows[[2]string{site, version}]
	m.mu.Unlock()
	if row == nil {
		return nil, false, nil
	}
	if err := verifySource(version, row.data); err != nil {
		return nil, false, err
	}
	return row.data, true, nil // never written again: PutSource replaces the slice
}

func (m *memorySources) SourceLimits() SourceLimits { return m.limits }

// sourceTimeout bounds one source operation: a corpus is megabytes, so it
// gets longer than a session's OpTimeout.
const sourceTimeout = 30 * time.Second

// SourceVersions implements Sources.
func (m *memorySources) SourceVersions(ctx context.Context, site string) ([]SourceInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, unavailable(ctx, "source versions", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	type row struct {
		seq  int64
		info SourceInfo
	}
	var rows []row
	for k, r := range m.rows {
		if k[0] == site {
			rows = append(rows, row{r.seq, SourceInfo{Site: site, Version: k[1], Bytes: int64(len(r.data)), Engines: slices.Clone(r.engines)}})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.seq, a.seq) })
	out := make([]SourceInfo, len(rows))
	for i, r := range rows {
		out[i] = r.info
	}
	return out, nil
}

// scanVersions reads (version, bytes, engine) rows, newest version first
// and engines in order, into one SourceInfo a version.
func scanVersions(site string, next func() bool, scan func(version *string, bytes *int64, engine *string) error) ([]SourceInfo, error) {
	var out []SourceInfo
	for next() {
		var version, engine string
		var bytes int64
		if err := scan(&version, &bytes, &engine); err != nil {
			return nil, err
		}
		if n := len(out); n == 0 || out[n-1].Version != version {
			out = append(out, SourceInfo{Site: site, Version: version, Bytes: bytes})
		}
		out[len(out)-1].Engines = append(out[len(out)-1].Engines, engine)
	}
	return out, nil
}
