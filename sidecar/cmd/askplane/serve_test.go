package main

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
)

// writeCorpus lays out a built site folder holding one page's corpus for
// siteID in English, with the manifest pinning the corpus's hash.
func writeCorpus(t *testing.T, siteID, url, title, anchor, text string) string {
	t.Helper()
	public := t.TempDir()
	corpus := `{"language":"en","pages":[{"chunks":[{"anchor":"` + anchor + `","headings":["` + title + `"],"text":"` + text + `"}],"title":"` + title + `","url":"` + url + `"}],"protocol":"askplane.corpus","siteId":"` + siteID + `","version":1}`
	sum := sha256.Sum256([]byte(corpus))
	hash := hex.EncodeToString(sum[:])
	manifest := `{"protocol":"askplane.manifest","version":1,"siteId":"` + siteID + `","language":"en","site":"/askplane/en/site.json",` +
		`"artifact":{"href":"/askplane/en/knowledge.000000000000.json","contentHash":"sha256:` + strings.Repeat("0", 64) + `"},` +
		`"corpus":{"href":"/askplane/en/corpus.` + hash[:12] + `.json","contentHash":"sha256:` + hash + `"},"sources":{}}`
	for name, data := range map[string]string{
		"askplane/en/manifest.json":                 manifest,
		"askplane/en/corpus." + hash[:12] + ".json": corpus,
	} {
		path := filepath.Join(public, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return public
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
	cfg, err := DecodeConfig([]byte(`{"metrics":true,"sites":[` + site(pub, "docs", "docs-public") + `,` + site(internal, "ops", "docs-internal") + `]}`))
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
	h, err := newServer(twoSiteConfig(t, srv.URL), nil)
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
	cfg, err := DecodeConfig([]byte(`{"sites":[{"site":` + testSite("docs", "docs-public") + `,"public":"` + pub + `","language":"en","cookieSecretEnv":"ASKPLANE_TEST_SECRET","static":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := newServer(cfg, nil)
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
	cfg, err := DecodeConfig([]byte(`{"sites":[{"site":` + testSite("other", "c") + `,"public":"` + pub + `","language":"en","cookieSecretEnv":"ASKPLANE_TEST_SECRET"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newServer(cfg, nil); err == nil || !strings.Contains(err.Error(), `site.siteId "other" differs from the corpus's siteId "docs"`) {
		t.Errorf("newServer = %v", err)
	}
	cfg.Sites[0].Language = "fr"
	if _, err := newServer(cfg, nil); err == nil || !strings.Contains(err.Error(), "loading the fr corpus") {
		t.Errorf("newServer with a missing corpus = %v", err)
	}
}
