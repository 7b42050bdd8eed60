package replay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/store"
	"github.com/gowebpki/jcs"
)

// Mode says how the replaying engine was chosen.
type Mode string

const (
	ModeExplicit   Mode = "explicit-engine"
	ModeDefault    Mode = "current-default"
	ModeHistorical Mode = "historical-compatible"
)

// Identity is the replay_identity every result carries.
type Identity struct {
	// Engine rebuilt the package (the first match, in registry order).
	Engine string `json:"engine"`
	Mode   Mode   `json:"mode"`
	// Origin is the engine the recipe named; null for a historical replay,
	// whose origin is unknown.
	Origin *string `json:"origin"`
	// MatchingEngines are every engine whose package matched, in order.
	MatchingEngines []string `json:"matching_engines"`
	// Digest is the rebuilt package's digest (its byte-level identity).
	Digest string `json:"digest"`
}

// Result is a replayed package.
type Result struct {
	Package evidence.Package
	// Canonical is the package's complete RFC 8785 form, digest included:
	// the bytes compared across engines.
	Canonical []byte
	Identity  Identity
}

// SourceStore is what replay reads from the store.
type SourceStore interface {
	SourceInfo(ctx context.Context, site, version string) (store.SourceInfo, bool, error)
	ReadSource(ctx context.Context, site, version string) ([]byte, bool, error)
}

// Permit lets an engine replay a source version, beyond the permits the
// store records; an operator's decision, from config.
type Permit struct {
	Engine  string `json:"engine"`
	Version string `json:"version"`
}

// Loaded is an engine already built over the corpus version a site
// serves: it is permitted for that version and never rebuilt.
type Loaded struct {
	Engine *engines.Engine
	Index  evidence.Engine
}

// Config configures a Replayer.
type Config struct {
	// Site is the site id whose sources are read.
	Site string
	// Engines are the retained engines in registry order; nil means
	// engines.All().
	Engines []*engines.Engine
	// Sources is the store of retained versions; nil replays only Loaded.
	Sources SourceStore
	// Loaded are the engines built over the versions being served.
	Loaded []Loaded
	// Permits are the operator's extra (engine, version) pairs.
	Permits []Permit
	// Limits of one replay; zero fields take DefaultLimits.
	Limits Limits
	// Builds are the builds over retained versions, their limits and the
	// cache of built indexes, shared by every site's Replayer of a server;
	// nil gives this Replayer its own, with DefaultBuildLimits.
	Builds *Builds
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Replayer replays recipes for one site. It is safe for concurrent use.
type Replayer struct {
	cfg Config
}

// New checks cfg and returns its Replayer.
func New(cfg Config) (*Replayer, error) {
	if cfg.Engines == nil {
		cfg.Engines = engines.All()
	}
	seen := map[string]bool{}
	for _, e := range cfg.Engines {
		if e == nil || seen[e.ID] {
			return nil, errors.New("replay: engines must be unique")
		}
		seen[e.ID] = true
	}
	if len(cfg.Engines) == 0 || len(cfg.Engines) > engines.MaxRetained {
		return nil, errors.New("replay: 1 to 6 engines")
	}
	for _, p := range cfg.Permits {
		if !seen[p.Engine] {
			return nil, errors.New("replay: a permit names an engine that is not retained")
		}
	}
	for _, l := range cfg.Loaded {
		if l.Engine == nil || !seen[l.Engine.ID] || l.Index == nil || l.Index.ID() != l.Engine.ID {
			return nil, errors.New("replay: a loaded index is not one of the engines")
		}
	}
	if cfg.Site == "" {
		return nil, errors.New("replay: the site id is required")
	}
	cfg.Limits = cfg.Limits.or(DefaultLimits())
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Builds == nil {
		cfg.Builds = NewBuilds(DefaultBuildLimits(), cfg.Now)
	}
	return &Replayer{cfg: cfg}, nil
}

// Replay rebuilds the package recipe names. Every failure is an *Error.
func (r *Replayer) Replay(ctx context.Context, recipe evidence.Recipe) (*Result, error) {
	a := &allowance{lim: r.cfg.Limits, now: r.cfg.Now}
	a.deadline = r.cfg.Now().Add(r.cfg.Limits.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(a.deadline) {
		a.deadline = d
	}
	ctx, cancel := context.WithDeadline(ctx, a.deadline)
	defer cancel()
	res, err := r.replay(ctx, a, recipe)
	// The deadline wins over every other outcome: late work never returns.
	if a.expired() {
		return nil, errDeadline
	}
	return res, err
}

func (r *Replayer) replay(ctx context.Context, a *allowance, recipe evidence.Recipe) (*Result, error) {
	mode := ModeDefault
	switch {
	case recipe.EngineID != "":
		mode = ModeExplicit
	case recipe.ContextID != "":
		mode = ModeHistorical
	}
	if mode == ModeExplicit && r.engine(recipe.EngineID) == nil {
		return nil, errUnknownEngine // before any I/O
	}
	if !r.served(recipe.Version) {
		// A version that would need a build the limits do not allow now
		// is refused before the store is read at all.
		if err := r.cfg.Builds.admit(r.cfg.Site, recipe.Version); err != nil {
			return nil, err
		}
	}
	permitted, info, err := r.permitted(ctx, a, recipe.Version)
	if err != nil {
		return nil, err
	}
	var candidates []*engines.Engine
	switch mode {
	case ModeExplicit:
		if !slices.Contains(permitted, recipe.EngineID) {
			return nil, errIncompatible
		}
		candidates = []*engines.Engine{r.engine(recipe.EngineID)}
	case ModeDefault:
		candidates = []*engines.Engine{r.engine(permitted[0])}
	case ModeHistorical:
		for _, id := range permitted {
			candidates = append(candidates, r.engine(id))
		}
		if len(candidates) > r.cfg.Limits.Attempts {
			return nil, errTooManyEngines // before any I/O
		}
	}
	s := &session{r: r, a: a, info: info, version: recipe.Version}
	var kept *Result
	var matches []string
	for _, e := range candidates {
		if a.expired() {
			return nil, errDeadline
		}
		if err := a.reserve(1, 0, 0, 0); err != nil {
			return nil, err
		}
		ix, err := s.index(ctx, e)
		if err != nil {
			return nil, err // integrity and store failures never fall back
		}
		if a.expired() {
			return nil, errDeadline
		}
		p := ix.Search(recipe.Question, evidence.Budget{MaxRecords: recipe.Budget.MaxRecords, MaxBytes: recipe.Budget.MaxBytes})
		if a.expired() {
			return nil, errDeadline
		}
		// p.Engine is what the engine writes: askplane.bm25/1 writes its
		// own id (so its context ids never match another engine's), a
		// future engine may write a family label shared with others.
		if p.SourceVersion != recipe.Version {
			return nil, fail(CodeSourceIntegrity, "the engine built a package of another version")
		}
		if recipe.ContextID != "" && p.ContextID != recipe.ContextID {
			continue
		}
		canon, err := jcs.Transform(p.JSON())
		if err != nil {
			return nil, &Error{Code: CodeSourceIntegrity, Message: "the rebuilt package is not canonical JSON", Err: err}
		}
		if kept != nil {
			if !bytes.Equal(kept.Canonical, canon) {
				return nil, errAmbiguous
			}
		} else {
			kept = &Result{Package: p, Canonical: canon}
		}
		matches = append(matches, e.ID)
	}
	if kept == nil {
		if mode == ModeHistorical {
			return nil, errHistorical
		}
		return nil, errMismatch
	}
	kept.Identity = Identity{Engine: matches[0], Mode: mode, MatchingEngines: matches, Digest: kept.Package.Digest}
	if mode == ModeExplicit {
		origin := recipe.EngineID
		kept.Identity.Origin = &origin
	}
	return kept, nil
}

// engine returns the configured engine id names, or nil.
func (r *Replayer) engine(id string) *engines.Engine {
	for _, e := range r.cfg.Engines {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// permitted returns the engines permitted for version, in registry order,
// and the store's description of it (nil when it is not retained there).
// A version neither loaded nor retained is unavailable.
func (r *Replayer) permitted(ctx context.Context, a *allowance, version string) ([]string, *store.SourceInfo, error) {
	allowed := map[string]bool{}
	known := false
	for _, l := range r.cfg.Loaded {
		if l.Index.SourceVersion() == version {
			allowed[l.Engine.ID], known = true, true
		}
	}
	var info *store.SourceInfo
	if r.cfg.Sources != nil {
		if err := a.reserve(0, 1, 0, 0); err != nil {
			return nil, nil, err
		}
		si, ok, err := r.cfg.Sources.SourceInfo(ctx, r.cfg.Site, version)
		if err != nil {
			return nil, nil, storeErr(err)
		}
		if ok {
			info, known = &si, true
			for _, e := range si.Engines {
				allowed[e] = true
			}
		}
	}
	if !known {
		return nil, nil, errNoSource
	}
	for _, p := range r.cfg.Permits {
		if p.Version == version {
			allowed[p.Engine] = true
		}
	}
	var out []string
	for _, e := range r.cfg.Engines {
		if allowed[e.ID] {
			out = append(out, e.ID)
		}
	}
	if len(out) == 0 {
		return nil, nil, errIncompatible
	}
	return out, info, nil
}

func storeErr(err error) error {
	if store.CodeOf(err) == store.CodeCorrupt {
		return &Error{Code: CodeSourceIntegrity, Message: errIntegrity.Message, Err: err}
	}
	return &Error{Code: CodeUnavailable, Message: "the retained sources could not be read", Err: err}
}

// session is one replay's reads: the source's bytes are read at most
// once, whatever the number of engines built over them.
type session struct {
	r       *Replayer
	a       *allowance
	info    *store.SourceInfo
	version string
	raw     []byte
}

// index returns e built over the version: a loaded or cached build when
// there is one, else a build from the retained bytes, paid for first.
func (s *session) index(ctx context.Context, e *engines.Engine) (evidence.Engine, error) {
	for _, l := range s.r.cfg.Loaded {
		if l.Engine.ID == e.ID && l.Index.SourceVersion() == s.version {
			return l.Index, nil
		}
	}
	key := buildKey{s.r.cfg.Site, e.ID, s.version}
	if ix := s.r.cfg.Builds.lookup(key); ix != nil {
		return ix, nil
	}
	if s.info == nil {
		return nil, errNoSource // permitted by config, loaded nowhere, not retained
	}
	// One build per site, engine and version, shared by the replays that
	// need it at once; refused at once past the server's build limits.
	// The build serves every replay waiting for it, so it outlives this
	// one's client (not its deadline).
	return s.r.cfg.Builds.build(ctx, key, s.r.served(s.version), func() (evidence.Engine, int64, error) {
		bctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), s.a.deadline)
		defer cancel()
		return s.build(bctx, e)
	})
}

// build reads the retained bytes (once per replay), pays for decoding
// them, and builds e over them; it returns the index and its estimated
// size.
func (s *session) build(ctx context.Context, e *engines.Engine) (evidence.Engine, int64, error) {
	if s.raw == nil {
		if err := s.a.reserve(0, 1, s.info.Bytes, 0); err != nil {
			return nil, 0, err
		}
		raw, ok, err := s.r.cfg.Sources.ReadSource(ctx, s.r.cfg.Site, s.version)
		switch {
		case err != nil:
			return nil, 0, storeErr(err)
		case !ok:
			return nil, 0, errNoSource // evicted since its description was read
		case int64(len(raw)) != s.info.Bytes:
			return nil, 0, errIntegrity
		}
		s.raw = raw
	}
	if err := s.a.reserve(0, 0, 0, int64(len(s.raw))); err != nil {
		return nil, 0, err
	}
	if s.a.expired() {
		return nil, 0, errDeadline
	}
	ix, err := e.Open(s.raw, s.version)
	if err != nil {
		var ce *corpus.Error
		if errors.As(err, &ce) && ce.Code == corpus.CodeMismatch {
			return nil, 0, &Error{Code: CodeSourceIntegrity, Message: errIntegrity.Message, Err: err}
		}
		return nil, 0, &Error{Code: CodeSourceIntegrity, Message: "the retained source does not decode", Err: err}
	}
	if ix.ID() != e.ID || ix.SourceVersion() != s.version {
		return nil, 0, errIntegrity
	}
	return ix, IndexBytes(int64(len(s.raw))), nil
}

// served reports whether version is one this Replayer's site serves.
func (r *Replayer) served(version string) bool {
	for _, l := range r.cfg.Loaded {
		if l.Index.SourceVersion() == version {
			return true
		}
	}
	return false
}

// ContentHash spells the hash a read's content_sha256 carries.
func ContentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
