package loadgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// syllables build a synthetic vocabulary of vocabSize pseudo-words. Words
// are drawn with a skewed (roughly Zipfian) frequency, u² of the
// vocabulary, so a few words are common and most are rare, as in real
// documentation once stopwords are gone; a tiny uniform vocabulary would
// make every query term touch most of the corpus and overstate retrieval
// cost. scripts/bench-ask.sh generates its Hugo site the same way.
var syllables = strings.Fields("ka lo mi ven tor sa rel di pon qua bri nex ul fa zer gi mo tas pe rin cor dal sen vi")

const vocabSize = 6000

// pseudoWord is word i of the synthetic vocabulary: its base-24 digits as
// syllables, at least two.
func pseudoWord(i int) string {
	var b strings.Builder
	for n := 0; n < 2 || i > 0; n++ {
		b.WriteString(syllables[i%len(syllables)])
		i /= len(syllables)
	}
	return b.String()
}

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
	rng := rand.New(rand.NewPCG(1, 2)) // fixed seed: the same site every run
	word := func() string {
		u := rng.Float64()
		return pseudoWord(int(u * u * vocabSize))
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
	inner access.Authenticator
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
	grounded := &grounding.Grounded{Engine: evidence.NewIndex(c)}
	inner, err := access.Check(&access.CookieAuth{Origins: []string{testOrigin}, Secret: []byte(strings.Repeat("s", 32))})
	if err != nil {
		tb.Fatal(err)
	}
	auth := &subjects{inner: inner, seen: map[string]int{}}
	checked, err := access.Check(auth)
	if err != nil {
		tb.Fatal(err)
	}
	site, err := (&protocol.BackendSite{
		SiteID:      c.SiteID,
		Assistant:   protocol.BackendAssistant{ID: "docs-guide", Name: "Docs guide"},
		Corpus:      protocol.BackendCorpus{ID: "docs-public", Mode: protocol.CorpusLocal},
		Limits:      protocol.BackendLimits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
		Persistence: protocol.BackendPersistence{Mode: protocol.PersistenceDisabled},
	}).Trust()
	if err != nil {
		tb.Fatal(err)
	}
	h, err := ask.New(ask.Config{
		Site:        site,
		Retriever:   grounded,
		Generator:   grounded,
		Auth:        checked,
		Sessions:    session.NewMemoryStore(),
		RateLimiter: mustKeyed(tb, limit),
		Metrics:     &metrics.Prometheus{},
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

// mustKeyed is a per-subject limiter of n questions a minute.
func mustKeyed(tb testing.TB, n int) *limit.Keyed {
	k, err := limit.NewKeyed(limit.KeyedConfig{Rate: limit.Rate{Requests: n, Window: time.Minute}})
	if err != nil {
		tb.Fatal(err)
	}
	return k
}
