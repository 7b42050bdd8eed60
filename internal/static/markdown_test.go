package static

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWantsMarkdown(t *testing.T) {
	for accept, md := range map[string]bool{
		"":       false,
		"*/*":    false,
		"text/*": false,
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8": false,
		"text/markdown":                          true,
		"text/markdown, text/html;q=0.9":         true,
		"text/html, text/markdown":               true,
		"text/html, text/markdown;q=0.5":         false,
		"text/markdown;q=0":                      false,
		"text/markdown;q=2":                      false,
		"text/x-markdown, */*;q=0.1":             true,
		"text/plain, text/markdown;q=0.8":        true,
		"garbage;;, text/markdown;charset=utf-8": true,
	} {
		if got := wantsMarkdown(accept); got != md {
			t.Errorf("wantsMarkdown(%q) = %v, want %v", accept, got, md)
		}
	}
}

// TestMarkdownTwin: a page URL answers Accept: text/markdown with the
// page's twin (Vary: Accept, the Markdown type, the page's cache rule),
// a browser gets the page with a Link to the twin, the twin and llms.txt
// are served at their own URLs with their types, and a page without a
// twin is served as before, with no Vary.
func TestMarkdownTwin(t *testing.T) {
	pub := t.TempDir()
	for name, body := range map[string]string{
		"index.html":            "<!doctype html><p>home</p>",
		"index.md":              "# Home\n",
		"docs/x/index.html":     "<!doctype html><p>x</p>",
		"docs/x/index.md":       "# X\n",
		"ugly.html":             "<!doctype html><p>ugly</p>",
		"ugly.md":               "# Ugly\n",
		"plain/index.html":      "<!doctype html><p>plain</p>",
		"llms.txt":              "# Site\n",
		"llms-full.txt":         "# Site\n",
		"askplane/en/site.json": "{}",
	} {
		p := filepath.Join(pub, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(pub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	md := http.Header{"Accept": {"text/markdown, text/html;q=0.9"}}
	browser := http.Header{"Accept": {"text/html,application/xhtml+xml,*/*;q=0.8"}}
	for _, c := range []struct {
		path                    string
		header                  http.Header
		body, ctype, vary, link string
	}{
		{"/", md, "# Home\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/", browser, "<!doctype html><p>home</p>", "text/html; charset=utf-8", "Accept", `<index.md>; rel="alternate"; type="text/markdown"`},
		{"/docs/x/", md, "# X\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/docs/x/", nil, "<!doctype html><p>x</p>", "text/html; charset=utf-8", "Accept", `<index.md>; rel="alternate"; type="text/markdown"`},
		{"/docs/x/index.html", md, "# X\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/ugly.html", md, "# Ugly\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/ugly.html", browser, "<!doctype html><p>ugly</p>", "text/html; charset=utf-8", "Accept", `<ugly.md>; rel="alternate"; type="text/markdown"`},
		{"/docs/x/index.md", nil, "# X\n", "text/markdown; charset=utf-8", "", ""},
		{"/plain/", md, "<!doctype html><p>plain</p>", "text/html; charset=utf-8", "", ""},
		{"/llms.txt", nil, "# Site\n", "text/plain; charset=utf-8", "", ""},
		{"/llms-full.txt", md, "# Site\n", "text/plain; charset=utf-8", "", ""},
		{"/askplane/en/site.json", md, "{}", "application/json; charset=utf-8", "", ""},
	} {
		resp, body := get(t, srv, http.MethodGet, c.path, c.header)
		if resp.StatusCode != 200 || body != c.body {
			t.Errorf("GET %s (Accept %q): %d %q, want 200 %q", c.path, c.header.Get("Accept"), resp.StatusCode, body, c.body)
		}
		want(t, resp, "Content-Type", c.ctype)
		want(t, resp, "Vary", c.vary)
		want(t, resp, "Link", c.link)
		wantCommon(t, resp)
		if !strings.HasSuffix(c.path, ".json") {
			want(t, resp, "Cache-Control", cacheRevalidate)
		}
		if strings.HasPrefix(c.ctype, "text/markdown") {
			want(t, resp, "Content-Security-Policy", "")
		}
	}
	// A conditional request for the twin is answered from the twin's
	// validator, not the page's.
	resp, _ := get(t, srv, http.MethodGet, "/docs/x/", md)
	etag := resp.Header.Get("ETag")
	page, _ := get(t, srv, http.MethodGet, "/docs/x/", nil)
	if etag == "" || etag == page.Header.Get("ETag") {
		t.Errorf("the twin's ETag %q, the page's %q: want two different ones", etag, page.Header.Get("ETag"))
	}
}

// TestTwinsRead: Twins.Read finds a page's twin from any of its URLs and
// refuses what the Handler refuses.
func TestTwinsRead(t *testing.T) {
	pub := t.TempDir()
	for name, body := range map[string]string{"index.md": "# Home\n", "docs/x/index.md": "# X\n", "ugly.md": "# Ugly\n", ".git/index.md": "secret"} {
		p := filepath.Join(pub, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	tw, err := OpenTwins(pub)
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	for path, want := range map[string]string{"/": "# Home\n", "/docs/x/": "# X\n", "/docs/x": "# X\n", "/docs/x/index.html": "# X\n", "/docs/x/index.md": "# X\n", "/ugly.html": "# Ugly\n", "/ugly": "# Ugly\n"} {
		if got, _, err := tw.Read(path); err != nil || got != want {
			t.Errorf("Read(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{"/.git/", "/../x/", "/nope/", "/docs/x/\x00"} {
		if _, _, err := tw.Read(path); err == nil {
			t.Errorf("Read(%q) succeeded", path)
		}
	}
}
