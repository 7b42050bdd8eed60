package sidecar

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/session"
)

// writeCorpus lays out a built site folder holding one page's corpus for
// siteID in English, with the manifest pinning the corpus's hash.
func writeCorpus(t *testing.T, siteID, url, title, anchor, text string) string {
	t.Helper()
	public := t.TempDir()
	addCorpus(t, public, "en", siteID, url, title, anchor, text)
	return public
}

// addCorpus adds one page's corpus in lang to a built site folder.
func addCorpus(t *testing.T, public, lang, siteID, url, title, anchor, text string) {
	t.Helper()
	corpus := `{"language":"` + lang + `","pages":[{"chunks":[{"anchor":"` + anchor + `","headings":["` + title + `"],"text":"` + text + `"}],"title":"` + title + `","url":"` + url + `"}],"protocol":"askplane.corpus","siteId":"` + siteID + `","version":1}`
	sum := sha256.Sum256([]byte(corpus))
	hash := hex.EncodeToString(sum[:])
	dir := "askplane/" + lang
	manifest := `{"protocol":"askplane.manifest","version":1,"siteId":"` + siteID + `","language":"` + lang + `","site":"/` + dir + `/site.json",` +
		`"artifact":{"href":"/` + dir + `/knowledge.000000000000.json","contentHash":"sha256:` + strings.Repeat("0", 64) + `"},` +
		`"corpus":{"href":"/` + dir + `/corpus.` + hash[:12] + `.json","contentHash":"sha256:` + hash + `"},"sources":{}}`
	for name, data := range map[string]string{
		dir + "/manifest.json":                 manifest,
		dir + "/corpus." + hash[:12] + ".json": corpus,
	} {
		path := filepath.Join(public, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// forbiddenBody is the protocol's ASK_FORBIDDEN error, byte for byte.
const forbiddenBody = `{"error":{"code":"ASK_FORBIDDEN","message":"The Ask request is not allowed for this site.","retryable":false}}`

// twoSiteConfig is a validated config with a public site (corpus
// "docs-public") and an internal one (corpus "docs-internal").
func twoSiteConfig(t *testing.T, origin string) *Config {
	t.Helper()
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	pub := writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command. It needs Go 1.26.")
	internal := writeCorpus(t, "ops", "/runbooks/deploy/", "Deploy", "deploy", "Deploy the sidecar with the release pipeline. Rollbacks take one click.")
	site := func(public, siteID, corpusID string) string {
		return `{"site":` + testSite(siteID, corpusID) + `,"public":"` + public + `","language":"en","origins":["` + origin + `"],"cookieSecretEnv":"ASKPLANE_TEST_SECRET"}`
	}
	cfg, err := Decode([]byte(`{"metrics":true,"sites":[` + site(pub, "docs", "docs-public") + `,` + site(internal, "ops", "docs-internal") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestServeRoutesSitesByCorpusHint runs askplane serve's handler with two
// sites over real HTTP: each question is answered from the corpus its
// ?corpus= hint names, and no hint, an unknown hint or conflicting hints
// fail closed with 403 ASK_FORBIDDEN.
func TestServeRoutesSitesByCorpusHint(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	defer srv.Close()
	h, err := New(t.Context(), twoSiteConfig(t, srv.URL), Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h

	ask := func(query, question string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+"/v1/ask"+query, strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"`+question+`"}]}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", srv.URL)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	for _, tt := range []struct{ query, question, cites, never string }{
		{"?corpus=docs-public", "how do I install the askplane command?", `"path":"/docs/install/#install"`, "/runbooks/"},
		{"?corpus=docs-internal&persona=guide", "how do I deploy the sidecar?", `"path":"/runbooks/deploy/#deploy"`, "/docs/"},
	} {
		resp, body := ask(tt.query, tt.question)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-ndjson") {
			t.Fatalf("POST /v1/ask%s = %d %s", tt.query, resp.StatusCode, body)
		}
		for _, want := range []string{`"type":"text"`, `"name":"cite"`, tt.cites, `"type":"done"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: stream lacks %s:\n%s", tt.query, want, body)
			}
		}
		if strings.Contains(body, tt.never) {
			t.Errorf("%s: stream cites the other site:\n%s", tt.query, body)
		}
	}

	for _, query := range []string{"", "?corpus=other", "?corpus=docs-public&corpus=docs-internal", "?persona=guide"} {
		resp, body := ask(query, "how do I install the askplane command?")
		if resp.StatusCode != 403 || body != forbiddenBody {
			t.Errorf("POST /v1/ask%s = %d %s, want 403 %s", query, resp.StatusCode, body, forbiddenBody)
		}
		for k, v := range map[string]string{"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"} {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("POST /v1/ask%s: %s = %q, want %q", query, k, got, v)
			}
		}
		if resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("POST /v1/ask%s: no x-request-id", query)
		}
	}

	// Every route of a site is routed the same way: a POST with no hint
	// is refused before any site sees it; one naming a site reaches it.
	for _, path := range []string{"/v1/sessions/s-1/forget", "/v1/feedback", "/mcp", "/v1/evidence/replay", "/v1/evidence/read"} {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 403 || string(b) != forbiddenBody {
			t.Errorf("POST %s without a hint = %d %s, want 403 %s", path, resp.StatusCode, b, forbiddenBody)
		}
	}
	if resp, err := http.Post(srv.URL+"/v1/sessions/s-1/forget?corpus=docs-public", "", nil); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != 204 {
		t.Errorf("POST /v1/sessions/s-1/forget?corpus=docs-public = %d, want 204 from its site", resp.StatusCode)
	}

	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/health"); code != 200 || body != "ok\n" {
		t.Errorf("GET /health = %d %q", code, body)
	}
	code, metrics := get("/metrics")
	if code != 200 || !strings.Contains(metrics, `site="docs"`) || !strings.Contains(metrics, `site="ops"`) {
		t.Errorf("GET /metrics = %d; want both sites' series:\n%s", code, metrics)
	}
	for _, leak := range []string{"install", "deploy", "sidecar"} {
		if strings.Contains(metrics, leak) {
			t.Errorf("GET /metrics mentions %q from a question:\n%s", leak, metrics)
		}
	}
	for _, path := range []string{"/", "/askplane/en/manifest.json", "/v1/other"} {
		if code, _ := get(path); code != 404 {
			t.Errorf("GET %s = %d, want 404 (no static site)", path, code)
		}
	}
}

// TestServeOneSiteAndStatic: one site answers /v1/ask without a hint, its
// folder is served at / when static, and /metrics is absent unless asked.
func TestServeOneSiteAndStatic(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	pub := writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command.")
	cfg, err := Decode([]byte(`{"sites":[{"site":` + testSite("docs", "docs-public") + `,"public":"` + pub + `","language":"en","cookieSecretEnv":"ASKPLANE_TEST_SECRET","static":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(t.Context(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/ask", "application/json", strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"how do I install askplane?"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"type":"done"`) {
		t.Errorf("POST /v1/ask = %d %s", resp.StatusCode, b)
	}
	if resp, _ := http.Get(srv.URL + "/askplane/en/manifest.json"); resp == nil || resp.StatusCode != 200 {
		t.Errorf("static site not served")
	}
	if resp, _ := http.Get(srv.URL + "/metrics"); resp == nil || resp.StatusCode != 404 {
		t.Errorf("GET /metrics must be 404 without \"metrics\": true")
	}
}

// TestServeRejectsCorpusOfAnotherSite: the trusted record's siteId must be
// the one the build wrote into the corpus.
func TestServeRejectsCorpusOfAnotherSite(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	pub := writeCorpus(t, "docs", "/a/", "A", "a", "Some text.")
	cfg, err := Decode([]byte(`{"sites":[{"site":` + testSite("other", "c") + `,"public":"` + pub + `","language":"en","cookieSecretEnv":"ASKPLANE_TEST_SECRET"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(t.Context(), cfg, Options{}); err == nil || !strings.Contains(err.Error(), `site.siteId "other" differs from the corpus's siteId "docs"`) {
		t.Errorf("newServer = %v", err)
	}
	cfg.Sites[0].Language = "fr"
	if _, err := New(t.Context(), cfg, Options{}); err == nil || !strings.Contains(err.Error(), "loading the fr corpus") {
		t.Errorf("newServer with a missing corpus = %v", err)
	}
}

// TestServePrivateSiteWithRemoteCorpusAndSQLite runs askplane serve's
// handler for a private site whose corpus is fetched from the published
// site over HTTP: only the bearer token may ask, a browser preflight from
// the allowed origin passes CORS, and a conversation persists in SQLite
// across a restart of the server.
func TestServePrivateSiteWithRemoteCorpusAndSQLite(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_TOKEN", testSecret+"-token")
	published := httptest.NewServer(http.FileServerFS(os.DirFS(writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command. It needs Go 1.26."))))
	defer published.Close()
	db := filepath.Join(t.TempDir(), "state", "sessions.db")
	config := `{"sessions":"sqlite:` + db + `","sites":[{"site":` + strings.Replace(testSite("docs", "docs-public"), `"disabled"`, `"required"`, 1) + `,` +
		`"corpusUrl":"` + published.URL + `/","language":"en","origins":["https://docs.example.com"],` +
		`"anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]}]}`

	start := func() (*httptest.Server, *Server) {
		cfg, err := Decode([]byte(config))
		if err != nil {
			t.Fatal(err)
		}
		h, err := New(t.Context(), cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return httptest.NewServer(h), h
	}
	post := func(srv *httptest.Server, token, body string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/ask", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	turn := func(q string) string {
		return `{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s-1","messages":[{"role":"user","content":"` + q + `"}]}`
	}

	srv, h := start()
	if resp, body := post(srv, "", turn("how do I install askplane?")); resp.StatusCode != 401 || !strings.Contains(body, `"code":"ASK_UNAUTHORIZED"`) {
		t.Fatalf("no token: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(srv, strings.Repeat("x", 48), turn("how do I install askplane?")); resp.StatusCode != 401 {
		t.Fatalf("wrong token: %d %s", resp.StatusCode, body)
	}
	resp, body := post(srv, testSecret+"-token", turn("how do I install askplane?"))
	if resp.StatusCode != 200 || !strings.Contains(body, `"path":"/docs/install/#install"`) || !strings.Contains(resp.Header.Get("Link"), `rel="evidence"`) {
		t.Fatalf("token: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	pre, _ := http.NewRequest("OPTIONS", srv.URL+"/v1/ask", nil)
	pre.Header.Set("Origin", "https://docs.example.com")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	if r, err := http.DefaultClient.Do(pre); err != nil || r.StatusCode != 204 || r.Header.Get("Access-Control-Allow-Origin") != "https://docs.example.com" {
		t.Fatalf("preflight: %v %v", r, err)
	}
	srv.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	// A restarted server reads the stored session: the stored history ends
	// with the assistant's answer, so a second turn is revision 2.
	srv, h = start()
	defer h.Close()
	defer srv.Close()
	if resp, body := post(srv, testSecret+"-token", turn("does it need Go?")); resp.StatusCode != 200 {
		t.Fatalf("second turn: %d %s", resp.StatusCode, body)
	}
	rec, err := h.sessions.Load(t.Context(), askKey("docs", "token:ci-bot", "s-1"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Revision != 2 || len(rec.Messages) != 4 || rec.Messages[0].Content != "how do I install askplane?" {
		t.Fatalf("stored session: revision %d, %d messages", rec.Revision, len(rec.Messages))
	}
}

func askKey(site, subject, id string) session.Key {
	return session.Key{SiteID: site, Subject: subject, SessionID: id}
}

// TestServeEngine: sites answer with the current engine
// (askplane.bm25/6, which, as askplane.bm25/5, /4, /3 and /2 do, stems "installing" to
// the page's "install")
// unless their config names another engine; askplane.bm25/1 matches
// words exactly and finds nothing.
func TestServeEngine(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	pub := writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command.")
	for _, tt := range []struct {
		engine string
		status int
	}{{"", 200}, {`,"engine":"askplane.bm25/6"`, 200}, {`,"engine":"askplane.bm25/5"`, 200}, {`,"engine":"askplane.bm25/4"`, 200}, {`,"engine":"askplane.bm25/3"`, 200}, {`,"engine":"askplane.bm25/2"`, 200}, {`,"engine":"askplane.bm25/1"`, 422}} {
		cfg, err := Decode([]byte(`{"sites":[{"site":` + testSite("docs", "docs-public") + `,"public":"` + pub + `","language":"en","cookieSecretEnv":"ASKPLANE_TEST_SECRET"` + tt.engine + `}]}`))
		if err != nil {
			t.Fatal(err)
		}
		h, err := New(t.Context(), cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		resp, err := http.Post(srv.URL+"/v1/ask", "application/json", strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"installing"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("engine %q: POST /v1/ask = %d %s, want %d", tt.engine, resp.StatusCode, b, tt.status)
		}
	}
}
