package static

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

const (
	sha256Hex = "d376d38ae0b575f8499ba27a5616f2ff2c46e24988d4acd8007d71ba2ace00cb"
	homePage  = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>home</title>` +
		`<link rel="stylesheet" href="/css/site.min.` + sha256Hex + `.css">` +
		`<link rel="stylesheet" href="/askplane/widget.min.` + sha256Hex + `.css"></head>` +
		`<body><main>home</main>` +
		`<div class="askplane" data-askplane-root data-askplane-lang="en" data-askplane-site="/askplane/en/site.json?v=0123456789ab" data-askplane-endpoint="/v1/ask"></div>` +
		`<script type="module" src="/askplane/dist/main.` + sha256Hex + `.js" defer></script></body></html>`
)

// files is a small tree shaped like the built exampleSite (hugo
// --source exampleSite): pages in folders with index.html, the widget's
// fingerprinted assets, askplane/<lang>/ outputs, a second language, plus
// what an attacker looks for.
var files = map[string]string{
	"index.html":                         homePage,
	"404.html":                           "<!doctype html><title>not here</title>",
	"guide/index.html":                   "<!doctype html><title>guide</title>",
	"guide/page.html":                    "<!doctype html><title>page</title>",
	"fr/index.html":                      "<!doctype html><title>accueil</title>",
	"fr/404.html":                        "<!doctype html><title>introuvable</title>",
	"docs/a.txt":                         "listed-file-a",
	"docs/b.txt":                         "listed-file-b",
	"sitemap.xml":                        `<?xml version="1.0"?><urlset/>`,
	"css/site.min." + sha256Hex + ".css": "body{}",
	"askplane/widget.min." + sha256Hex + ".css":             ".askplane{}",
	"askplane/dist/main." + sha256Hex + ".js":               "export {}",
	"askplane/dist/main.js":                                 "export {}",
	"askplane/dist/main.0123456789abcdef0123456789abcde.js": "export {}", // 31 hex digits
	"askplane/en/site.json":                                 `{"protocol":"agentskit.chat.site"}`,
	"askplane/en/knowledge.ea9ffcff93f2.json":               `{}`,
	"askplane/en/corpus.bf37889d3460.json":                  `{}`,
	"askplane/en/manifest.json":                             `{}`,
	"askplane/en/knowledge.json":                            `{}`,
	"askplane/en/knowledge.EA9FFCFF93F2.json":               `{}`,
	"img/logo.svg":                                          `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
	"img/logo.png":                                          "\x89PNG\r\n\x1a\n",
	"data.unknownext42":                                     "<html><script>alert(1)</script></html>",
	"noext":                                                 "<html><script>alert(1)</script></html>",
	".git/config":                                           "[core]\nsecret",
	".env":                                                  "SECRET=1",
	"sub/.hidden":                                           "secret",
	"sub/ok.txt":                                            "ok",
	".well-known/security.txt":                              "Contact: mailto:security@example.com",
	".well-known/.secret":                                   "secret",
}

const secret = "TOP-SECRET-OUTSIDE"

// newTree writes files under a temp dir's "public" folder, a secret beside
// it, and symlinks out of and within the folder. It returns the folder.
func newTree(t testing.TB) string {
	t.Helper()
	base := t.TempDir()
	pub := filepath.Join(base, "public")
	for name, body := range files {
		p := filepath.Join(pub, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"secret.txt", "secretdir/secret.txt"} {
		p := filepath.Join(base, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(secret), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS == "windows" {
		return pub
	}
	links := map[string]string{
		"leak.txt":        "../secret.txt",
		"leakabs.txt":     filepath.Join(base, "secret.txt"),
		"leakdir":         "../secretdir",
		"sub/leak.txt":    "../../secret.txt",
		"inside.txt":      "sub/ok.txt",
		"leakdir-abs":     filepath.Join(base, "secretdir"),
		"guide/up":        "..",
		"guide/uptoohigh": "../..",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(pub, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	return pub
}

// serve starts a real HTTP server over a Handler for the tree.
func serve(t testing.TB, opts Options) (*httptest.Server, string) {
	t.Helper()
	pub := newTree(t)
	h, err := New(pub, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	return srv, pub
}

// get sends method with rawPath as the request target, byte for byte (no
// client-side cleaning or escaping), and follows no redirect.
func get(t testing.TB, srv *httptest.Server, method, rawPath string, header http.Header) (*http.Response, string) {
	t.Helper()
	u, _ := url.Parse(srv.URL)
	req := &http.Request{
		Method: method,
		URL:    &url.URL{Scheme: u.Scheme, Host: u.Host, Opaque: rawPath},
		Header: header.Clone(),
		Host:   u.Host,
	}
	if req.Header == nil {
		req.Header = http.Header{}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawPath, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func want(t *testing.T, resp *http.Response, key, value string) {
	t.Helper()
	if got := resp.Header.Get(key); got != value {
		t.Errorf("%s %s: %s = %q, want %q", resp.Request.Method, resp.Request.URL.Opaque, key, got, value)
	}
}

// wantCommon checks the headers every response carries.
func wantCommon(t *testing.T, resp *http.Response) {
	t.Helper()
	want(t, resp, "X-Content-Type-Options", "nosniff")
	want(t, resp, "Referrer-Policy", "strict-origin-when-cross-origin")
}

func TestNotFoundPaths(t *testing.T) {
	srv, _ := serve(t, Options{})
	for _, p := range []string{
		// Symlinks out of the folder, relative and absolute, to a file and
		// to a folder.
		"/leak.txt", "/leakabs.txt", "/sub/leak.txt",
		"/leakdir/secret.txt", "/leakdir/", "/leakdir",
		"/leakdir-abs/secret.txt", "/guide/uptoohigh/secret.txt",
		// Dotfiles and dot-folders.
		"/.git/config", "/.git/", "/.git", "/.env", "/sub/.hidden",
		"/.well-known/.secret", "/%2egit/config", "/.ENV",
		// Dot segments, however spelled, and other separators.
		"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
		"/guide/../../secret.txt", "/guide/%2e%2e/%2e%2e/secret.txt",
		"/./index.html", "/guide/./index.html", "/..", "/%2e",
		"/..%5csecret.txt", "/guide%5c..%5c..%5csecret.txt", "/sub%5cok.txt",
		// NUL bytes: http.FileServerFS answered these with 500.
		"/index.html%00.txt", "/%00", "/guide/%00/index.html",
		// Nothing there, or a file asked for as a folder.
		"/missing", "/missing/", "/guide/page.html/", "/index.html/",
		// A folder with no index.html: no listing.
		"/docs/", "/askplane/",
	} {
		resp, body := get(t, srv, "GET", p, nil)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, resp.StatusCode)
		}
		if strings.Contains(body, secret) || strings.Contains(body, "listed-file") || strings.Contains(body, "a.txt") || strings.Contains(body, "[core]") {
			t.Errorf("GET %s leaked %q", p, body)
		}
		wantCommon(t, resp)
	}
}

func TestServedPaths(t *testing.T) {
	srv, _ := serve(t, Options{})
	for p, body := range map[string]string{
		"/":                         homePage,
		"/index.html":               homePage,
		"/guide/":                   files["guide/index.html"],
		"/guide//":                  files["guide/index.html"],
		"/guide//page.html":         files["guide/page.html"],
		"/%67uide/":                 files["guide/index.html"],
		"/.well-known/security.txt": files[".well-known/security.txt"],
		"/inside.txt":               "ok", // a symlink within the folder
		"/guide/up/guide/page.html": files["guide/page.html"],
	} {
		resp, got := get(t, srv, "GET", p, nil)
		if resp.StatusCode != http.StatusOK || got != body {
			t.Errorf("GET %s = %d %q, want 200 %q", p, resp.StatusCode, got, body)
		}
		wantCommon(t, resp)
	}
}

func TestDirectoryRedirect(t *testing.T) {
	srv, _ := serve(t, Options{})
	for p, loc := range map[string]string{
		"/guide":         "./guide/",
		"/guide?x=1&y=2": "./guide/?x=1&y=2",
		"/fr":            "./fr/",
	} {
		resp, _ := get(t, srv, "GET", p, nil)
		if resp.StatusCode != http.StatusMovedPermanently {
			t.Errorf("GET %s = %d, want 301", p, resp.StatusCode)
		}
		want(t, resp, "Location", loc)
		wantCommon(t, resp)
	}
	// A client following it lands on the folder's page.
	resp, err := http.Get(srv.URL + "/guide")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/guide/" {
		t.Errorf("following /guide: %d at %s, want 200 at /guide/", resp.StatusCode, resp.Request.URL.Path)
	}
}

func TestMethods(t *testing.T) {
	srv, _ := serve(t, Options{})
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS", "PATCH", "PROPFIND"} {
		resp, _ := get(t, srv, m, "/index.html", nil)
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s = %d, want 405", m, resp.StatusCode)
		}
		want(t, resp, "Allow", "GET, HEAD")
		wantCommon(t, resp)
	}
	resp, body := get(t, srv, "HEAD", "/index.html", nil)
	if resp.StatusCode != http.StatusOK || body != "" {
		t.Errorf("HEAD = %d %q, want 200 and no body", resp.StatusCode, body)
	}
	if resp.ContentLength != int64(len(homePage)) {
		t.Errorf("HEAD Content-Length = %d, want %d", resp.ContentLength, len(homePage))
	}
	want(t, resp, "Content-Type", "text/html; charset=utf-8")
	want(t, resp, "Content-Security-Policy", DefaultCSP)
	wantCommon(t, resp)
}

// directives parses a Content-Security-Policy into its directives.
func directives(csp string) map[string]string {
	d := map[string]string{}
	for _, part := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), " ")
		if name != "" {
			d[name] = value
		}
	}
	return d
}

func TestHeaders(t *testing.T) {
	srv, _ := serve(t, Options{})
	for _, c := range []struct {
		path, ctype, csp, cache string
	}{
		{"/", "text/html; charset=utf-8", DefaultCSP, cacheRevalidate},
		{"/guide/page.html", "text/html; charset=utf-8", DefaultCSP, cacheRevalidate},
		{"/askplane/en/site.json", "application/json; charset=utf-8", "", cacheSiteConfig},
		{"/askplane/en/knowledge.ea9ffcff93f2.json", "application/json; charset=utf-8", "", cacheImmutable},
		{"/askplane/en/corpus.bf37889d3460.json", "application/json; charset=utf-8", "", cacheImmutable},
		{"/askplane/en/manifest.json", "application/json; charset=utf-8", "", cacheRevalidate},
		{"/askplane/en/knowledge.json", "application/json; charset=utf-8", "", cacheRevalidate},
		{"/askplane/en/knowledge.EA9FFCFF93F2.json", "application/json; charset=utf-8", "", cacheRevalidate},
		{"/askplane/dist/main." + sha256Hex + ".js", "text/javascript; charset=utf-8", "", cacheImmutable},
		{"/askplane/dist/main.js", "text/javascript; charset=utf-8", "", cacheRevalidate},
		{"/askplane/dist/main.0123456789abcdef0123456789abcde.js", "text/javascript; charset=utf-8", "", cacheRevalidate},
		{"/askplane/widget.min." + sha256Hex + ".css", "text/css; charset=utf-8", "", cacheImmutable},
		{"/css/site.min." + sha256Hex + ".css", "text/css; charset=utf-8", "", cacheImmutable},
		{"/img/logo.svg", "image/svg+xml", SVGCSP, cacheRevalidate},
		{"/img/logo.png", "image/png", "", cacheRevalidate},
		{"/sitemap.xml", "application/xml; charset=utf-8", "", cacheRevalidate},
		{"/.well-known/security.txt", "text/plain; charset=utf-8", "", cacheRevalidate},
		// HTML bytes under an unknown or no extension are not sniffed.
		{"/data.unknownext42", "application/octet-stream", "", cacheRevalidate},
		{"/noext", "application/octet-stream", "", cacheRevalidate},
	} {
		resp, _ := get(t, srv, "GET", c.path, nil)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", c.path, resp.StatusCode)
			continue
		}
		want(t, resp, "Content-Type", c.ctype)
		want(t, resp, "Content-Security-Policy", c.csp)
		want(t, resp, "Cache-Control", c.cache)
		// site.json has a strong ETag (TestSiteConfigETag), what
		// revalidates a weak one, immutable files none.
		if tag := resp.Header.Get("ETag"); (c.cache == cacheImmutable) != (tag == "") || (c.cache == cacheRevalidate) != strings.HasPrefix(tag, `W/"`) {
			t.Errorf("GET %s: ETag %q with Cache-Control %q", c.path, tag, c.cache)
		}
		if resp.Header.Get("Last-Modified") == "" {
			t.Errorf("GET %s: no Last-Modified", c.path)
		}
		wantCommon(t, resp)
	}

	resp, _ := get(t, srv, "GET", "/", nil)
	d := directives(resp.Header.Get("Content-Security-Policy"))
	for name, value := range map[string]string{
		"frame-ancestors": "'self'",
		"base-uri":        "'self'",
		"object-src":      "'none'",
		"script-src":      "'self'",
		"style-src":       "'self'",
		"connect-src":     "'self'",
	} {
		if d[name] != value {
			t.Errorf("HTML CSP %s = %q, want %q", name, d[name], value)
		}
	}
	resp, _ = get(t, srv, "GET", "/img/logo.svg", nil)
	if _, ok := directives(resp.Header.Get("Content-Security-Policy"))["sandbox"]; !ok {
		t.Errorf("SVG CSP has no sandbox")
	}
}

func TestConditionalAndRange(t *testing.T) {
	srv, pub := serve(t, Options{})
	mod := time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(pub, "index.html"), mod, mod); err != nil {
		t.Fatal(err)
	}
	resp, _ := get(t, srv, "GET", "/", nil)
	want(t, resp, "Last-Modified", mod.Format(http.TimeFormat))

	resp, body := get(t, srv, "GET", "/", http.Header{"If-Modified-Since": {mod.Format(http.TimeFormat)}})
	if resp.StatusCode != http.StatusNotModified || body != "" {
		t.Errorf("If-Modified-Since = %d %q, want 304", resp.StatusCode, body)
	}
	want(t, resp, "Cache-Control", cacheRevalidate)
	wantCommon(t, resp)

	resp, _ = get(t, srv, "GET", "/", http.Header{"If-Modified-Since": {mod.Add(-time.Hour).Format(http.TimeFormat)}})
	if resp.StatusCode != http.StatusOK {
		t.Errorf("stale If-Modified-Since = %d, want 200", resp.StatusCode)
	}

	resp, body = get(t, srv, "GET", "/askplane/en/site.json", http.Header{"Range": {"bytes=2-9"}})
	if resp.StatusCode != http.StatusPartialContent || body != files["askplane/en/site.json"][2:10] {
		t.Errorf("Range = %d %q, want 206 %q", resp.StatusCode, body, files["askplane/en/site.json"][2:10])
	}
}

func TestNotFoundPage(t *testing.T) {
	srv, pub := serve(t, Options{})
	for p, page := range map[string]string{
		"/missing":            files["404.html"],
		"/guide/missing.html": files["404.html"],
		"/.env":               files["404.html"],
		"/index.html%00.txt":  files["404.html"],
		"/fr/missing/":        files["fr/404.html"],
	} {
		resp, body := get(t, srv, "GET", p, nil)
		if resp.StatusCode != http.StatusNotFound || body != page {
			t.Errorf("GET %s = %d %q, want 404 %q", p, resp.StatusCode, body, page)
		}
		want(t, resp, "Content-Type", "text/html; charset=utf-8")
		want(t, resp, "Content-Security-Policy", DefaultCSP)
		want(t, resp, "Cache-Control", cacheRevalidate)
		wantCommon(t, resp)
	}
	resp, body := get(t, srv, "HEAD", "/missing", nil)
	if resp.StatusCode != http.StatusNotFound || body != "" {
		t.Errorf("HEAD /missing = %d %q, want 404 and no body", resp.StatusCode, body)
	}

	// Without a 404.html: plain text.
	os.Remove(filepath.Join(pub, "404.html"))
	resp, body = get(t, srv, "GET", "/missing", nil)
	if resp.StatusCode != http.StatusNotFound || body != "404 page not found\n" {
		t.Errorf("GET /missing without 404.html = %d %q", resp.StatusCode, body)
	}
	want(t, resp, "Content-Type", "text/plain; charset=utf-8")
	want(t, resp, "Content-Security-Policy", "")
	wantCommon(t, resp)
}

// TestBehindServeMux mounts the Handler as sidecar/cmd/askplane does, at
// "/" of a ServeMux, which redirects unclean paths before the Handler sees
// them.
func TestBehindServeMux(t *testing.T) {
	pub := newTree(t)
	h, err := New(pub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	mux := http.NewServeMux()
	mux.Handle("/", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, p := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/guide/../../secret.txt", "/leakdir/secret.txt", "/.git/config"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || strings.Contains(string(body), secret) {
			t.Errorf("GET %s through a ServeMux = %d %q, want 404", p, resp.StatusCode, body)
		}
	}
}

func TestOptions(t *testing.T) {
	const csp = "default-src 'self'; connect-src 'self' https://ask.example.com; frame-ancestors 'none'"
	srv, _ := serve(t, Options{CSP: csp})
	resp, _ := get(t, srv, "GET", "/", nil)
	want(t, resp, "Content-Security-Policy", csp)
	resp, _ = get(t, srv, "GET", "/img/logo.svg", nil)
	want(t, resp, "Content-Security-Policy", SVGCSP)

	dir := t.TempDir()
	for _, bad := range []string{"default-src 'self'\r\nSet-Cookie: x=1", "a\x00b", "a\tb"} {
		if _, err := New(dir, Options{CSP: bad}); !errors.Is(err, ErrInvalidCSP) {
			t.Errorf("New(CSP %q) = %v, want ErrInvalidCSP", bad, err)
		}
	}
	if _, err := New(filepath.Join(dir, "missing"), Options{}); err == nil || !strings.HasPrefix(err.Error(), "static: ") {
		t.Errorf("New(missing) = %v, want a static: error", err)
	}
}

func TestClose(t *testing.T) {
	pub := newTree(t)
	h, err := New(pub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("after Close: %d, want 404", rec.Code)
	}
}

// TestSiteConfigETag: site.json revalidates by its content's hash, not
// its modification time, so a cache holding one site's copy gets another
// site's, served later at the same address, even one built earlier.
func TestSiteConfigETag(t *testing.T) {
	srv, pub := serve(t, Options{})
	const u = "/askplane/en/site.json?v=0123456789ab"
	resp, _ := get(t, srv, "GET", u, nil)
	tag := resp.Header.Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(tag) {
		t.Fatalf("ETag %q; want a strong one from the content's hash", tag)
	}
	want(t, resp, "Cache-Control", "public, no-cache")
	if resp, _ = get(t, srv, "GET", u, http.Header{"If-None-Match": {tag}}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with its ETag = %d; want 304", resp.StatusCode)
	}
	p := filepath.Join(pub, "askplane", "en", "site.json")
	other := `{"protocol":"agentskit.chat.site","siteId":"other"}`
	if err := os.WriteFile(p, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-24 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	resp, body := get(t, srv, "GET", u, http.Header{"If-None-Match": {tag}, "If-Modified-Since": {time.Now().UTC().Format(http.TimeFormat)}})
	if resp.StatusCode != http.StatusOK || body != other || resp.Header.Get("ETag") == tag {
		t.Errorf("another site's site.json, older: %d %q ETag %s; want 200, its bytes, a new ETag", resp.StatusCode, body, resp.Header.Get("ETag"))
	}
}

// TestPageETag: a page revalidates by its weak ETag before its
// modification time, so another site's page, built earlier and served
// later at the same address, is not taken for the one a cache holds.
func TestPageETag(t *testing.T) {
	srv, pub := serve(t, Options{})
	resp, _ := get(t, srv, "GET", "/", nil)
	tag := resp.Header.Get("ETag")
	if !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("ETag %q; want a weak one", tag)
	}
	if resp, _ = get(t, srv, "GET", "/", http.Header{"If-None-Match": {tag}}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with its ETag = %d; want 304", resp.StatusCode)
	}
	p := filepath.Join(pub, "index.html")
	if err := os.WriteFile(p, []byte("<h1>other</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-24 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	resp, body := get(t, srv, "GET", "/", http.Header{"If-None-Match": {tag}, "If-Modified-Since": {time.Now().UTC().Format(http.TimeFormat)}})
	if resp.StatusCode != http.StatusOK || body != "<h1>other</h1>" {
		t.Errorf("another site's page, older: %d %q; want 200 and its bytes", resp.StatusCode, body)
	}
}

// TestSitePage fetches the home page of the tree and everything it links
// from the site, as a browser with the widget would: each must be served,
// with the type and cache the page's use needs.
func TestSitePage(t *testing.T) {
	srv, _ := serve(t, Options{})
	resp, body := get(t, srv, "GET", "/", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET / = %d", resp.StatusCode)
	}
	refs := regexp.MustCompile(`(?:href|src|data-askplane-site)="(/[^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(refs) != 4 {
		t.Fatalf("found %d references in the page, want 4", len(refs))
	}
	for _, m := range refs {
		resp, _ := get(t, srv, "GET", m[1], nil)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", m[1], resp.StatusCode)
		}
		ct := resp.Header.Get("Content-Type")
		switch {
		case strings.HasSuffix(m[1], ".js") && ct != "text/javascript; charset=utf-8",
			strings.HasSuffix(m[1], ".css") && ct != "text/css; charset=utf-8",
			strings.HasSuffix(m[1], ".json") && ct != "application/json; charset=utf-8":
			t.Errorf("GET %s: Content-Type %q", m[1], ct)
		}
		if strings.Contains(m[1], "site.json") {
			want(t, resp, "Cache-Control", cacheSiteConfig)
		} else {
			want(t, resp, "Cache-Control", cacheImmutable)
		}
	}
}

// TestMarkupFitsDefaultCSP guards DefaultCSP's premise: the module's
// layouts, the example site's and the widget's markup hold no inline
// script, <style> element or event handler, and no style attribute (the
// only style attributes a page gets are Hugo's highlighting, which
// style-src-attr allows). If this fails, DefaultCSP would break the widget.
func TestMarkupFitsDefaultCSP(t *testing.T) {
	inline := regexp.MustCompile(`<script\b[^>]*>|<style\b|\son[a-z]+\s*=|\sstyle\s*=|javascript:`)
	var checked int
	for _, dir := range []string{"../../hugo-module/layouts", "../../exampleSite/layouts", "../web"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".templ")) {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			checked++
			for _, m := range inline.FindAllString(string(b), -1) {
				if strings.HasPrefix(m, "<script") && strings.Contains(m, " src=") {
					continue // external, fingerprinted: script-src 'self'
				}
				t.Errorf("%s: %q needs more than DefaultCSP allows", p, m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 3 {
		t.Fatalf("checked %d files; the layouts moved?", checked)
	}
}
