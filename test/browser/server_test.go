package browser

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// csp is the strict policy every page is served with: no inline script or
// style, nothing from other origins.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'"

// site serves a built public folder plus a fake Ask endpoint at /v1/ask
// (exampleSite's params.askplane.endpoint) that streams NDJSON and counts
// the requests it gets. The rewrite hooks change what is served, so one
// build can stand in for a stale, tampered or offline site.
type site struct {
	public string
	URL    string
	before string // a script run before the page's, in every document of its tabs

	rewriteHTML     func([]byte) []byte // every .html page (not the panel's markup)
	rewriteMarkup   func([]byte) []byte // askplane/<lang>/panel.*.html, fetched on intent
	rewriteSite     func([]byte) []byte // askplane/<lang>/site.json, the trust anchor
	siteFailures    atomic.Int32        // answer this many site.json requests with 503
	rewriteArtifact func([]byte) []byte // askplane/<lang>/knowledge.*.json
	rewriteCore     func([]byte) []byte // askplane/dist/core.*.js, the module imported on intent
	askStatus       atomic.Int32        // non-zero: answer the Ask endpoint with this status
	askBody         string              // the body of that answer (default: an Ask error of code ASK_INTERNAL)
	askDrop         atomic.Bool         // close the Ask request's connection without an answer
	events          []any               // the streamed events, when set (else deltas, one cite, done)
	buffered        bool                // write the whole stream at once, as some serverless hosts do
	deltas          []string            // the streamed text
	delay           time.Duration       // between two streamed events
	link            string              // the Ask answer's Link header, when set
	runLog          []any               // a run's whole log, served by GET /v1/runs/{id}/events?after=N
	runReads        []string            // "id after" of each such request

	feedback  []feedbackPost // the POST /v1/feedback requests, in order
	forgotten []string       // the session ids of POST /v1/sessions/{id}/forget, in order

	asks          atomic.Int32
	coreFetches   atomic.Int32 // requests for askplane/dist/core.*.js
	markupFetches atomic.Int32 // requests for askplane/<lang>/panel.*.html
	mu            sync.Mutex
	lastBody      []byte
	lastType      string
	keys          []string // the Idempotency-Key of each Ask request, in order
}

// pinnedSite is the site config's URL as pages name it, keyed by its hash.
var pinnedSite = regexp.MustCompile(`site\.json\?v=[0-9a-f]{12}`)

// finalDelta ends every default stream: seeing it means the stream ran
// to the end.
const finalDelta = " That is the whole answer."

func newSite(t *testing.T, public string, configure func(*site)) *site {
	t.Helper()
	s := &site{
		public: public,
		deltas: []string{"askplane ", "answers ", "from the ", "site's own ", "pages.", finalDelta},
		delay:  40 * time.Millisecond,
	}
	if configure != nil {
		configure(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/ask", s.ask)
	mux.HandleFunc("POST /v1/feedback", func(w http.ResponseWriter, r *http.Request) {
		body := new(bytes.Buffer)
		body.ReadFrom(r.Body)
		s.mu.Lock()
		s.feedback = append(s.feedback, feedbackPost{r.Method, r.URL.RawQuery, r.Header.Get("Content-Type"), body.String()})
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /v1/sessions/{id}/forget", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.forgotten = append(s.forgotten, r.PathValue("id"))
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /v1/runs/{id}/events", func(w http.ResponseWriter, r *http.Request) {
		after, _ := strconv.Atoi(r.URL.Query().Get("after"))
		s.mu.Lock()
		s.runReads = append(s.runReads, r.PathValue("id")+" "+r.URL.Query().Get("after"))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-ndjson")
		for _, ev := range s.runLog[min(after, len(s.runLog)):] {
			line, _ := json.Marshal(ev)
			w.Write(append(line, '\n'))
		}
	})
	mux.HandleFunc("GET /", s.file)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *site) file(w http.ResponseWriter, r *http.Request) {
	p := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") {
		p = path.Join(p, "index.html")
	}
	data, err := os.ReadFile(filepath.Join(s.public, filepath.FromSlash(p)))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ext := path.Ext(p)
	markup := ext == ".html" && strings.HasPrefix(path.Base(p), "panel.") && strings.HasPrefix(p, "/askplane/")
	if markup {
		s.markupFetches.Add(1)
		if s.rewriteMarkup != nil {
			data = s.rewriteMarkup(data)
		}
	}
	if ext == ".html" && !markup && s.rewriteSite != nil {
		// The page names site.json by its hash (?v=): a rewritten one
		// would not match, so the page names it bare, unchecked.
		data = pinnedSite.ReplaceAll(data, []byte("site.json"))
	}
	switch {
	case ext == ".html" && !markup && s.rewriteHTML != nil:
		data = s.rewriteHTML(data)
	case path.Base(p) == "site.json" && s.siteFailures.Add(-1) >= 0:
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	case path.Base(p) == "site.json" && s.rewriteSite != nil:
		data = s.rewriteSite(data)
	case strings.HasPrefix(path.Base(p), "knowledge.") && ext == ".json" && s.rewriteArtifact != nil:
		data = s.rewriteArtifact(data)
	}
	if path.Dir(p) == "/askplane/dist" && strings.HasPrefix(path.Base(p), "core.") {
		s.coreFetches.Add(1)
		if s.rewriteCore != nil {
			data = s.rewriteCore(data)
		}
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(ext))
	w.Write(data)
}

func (s *site) ask(w http.ResponseWriter, r *http.Request) {
	s.asks.Add(1)
	body := new(bytes.Buffer)
	body.ReadFrom(r.Body)
	s.mu.Lock()
	s.lastBody, s.lastType = body.Bytes(), r.Header.Get("Content-Type")
	s.keys = append(s.keys, r.Header.Get("Idempotency-Key"))
	s.mu.Unlock()
	if s.askDrop.Load() {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	if st := s.askStatus.Load(); st != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(st))
		body := s.askBody
		if body == "" {
			body = `{"error":{"code":"ASK_INTERNAL","message":"unavailable","retryable":true}}`
		}
		w.Write([]byte(body))
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	if s.link != "" {
		w.Header().Set("Link", s.link)
	}
	rc := http.NewResponseController(w)
	send := func(v any) bool {
		line, _ := json.Marshal(v)
		if _, err := w.Write(append(line, '\n')); err != nil {
			return false
		}
		if s.buffered {
			return true
		}
		rc.Flush()
		select {
		case <-r.Context().Done():
			return false
		case <-time.After(s.delay):
			return true
		}
	}
	if s.events != nil {
		for _, ev := range s.events {
			if d, ok := ev.(time.Duration); ok {
				time.Sleep(d) // a pause in the stream, beyond the delay
				continue
			}
			if !send(ev) {
				return
			}
		}
		return
	}
	for _, d := range s.deltas {
		if !send(map[string]string{"type": "text", "delta": d}) {
			return
		}
	}
	send(map[string]any{"type": "tool", "id": "sources-r1", "name": "cite", "args": map[string]any{
		"sources": []map[string]string{{"id": "s1", "title": "Quickstart", "path": "/getting-started/quickstart/"}},
	}})
	send(map[string]string{"type": "done"})
}

// feedbackPost is one request to the fake /v1/feedback.
type feedbackPost struct{ method, query, contentType, body string }

// feedbackPosts returns the feedback requests so far.
func (s *site) feedbackPosts() []feedbackPost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]feedbackPost(nil), s.feedback...)
}

// forgottenSessions returns the session ids the widget asked the sidecar
// to forget.
func (s *site) forgottenSessions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.forgotten...)
}

// idempotencyKeys returns the Idempotency-Key of each Ask request so far.
func (s *site) idempotencyKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.keys...)
}

// request returns the last Ask request's body and content type.
func (s *site) request() ([]byte, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastBody, s.lastType
}
