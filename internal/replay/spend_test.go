package replay

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
)

// countingEngine is an engine over real packages whose builds are counted
// and may be held until the test releases them.
type countingEngine struct {
	builds  atomic.Int64
	hold    chan struct{} // nil: builds do not wait
	started chan struct{} // receives once per build, when not nil
}

func (c *countingEngine) engine() *engines.Engine {
	cur := engines.Current()
	return &engines.Engine{
		ID: cur.ID,
		Index: func(cp *corpus.Corpus) evidence.Engine {
			c.builds.Add(1)
			if c.started != nil {
				c.started <- struct{}{}
			}
			if c.hold != nil {
				<-c.hold
			}
			return cur.Index(cp)
		},
	}
}

// pageCorpus is a retained version distinct for each n.
func pageCorpus(n int) []byte {
	return corpusFile("Install "+strconv.Itoa(n), "Run go install to get the askplane command. It needs Go 1.26.")
}

func explicitRecipe(t *testing.T, raw []byte) evidence.Recipe {
	t.Helper()
	v := corpus.ContentHash(raw)
	ix, err := engines.Current().Open(raw, v)
	if err != nil {
		t.Fatal(err)
	}
	p := ix.Search("how do I install askplane?", evidence.Budget{MaxRecords: 5})
	return p.Recipe()
}

// TestConcurrentReplaysShareOneBuild: 20 concurrent replays of one
// retained version each built their own index (30 took RSS to 3 GB).
// Now they share one build: one index is built and every replay answers
// with it.
func TestConcurrentReplaysShareOneBuild(t *testing.T) {
	const n = 20
	ce := &countingEngine{hold: make(chan struct{})}
	s := newFakeStore()
	raw := pageCorpus(1)
	s.put(raw, engines.Current().ID)
	recipe := explicitRecipe(t, raw)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}})
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = r.Replay(t.Context(), recipe) })
	}
	// Let every replay reach its build, or the one build it shares.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline) && ce.builds.Load() < n && r.waiting() < n-1; {
		time.Sleep(5 * time.Millisecond)
	}
	close(ce.hold)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("replay %d: %v", i, err)
		}
	}
	if b := ce.builds.Load(); b != 1 {
		t.Fatalf("%d concurrent replays of one version built %d indexes, want 1", n, b)
	}
}

// TestCyclingRetainedVersionsDoesNotRebuild: the cache held two builds,
// so replays cycling through three retained versions rebuilt one on every
// request. The cache is bounded in bytes now: three small versions stay
// built, and cycling them four times builds each once.
func TestCyclingRetainedVersionsDoesNotRebuild(t *testing.T) {
	ce := &countingEngine{}
	s := newFakeStore()
	var recipes []evidence.Recipe
	for i := range 3 {
		raw := pageCorpus(i)
		s.put(raw, engines.Current().ID)
		recipes = append(recipes, explicitRecipe(t, raw))
	}
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}})
	for range 4 {
		for _, rc := range recipes {
			if _, err := r.Replay(t.Context(), rc); err != nil {
				t.Fatal(err)
			}
		}
	}
	if b := ce.builds.Load(); b != 3 {
		t.Fatalf("12 replays cycling 3 retained versions built %d indexes, want 3", b)
	}
}

// TestBuildsPastTheCapAreRefusedAtOnce: with one build allowed in flight
// and it held, a replay of another retained version is refused at once
// with replay_busy and a Retry-After, before reading the store; a replay
// of the version being built waits for that build and shares it.
func TestBuildsPastTheCapAreRefusedAtOnce(t *testing.T) {
	ce := &countingEngine{hold: make(chan struct{}), started: make(chan struct{}, 4)}
	s := newFakeStore()
	rawA, rawB := pageCorpus(1), pageCorpus(2)
	s.put(rawA, engines.Current().ID)
	s.put(rawB, engines.Current().ID)
	builds := NewBuilds(BuildLimits{InFlight: 1}, nil)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}, Builds: builds})
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { _, errs[0] = r.Replay(t.Context(), explicitRecipe(t, rawA)) })
	<-ce.started
	wg.Go(func() { _, errs[1] = r.Replay(t.Context(), explicitRecipe(t, rawA)) })
	for deadline := time.Now().Add(2 * time.Second); builds.Stats().Waiting < 1 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	s.mu.Lock()
	infos, reads := s.infos, s.reads
	s.mu.Unlock()
	res, err := r.Replay(t.Context(), explicitRecipe(t, rawB))
	wantCode(t, res, err, CodeBusy)
	var e *Error
	if !errors.As(err, &e) || e.RetryAfter <= 0 || CodeBusy.Status() != http.StatusServiceUnavailable {
		t.Fatalf("refusal %+v: want a Retry-After and 503", e)
	}
	s.mu.Lock()
	if s.infos != infos || s.reads != reads {
		t.Errorf("the refused replay used the store (%d descriptions and %d reads, then %d and %d)", infos, reads, s.infos, s.reads)
	}
	s.mu.Unlock()
	close(ce.hold)
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("replays of the version being built: %v", errs)
	}
	st := builds.Stats()
	if ce.builds.Load() != 1 || st.Builds != 1 || st.Refused != 1 || st.InFlight != 0 || st.Waiting != 0 {
		t.Fatalf("%d builds, stats %+v: want 1 build, 1 refusal, nothing left in flight", ce.builds.Load(), st)
	}
	// The slot is free again: B builds now.
	if _, err := r.Replay(t.Context(), explicitRecipe(t, rawB)); err != nil {
		t.Fatal(err)
	}
}

// TestBuildsOfVersionsNotServedHaveABudget: two builds a minute of
// versions no site serves. Past it a replay that needs a build is
// refused at once with the wait until the next one; a replay of a built
// version, or of the version being served, is not charged.
func TestBuildsOfVersionsNotServedHaveABudget(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	ce := &countingEngine{}
	s := newFakeStore()
	var recipes []evidence.Recipe
	for i := range 3 {
		raw := pageCorpus(i)
		s.put(raw, engines.Current().ID)
		recipes = append(recipes, explicitRecipe(t, raw))
	}
	served, err := engines.Current().Open(pageCorpus(9), corpus.ContentHash(pageCorpus(9)))
	if err != nil {
		t.Fatal(err)
	}
	builds := NewBuilds(BuildLimits{PerMinute: 2}, clock.now)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}, Builds: builds, Now: clock.now,
		Loaded: []Loaded{{Engine: ce.engine(), Index: served}}})
	for i := range 2 {
		if _, err := r.Replay(t.Context(), recipes[i]); err != nil {
			t.Fatal(err)
		}
	}
	res, err := r.Replay(t.Context(), recipes[2])
	wantCode(t, res, err, CodeBusy)
	var e *Error
	if errors.As(err, &e); e.RetryAfter != 30*time.Second {
		t.Errorf("Retry-After %v, want 30s (two builds a minute)", e.RetryAfter)
	}
	// Built versions and the served one still replay.
	for _, rc := range append(recipes[:2:2], explicitRecipe(t, pageCorpus(9))) {
		if _, err := r.Replay(t.Context(), rc); err != nil {
			t.Fatal(err)
		}
	}
	clock.add(30 * time.Second)
	if _, err := r.Replay(t.Context(), recipes[2]); err != nil {
		t.Fatalf("after the budget refilled: %v", err)
	}
	if b := ce.builds.Load(); b != 3 {
		t.Fatalf("%d builds, want 3", b)
	}
}

// TestBuildCacheIsBoundedInBytes: the cache keeps built indexes up to
// CacheBytes of their estimated size, evicting the least recently used;
// after a flood of replays over more versions than fit, nothing is in
// flight and the cache holds at most its bound.
func TestBuildCacheIsBoundedInBytes(t *testing.T) {
	ce := &countingEngine{}
	s := newFakeStore()
	var recipes []evidence.Recipe
	var size int64
	for i := range 4 {
		raw := pageCorpus(i)
		s.put(raw, engines.Current().ID)
		recipes = append(recipes, explicitRecipe(t, raw))
		size = max(size, IndexBytes(int64(len(raw))))
	}
	bound := 2*size + size/2 // two indexes fit, not three
	builds := NewBuilds(BuildLimits{CacheBytes: bound, PerMinute: 1000, InFlight: 4}, nil)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}, Builds: builds})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			_, err := r.Replay(t.Context(), recipes[i%4])
			if err != nil && CodeOf(err) != CodeBusy {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	st := builds.Stats()
	if st.CacheBytes > bound || st.Cached > 2 || st.InFlight != 0 || st.Waiting != 0 {
		t.Fatalf("after the flood: %+v, want at most %d bytes (2 indexes) cached and nothing in flight", st, bound)
	}
	// Sequentially: the two most recent stay, the third evicts the oldest.
	for _, i := range []int{0, 1, 0, 2, 0} {
		if _, err := r.Replay(t.Context(), recipes[i]); err != nil {
			t.Fatal(err)
		}
	}
	before := ce.builds.Load()
	if _, err := r.Replay(t.Context(), recipes[0]); err != nil || ce.builds.Load() != before {
		t.Fatalf("the most recently used version was rebuilt: %v", err)
	}
	if _, err := r.Replay(t.Context(), recipes[1]); err != nil || ce.builds.Load() != before+1 {
		t.Fatalf("the least recently used version was kept past the bound: %v", err)
	}
	if st := builds.Stats(); st.CacheBytes > bound || st.Cached != 2 {
		t.Fatalf("cache %+v, bound %d", st, bound)
	}
	// An index larger than the whole bound is built and answered, not kept.
	small := NewBuilds(BuildLimits{CacheBytes: 1}, nil)
	r = mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}, Builds: small})
	if _, err := r.Replay(t.Context(), recipes[3]); err != nil || small.Stats().Cached != 0 || small.Stats().CacheBytes != 0 {
		t.Fatalf("an index over the bound: %v %+v", err, small.Stats())
	}
}

// TestAbandonedBuildStillServesItsWaiters: the replay that started a
// build is abandoned (its client went away) while it reads the retained
// bytes; the replays waiting for the same build still get it, and it is
// kept for the next one.
func TestAbandonedBuildStillServesItsWaiters(t *testing.T) {
	ce := &countingEngine{}
	s := newFakeStore()
	raw := pageCorpus(1)
	s.put(raw, engines.Current().ID)
	reading, release := make(chan struct{}), make(chan struct{})
	s.onRead = func() { close(reading); <-release }
	builds := NewBuilds(BuildLimits{}, nil)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{ce.engine()}, Builds: builds})
	recipe := explicitRecipe(t, raw)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var first error
	wg.Go(func() { _, first = r.Replay(ctx, recipe) })
	<-reading
	waiters := make([]error, 3)
	for i := range waiters {
		wg.Go(func() { _, waiters[i] = r.Replay(t.Context(), recipe) })
	}
	for deadline := time.Now().Add(2 * time.Second); builds.Stats().Waiting < len(waiters) && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	cancel()
	close(release)
	wg.Wait()
	_ = first // the abandoned replay may answer or not; its waiters must
	for i, err := range waiters {
		if err != nil {
			t.Fatalf("waiter %d of an abandoned build: %v", i, err)
		}
	}
	if st := builds.Stats(); st.Builds != 1 || st.Cached != 1 {
		t.Fatalf("%+v: want the one build kept", st)
	}
}
