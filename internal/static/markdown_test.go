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
		"fr/docs/y/index.html":  "<!doctype html><p>y</p>",
		"fr/llms.txt":           "# Site (fr)\n",
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
		{"/", browser, "<!doctype html><p>home</p>", "text/html; charset=utf-8", "Accept", `<index.md>; rel="alternate"; type="text/markdown", <llms.txt>; rel="describedby"; type="text/plain"`},
		{"/docs/x/", md, "# X\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/docs/x/", nil, "<!doctype html><p>x</p>", "text/html; charset=utf-8", "Accept", `<index.md>; rel="alternate"; type="text/markdown", <../../llms.txt>; rel="describedby"; type="text/plain"`},
		{"/docs/x/index.html", md, "# X\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/ugly.html", md, "# Ugly\n", "text/markdown; charset=utf-8", "Accept", ""},
		{"/ugly.html", browser, "<!doctype html><p>ugly</p>", "text/html; charset=utf-8", "Accept", `<ugly.md>; rel="alternate"; type="text/markdown", <llms.txt>; rel="describedby"; type="text/plain"`},
		{"/fr/docs/y/", browser, "<!doctype html><p>y</p>", "text/html; charset=utf-8", "", `<../../llms.txt>; rel="describedby"; type="text/plain"`},
		{"/fr/docs/y/index.html", nil, "<!doctype html><p>y</p>", "text/html; charset=utf-8", "", `<../../llms.txt>; rel="describedby"; type="text/plain"`},
		{"/docs/x/index.md", nil, "# X\n", "text/markdown; charset=utf-8", "", ""},
		{"/plain/", md, "<!doctype html><p>plain</p>", "text/html; charset=utf-8", "", `<../llms.txt>; rel="describedby"; type="text/plain"`},
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

// TestDescribedByNearest: a page's Link header names the nearest llms.txt
// in its folder or above (a language's own before the site's), and
// nothing when the site published none.
func TestDescribedByNearest(t *testing.T) {
	pub := t.TempDir()
	for _, name := range []string{"a/b/c/d/index.html", "a/index.html", "a/b/llms.txt/index.html"} {
		p := filepath.Join(pub, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("<!doctype html>"), 0o644)
	}
	h, err := New(pub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	// No llms.txt anywhere (a folder named llms.txt is not one).
	for _, p := range []string{"/a/b/c/d/", "/a/"} {
		resp, _ := get(t, srv, http.MethodGet, p, nil)
		want(t, resp, "Link", "")
	}
	os.WriteFile(filepath.Join(pub, "llms.txt"), []byte("# Site\n"), 0o644)
	resp, _ := get(t, srv, http.MethodHead, "/a/b/c/d/", nil)
	want(t, resp, "Link", `<../../../../llms.txt>; rel="describedby"; type="text/plain"`)
	os.WriteFile(filepath.Join(pub, "a", "llms.txt"), []byte("# A\n"), 0o644)
	resp, _ = get(t, srv, http.MethodGet, "/a/b/c/d/", nil)
	want(t, resp, "Link", `<../../../llms.txt>; rel="describedby"; type="text/plain"`)
	resp, _ = get(t, srv, http.MethodGet, "/a/", nil)
	want(t, resp, "Link", `<llms.txt>; rel="describedby"; type="text/plain"`)
	// The 404 page is no page of the site's: no Link.
	resp, _ = get(t, srv, http.MethodGet, "/a/missing/", nil)
	want(t, resp, "Link", "")
}
