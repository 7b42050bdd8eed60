package replay

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/store"
)

// corpusFile is a version 1 corpus file of site "docs" with the pages
// given as title → text.
func corpusFile(pages ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"language":"en","pages":[`)
	for i := 0; i+1 < len(pages); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		n := strconv.Itoa(i / 2)
		b.WriteString(`{"chunks":[{"anchor":"s` + n + `","headings":["` + pages[i] + `"],"text":"` + pages[i+1] + `"}],"title":"` + pages[i] + `","url":"/docs/p` + n + `/"}`)
	}
	b.WriteString(`],"protocol":"askplane.corpus","siteId":"docs","version":1}`)
	return []byte(b.String())
}

var installCorpus = corpusFile("Install", "Run go install to get the askplane command. It needs Go 1.26.",
	"Deploy", "Deploy the sidecar with the release pipeline. Rollbacks take one click.")

// fakeStore is a SourceStore that counts what it is asked.
type fakeStore struct {
	mu      sync.Mutex
	rows    map[string][]byte // version → bytes
	engines map[string][]string
	damage  map[string][]byte // bytes returned instead, unchecked
	infos   int
	reads   int
	readErr error
	// onRead, when set, runs before a read (outside the lock); a read
	// whose context has ended then fails, as a database's would.
	onRead func()
}

func newFakeStore() *fakeStore {
	return &fakeStore{rows: map[string][]byte{}, engines: map[string][]string{}, damage: map[string][]byte{}}
}

func (s *fakeStore) put(data []byte, engines ...string) string {
	v := corpus.ContentHash(data)
	s.rows[v], s.engines[v] = data, engines
	return v
}

func (s *fakeStore) SourceInfo(_ context.Context, site, version string) (store.SourceInfo, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.infos++
	data, ok := s.rows[version]
	if !ok || site != "docs" {
		return store.SourceInfo{}, false, nil
	}
	return store.SourceInfo{Site: site, Version: version, Bytes: int64(len(data)), Engines: s.engines[version]}, true, nil
}

func (s *fakeStore) ReadSource(ctx context.Context, site, version string) ([]byte, bool, error) {
	if s.onRead != nil {
		s.onRead()
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	if s.readErr != nil {
		return nil, false, s.readErr
	}
	if d, ok := s.damage[version]; ok {
		return d, true, nil
	}
	data, ok := s.rows[version]
	return data, ok, nil
}

// fakeEngine is an engine whose packages the test decides: every search
// returns a package with context id ctx and a digest made of tag, so two
// fakes can agree on the context and differ in bytes. Its packages name a
// family label, not the fake's id, as a producer's may.
type fakeEngine struct {
	id, ctx, tag string
	log          *[]string // appended "build id" and "search id"
	onSearch     func()
}

func (f *fakeEngine) engine() *engines.Engine {
	return &engines.Engine{
		ID: f.id,
		Decode: func(raw []byte, version string) (*corpus.Corpus, error) {
			return corpus.Load(raw, version)
		},
		Index: func(c *corpus.Corpus) evidence.Engine {
			*f.log = append(*f.log, "build "+f.id)
			return &fakeIndex{f: f, version: c.Version}
		},
	}
}

type fakeIndex struct {
	f       *fakeEngine
	version string
}

func (ix *fakeIndex) ID() string            { return ix.f.id }
func (ix *fakeIndex) SourceVersion() string { return ix.version }
func (ix *fakeIndex) Search(q string, b evidence.Budget) evidence.Package {
	*ix.f.log = append(*ix.f.log, "search "+ix.f.id)
	if ix.f.onSearch != nil {
		ix.f.onSearch()
	}
	return evidence.Package{Protocol: evidence.Protocol, Version: evidence.Version, SourceVersion: ix.version, Engine: "fake.family/1",
		Question: q, Budget: b, Records: []evidence.Selected{}, Status: evidence.Insufficient,
		ContextID: ix.f.ctx, Digest: "sha256:" + strings.Repeat(ix.f.tag, 64)}
}

var ctxA = "sha256:" + strings.Repeat("a", 64)

// recipeFor is a recipe of version with the given engine and context.
func recipeFor(version, engine, ctx string) evidence.Recipe {
	return evidence.Recipe{Bundle: evidence.RecipeBundle, Version: version, Question: "how do I install askplane?",
		Budget: evidence.RecipeBudget{MaxRecords: 5, MaxBytes: evidence.DefaultMaxBytes}, ContextID: ctx, EngineID: engine}
}

func mustNew(t testing.TB, cfg Config) *Replayer {
	t.Helper()
	if cfg.Site == "" {
		cfg.Site = "docs"
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func wantCode(t *testing.T, res *Result, err error, code Code) {
	t.Helper()
	if CodeOf(err) != code || res != nil {
		t.Fatalf("got %v (result %v), want %s and no evidence", err, res != nil, code)
	}
}

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
