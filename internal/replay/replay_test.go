package replay

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/store"
)

// realRecipe answers question over installCorpus with the current engine,
// as the Ask handler would, and returns the package.
func realPackage(t *testing.T) evidence.Package {
	t.Helper()
	ix, err := engines.Current().Open(installCorpus, corpusVersion())
	if err != nil {
		t.Fatal(err)
	}
	return ix.Search("how do I install askplane?", evidence.Budget{MaxRecords: 5})
}

func corpusVersion() string { s := newFakeStore(); return s.put(installCorpus) }

// The current engine rebuilds, from the retained bytes alone, the very
// package an answer linked: same context id, same digest, same bytes.
func TestExplicitReplayRebuildsTheLinkedPackage(t *testing.T) {
	p := realPackage(t)
	s := newFakeStore()
	s.put(installCorpus, engines.Current().ID)
	r := mustNew(t, Config{Sources: s})
	res, err := r.Replay(t.Context(), p.Recipe())
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Package.JSON()) != string(p.JSON()) || res.Identity.Digest != p.Digest {
		t.Fatalf("replayed %s, want %s", res.Package.JSON(), p.JSON())
	}
	id := res.Identity
	if id.Engine != p.Engine || id.Mode != ModeExplicit || id.Origin == nil || *id.Origin != p.Engine || !slices.Equal(id.MatchingEngines, []string{p.Engine}) {
		t.Fatalf("identity %+v", id)
	}
	// A second replay uses the cached build: no more reads.
	if _, err := r.Replay(t.Context(), p.Recipe()); err != nil || s.reads != 1 {
		t.Fatalf("second replay: %v, %d reads", err, s.reads)
	}
}

// Unknown (or tampered) engine ids fail before any store operation;
// engines not permitted for the source fail before any read or build;
// tampered context ids and versions fail with their own codes.
func TestUnknownIncompatibleAndTamperedRecipes(t *testing.T) {
	var log []string
	a := &fakeEngine{id: "fake.a/1", ctx: ctxA, tag: "1", log: &log}
	b := &fakeEngine{id: "fake.b/1", ctx: ctxA, tag: "1", log: &log}
	s := newFakeStore()
	v := s.put(installCorpus, a.id)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine()}})

	res, err := r.Replay(t.Context(), recipeFor(v, "fake.none/1", ctxA))
	wantCode(t, res, err, CodeEngineUnavailable)
	if s.infos != 0 || s.reads != 0 {
		t.Fatalf("an unknown engine cost %d infos and %d reads", s.infos, s.reads)
	}
	res, err = r.Replay(t.Context(), recipeFor(v, b.id, ctxA))
	wantCode(t, res, err, CodeEngineIncompatible)
	if s.reads != 0 || len(log) != 0 {
		t.Fatalf("an incompatible engine cost %d reads and %v", s.reads, log)
	}
	res, err = r.Replay(t.Context(), recipeFor(v, a.id, ctxA[:70]+"b"))
	wantCode(t, res, err, CodeContextMismatch)
	other := corpusVersion()[:70] + "0"
	res, err = r.Replay(t.Context(), recipeFor(other, a.id, ctxA))
	wantCode(t, res, err, CodeSourceUnavailable)

	// An operator's permit makes b compatible; it then replays.
	r = mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine()}, Permits: []Permit{{Engine: b.id, Version: v}}})
	if res, err := r.Replay(t.Context(), recipeFor(v, b.id, ctxA)); err != nil || res.Identity.Engine != b.id {
		t.Fatalf("with a permit: %v", err)
	}
}

// A historical recipe (no engine) tries the permitted engines in
// registry order, at most two: with three permitted it refuses before any
// read; with two identical results it lists both, origin unknown.
func TestHistoricalTriesAtMostTwoEnginesInOrder(t *testing.T) {
	var log []string
	a := &fakeEngine{id: "fake.a/1", ctx: ctxA, tag: "1", log: &log}
	b := &fakeEngine{id: "fake.b/1", ctx: ctxA, tag: "1", log: &log}
	c := &fakeEngine{id: "fake.c/1", ctx: ctxA, tag: "1", log: &log}
	s := newFakeStore()
	v := s.put(installCorpus, a.id, b.id, c.id)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine(), c.engine()}})
	res, err := r.Replay(t.Context(), recipeFor(v, "", ctxA))
	wantCode(t, res, err, CodeBudget)
	if s.reads != 0 || len(log) != 0 {
		t.Fatalf("three permitted engines cost %d reads and %v", s.reads, log)
	}

	s.engines[v] = []string{c.id, a.id} // stored order is not the order tried
	res, err = r.Replay(t.Context(), recipeFor(v, "", ctxA))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"build fake.a/1", "search fake.a/1", "build fake.c/1", "search fake.c/1"}; !slices.Equal(log, want) {
		t.Fatalf("attempts %v, want %v", log, want)
	}
	id := res.Identity
	if id.Mode != ModeHistorical || id.Origin != nil || id.Engine != a.id || !slices.Equal(id.MatchingEngines, []string{a.id, c.id}) {
		t.Fatalf("identity %+v", id)
	}
	if s.reads != 1 {
		t.Fatalf("two engines read the source %d times, want once", s.reads)
	}
}

// Same context id, different complete bytes: ambiguous, no evidence.
// No engine matching: historical_unavailable. Mismatches are skipped.
func TestHistoricalAmbiguityAndNoMatch(t *testing.T) {
	var log []string
	a := &fakeEngine{id: "fake.a/1", ctx: ctxA, tag: "1", log: &log}
	b := &fakeEngine{id: "fake.b/1", ctx: ctxA, tag: "2", log: &log}
	s := newFakeStore()
	v := s.put(installCorpus, a.id, b.id)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine()}})
	res, err := r.Replay(t.Context(), recipeFor(v, "", ctxA))
	wantCode(t, res, err, CodeHistoricalAmbiguous)

	res, err = r.Replay(t.Context(), recipeFor(v, "", "sha256:"+ctxA[8:]+"c"))
	wantCode(t, res, err, CodeHistoricalUnavailable)

	b.ctx = "sha256:" + ctxA[8:] + "d" // b no longer matches: a alone is kept
	if res, err := r.Replay(t.Context(), recipeFor(v, "", ctxA)); err != nil || !slices.Equal(res.Identity.MatchingEngines, []string{a.id}) {
		t.Fatalf("one match: %v %+v", err, res)
	}
	// With neither engine nor context, the first permitted engine replays.
	if res, err := r.Replay(t.Context(), recipeFor(v, "", "")); err != nil || res.Identity.Mode != ModeDefault || res.Identity.Origin != nil {
		t.Fatalf("current-default: %v %+v", err, res)
	}
}

// The allowance is shared: the source is transferred once however many
// engines build over it, every build's decode counts, and each bound
// refuses before the I/O it would pay for.
func TestLimitsAreSharedAndReservedBeforeIO(t *testing.T) {
	var log []string
	a := &fakeEngine{id: "fake.a/1", ctx: ctxA, tag: "1", log: &log}
	b := &fakeEngine{id: "fake.b/1", ctx: ctxA, tag: "1", log: &log}
	size := int64(len(installCorpus))
	for name, tc := range map[string]struct {
		lim          Limits
		reads, built int
	}{
		"transfer below the source": {Limits{TransferBytes: size - 1}, 0, 0},
		"one operation":             {Limits{Operations: 1}, 0, 0},
		"decode for one build only": {Limits{DecodeBytes: size + size/2}, 1, 1},
		"one attempt":               {Limits{Attempts: 1, Operations: 4}, 0, 0},
	} {
		log = nil
		s := newFakeStore()
		v := s.put(installCorpus, a.id, b.id)
		r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine()}, Limits: tc.lim})
		res, err := r.Replay(t.Context(), recipeFor(v, "", ctxA))
		wantCode(t, res, err, CodeBudget)
		builds := 0
		for _, l := range log {
			if l[:5] == "build" {
				builds++
			}
		}
		if s.reads != tc.reads || builds != tc.built {
			t.Errorf("%s: %d reads and %d builds, want %d and %d", name, s.reads, builds, tc.reads, tc.built)
		}
	}
}

// One deadline covers every attempt: a search that finishes after it is
// discarded, and the second engine is never built.
func TestDeadlineDiscardsFinishedWork(t *testing.T) {
	var log []string
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	a := &fakeEngine{id: "fake.a/1", ctx: ctxA, tag: "1", log: &log, onSearch: func() { clock.add(11 * time.Second) }}
	b := &fakeEngine{id: "fake.b/1", ctx: ctxA, tag: "1", log: &log}
	s := newFakeStore()
	v := s.put(installCorpus, a.id, b.id)
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine()}, Now: clock.now})
	res, err := r.Replay(t.Context(), recipeFor(v, a.id, ctxA))
	wantCode(t, res, err, CodeBudget)
	res, err = r.Replay(t.Context(), recipeFor(v, "", ctxA))
	wantCode(t, res, err, CodeBudget)
	if slices.Contains(log, "build fake.b/1") {
		t.Fatalf("the second engine ran after the deadline: %v", log)
	}
}

// Retained bytes that do not hash to their version are refused, and no
// other engine is tried over them; so is a store that reports damage.
func TestIntegrityFailuresAreRefusedWithoutFallback(t *testing.T) {
	var log []string
	a := &fakeEngine{id: "fake.a/1", ctx: ctxA, tag: "1", log: &log}
	b := &fakeEngine{id: "fake.b/1", ctx: ctxA, tag: "1", log: &log}
	s := newFakeStore()
	v := s.put(installCorpus, a.id, b.id)
	damaged := append([]byte(nil), installCorpus...)
	damaged[len(damaged)/2] ^= 1
	s.damage[v] = damaged
	r := mustNew(t, Config{Sources: s, Engines: []*engines.Engine{a.engine(), b.engine()}})
	res, err := r.Replay(t.Context(), recipeFor(v, "", ctxA))
	wantCode(t, res, err, CodeSourceIntegrity)
	if len(log) != 0 || s.reads != 1 {
		t.Fatalf("damaged bytes: %v, %d reads", log, s.reads)
	}
	delete(s.damage, v)
	s.readErr = &store.Error{Code: store.CodeCorrupt, Op: "read source"}
	res, err = r.Replay(t.Context(), recipeFor(v, a.id, ctxA))
	wantCode(t, res, err, CodeSourceIntegrity)
	var se *store.Error
	if !errors.As(err, &se) {
		t.Fatalf("the store's error is not kept as the cause: %v", err)
	}
}

// A version the sidecar serves replays from its loaded index, with no
// store at all.
func TestLoadedIndexReplaysWithoutTheStore(t *testing.T) {
	p := realPackage(t)
	ix, _ := engines.Current().Open(installCorpus, p.SourceVersion)
	r := mustNew(t, Config{Loaded: []Loaded{{Engine: engines.Current(), Index: ix}}})
	if res, err := r.Replay(t.Context(), p.Recipe()); err != nil || res.Identity.Digest != p.Digest {
		t.Fatalf("%v", err)
	}
	res, err := r.Replay(t.Context(), recipeFor(p.SourceVersion[:70]+"f", p.Engine, p.ContextID))
	wantCode(t, res, err, CodeSourceUnavailable)
}
