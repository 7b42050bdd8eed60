package browser

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	stdhtml "html"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/devserver"
	"github.com/askplane/askplane/internal/sidecar"
)

// TestDevServesWhatServeServes serves the built exampleSite through
// askplane dev's handler chain (sidecar.Dev's config, the sidecar, the
// Reloader around it, as sidecar/cmd/askplane/dev.go wires them) and
// through askplane serve's (the README's example config, static), and
// asks both for every file of the build as a browser does:
//
//   - every file as it is fetched (the widget's panel markup, site config
//     and artifact with fetch(), its scripts as modules, its style sheet,
//     the corpus, images): the same status, bytes and headers (Date
//     aside) from both; the panel markup and the scripts are checked
//     against the integrity hashes the pages carry, so one byte added by
//     dev breaks the widget;
//   - every file under askplane/ navigated to as well, which is no page
//     either: the same again;
//   - every HTML page navigated to: serve's bytes with dev's one
//     documented addition, the reload script tag before the last
//     </body> (at the end of a page without one), and serve's headers but for Content-Length and
//     Cache-Control: no-store.
func TestDevServesWhatServeServes(t *testing.T) {
	public := examplePublic(t)
	const addr = "127.0.0.1:8080"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))

	devCfg, devEnv, err := sidecar.Dev(public, []string{addr}, []string{"http://" + addr}, "memory:")
	if err != nil {
		t.Fatal(err)
	}
	devSidecar, err := sidecar.New(ctx, devCfg, sidecar.Options{Env: devEnv, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer devSidecar.Close()
	dev := devserver.NewReloader().Wrap(devSidecar)

	config, env := serveConfig(t, public, addr, []string{"http://" + addr}, true)
	serveCfg, err := sidecar.Load(config)
	if err != nil {
		t.Fatal(err)
	}
	serveCfg.Edge = sidecar.Edge{} // the defaults: this test makes hundreds of requests from one address
	serve, err := sidecar.New(ctx, serveCfg, sidecar.Options{Env: envLookup(env), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer serve.Close()

	get := func(h http.Handler, urlPath, dest string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "http://"+addr+urlPath, nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		req.Header.Set("Sec-Fetch-Dest", dest)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	same := func(what string, d, s *httptest.ResponseRecorder, except ...string) {
		t.Helper()
		if d.Code != s.Code {
			t.Errorf("%s: dev answers %d, serve %d", what, d.Code, s.Code)
		}
		dh, sh := d.Header().Clone(), s.Header().Clone()
		for _, h := range append([]string{"Date"}, except...) {
			dh.Del(h)
			sh.Del(h)
		}
		if !reflect.DeepEqual(dh, sh) {
			t.Errorf("%s: dev's headers\n%v\nserve's\n%v", what, dh, sh)
		}
	}

	var files, pages, widget int
	err = filepath.WalkDir(public, func(p string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, public))
		files++
		dest := "empty" // fetch(): the panel markup, site.json, the artifact
		switch path.Ext(rel) {
		case ".js":
			dest = "script"
		case ".css":
			dest = "style"
		case ".png", ".svg", ".ico", ".jpg", ".webp":
			dest = "image"
		}
		dests := []string{dest}
		if strings.HasPrefix(rel, "/askplane/") {
			widget++
			dests = append(dests, "document")
		}
		for _, dest := range dests {
			d, s := get(dev, rel, dest), get(serve, rel, dest)
			what := rel + " (Sec-Fetch-Dest " + dest + ")"
			same(what, d, s)
			if d.Body.String() != s.Body.String() {
				t.Errorf("%s: dev's %d bytes differ from serve's %d", what, d.Body.Len(), s.Body.Len())
			}
		}
		if path.Ext(rel) != ".html" || strings.HasPrefix(rel, "/askplane/") {
			return nil
		}
		// A page, navigated to.
		pages++
		urlPath := rel
		if path.Base(rel) == "index.html" {
			urlPath = strings.TrimSuffix(rel, "index.html")
		}
		d, s := get(dev, urlPath, "document"), get(serve, urlPath, "document")
		same(urlPath+" navigated to", d, s, "Content-Length", "Cache-Control")
		// Before the last </body>, or at the end of a page without one
		// (Hugo's alias pages, which only redirect).
		page, tag := s.Body.String(), `<script src="`+devserver.ScriptPath+`" defer></script>`
		want := page + tag
		if i := strings.LastIndex(page, "</body>"); i >= 0 {
			want = page[:i] + tag + page[i:]
		}
		if d.Body.String() != want {
			t.Errorf("%s navigated to: dev's page is not serve's with the reload script before </body> (%d bytes; want %d)", urlPath, d.Body.Len(), len(want))
		}
		if got := d.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
			t.Errorf("%s navigated to: Content-Length %s; want %d", urlPath, got, len(want))
		}
		if got := d.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s navigated to: Cache-Control %q; want no-store", urlPath, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files (%d under askplane/) and %d pages compared", files, widget, pages)
	if widget < 10 || pages < 10 {
		t.Fatalf("only %d files under askplane/ and %d pages: not the exampleSite build", widget, pages)
	}

	// What the page and the panel markup pin with an integrity hash,
	// fetched from dev as the browser fetches it, matches its hash.
	assertPinned(t, "dev", func(url, dest string) []byte { return get(dev, url, dest).Body.Bytes() })
}

// assertPinned checks everything the home page pins with an integrity
// hash (its style sheets and module, the widget's core and panel markup)
// and everything the panel markup pins (the SHA-256 module), fetched with
// fetch as a browser fetches each (Sec-Fetch-Dest document, script,
// style or empty), against its hash: a byte changed on the way and the
// browser refuses it.
func assertPinned(t *testing.T, server string, fetch func(url, dest string) []byte) {
	t.Helper()
	pinned := subresources(string(fetch("/", "document")))
	markup, ok := pinned["markup"]
	if !ok {
		t.Fatalf("%s: the home page pins no panel markup: %v", server, pinned)
	}
	for k, v := range subresources(string(fetch(markup.url, "empty"))) {
		pinned[k] = v
	}
	for _, want := range []string{"markup", "core", "sha256", "/askplane/dist/main", "/askplane/widget"} {
		found := false
		for k := range pinned {
			found = found || strings.HasPrefix(k, want)
		}
		if !found {
			t.Errorf("%s: nothing pinned as %s among %v", server, want, pinned)
		}
	}
	for name, sub := range pinned {
		dest := "empty"
		switch path.Ext(sub.url) {
		case ".js":
			dest = "script"
		case ".css":
			dest = "style"
		}
		sum := sha256.Sum256(fetch(sub.url, dest))
		if got := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); got != sub.integrity {
			t.Errorf("%s: %s (%s) hashes to %s; the page pins %s, so the browser would refuse it", server, name, sub.url, got, sub.integrity)
		}
	}
}

// subresource is a URL a page pins with an integrity hash.
type subresource struct{ url, integrity string }

var (
	pinnedAttr = regexp.MustCompile(`(?:href|src)="([^"]+)" integrity="([^"]+)"`)
	pinnedData = regexp.MustCompile(`data-askplane-([a-z0-9]+)="([^"]+)" data-askplane-([a-z0-9]+)-integrity="([^"]+)"`)
)

// subresources returns what html pins with an integrity hash: the
// href or src of an element with an integrity attribute (keyed by that
// URL), and the widget's data-askplane-X URL with its
// data-askplane-X-integrity (keyed by X).
func subresources(html string) map[string]subresource {
	out := map[string]subresource{}
	for _, m := range pinnedAttr.FindAllStringSubmatch(html, -1) {
		out[m[1]] = subresource{stdhtml.UnescapeString(m[1]), stdhtml.UnescapeString(m[2])}
	}
	for _, m := range pinnedData.FindAllStringSubmatch(html, -1) {
		if m[1] == m[3] {
			out[m[1]] = subresource{stdhtml.UnescapeString(m[2]), stdhtml.UnescapeString(m[4])}
		}
	}
	return out
}

// envLookup turns NAME=value pairs into a sidecar.Env.
func envLookup(pairs []string) sidecar.Env {
	return func(name string) (string, bool) {
		for _, p := range pairs {
			if k, v, ok := strings.Cut(p, "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
}
