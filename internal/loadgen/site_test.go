package loadgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

// vocabulary gives synthetic pages distinct, realistic-looking words, so
// retrieval ranks them as it would real docs rather than tying everywhere.
var vocabulary = strings.Fields(`install configure deploy upgrade cache index widget sidecar corpus
	fact artifact manifest session cookie origin limit budget token stream citation
	heading anchor language template partial module build release verify hash
	retry timeout proxy backend fallback search ranking excerpt evidence review
	metrics logging health shutdown config secret rotate storage database export
	import schema migrate theme layout menu sitemap feed preview draft publish`)

// syntheticSite is a built site folder (manifest plus corpus) of pages
// documentation pages, each with an introduction and three headed
// sections, its words drawn deterministically from vocabulary.
func syntheticSite(tb testing.TB, pages int) fstest.MapFS {
	tb.Helper()
	type chunk struct {
		Anchor   string   `json:"anchor"`
		Headings []string `json:"headings"`
		Text     string   `json:"text"`
	}
	type page struct {
		Chunks []chunk `json:"chunks"`
		Title  string  `json:"title"`
		URL    string  `json:"url"`
	}
	seed := uint32(1)
	word := func() string {
		seed = seed*1664525 + 1013904223
		return vocabulary[int(seed>>8)%len(vocabulary)]
	}
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return strings.Join(w, " ") + "."
	}
	list := make([]page, pages)
	for i := range list {
		title := "Guide " + word() + " " + word() + " " + strconv.Itoa(i)
		p := page{Title: title, URL: "/docs/page-" + strconv.Itoa(i) + "/"}
		p.Chunks = append(p.Chunks, chunk{Headings: []string{title}, Text: sentence(12) + " " + sentence(10)})
		for j := range 3 {
			h := strings.ToUpper(word()[:1]) + word()[1:] + " " + word()
			p.Chunks = append(p.Chunks, chunk{Anchor: strings.ReplaceAll(strings.ToLower(h), " ", "-") + "-" + strconv.Itoa(j),
				Headings: []string{title, h}, Text: sentence(15) + " " + sentence(15) + " " + sentence(8)})
		}
		list[i] = p
	}
	data, err := json.Marshal(map[string]any{"protocol": "askplane.corpus", "version": 1, "siteId": "bench", "language": "en", "pages": list})
	if err != nil {
		tb.Fatal(err)
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	manifest := `{"protocol":"askplane.manifest","version":1,"siteId":"bench","language":"en","site":"/askplane/en/site.json",` +
		`"corpus":{"href":"/askplane/en/corpus.` + hash[:12] + `.json","contentHash":"sha256:` + hash + `"}}`
	return fstest.MapFS{
		"askplane/en/manifest.json":                 {Data: []byte(manifest)},
		"askplane/en/corpus." + hash[:12] + ".json": {Data: data},
	}
}

// loadCorpus loads a synthetic site's corpus the way askplane serve does.
func loadCorpus(tb testing.TB, pages int) *corpus.Corpus {
	tb.Helper()
	c, err := corpus.LoadDir(syntheticSite(tb, pages), "en")
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// subjects is an Authenticator that records the distinct subjects its
// inner CookieAuth returned.
type subjects struct {
	inner ask.Authenticator
	mu    sync.Mutex
	seen  map[string]int
}

func (s *subjects) Authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	sub, ok := s.inner.Authenticate(w, r)
	s.mu.Lock()
	s.seen[sub]++
	s.mu.Unlock()
	return sub, ok
}

func (s *subjects) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

// testOrigin is the Origin the in-process server allows.
const testOrigin = "https://docs.example.test"

// askServer serves c with the same stack askplane serve builds for one
// site (sidecar/cmd/askplane newServer: grounded evidence engine and
// extractive generator, cookie auth, in-memory sessions, window rate
// limit, Prometheus metrics) over real loopback TCP. limit ≤ 0 means a
// limit no run reaches.
func askServer(tb testing.TB, c *corpus.Corpus, limit int) (*httptest.Server, *subjects) {
	tb.Helper()
	if limit <= 0 {
		limit = 1_000_000
	}
	grounded := &ask.Grounded{Engine: evidence.NewIndex(c)}
	auth := &subjects{inner: &ask.CookieAuth{Origins: []string{testOrigin}, Secret: []byte(strings.Repeat("s", 32))}, seen: map[string]int{}}
	h, err := ask.New(ask.Config{
		Site: ask.Site{
			SiteID:      c.SiteID,
			Assistant:   ask.Assistant{ID: "docs-guide", Name: "Docs guide"},
			Corpus:      ask.Corpus{ID: "docs-public", Mode: ask.CorpusLocal},
			Limits:      ask.Limits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
			Persistence: ask.Persistence{Mode: ask.PersistenceDisabled},
		},
		Retriever:   grounded,
		Generator:   grounded,
		Auth:        auth,
		Sessions:    ask.NewMemoryStore(),
		RateLimiter: &ask.WindowLimiter{Limit: limit, Window: time.Minute},
		Metrics:     &ask.Prometheus{},
	})
	if err != nil {
		tb.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/ask", h)
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv, auth
}
