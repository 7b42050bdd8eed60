package sidecar

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/replay"
	"github.com/askplane/askplane/internal/store"
)

// SourcesConfig is the retention of corpus versions and the operator's
// replay permits. Every field is optional:
//
//	"sources": {
//	  "maxVersions": 20,           // corpus versions kept, all sites together
//	  "maxBytes": 268435456,       // their bytes together (256 MiB)
//	  "permit": [{"engine": "askplane.bm25/1", "version": "sha256:…"}],
//	                               // extra (engine, version) pairs replay may use; a
//	                               //   loaded version is permitted for the engine
//	                               //   current when it was loaded, and nothing else
//	  "rebuildsInFlight": 2,       // indexes replay builds at once, all sites together
//	  "rebuildsPerMinute": 12,     // builds of versions no site serves, a minute
//	  "rebuildCacheBytes": 268435456 // built indexes kept, by estimated size (256 MiB)
//	}
//
// Every corpus version a site loads is kept, by content hash, in the
// session store's database (memory: keeps it in process), so review links
// of answers from earlier deployments still replay.
type SourcesConfig struct {
	MaxVersions int             `json:"maxVersions"`
	MaxBytes    int64           `json:"maxBytes"`
	Permit      []replay.Permit `json:"permit"`

	RebuildsInFlight  int   `json:"rebuildsInFlight"`
	RebuildsPerMinute int   `json:"rebuildsPerMinute"`
	RebuildCacheBytes int64 `json:"rebuildCacheBytes"`
}

// buildLimits are the replay build limits the config sets (zero fields
// take replay's defaults).
func (c *SourcesConfig) buildLimits() replay.BuildLimits {
	if c == nil {
		return replay.BuildLimits{}
	}
	return replay.BuildLimits{InFlight: c.RebuildsInFlight, PerMinute: c.RebuildsPerMinute, CacheBytes: c.RebuildCacheBytes}
}

// maxPermits bounds sources.permit.
const maxPermits = 64

func (c *SourcesConfig) limits() store.SourceLimits {
	if c == nil {
		return store.SourceLimits{}
	}
	return store.SourceLimits{MaxVersions: c.MaxVersions, MaxBytes: c.MaxBytes}
}

func (c *SourcesConfig) permits() []replay.Permit {
	if c == nil {
		return nil
	}
	return c.Permit
}

func (c *SourcesConfig) check() error {
	if c == nil {
		return nil
	}
	if c.MaxVersions < 0 || c.MaxBytes < 0 {
		return errors.New("limits must be positive")
	}
	if err := c.limits().Or(store.DefaultSourceLimits()).Validate(); err != nil {
		return fmt.Errorf("maxVersions must be 1 to %d and maxBytes %d to %d", store.MaxSourceVersions, store.MinSourceBytes, store.MaxSourceBytes)
	}
	switch {
	case c.RebuildsInFlight < 0 || c.RebuildsInFlight > replay.MaxInFlight:
		return fmt.Errorf("rebuildsInFlight must be 1 to %d", replay.MaxInFlight)
	case c.RebuildsPerMinute < 0 || c.RebuildsPerMinute > replay.MaxPerMinute:
		return fmt.Errorf("rebuildsPerMinute must be 1 to %d", replay.MaxPerMinute)
	case c.RebuildCacheBytes < 0 || c.RebuildCacheBytes > replay.MaxCacheBytes:
		return fmt.Errorf("rebuildCacheBytes must be 1 to %d", int64(replay.MaxCacheBytes))
	}
	if len(c.Permit) > maxPermits {
		return fmt.Errorf("permit: at most %d", maxPermits)
	}
	for i, p := range c.Permit {
		if _, ok := engines.Lookup(p.Engine); !ok {
			return fmt.Errorf("permit[%d].engine: not an engine this askplane retains", i)
		}
		if !protocol.ValidContentHash(p.Version) {
			return fmt.Errorf("permit[%d].version: must be a corpus sha256", i)
		}
	}
	return nil
}

// retainSource keeps the site's loaded corpus bytes in the store, where
// replays of its links find them after the site moves on. A store that
// cannot keep them is logged, not fatal: the served version replays from
// memory either way.
func (s *Server) retainSource(ctx context.Context, st *site) {
	src, ok := s.sessions.(store.Sources)
	if !ok || st.raw == nil {
		return
	}
	if err := src.PutSource(ctx, st.record.SiteID, st.corpus.Version, st.raw, st.engine.ID); err != nil {
		s.log.Warn("askplane: the corpus version could not be retained for replay", "site", st.record.SiteID, "version", st.corpus.Version, "err", err)
	} else {
		s.log.Info("askplane: corpus version retained for replay", "site", st.record.SiteID, "version", st.corpus.Version)
	}
	st.raw = nil // the decoded corpus is what the site keeps
}

// replayer is the site's Replayer: the version it serves in memory, the
// retained ones in the store.
func (s *Server) replayer(st *site, engine evidence.Engine) (*replay.Replayer, error) {
	src, _ := s.sessions.(store.Sources)
	var sources replay.SourceStore
	if src != nil {
		sources = src
	}
	return replay.New(replay.Config{
		Site:    st.record.SiteID,
		Sources: sources,
		Loaded:  []replay.Loaded{{Engine: st.engine, Index: engine}},
		Permits: s.cfg.Sources.permits(),
		Builds:  s.builds,
	})
}

// replayHandlers are a site's POST /v1/evidence/replay and
// /v1/evidence/read, behind the rules of its /mcp.
func (s *Server) replayHandlers(st *site, edge *edgeLimits, subjects limit.Limiter, r *replay.Replayer) (rep, read http.Handler) {
	timeout := s.cfg.Edge.BodyTimeout.or(DefaultBodyTimeout)
	rep = st.agentGate(edge, subjects, &replay.Handler{Replayer: r, BodyTimeout: timeout})
	read = st.agentGate(edge, subjects, &replay.Handler{Replayer: r, Read: true, BodyTimeout: timeout})
	return rep, read
}
