package sidecar

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePublic lays out a tiny built site: a page, and the manifest and
// corpus the Hugo module would publish for it.
func writePublic(t *testing.T) string {
	t.Helper()
	public := writeCorpus(t, "dev-docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command. It needs Go 1.26.")
	addCorpus(t, public, "fr", "dev-docs-fr", "/fr/docs/installer/", "Installer", "installer", "Lancez go install pour obtenir la commande askplane.")
	if err := os.WriteFile(filepath.Join(public, "index.html"), []byte("<h1>home</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return public
}

// TestDevServesSiteAndGroundedAsk runs the dev server's handler over real
// HTTP: the site's files, health, metrics, and an Ask question answered
// from the corpus with a citation, as the widget would send it.
func TestDevServesSiteAndGroundedAsk(t *testing.T) {
	public := writePublic(t)
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	cfg, env, err := Dev(public, []string{host}, []string{srv.URL}, "sqlite:"+filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(t.Context(), cfg, Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h

	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/"); code != 200 || !strings.Contains(body, "<h1>home</h1>") {
		t.Errorf("GET / = %d %q", code, body)
	}
	if code, body := get("/health"); code != 200 || body != "ok\n" {
		t.Errorf("GET /health = %d %q", code, body)
	}

	// Each language answers from its own corpus, named by the hint its
	// pages' endpoint carries; without a hint no site can be chosen.
	if resp, err := http.Post(srv.URL+"/v1/ask", "application/json", strings.NewReader(`{}`)); err != nil || resp.StatusCode != 403 {
		t.Errorf("POST /v1/ask without a corpus hint: %v %v", resp, err)
	}
	frReq, _ := http.NewRequest("POST", srv.URL+"/v1/ask?corpus=docs-fr", strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"comment obtenir la commande askplane ?"}]}`))
	frReq.Header.Set("Content-Type", "application/json")
	if resp, body := do(t, frReq); resp.StatusCode != 200 || !strings.Contains(body, `"path":"/fr/docs/installer/#installer"`) {
		t.Errorf("French question: %d %s", resp.StatusCode, body)
	}

	req, _ := http.NewRequest("POST", srv.URL+"/v1/ask?corpus=docs-en", strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"how do I install the askplane command?"}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", srv.URL)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-ndjson") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST /v1/ask = %d %s", resp.StatusCode, b)
	}
	var lines []string
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{`"type":"text"`, `"name":"cite"`, `"path":"/docs/install/#install"`, `"type":"done"`} {
		if !strings.Contains(all, want) {
			t.Errorf("stream lacks %s:\n%s", want, all)
		}
	}

	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "askplane") || strings.Contains(body, "install") {
		t.Errorf("GET /metrics = %d; must name askplane metrics and never the question:\n%s", code, body)
	}
	if resp, _ := http.Post(srv.URL+"/", "text/plain", nil); resp == nil || resp.StatusCode != 405 {
		t.Errorf("POST / must be 405")
	}
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
