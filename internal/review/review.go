// Package review serves the evidence review page at /review/: the page
// every answer's review link opens. The page is static (templ, rendered
// once), its script and stylesheet are embedded, and it reads the recipe
// from the URL fragment, which never reaches a server: the server learns
// which evidence a reader reviews only when the reader asks to rebuild it
// (POST /v1/evidence/replay).
package review

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"

	"github.com/askplane/askplane/internal/web"
)

//go:embed assets/review.js assets/review.css
var assets embed.FS

// CSP is the page's policy: its own script and stylesheet, requests to
// its own origin, nothing inline, no frames.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves /review/ and its assets.
type Handler struct {
	page   []byte
	files  map[string]asset // by URL path
	handle http.Handler
}

type asset struct {
	body []byte
	typ  string
}

// New renders the page once. The asset URLs carry a digest of their
// bytes, so they can be cached for good and a new build is never mixed
// with an old page.
func New() (*Handler, error) {
	h := &Handler{files: map[string]asset{}}
	urls := map[string]string{}
	for name, typ := range map[string]string{"review.js": "text/javascript; charset=utf-8", "review.css": "text/css; charset=utf-8"} {
		body, err := assets.ReadFile("assets/" + name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		url := "/review/" + hex.EncodeToString(sum[:6]) + "." + name
		h.files[url] = asset{body, typ}
		urls[name] = url
	}
	var buf bytes.Buffer
	if err := web.Review(web.ReviewView{Script: urls["review.js"], Style: urls["review.css"]}).Render(context.Background(), &buf); err != nil {
		return nil, err
	}
	h.page = buf.Bytes()
	return h, nil
}

// ServeHTTP serves the page at /review/ (with /review redirected to it)
// and the assets; anything else under /review/ is 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	switch a, ok := h.files[r.URL.Path]; {
	case r.URL.Path == "/review":
		http.Redirect(w, r, "/review/", http.StatusMovedPermanently)
	case r.URL.Path == "/review/":
		hd.Set("Content-Type", "text/html; charset=utf-8")
		hd.Set("Content-Security-Policy", CSP)
		hd.Set("Cache-Control", "no-cache")
		w.Write(h.page)
	case ok:
		hd.Set("Content-Type", a.typ)
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Write(a.body)
	default:
		http.NotFound(w, r)
	}
}
