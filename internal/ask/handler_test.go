package ask_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// testSite is the reference server test config: timeouts 2000/500/500 and
// five sources.
func testSite() protocol.BackendSite {
	return protocol.BackendSite{
		SiteID:      "docs-site",
		Assistant:   protocol.BackendAssistant{ID: "docs-guide", Name: "Docs guide"},
		Corpus:      protocol.BackendCorpus{ID: "docs-public", Mode: protocol.CorpusLocal},
		Limits:      protocol.BackendLimits{RequestTimeoutMs: 2000, RetrievalTimeoutMs: 500, GenerationTimeoutMs: 500, MaxSources: 5},
		Persistence: protocol.BackendPersistence{Mode: protocol.PersistenceDisabled},
	}
}

var localGuide = grounding.Source{ID: "local-guide", Title: "Local guide", Href: "/docs/start", Excerpt: "Run askplane dev to start."}

// localRetriever returns the local guide.
var localRetriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) {
	return []grounding.Source{localGuide}, nil
})

// fixtureGenerator answers from the first source and cites it.
var fixtureGenerator = grounding.GeneratorFunc(func(_ context.Context, q grounding.Query, sources []grounding.Source, emit func(string) error) (grounding.Result, error) {
	if err := emit("Grounded answer for " + q.Text + " from " + sources[0].Title + "."); err != nil {
		return grounding.Result{}, err
	}
	return grounding.Result{
		Used:  []string{sources[0].ID},
		Model: "fixture-model",
		Usage: &grounding.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15, CostUSD: 0.001},
	}, nil
})

const subject = "user-1"

var fixedSubject = access.AuthFunc(func(http.ResponseWriter, *http.Request) (string, bool) { return subject, true })

// recorder collects metrics.
type recorder struct {
	mu   sync.Mutex
	list []metrics.Metric
	seen chan metrics.Metric
}

func newRecorder() *recorder { return &recorder{seen: make(chan metrics.Metric, 1024)} }

func (r *recorder) Observe(m metrics.Metric) {
	r.mu.Lock()
	r.list = append(r.list, m)
	r.mu.Unlock()
	select {
	case r.seen <- m:
	default: // waitFor is not watching; names() still has it
	}
}

func (r *recorder) all() []metrics.Metric {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.list)
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, m := range r.list {
		out = append(out, m.Name)
	}
	return out
}

// waitFor waits for a metric with the name and outcome.
func (r *recorder) waitFor(t *testing.T, name, outcome string) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m := <-r.seen:
			if m.Name == name && m.Outcome == outcome {
				return
			}
		case <-timeout:
			t.Fatalf("no %s metric with outcome %s; got %v", name, outcome, r.names())
		}
	}
}

func (r *recorder) jsonText(t *testing.T) string {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, m := range r.list {
		j, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// config is an ask.Config whose Site is the plain record and whose Auth
// the plain Authenticator a test edits; handler checks them once, as the
// sidecar's config check does.
type config struct {
	ask.Config
	Site protocol.BackendSite
	Auth access.Authenticator
}

// handler validates c.Site into the trusted record, checks c.Auth and
// builds the Handler.
func (c config) handler() (*ask.Handler, error) {
	site, err := c.Site.Trust()
	if err != nil {
		return nil, err
	}
	auth, err := access.Check(c.Auth)
	if err != nil {
		return nil, err
	}
	ac := c.Config
	ac.Site, ac.Auth = site, auth
	return ask.New(ac)
}

// fixture is one handler behind a real HTTP server.
type fixture struct {
	srv     *httptest.Server
	metrics *recorder
	store   *session.MemoryStore
	cfg     config
}

func newFixture(t *testing.T, edit func(*config)) *fixture {
	t.Helper()
	f := &fixture{metrics: newRecorder(), store: session.NewMemoryStore()}
	cfg := config{Site: testSite(), Auth: fixedSubject, Config: ask.Config{
		Retriever: localRetriever,
		Generator: fixtureGenerator,
		Sessions:  f.store,
		Metrics:   f.metrics,
		NewID:     func() string { return "request-1" },
	}}
	if edit != nil {
		edit(&cfg)
	}
	f.cfg = cfg
	h, err := cfg.handler()
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/ask", h)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) post(t *testing.T, query, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.srv.URL+"/v1/ask"+query, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func askBody(sessionID string, turns ...string) string {
	req := protocol.AskRequest{SessionID: sessionID}
	for i, c := range turns {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		req.Messages = append(req.Messages, protocol.AskMessage{Role: role, Content: c})
	}
	b, err := req.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return string(b)
}

func wantError(t *testing.T, resp *http.Response, body string, status int, code protocol.Code) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", resp.StatusCode, status, body)
	}
	for k, v := range map[string]string{
		"Content-Type":  "application/json; charset=utf-8",
		"Cache-Control": "no-store",
		"X-Request-Id":  "request-1",
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	var e struct {
		Error struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			Retryable *bool  `json:"retryable"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code != string(code) || e.Error.Message == "" || e.Error.Retryable == nil {
		t.Fatalf("body %s, want an error with code %s", body, code)
	}
}

// TestEndToEndLocalAnswer is the reference's end-to-end local vector.
func TestEndToEndLocalAnswer(t *testing.T) {
	f := newFixture(t, nil)
	resp, body := f.post(t, "?corpus=docs-public&persona=docs-guide", askBody("session-1", "How do I start?"))
	want := `{"type":"text","delta":"Grounded answer for How do I start? from Local guide."}
{"type":"tool","id":"sources-request-1","name":"cite","args":{"sources":[{"id":"local-guide","title":"Local guide","path":"/docs/start"}]}}
{"type":"done","model":"fixture-model"}
`
	if resp.StatusCode != 200 || body != want {
		t.Fatalf("status %d body\n%s\nwant\n%s", resp.StatusCode, body, want)
	}
	for k, v := range map[string]string{
		"Content-Type":           "application/x-ndjson; charset=utf-8",
		"Cache-Control":          "no-store",
		"X-Content-Type-Options": "nosniff",
		"X-Request-Id":           "request-1",
		"Link":                   "", // a plain Retriever has no evidence package to link
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	rec, err := f.store.Load(context.Background(), session.Key{SiteID: "docs-site", Subject: subject, SessionID: "session-1"})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Revision != 1 || len(rec.Messages) != 2 || rec.Messages[1].Role != protocol.RoleAssistant ||
		rec.Messages[1].Content != "Grounded answer for How do I start? from Local guide." {
		t.Fatalf("stored %+v", rec)
	}
	wantNames := []string{
		"deterministic.fallback", "persistence.total_ms", "retrieval.total_ms", "retrieval.documents",
		"stream.first_event_ms", "stream.first_token_ms", "persistence.total_ms",
		"usage.input_tokens", "usage.output_tokens", "usage.total_tokens", "cost.usd",
		"stream.bytes", "stream.events", "stream.snapshots", "request.total_ms",
	}
	if got := f.metrics.names(); !slices.Equal(got, wantNames) {
		t.Fatalf("metrics %v\nwant %v", got, wantNames)
	}
	for _, m := range f.metrics.all() {
		if m.Outcome != ask.OutcomeOK || m.SiteID != "docs-site" || m.CorpusID != "docs-public" || m.RequestID != "request-1" {
			t.Errorf("metric %+v", m)
		}
		if m.Name == "stream.bytes" && int(m.Value) != len(want) || m.Name == "stream.events" && m.Value != 3 {
			t.Errorf("metric %s = %v", m.Name, m.Value)
		}
	}
	assertNoUserContent(t, f.metrics, "How do I start", "Grounded answer", "Local guide", "/docs/start", subject, "session-1")
}

func assertNoUserContent(t *testing.T, r *recorder, secrets ...string) {
	t.Helper()
	text := r.jsonText(t)
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("metrics contain %q:\n%s", s, text)
		}
	}
}

// TestHintMismatchIsForbidden: corpus and persona hints fail closed, and
// the retriever is never called.
func TestHintMismatchIsForbidden(t *testing.T) {
	var called atomic.Bool
	f := newFixture(t, func(c *config) {
		c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) {
			called.Store(true)
			return nil, nil
		})
	})
	for _, q := range []string{"?corpus=private-corpus", "?corpus=", "?persona=other", "?persona=", "?corpus=docs-public&corpus=x"} {
		resp, body := f.post(t, q, askBody("", "How do I start?"))
		wantError(t, resp, body, 403, protocol.CodeAskForbidden)
	}
	if called.Load() {
		t.Fatal("retriever called on a hint mismatch")
	}
}

// TestBodyCarryingSiteOrCorpusIsRejected: authority never comes from the body.
func TestBodyCarryingSiteOrCorpusIsRejected(t *testing.T) {
	f := newFixture(t, nil)
	for _, body := range []string{
		`{"siteId":"other","messages":[{"role":"user","content":"hi"}]}`,
		`{"corpus":"private-corpus","messages":[{"role":"user","content":"hi"}]}`,
	} {
		resp, got := f.post(t, "", body)
		wantError(t, resp, got, 400, protocol.CodeAskInvalidRequest)
	}
}

// TestRetrieverSeesTrustedSite: a plain request reaches the retriever with
// the configured site and the question.
func TestRetrieverSeesTrustedSite(t *testing.T) {
	queries := make(chan grounding.Query, 1)
	f := newFixture(t, func(c *config) {
		c.Retriever = grounding.RetrieverFunc(func(_ context.Context, q grounding.Query) ([]grounding.Source, error) {
			queries <- q
			return []grounding.Source{localGuide}, nil
		})
	})
	resp, body := f.post(t, "", askBody("", "  How do I start?  "))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	got := <-queries
	if got.Site == nil || got.Site.SiteID != "docs-site" || got.Site.Corpus.ID != "docs-public" || got.Text != "How do I start?" {
		t.Fatalf("query %+v", got)
	}
}

type limiterFunc func() (bool, time.Duration)

func (f limiterFunc) Spend(context.Context, string) (bool, time.Duration, error) {
	ok, after := f()
	return ok, after, nil
}

// failingLimiter is a shared limit whose database does not answer.
type failingLimiter struct{}

func (failingLimiter) Spend(context.Context, string) (bool, time.Duration, error) {
	return false, 0, limit.Unavailable(errors.New("dial tcp 10.0.0.5:5432: connection refused"))
}

type gateFunc func(context.Context) (func(), error)

func (f gateFunc) Acquire(ctx context.Context) (func(), error) { return f(ctx) }

// TestFailedLimitRefusesWith503: a rate limit or generation cap that
// cannot be consulted (a shared limit's database is down) refuses the
// question with a retryable 503 and Retry-After, never answers it
// unlimited, and says nothing of the cause. (Issue 16.)
func TestFailedLimitRefusesWith503(t *testing.T) {
	const want = `{"error":{"code":"ASK_INTERNAL","message":"The Ask service cannot check its limits now; try again shortly.","retryable":true}}`
	for name, set := range map[string]func(*config){
		"address": func(c *config) { c.AddressLimiter = failingLimiter{} },
		"subject": func(c *config) { c.RateLimiter = failingLimiter{} },
		"generations": func(c *config) {
			c.Generations = gateFunc(func(context.Context) (func(), error) {
				return nil, limit.Unavailable(errors.New("connection refused"))
			})
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, set)
			resp, body := f.post(t, "", askBody("", "How do I start?"))
			wantError(t, resp, body, 503, protocol.CodeAskInternal)
			if got := resp.Header.Get("Retry-After"); got != "2" {
				t.Fatalf("retry-after %q", got)
			}
			if body != want {
				t.Fatalf("body %s", body)
			}
		})
	}
}

// TestRateLimitBeforeBody: 429 with retry-after, even for a "{" body.
func TestRateLimitBeforeBody(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.RateLimiter = limiterFunc(func() (bool, time.Duration) { return false, 15 * time.Second })
	})
	resp, body := f.post(t, "", "{")
	wantError(t, resp, body, 429, protocol.CodeAskRateLimited)
	if got := resp.Header.Get("Retry-After"); got != "15" {
		t.Fatalf("retry-after %q", got)
	}
	if want := `{"error":{"code":"ASK_RATE_LIMITED","message":"Too many Ask requests; try again later.","retryable":true}}`; body != want {
		t.Fatalf("body %s", body)
	}
	f.metrics.waitFor(t, "request.total_ms", ask.OutcomeRejected)
}

// TestUnsafeSourceIsDropped: a javascript: source is dropped, and with no
// source left the answer is 422.
func TestUnsafeSourceIsDropped(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) {
			return []grounding.Source{{ID: "evil", Title: "Evil", Href: "javascript:alert(1)", Excerpt: "x"}}, nil
		})
	})
	resp, body := f.post(t, "", askBody("", "How do I start?"))
	wantError(t, resp, body, 422, protocol.CodeAskNoGroundedSources)
}

// TestThrowingRetrieverDoesNotLeak: 502 without the cause's text.
func TestThrowingRetrieverDoesNotLeak(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) {
			return nil, errors.New("dial db: password=hunter2 refused")
		})
	})
	resp, body := f.post(t, "", askBody("", "How do I start?"))
	wantError(t, resp, body, 502, protocol.CodeAskRetrievalFailed)
	if strings.Contains(body, "password") || strings.Contains(body, "hunter2") {
		t.Fatalf("leak: %s", body)
	}
	f.metrics.waitFor(t, "request.total_ms", ask.OutcomeError)
	assertNoUserContent(t, f.metrics, "password", "How do I start")
}

// TestPanickingRetrieverIs502: a panic is a retrieval failure, not a crash.
func TestPanickingRetrieverIs502(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) { panic("secret") })
	})
	resp, body := f.post(t, "", askBody("", "q"))
	wantError(t, resp, body, 502, protocol.CodeAskRetrievalFailed)
}

// TestRequestDeadline: a 100 ms request deadline with a slow retriever
// gives 408 with the exact reference body.
func TestRequestDeadline(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Site.Limits.RequestTimeoutMs = 100
		c.Site.Limits.RetrievalTimeoutMs = 5000
		c.Retriever = grounding.RetrieverFunc(func(ctx context.Context, _ grounding.Query) ([]grounding.Source, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	})
	resp, body := f.post(t, "", askBody("", "How do I start?"))
	wantError(t, resp, body, 408, protocol.CodeAskTimeout)
	if want := `{"error":{"code":"ASK_TIMEOUT","message":"The Ask request timed out.","retryable":true}}`; body != want {
		t.Fatalf("body %s", body)
	}
	f.metrics.waitFor(t, "cancellation.count", ask.OutcomeCancelled)
}

// TestRetrieverIgnoringDeadline: a retriever that ignores its context
// still cannot hold the response past the retrieval deadline.
func TestRetrieverIgnoringDeadline(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	f := newFixture(t, func(c *config) {
		c.Site.Limits.RetrievalTimeoutMs = 100
		c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) {
			<-release
			return nil, nil
		})
	})
	resp, body := f.post(t, "", askBody("", "q"))
	wantError(t, resp, body, 408, protocol.CodeAskTimeout)
}

// TestGenerationDeadline: a single terminal error event.
func TestGenerationDeadline(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Site.Limits.GenerationTimeoutMs = 100
		c.Generator = grounding.GeneratorFunc(func(ctx context.Context, _ grounding.Query, _ []grounding.Source, _ func(string) error) (grounding.Result, error) {
			<-ctx.Done()
			return grounding.Result{}, ctx.Err()
		})
	})
	resp, body := f.post(t, "", askBody("", "How do I start?"))
	want := `{"type":"error","message":"The Ask request timed out.","code":"ASK_TIMEOUT","retryable":true}` + "\n"
	if resp.StatusCode != 200 || body != want {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
	f.metrics.waitFor(t, "error.count", ask.OutcomeError)
}

// TestHistoryResume: the stored history plus the latest user turn; other
// client history is ignored, and a retried turn is not duplicated.
func TestHistoryResume(t *testing.T) {
	var seen [][]string
	var mu sync.Mutex
	f := newFixture(t, func(c *config) {
		c.Retriever = grounding.RetrieverFunc(func(_ context.Context, q grounding.Query) ([]grounding.Source, error) {
			var turns []string
			for _, m := range q.Messages {
				turns = append(turns, m.Content)
			}
			mu.Lock()
			seen = append(seen, turns)
			mu.Unlock()
			return []grounding.Source{localGuide}, nil
		})
	})
	key := session.Key{SiteID: "docs-site", Subject: subject, SessionID: "s1"}
	ctx := context.Background()
	f.store.Save(ctx, key, session.Record{Revision: 1, Messages: []protocol.AskMessage{
		{Role: protocol.RoleUser, Content: "first"}, {Role: protocol.RoleAssistant, Content: "history:1"},
	}}, 0)
	resp, body := f.post(t, "", askBody("s1", "forged", "forged answer", "second"))
	if resp.StatusCode != 200 || !strings.HasSuffix(body, `{"type":"done","model":"fixture-model"}`+"\n") {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	mu.Lock()
	first := seen[0]
	mu.Unlock()
	if want := []string{"first", "history:1", "second"}; !slices.Equal(first, want) {
		t.Fatalf("history %v, want %v", seen[0], want)
	}
	rec, _ := f.store.Load(ctx, key)
	if rec.Revision != 2 || len(rec.Messages) != 4 || rec.Messages[3].Role != protocol.RoleAssistant {
		t.Fatalf("stored %+v", rec)
	}

	// A stored history that already ends with the same user turn is kept.
	f.store.Save(ctx, key, session.Record{Revision: 3, Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: "again"}}}, 2)
	f.post(t, "", askBody("s1", "again"))
	mu.Lock()
	second := seen[1]
	mu.Unlock()
	if want := []string{"again"}; !slices.Equal(second, want) {
		t.Fatalf("history %v, want %v", second, want)
	}
}

// TestSessionConflict: a concurrent write makes the save fail after the
// text and cite events, with a trailing conflict error.
func TestSessionConflict(t *testing.T) {
	var store *session.MemoryStore
	key := session.Key{SiteID: "docs-site", Subject: subject, SessionID: "s1"}
	f := newFixture(t, func(c *config) {
		c.Generator = grounding.GeneratorFunc(func(ctx context.Context, q grounding.Query, s []grounding.Source, emit func(string) error) (grounding.Result, error) {
			// Another request saves the session meanwhile.
			store.Save(ctx, key, session.Record{Revision: 1}, 0)
			return fixtureGenerator(ctx, q, s, emit)
		})
	})
	store = f.store
	resp, body := f.post(t, "", askBody("s1", "How do I start?"))
	want := `{"type":"text","delta":"Grounded answer for How do I start? from Local guide."}
{"type":"tool","id":"sources-request-1","name":"cite","args":{"sources":[{"id":"local-guide","title":"Local guide","path":"/docs/start"}]}}
{"type":"error","message":"The Ask session changed concurrently.","code":"ASK_PERSISTENCE_CONFLICT","retryable":true}
`
	if resp.StatusCode != 200 || body != want {
		t.Fatalf("status %d body\n%s", resp.StatusCode, body)
	}
	names := f.metrics.names()
	if !slices.Contains(names, "conflict.count") || !slices.Contains(names, "error.count") || slices.Contains(names, "stream.events") {
		t.Fatalf("metrics %v", names)
	}
}

// TestReaderCancelCancelsGenerator: closing the response body aborts the
// generator and is recorded as a cancellation, with no prompt in metrics.
func TestReaderCancelCancelsGenerator(t *testing.T) {
	aborted := make(chan struct{})
	f := newFixture(t, func(c *config) {
		c.Site.Limits.GenerationTimeoutMs = 60_000
		c.Site.Limits.RequestTimeoutMs = 60_000
		c.Generator = grounding.GeneratorFunc(func(ctx context.Context, _ grounding.Query, _ []grounding.Source, emit func(string) error) (grounding.Result, error) {
			emit("partial ")
			<-ctx.Done()
			close(aborted)
			return grounding.Result{}, ctx.Err()
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+"/v1/ask", strings.NewReader(askBody("", "secret prompt")))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != `{"type":"text","delta":"partial "}`+"\n" {
		t.Fatalf("first line %q %v", line, err)
	}
	cancel()
	resp.Body.Close()
	select {
	case <-aborted:
	case <-time.After(5 * time.Second):
		t.Fatal("generator not cancelled")
	}
	f.metrics.waitFor(t, "cancellation.count", ask.OutcomeCancelled)
	f.metrics.waitFor(t, "request.total_ms", ask.OutcomeCancelled)
	assertNoUserContent(t, f.metrics, "secret prompt", "partial")
}

// TestConcurrentSessions runs many sessions at once (under -race in CI).
func TestConcurrentSessions(t *testing.T) {
	var n sync.Mutex
	id := 0
	f := newFixture(t, func(c *config) {
		c.NewID = func() string {
			n.Lock()
			defer n.Unlock()
			id++
			return fmt.Sprintf("request-%d", id)
		}
	})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 32 {
		wg.Go(func() {
			session := fmt.Sprintf("s%d", i%8)
			for turn := range 3 {
				req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/v1/ask", strings.NewReader(askBody(session, fmt.Sprintf("q%d-%d", i, turn))))
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					errs <- err
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				// A session shared by several writers may see a designed conflict.
				if resp.StatusCode != 200 || !(strings.Contains(string(b), `"type":"done"`) || strings.Contains(string(b), "ASK_PERSISTENCE_CONFLICT")) {
					errs <- fmt.Errorf("status %d body %s", resp.StatusCode, b)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := 0
	for i := range 8 {
		rec, _ := f.store.Load(context.Background(), session.Key{SiteID: "docs-site", Subject: subject, SessionID: fmt.Sprintf("s%d", i)})
		if len(rec.Messages) != 2*rec.Revision && len(rec.Messages) != protocol.MaxAskMessages {
			t.Errorf("session s%d: revision %d with %d messages", i, rec.Revision, len(rec.Messages))
		}
		total += rec.Revision
	}
	if total == 0 {
		t.Fatal("nothing saved")
	}
}

// TestClientAbortBeforeStream: a client that goes away during retrieval
// cancels it and is recorded as a cancellation.
func TestClientAbortBeforeStream(t *testing.T) {
	started := make(chan struct{})
	aborted := make(chan struct{})
	f := newFixture(t, func(c *config) {
		c.Site.Limits.RetrievalTimeoutMs = 60_000
		c.Site.Limits.RequestTimeoutMs = 60_000
		c.Retriever = grounding.RetrieverFunc(func(ctx context.Context, _ grounding.Query) ([]grounding.Source, error) {
			close(started)
			<-ctx.Done()
			close(aborted)
			return nil, ctx.Err()
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+"/v1/ask", strings.NewReader(askBody("", "q")))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		<-started
		cancel()
	}()
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("request not aborted")
	}
	select {
	case <-aborted:
	case <-time.After(5 * time.Second):
		t.Fatal("retriever not cancelled")
	}
	f.metrics.waitFor(t, "cancellation.count", ask.OutcomeCancelled)
}
