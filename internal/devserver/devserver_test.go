package devserver

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFingerprintSeesEditsAdditionsAndRemovals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fp := func() string {
		t.Helper()
		s, err := Fingerprint(dir, filepath.Join(dir, "missing"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	write("content/a.md", "a")
	first := fp()
	if fp() != first {
		t.Fatal("fingerprint changed with nothing edited")
	}
	write("public/index.html", "built")
	write("resources/_gen/x", "cache")
	write(".hugo_build.lock", "") // any hugo build of the site touches it, a test's or an editor's
	if fp() != first {
		t.Error("a file under public/ or resources/, or Hugo's build lock (Hugo's own output), changed the fingerprint")
	}
	write("content/a.md", "ab")
	edited := fp()
	if edited == first {
		t.Error("an edit did not change the fingerprint")
	}
	write("data/askplane/facts.yaml", "x")
	added := fp()
	if added == edited {
		t.Error("a new file did not change the fingerprint")
	}
	os.Remove(filepath.Join(dir, "data", "askplane", "facts.yaml"))
	if fp() == added {
		t.Error("a removal did not change the fingerprint")
	}
}

func TestSwapServesTheLatestHandler(t *testing.T) {
	var s Swap
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("before Set: %d", rec.Code)
	}
	for _, body := range []string{"one", "two"} {
		s.Set(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Body.String() != body {
			t.Errorf("served %q; want %q", rec.Body.String(), body)
		}
	}
}

// reloadTag is what Wrap adds to a page.
const reloadTag = `<script src="/_askplane/dev/reload.js" defer></script>`

// devSite stands in for the sidecar's static files: a whole page (upper
// case tags, as some generators write), an HTML fragment (the widget's
// panel markup), a script and JSON that hold "</body>", a 404 page, and a
// stream. Each file is served with http.ServeContent, so conditional
// requests get 304 and ranges work, as under askplane serve. heard
// records the Accept-Encoding and If-Modified-Since each request reached
// it with.
func devSite(heard map[string]string) http.Handler {
	modTime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	files := map[string]struct{ ctype, body string }{
		"/":                       {"text/html; charset=utf-8", "<!doctype html><HTML><BODY><p>hi</p></BODY></HTML>"},
		"/askplane/en/panel.html": {"text/html; charset=utf-8", `<section data-askplane-panel hidden><p>panel</p></section>`},
		"/app.js":                 {"text/javascript; charset=utf-8", "document.write('</body>')"},
		"/askplane/en/site.json":  {"application/json; charset=utf-8", `{"html":"<html></body>"}`},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heard[r.URL.Path] = r.Header.Get("Accept-Encoding") + "|" + r.Header.Get("If-Modified-Since")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.URL.Path == "/stream" {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "one\n")
			if err := http.NewResponseController(w).Flush(); err != nil {
				io.WriteString(w, "flush: "+err.Error())
			}
			return
		}
		f, ok := files[r.URL.Path]
		if !ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "<html><body>404</body></html>")
			return
		}
		w.Header().Set("Content-Type", f.ctype)
		w.Header().Set("Cache-Control", "public, max-age=0, must-revalidate")
		http.ServeContent(w, r, "", modTime, strings.NewReader(f.body))
	})
}

// TestReloaderInjectsOnlyIntoNavigatedDocuments: the script tag goes into
// a whole page a browser navigates to, and nowhere else. Every other
// response (a fragment even when navigated to, anything fetched, a
// script, JSON, an error page, a 304) is the one the wrapped handler
// gives, byte for byte and header for header, and its request reaches
// the handler with its own headers.
func TestReloaderInjectsOnlyIntoNavigatedDocuments(t *testing.T) {
	heardDirect, heardWrapped := map[string]string{}, map[string]string{}
	direct, wrapped := devSite(heardDirect), NewReloader().Wrap(devSite(heardWrapped))
	const lastModified = "Fri, 02 Jan 2026 03:04:05 GMT"
	serve := func(h http.Handler, method, path, dest string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		req.Header.Set("Accept-Encoding", "gzip, br")
		if dest != "-" {
			req.Header.Set("Sec-Fetch-Dest", dest)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, dest := range []string{"-", "document", "iframe", "DOCUMENT"} {
		page := serve(wrapped, "GET", "/", dest)
		want := "<!doctype html><HTML><BODY><p>hi</p>" + reloadTag + "</BODY></HTML>"
		if page.Code != 200 || page.Body.String() != want {
			t.Errorf("navigation (Sec-Fetch-Dest %s) to the page: %d %q; want the tag before </BODY>: %q", dest, page.Code, page.Body.String(), want)
		}
		if got := page.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
			t.Errorf("navigation (Sec-Fetch-Dest %s): Content-Length %s; want %d", dest, got, len(want))
		}
		if got := page.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("navigation (Sec-Fetch-Dest %s): Cache-Control %q; want no-store", dest, got)
		}
		if got := heardWrapped["/"]; got != "|" {
			t.Errorf("navigation (Sec-Fetch-Dest %s) reached the site with Accept-Encoding|If-Modified-Since %q; want neither", dest, got)
		}
		// A navigation is never answered from a cache of an older build.
		if again := serve(wrapped, "GET", "/", dest, "If-Modified-Since", lastModified); again.Code != 200 || !strings.Contains(again.Body.String(), reloadTag) {
			t.Errorf("a conditional navigation got %d %q; want the page with the tag", again.Code, again.Body.String())
		}
	}

	// Everything else is served as if the Reloader were not there.
	for _, c := range []struct {
		method, path, dest string
		header             []string
	}{
		{"GET", "/askplane/en/panel.html", "empty", nil},    // the widget's fetch, with an integrity hash
		{"GET", "/askplane/en/panel.html", "document", nil}, // a fragment, even navigated to
		{"GET", "/askplane/en/panel.html", "-", nil},
		{"GET", "/", "empty", nil}, // a page fetched, not navigated to
		{"GET", "/", "script", nil},
		{"GET", "/app.js", "script", nil},
		{"GET", "/app.js", "-", nil},
		{"GET", "/askplane/en/site.json", "empty", nil},
		{"GET", "/askplane/en/site.json", "document", nil},
		{"GET", "/gone", "document", nil}, // an error page
		{"HEAD", "/", "document", nil},
		{"GET", "/askplane/en/panel.html", "empty", []string{"If-Modified-Since", lastModified}}, // 304
		{"GET", "/app.js", "script", []string{"Range", "bytes=0-5"}},                             // 206
	} {
		name := c.method + " " + c.path + " (Sec-Fetch-Dest " + c.dest + ") " + strings.Join(c.header, " ")
		want, got := serve(direct, c.method, c.path, c.dest, c.header...), serve(wrapped, c.method, c.path, c.dest, c.header...)
		if got.Code != want.Code || got.Body.String() != want.Body.String() {
			t.Errorf("%s: %d %q; want what the site serves, %d %q", name, got.Code, got.Body.String(), want.Code, want.Body.String())
		}
		if !reflect.DeepEqual(got.Header(), want.Header()) {
			t.Errorf("%s: headers %v; want the site's %v", name, got.Header(), want.Header())
		}
		if strings.Contains(got.Body.String(), "reload.js") {
			t.Errorf("%s: got the reload script", name)
		}
		if c.dest != "document" && c.dest != "-" && heardWrapped[c.path] != heardDirect[c.path] {
			t.Errorf("%s: reached the site with Accept-Encoding|If-Modified-Since %q; want the request's own %q", name, heardWrapped[c.path], heardDirect[c.path])
		}
	}
	if nf := serve(wrapped, "GET", "/gone", "document"); nf.Code != 404 {
		t.Errorf("a missing page: %d", nf.Code)
	}
	if m := serve(wrapped, "GET", "/askplane/en/panel.html", "empty", "If-Modified-Since", lastModified); m.Code != http.StatusNotModified {
		t.Errorf("a conditional fetch of the fragment got %d; want 304, as serve answers it", m.Code)
	}

	// A navigated response that is not held can still stream.
	if s := serve(wrapped, "GET", "/stream", "document"); s.Body.String() != "one\n" || !s.Flushed {
		t.Errorf("a streamed navigation: %q (flushed %v); want it flushed", s.Body.String(), s.Flushed)
	}
	if s := serve(wrapped, "GET", ScriptPath, "script"); !strings.Contains(s.Body.String(), EventsPath) || !strings.HasPrefix(s.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("reload script: %q %s", s.Body.String(), s.Header().Get("Content-Type"))
	}
}

// TestReloaderLeavesLargePagesAlone: a page over the bound is served
// unchanged, whether its Content-Length says so or only its body does.
func TestReloaderLeavesLargePagesAlone(t *testing.T) {
	big := "<html><body>" + strings.Repeat("x", maxPage) + "</body></html>"
	for _, length := range []bool{true, false} {
		h := NewReloader().Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			if length {
				w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			}
			for i := 0; i < len(big); i += 1 << 20 {
				io.WriteString(w, big[i:min(i+1<<20, len(big))])
			}
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Body.String() != big || rec.Header().Get("Cache-Control") != "" {
			t.Errorf("Content-Length set %v: a page over %d bytes was changed (%d bytes, Cache-Control %q)", length, maxPage, rec.Body.Len(), rec.Header().Get("Cache-Control"))
		}
	}
}

func TestReloaderTellsOpenTabs(t *testing.T) {
	rl := NewReloader()
	srv := httptest.NewServer(rl.Wrap(http.NotFoundHandler()))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+EventsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	lines.Scan() // the opening comment: the stream is registered
	rl.Rebuilt()
	for lines.Scan() {
		if lines.Text() == "event: rebuilt" {
			return
		}
	}
	t.Fatalf("no rebuilt event: %v", lines.Err())
}

// TestReloaderClosesStreamsOnShutdown: with Close registered, a server
// with a tab's event stream open shuts down at once instead of waiting
// for the stream, which never ends on its own.
func TestReloaderClosesStreamsOnShutdown(t *testing.T) {
	rl := NewReloader()
	srv := httptest.NewUnstartedServer(rl.Wrap(http.NotFoundHandler()))
	srv.Config.RegisterOnShutdown(rl.Close)
	srv.Start()
	defer srv.Close()
	resp, err := http.Get(srv.URL + EventsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	lines.Scan() // the opening comment: the stream is registered
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Config.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a tab open: %v; want the stream ended", err)
	}
	for lines.Scan() {
	}
	if again, err := http.Get(srv.URL + EventsPath); err == nil {
		again.Body.Close()
		t.Errorf("a stream opened after shutdown: %s", again.Status)
	}
}
