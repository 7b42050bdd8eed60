package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDevHandlerServesSiteAndPlaceholderAsk(t *testing.T) {
	public := t.TempDir()
	os.MkdirAll(filepath.Join(public, "askplane", "en"), 0o755)
	os.WriteFile(filepath.Join(public, "index.html"), []byte("<h1>home</h1>"), 0o644)
	os.WriteFile(filepath.Join(public, "askplane", "en", "site.json"), []byte(`{"protocol":"agentskit.chat.site"}`), 0o644)
	srv := httptest.NewServer(devHandler(public))
	defer srv.Close()

	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/", 200, "<h1>home</h1>"},
		{"GET", "/askplane/en/site.json", 200, "agentskit.chat.site"},
		{"GET", "/health", 200, "ok"},
		{"POST", "/v1/ask", 503, `"code":"ASK_INTERNAL"`},
		{"GET", "/missing", 404, ""},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.body) {
			t.Errorf("%s %s = %d %q; want %d containing %q", tc.method, tc.path, resp.StatusCode, body, tc.status, tc.body)
		}
	}
}
