package replay

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/askplane/askplane/internal/evidence"
)

// BuildLimits bound what rebuilding indexes over retained versions may
// take, all sites of a server together. Zero fields take
// DefaultBuildLimits.
type BuildLimits struct {
	// InFlight bounds the indexes being built at once. A replay that needs
	// a build past it is refused at once (CodeBusy), before any read;
	// replays of a version already being built wait for that build.
	InFlight int
	// PerMinute bounds the builds of versions no site is serving: a
	// budget refilled evenly over a minute, all of it available at
	// first. Past it a replay that needs such a build is refused at once.
	PerMinute int
	// CacheBytes bounds the indexes kept built for the next replay, by
	// their estimated size (IndexBytes); the least recently used go
	// first, and an index larger than the whole bound is not kept.
	CacheBytes int64
}

// DefaultBuildLimits: two builds at once, twelve builds of versions not
// being served a minute, 256 MiB of kept indexes.
func DefaultBuildLimits() BuildLimits {
	return BuildLimits{InFlight: 2, PerMinute: 12, CacheBytes: 256 << 20}
}

// Bounds of BuildLimits, checked by the config.
const (
	MaxInFlight   = 64
	MaxPerMinute  = 6000
	MaxCacheBytes = 64 << 30
)

func (l BuildLimits) or(def BuildLimits) BuildLimits {
	if l.InFlight <= 0 {
		l.InFlight = def.InFlight
	}
	if l.PerMinute <= 0 {
		l.PerMinute = def.PerMinute
	}
	if l.CacheBytes <= 0 {
		l.CacheBytes = def.CacheBytes
	}
	return l
}

// IndexBytes estimates the memory of an index built over a corpus file
// of n bytes: measured at 3.5 to 5.7 times the file for askplane.bm25/1
// and /2 (internal/replay's guide corpora, 1 to 5 MB), so 6 times, plus
// a fixed 64 KiB.
func IndexBytes(n int64) int64 { return 6*n + 64<<10 }

// Builds is what every replay of a server shares: the builds in flight
// (one per site, engine and version, shared by the replays that need
// it), the budget of builds of versions not being served, and the cache
// of built indexes, bounded in bytes. It is safe for concurrent use.
type Builds struct {
	lim BuildLimits
	now func() time.Time

	mu       sync.Mutex
	flights  map[buildKey]*flight
	waiters  int
	tokens   float64
	refilled time.Time
	cache    []cached // most recently used first
	bytes    int64
	stats    BuildStats
}

// BuildStats count what Builds did, for tests and logs.
type BuildStats struct {
	// Builds counts indexes built (started); Refused, replays refused by
	// InFlight or PerMinute.
	Builds, Refused int64
	// InFlight and Waiting are the builds running now and the replays
	// waiting for one of them.
	InFlight, Waiting int
	// Cached and CacheBytes are the indexes kept and their estimated size.
	Cached     int
	CacheBytes int64
}

type buildKey struct{ site, engine, version string }

type flight struct {
	done chan struct{}
	ix   evidence.Engine
	err  error
}

type cached struct {
	key   buildKey
	index evidence.Engine
	bytes int64
}

// NewBuilds returns Builds bounded by lim (zero fields take the
// defaults); now is the clock, nil meaning time.Now.
func NewBuilds(lim BuildLimits, now func() time.Time) *Builds {
	if now == nil {
		now = time.Now
	}
	lim = lim.or(DefaultBuildLimits())
	return &Builds{lim: lim, now: now, flights: map[buildKey]*flight{}, tokens: float64(lim.PerMinute), refilled: now()}
}

// Limits are the bounds b enforces.
func (b *Builds) Limits() BuildLimits { return b.lim }

// Stats reports what b holds and has done.
func (b *Builds) Stats() BuildStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
	s.InFlight, s.Waiting, s.Cached, s.CacheBytes = len(b.flights), b.waiters, len(b.cache), b.bytes
	return s
}

// lookup returns the cached index of k, or nil.
func (b *Builds) lookup(k buildKey) evidence.Engine {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, c := range b.cache {
		if c.key == k {
			copy(b.cache[1:i+1], b.cache[:i])
			b.cache[0] = c
			return c.index
		}
	}
	return nil
}

// build returns k's index: the cached one, the one being built (waited
// for until ctx ends), or one built now by run, when a slot and (for a
// version not being served) the per-minute budget allow; otherwise it
// refuses at once with CodeBusy. run's index is kept, estimated at
// size(its result) bytes.
func (b *Builds) build(ctx context.Context, k buildKey, served bool, run func() (evidence.Engine, int64, error)) (evidence.Engine, error) {
	b.mu.Lock()
	for i, c := range b.cache {
		if c.key == k {
			copy(b.cache[1:i+1], b.cache[:i])
			b.cache[0] = c
			b.mu.Unlock()
			return c.index, nil
		}
	}
	if f, ok := b.flights[k]; ok {
		b.waiters++
		b.mu.Unlock()
		defer func() { b.mu.Lock(); b.waiters--; b.mu.Unlock() }()
		select {
		case <-f.done:
			return f.ix, f.err
		case <-ctx.Done():
			return nil, errDeadline
		}
	}
	if len(b.flights) >= b.lim.InFlight {
		b.stats.Refused++
		b.mu.Unlock()
		return nil, errBusy(time.Second)
	}
	if !served {
		if wait := b.take(); wait > 0 {
			b.stats.Refused++
			b.mu.Unlock()
			return nil, errBusy(wait)
		}
	}
	f := &flight{done: make(chan struct{})}
	b.flights[k] = f
	b.stats.Builds++
	b.mu.Unlock()

	// The flight ends however run ends, a panic included, so no replay
	// waits for it forever and its slot comes back.
	var size int64
	f.err = errBuildFailed
	defer func() {
		b.mu.Lock()
		delete(b.flights, k)
		if f.err == nil {
			b.keep(cached{k, f.ix, size})
		}
		b.mu.Unlock()
		close(f.done)
	}()
	f.ix, size, f.err = run()
	return f.ix, f.err
}

// admit refuses at once (CodeBusy) a replay of a version not being
// served that would need a build the limits do not allow now: nothing of
// the site's version is built or being built, and no place is free or no
// build of the per-minute budget is left. It spends nothing; build
// decides for good.
func (b *Builds) admit(site, version string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.cache {
		if c.key.site == site && c.key.version == version {
			return nil
		}
	}
	for k := range b.flights {
		if k.site == site && k.version == version {
			return nil
		}
	}
	if len(b.flights) >= b.lim.InFlight {
		b.stats.Refused++
		return errBusy(time.Second)
	}
	if wait := b.peek(); wait > 0 {
		b.stats.Refused++
		return errBusy(wait)
	}
	return nil
}

// take spends one build of the per-minute budget, or returns how long
// until one is available. b.mu is held.
func (b *Builds) take() time.Duration {
	wait := b.peek()
	if wait == 0 {
		b.tokens--
	}
	return wait
}

// peek refills the per-minute budget and returns how long until one
// build is available (0: now). b.mu is held.
func (b *Builds) peek() time.Duration {
	now := b.now()
	per := time.Minute / time.Duration(b.lim.PerMinute)
	if el := now.Sub(b.refilled); el > 0 {
		b.tokens = math.Min(float64(b.lim.PerMinute), b.tokens+float64(el)/float64(per))
		b.refilled = now
	}
	if b.tokens >= 1 {
		return 0
	}
	return max(time.Duration((1-b.tokens)*float64(per)), time.Millisecond)
}

// keep caches c, evicting the least recently used past CacheBytes; an
// index larger than CacheBytes is not kept. b.mu is held.
func (b *Builds) keep(c cached) {
	if c.bytes > b.lim.CacheBytes {
		return
	}
	b.cache = append([]cached{c}, b.cache...)
	b.bytes += c.bytes
	for b.bytes > b.lim.CacheBytes {
		last := b.cache[len(b.cache)-1]
		b.cache[len(b.cache)-1] = cached{}
		b.cache = b.cache[:len(b.cache)-1]
		b.bytes -= last.bytes
	}
}
