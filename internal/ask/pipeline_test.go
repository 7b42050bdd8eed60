package ask_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// TestPreStreamFailures covers the steps before the stream that the
// reference vectors do not: each status, code and the absence of a stream.
func TestPreStreamFailures(t *testing.T) {
	f := newFixture(t, nil)
	big := askBody("", strings.Repeat("x", 16_000)+strings.Repeat("y", 0))
	for len(big) <= protocol.MaxAskBodyBytes {
		big = big[:len(big)-2] + strings.Repeat(" ", 20_000) + "]}"
	}
	cases := []struct {
		name, method, ctype, body string
		status                    int
		code                      protocol.Code
	}{
		{"get", http.MethodGet, "application/json", "", 405, protocol.CodeAskInvalidRequest},
		{"text body", http.MethodPost, "text/plain", askBody("", "q"), 415, protocol.CodeAskInvalidRequest},
		{"too large", http.MethodPost, "application/json", big, 413, protocol.CodeAskInvalidRequest},
		{"empty body", http.MethodPost, "application/json", "", 400, protocol.CodeAskInvalidRequest},
		{"bad json", http.MethodPost, "Application/JSON; charset=utf-8", "{", 400, protocol.CodeAskInvalidRequest},
		{"no messages", http.MethodPost, "application/json", `{"messages":[]}`, 400, protocol.CodeAskInvalidRequest},
		{"blank question", http.MethodPost, "application/json", askBody("", " \t "), 400, protocol.CodeAskInvalidRequest},
		{"assistant only", http.MethodPost, "application/json", `{"messages":[{"role":"assistant","content":"hi"}]}`, 400, protocol.CodeAskInvalidRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, f.srv.URL+"/v1/ask", strings.NewReader(c.body))
			req.Header.Set("Content-Type", c.ctype)
			resp, body := do(t, req)
			wantError(t, resp, body, c.status, c.code)
			if c.status == 405 && resp.Header.Get("Allow") != "POST" {
				t.Errorf("Allow %q", resp.Header.Get("Allow"))
			}
		})
	}
}

// TestChunkedBodyTooLarge: a body without content-length is cut while read.
func TestChunkedBodyTooLarge(t *testing.T) {
	f := newFixture(t, func(c *config) { c.MaxBodyBytes = 100 })
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/v1/ask", strings.NewReader(askBody("", strings.Repeat("x", 200))))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	resp, body := do(t, req)
	wantError(t, resp, body, 413, protocol.CodeAskInvalidRequest)
}

// TestAuthRefusalIsTheHostsResponse: the handler adds nothing and emits no
// metric.
func TestAuthRefusalIsTheHostsResponse(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Auth = access.AuthFunc(func(w http.ResponseWriter, _ *http.Request) (string, bool) {
			http.Error(w, "go away", http.StatusTeapot)
			return "", false
		})
	})
	resp, body := f.post(t, "", askBody("", "q"))
	if resp.StatusCode != http.StatusTeapot || body != "go away\n" {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if n := f.metrics.names(); len(n) != 0 {
		t.Fatalf("metrics %v", n)
	}
}

// TestInvalidSubjectIsInternal: a subject outside the subject pattern is 500.
func TestInvalidSubjectIsInternal(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Auth = access.AuthFunc(func(http.ResponseWriter, *http.Request) (string, bool) { return "-bad subject", true })
	})
	resp, body := f.post(t, "", askBody("", "q"))
	wantError(t, resp, body, 500, protocol.CodeAskInternal)
}

// TestPersistenceRequired: without a session id the request is the
// client's mistake (issue 25: it was a retryable 500 and an ERROR line):
// 400 ASK_INVALID_REQUEST, not retryable, logged at no level above INFO.
func TestPersistenceRequired(t *testing.T) {
	var logged bytes.Buffer
	f := newFixture(t, func(c *config) {
		c.Site.Persistence.Mode = protocol.PersistenceRequired
		c.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	resp, body := f.post(t, "", askBody("", "q"))
	wantError(t, resp, body, 400, protocol.CodeAskInvalidRequest)
	if !strings.Contains(body, `"retryable":false`) || !strings.Contains(body, "sessionId") || logged.Len() != 0 {
		t.Fatalf("body %s; logged %q", body, logged.String())
	}
	resp, body = f.post(t, "", askBody("s1", "q"))
	if resp.StatusCode != 200 {
		t.Fatalf("with a session: %d %s", resp.StatusCode, body)
	}
}

// TestSourcesAreValidatedAndCut: invalid candidates are dropped, the rest
// trimmed and cut to maxSources; the generator sees only those.
func TestSourcesAreValidatedAndCut(t *testing.T) {
	gotc := make(chan []grounding.Source, 1)
	f := newFixture(t, func(c *config) {
		c.Site.Limits.MaxSources = 2
		c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) {
			return []grounding.Source{
				{ID: "-bad", Title: "t", Href: "/a", Excerpt: "e"},
				{ID: "a", Title: "  ", Href: "/a", Excerpt: "e"},
				{ID: "b", Title: "B", Href: "//evil", Excerpt: "e"},
				{ID: "c", Title: "C", Href: "/c", Excerpt: " \n "},
				{ID: "d", Title: strings.Repeat("t", 257), Href: "/d", Excerpt: "e"},
				{ID: "ok1", Title: "  One ", Href: "https://example.com/x", Excerpt: " one "},
				{ID: "ok2", Title: "Two", Href: "/two#a", Excerpt: "two"},
				{ID: "ok3", Title: "Three", Href: "/three", Excerpt: "three"},
			}, nil
		})
		c.Generator = grounding.GeneratorFunc(func(ctx context.Context, q grounding.Query, s []grounding.Source, emit func(string) error) (grounding.Result, error) {
			gotc <- s
			emit("answer")
			return grounding.Result{Used: []string{"ok2", "unknown"}}, nil
		})
	})
	resp, body := f.post(t, "", askBody("", "q"))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	got := <-gotc
	if len(got) != 2 || got[0] != (grounding.Source{ID: "ok1", Title: "One", Href: "https://example.com/x", Excerpt: "one"}) || got[1].ID != "ok2" {
		t.Fatalf("sources %+v", got)
	}
	want := `{"type":"text","delta":"answer"}
{"type":"tool","id":"sources-request-1","name":"cite","args":{"sources":[{"id":"ok2","title":"Two","path":"/two#a"}]}}
{"type":"done"}
`
	if body != want {
		t.Fatalf("body\n%s", body)
	}
}

// TestStreamFailures: the in-stream failures each end in one error event
// after any text, with no cite and no done.
func TestStreamFailures(t *testing.T) {
	cases := []struct {
		name string
		gen  grounding.GeneratorFunc
		want string
	}{
		{"nothing cited", func(_ context.Context, _ grounding.Query, _ []grounding.Source, emit func(string) error) (grounding.Result, error) {
			emit("an answer")
			return grounding.Result{}, nil
		}, `{"type":"text","delta":"an answer"}
{"type":"error","message":"The answer cited no grounded source.","code":"ASK_NO_GROUNDED_SOURCES","retryable":false}
`},
		{"empty answer", func(_ context.Context, _ grounding.Query, _ []grounding.Source, emit func(string) error) (grounding.Result, error) {
			emit("")
			emit("  ")
			return grounding.Result{Used: []string{"local-guide"}}, nil
		}, `{"type":"text","delta":"  "}
{"type":"error","message":"The Ask answer could not be generated.","code":"ASK_GENERATION_FAILED","retryable":true}
`},
		{"too long", func(_ context.Context, _ grounding.Query, _ []grounding.Source, emit func(string) error) (grounding.Result, error) {
			emit(strings.Repeat("a", 16_384))
			emit("b")
			return grounding.Result{Used: []string{"local-guide"}}, nil
		}, `{"type":"text","delta":"` + strings.Repeat("a", 16_384) + `"}
{"type":"error","message":"The Ask answer could not be generated.","code":"ASK_GENERATION_FAILED","retryable":true}
`},
		{"generator error", func(context.Context, grounding.Query, []grounding.Source, func(string) error) (grounding.Result, error) {
			return grounding.Result{}, context.DeadlineExceeded // not ours: a provider's own timeout
		}, `{"type":"error","message":"The Ask answer could not be generated.","code":"ASK_GENERATION_FAILED","retryable":true}
`},
		{"model answer not grounded", func(context.Context, grounding.Query, []grounding.Source, func(string) error) (grounding.Result, error) {
			return grounding.Result{}, fmt.Errorf("%w: cites record x9", grounding.ErrNotGrounded)
		}, `{"type":"error","message":"The answer cited no grounded source.","code":"ASK_NO_GROUNDED_SOURCES","retryable":false}
`},
		{"generator panic", func(context.Context, grounding.Query, []grounding.Source, func(string) error) (grounding.Result, error) {
			panic("api key sk-123")
		}, `{"type":"error","message":"The Ask answer could not be generated.","code":"ASK_GENERATION_FAILED","retryable":true}
`},
		{"bad usage", func(_ context.Context, _ grounding.Query, _ []grounding.Source, emit func(string) error) (grounding.Result, error) {
			emit("x")
			return grounding.Result{Used: []string{"local-guide"}, Usage: &grounding.Usage{InputTokens: -1}}, nil
		}, `{"type":"text","delta":"x"}
{"type":"error","message":"The Ask answer could not be generated.","code":"ASK_GENERATION_FAILED","retryable":true}
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, func(cfg *config) { cfg.Generator = c.gen })
			resp, body := f.post(t, "", askBody("s1", "q"))
			if resp.StatusCode != 200 || body != c.want {
				t.Fatalf("%d body\n%s\nwant\n%s", resp.StatusCode, body, c.want)
			}
			if rec, _ := f.store.Load(context.Background(), session.Key{SiteID: "docs-site", Subject: subject, SessionID: "s1"}); rec.Revision != 0 {
				t.Fatalf("failed answer was saved: %+v", rec)
			}
			f.metrics.waitFor(t, "request.total_ms", ask.OutcomeError)
		})
	}
}

// TestRequestIDFallback: an invalid or panicking id source falls back to a
// random SafeIdentifier.
func TestRequestIDFallback(t *testing.T) {
	for _, gen := range []func() string{func() string { return "bad id" }, func() string { panic("x") }, nil} {
		f := newFixture(t, func(c *config) { c.NewID = gen })
		resp, _ := f.post(t, "", askBody("", "How do I start?"))
		id := resp.Header.Get("X-Request-Id")
		if !protocol.ValidIdentifier(id) || id == "bad id" {
			t.Fatalf("request id %q", id)
		}
	}
}

// TestNewRejectsBadConfig: config errors surface at load time: a bad
// record where it is trusted (its one validation), the rest in New, which
// refuses a site nobody validated.
func TestNewRejectsBadConfig(t *testing.T) {
	good := config{Site: testSite(), Auth: fixedSubject, Config: ask.Config{Retriever: localRetriever, Generator: fixtureGenerator}}
	if _, err := good.handler(); err != nil {
		t.Fatal(err)
	}
	if _, err := ask.New(good.Config); err == nil || !strings.Contains(err.Error(), "Config.Site is required") {
		t.Errorf("a site nobody validated: %v", err)
	}
	// An authenticator nobody checked (access.Check) is refused too: New
	// never checks one itself.
	unchecked := good.Config
	if unchecked.Site, _ = good.Site.Trust(); !unchecked.Site.Valid() {
		t.Fatal("testSite does not validate")
	}
	if _, err := ask.New(unchecked); err == nil || !strings.Contains(err.Error(), "Config.Auth is required") {
		t.Errorf("an authenticator nobody checked: %v", err)
	}
	for name, edit := range map[string]func(*config){
		"site":      func(c *config) { c.Site.Limits.MaxSources = 9 },
		"retriever": func(c *config) { c.Retriever = nil },
		"generator": func(c *config) { c.Generator = nil },
		"auth":      func(c *config) { c.Auth = nil },
		"body":      func(c *config) { c.MaxBodyBytes = protocol.MaxAskBodyBytes + 1 },
		"secret":    func(c *config) { c.Auth = &access.CookieAuth{Secret: []byte("short")} },
	} {
		c := good
		edit(&c)
		if _, err := c.handler(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestBurstOfDeltasKeepsEveryDeltaInOrder: a generator that emits faster
// than the writer and returns at once still has every delta written, in
// order, before the cite and done events.
func TestBurstOfDeltasKeepsEveryDeltaInOrder(t *testing.T) {
	const n = 200
	f := newFixture(t, func(c *config) {
		c.Generator = grounding.GeneratorFunc(func(_ context.Context, _ grounding.Query, _ []grounding.Source, emit func(string) error) (grounding.Result, error) {
			for i := 0; i < n; i++ {
				if err := emit(fmt.Sprintf("d%d ", i)); err != nil {
					return grounding.Result{}, err
				}
			}
			return grounding.Result{Used: []string{"local-guide"}}, nil
		})
	})
	resp, body := f.post(t, "", askBody("", "q"))
	var want strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&want, `{"type":"text","delta":"d%d "}`+"\n", i)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(body, want.String()) || !strings.Contains(body[want.Len():], `"name":"cite"`) {
		t.Fatalf("%d\n%s", resp.StatusCode, body)
	}
}
