// Package static serves a built Hugo site folder read-only, and safely.
//
// It replaces http.FileServerFS(os.DirFS(public)), which an attacker could
// use to follow symlinks out of the folder, read dotfiles (/.git/config,
// /.env), list directories, and get a 500 for a NUL byte in the path, and
// which set no security headers. The Handler here:
//
//   - opens the folder with os.OpenRoot, so no name (a symlink, "..") can
//     reach a file outside it;
//   - answers GET and HEAD only;
//   - answers 404 for a path with a NUL byte or a backslash, or any segment
//     that begins with "." ("..", ".git", ".env"), except a leading
//     /.well-known/;
//   - serves a directory's index.html, and never a listing;
//   - serves a page's Markdown twin (index.md next to index.html) at the
//     page's URL to a client whose Accept prefers text/markdown, with
//     Vary: Accept (markdown.go), and links every HTML page to its twin
//     and to the llms.txt that covers it in a Link header (llms.go);
//   - serves regular files only (no devices, FIFOs or sockets);
//   - takes the content type from the extension, never from the bytes;
//   - sets nosniff and a referrer policy on every response, a
//     Content-Security-Policy on HTML and a script-free one on SVG, and the
//     Cache-Control the README and netlify.toml advise;
//   - answers a missing file with the site's own 404.html, status 404.
package static

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
)

// DefaultCSP is the Content-Security-Policy sent with HTML when
// Options.CSP is empty. It is the policy exampleSite/content/en/widget/csp.md
// documents for the widget, with the one allowance a stock Hugo site needs.
// Each directive, and why:
//
//   - default-src 'self': anything not listed below (fonts, the web
//     manifest, media) comes from the site's own origin.
//   - script-src 'self': the widget is two fingerprinted ES modules from the
//     site's origin (main.<hash>.js, and core.<hash>.js, imported on first
//     use), and neither the module's layouts nor the widget markup hold an
//     inline script or event handler, so no 'unsafe-inline', 'unsafe-eval',
//     nonce or hash is needed.
//   - style-src 'self': the widget's and the site's stylesheets are
//     fingerprinted files on the site's origin; no <style> element.
//   - style-src-attr 'unsafe-inline': Hugo's default code highlighting
//     (markup.highlight.noClasses = true) writes style="…" attributes on
//     every code block; without this, code on the example site loses its
//     colours. It allows style attributes only, not <style> elements or
//     stylesheets, and an attribute cannot load script. A site that
//     highlights with classes can drop it.
//   - img-src 'self' data:: the site's images, plus the small data: URIs
//     that themes and CSS icons inline; an image cannot run script.
//   - connect-src 'self': the widget fetches askplane/<lang>/site.json and
//     the artifact from the site and posts to /v1/ask, which this sidecar
//     serves on the same origin. A sidecar on another origin must be added.
//   - object-src 'none': no plugins (<object>, <embed>), a classic way
//     around script-src.
//   - base-uri 'self': an injected <base> cannot redirect the page's
//     relative script and stylesheet URLs to another host.
//   - form-action 'self': a form (the widget's own submits nowhere) cannot
//     post to another origin. It does not fall back to default-src.
//   - frame-ancestors 'self': only the site itself may frame its pages,
//     against clickjacking. It does not fall back to default-src either.
const DefaultCSP = "default-src 'self'; " +
	"script-src 'self'; " +
	"style-src 'self'; " +
	"style-src-attr 'unsafe-inline'; " +
	"img-src 'self' data:; " +
	"connect-src 'self'; " +
	"object-src 'none'; " +
	"base-uri 'self'; " +
	"form-action 'self'; " +
	"frame-ancestors 'self'"

// SVGCSP is the Content-Security-Policy sent with every SVG. An SVG opened
// directly is a document that can run script; this policy loads nothing,
// sandboxes the document (no script, no same-origin access, no forms or
// popups) and keeps only inline styles, which SVGs use for presentation.
// An SVG shown through <img> or CSS never runs script anyway.
const SVGCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// The Cache-Control values, after the README ("site.json keeps its name
// from build to build, so serve it with a short or revalidating cache; the
// hashed files can be immutable") and netlify.toml, which sets the same
// values for the same paths.
const (
	// cacheImmutable is for content-addressed files: a new content gets a
	// new name, so a cached copy never goes stale.
	cacheImmutable = "public, max-age=31536000, immutable"
	// cacheSiteConfig is for askplane/<lang>/site.json, which pins the
	// current artifact under a fixed name: a cache may keep it but must
	// revalidate it before every use, by its ETag (its content's hash), so
	// a rebuild, or another site served at the same address, shows at
	// once (pages also name it by its hash, ?v=, which it ignores).
	cacheSiteConfig = "public, no-cache"
	// cacheRevalidate is for everything else (HTML above all): a cache may
	// keep it but must check it (its weak ETag, size and modification
	// time) before every use, so a rebuild shows at once.
	cacheRevalidate = "public, max-age=0, must-revalidate"
)

// ErrInvalidCSP is returned by New when Options.CSP holds a control
// character (a CR or LF would split the header).
var ErrInvalidCSP = errors.New("static: Options.CSP holds a control character")

// Options configures a Handler. The zero value is ready to use.
type Options struct {
	// CSP is the Content-Security-Policy sent with every HTML response
	// (pages and the 404 page). Empty means DefaultCSP. Set it when the
	// site needs more than the widget does: a sidecar on another origin in
	// connect-src, a theme's inline script, a different frame-ancestors.
	CSP string
}

// Handler serves the files of one folder. It implements http.Handler and
// is safe for concurrent use. Files are opened on every request, so a
// rebuild in place (Hugo writes into the folder) is served at once; a
// folder replaced by a rename is not, since the Handler keeps the one it
// opened.
type Handler struct {
	root *os.Root
	csp  string
}

// New opens dir and returns a Handler serving it. Close the Handler to
// release the folder.
func New(dir string, opts Options) (*Handler, error) {
	csp := opts.CSP
	if csp == "" {
		csp = DefaultCSP
	}
	for i := 0; i < len(csp); i++ {
		if c := csp[i]; c < 0x20 || c == 0x7f {
			return nil, ErrInvalidCSP
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	return &Handler{root: root, csp: csp}, nil
}

// Close releases the folder. Requests after Close get 404.
func (h *Handler) Close() error {
	return h.root.Close()
}

// ServeHTTP serves the file the URL path names, or the 404 page.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		plainError(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, dirURL, ok := fileName(r.URL.Path)
	if !ok {
		h.notFound(w, r, "")
		return
	}
	info, ok := h.stat(name)
	if !ok {
		h.notFound(w, r, name)
		return
	}
	switch {
	case info.IsDir() && !dirURL:
		// As net/http does: a directory's URL ends in "/", so the page's
		// relative links resolve inside it.
		redirectDir(w, r, path.Base(name))
		return
	case info.IsDir():
		name = path.Join(name, "index.html")
		name = h.negotiate(hdr, r, name, "index.md")
	case dirURL:
		// A file has no URL ending in "/"; Hugo never links one.
		h.notFound(w, r, name)
		return
	default:
		name = h.negotiate(hdr, r, name, strings.TrimSuffix(path.Base(name), ".html")+".md")
	}
	f, info, ok := h.openFile(name)
	if !ok {
		h.notFound(w, r, name)
		return
	}
	defer f.Close()
	if strings.HasSuffix(name, ".html") {
		addLink(hdr, h.describedBy(name))
	}
	ctype := contentType(name)
	h.setTypeHeaders(hdr, ctype)
	cache := cacheControl(name)
	hdr.Set("Cache-Control", cache)
	var content io.ReadSeeker = f
	if cache == cacheRevalidate {
		// A weak ETag from the size and the modification time to the
		// nanosecond, which If-None-Match checks before If-Modified-Since:
		// a page of another site served later at the same address is new
		// to a cache even when it was built earlier.
		hdr.Set("ETag", fmt.Sprintf(`W/"%x-%x"`, info.Size(), info.ModTime().UnixNano()))
	}
	if cache == cacheSiteConfig && info.Size() <= maxSiteConfigRead {
		// A strong ETag from the bytes, not the modification time: a site
		// built earlier than the one a cache holds is still new to it.
		data, err := io.ReadAll(f)
		if err != nil {
			plainError(w, "500 internal server error", http.StatusInternalServerError)
			return
		}
		sum := sha256.Sum256(data)
		hdr.Set("ETag", `"`+hex.EncodeToString(sum[:16])+`"`)
		content = bytes.NewReader(data)
	}
	// The Content-Type is set, so ServeContent never sniffs; it handles
	// ranges, HEAD, If-None-Match (when there is an ETag) and
	// If-Modified-Since from the modification time.
	http.ServeContent(w, r, "", info.ModTime(), content)
}

// maxSiteConfigRead bounds what is read of a site.json to hash it: four
// times the protocol's limit on a site config (16 KiB). A larger file is
// not one; it is served as any other, without an ETag.
const maxSiteConfigRead = 64 << 10

// fileName turns a URL path into a name inside the root ("." for the root
// itself), and reports whether the URL names a directory (ends in "/").
// It refuses (ok false) a NUL byte, a backslash (a separator on Windows,
// never in a Hugo URL), and any segment beginning with ".": that covers
// "." and ".." as well as dotfiles, so an unclean path is refused before
// it is cleaned rather than resolved. Only a leading ".well-known" passes.
func fileName(urlPath string) (name string, dirURL, ok bool) {
	if strings.ContainsAny(urlPath, "\x00\\") {
		return "", false, false
	}
	p := strings.TrimPrefix(urlPath, "/")
	for i, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") && !(i == 0 && seg == ".well-known") {
			return "", false, false
		}
	}
	dirURL = p == "" || strings.HasSuffix(p, "/")
	// The segments are checked, so Clean only drops empty ones ("a//b").
	name = path.Clean("/" + p)[1:]
	if name == "" {
		name = "."
	}
	return name, dirURL, true
}

// stat returns what name is in the root, if it is a regular file or a
// directory. Every failure is the same to the client: not found. Whether
// the name is missing, unreadable, a symlink out of the root or a device
// makes no difference to what it gets, so there is nothing to probe.
func (h *Handler) stat(name string) (fs.FileInfo, bool) {
	info, err := h.root.Stat(name)
	if err != nil || !servable(info) {
		return nil, false
	}
	return info, true
}

// openFile opens name in the root if it is a regular file. It stats
// first, since opening a FIFO would block and a device is nothing to
// serve, and stats again what it opened, since the name may have changed
// in between.
func (h *Handler) openFile(name string) (*os.File, fs.FileInfo, bool) {
	if info, ok := h.stat(name); !ok || info.IsDir() {
		return nil, nil, false
	}
	f, err := h.root.Open(name)
	if err != nil {
		return nil, nil, false
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, info, true
}

func servable(info fs.FileInfo) bool {
	return info.Mode().IsRegular() || info.IsDir()
}

// notFound answers 404 with the site's 404.html when there is one, else in
// plain text. For a name under a first-level folder it tries that folder's
// 404.html first: Hugo writes one per language (fr/404.html), so a French
// page's miss gets the French page. Never more than two tries.
func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, name string) {
	var tries []string
	if first, _, found := strings.Cut(name, "/"); found && first != "" && first != "." {
		tries = append(tries, first+"/404.html")
	}
	tries = append(tries, "404.html")
	for _, page := range tries {
		f, info, ok := h.openFile(page)
		if !ok {
			continue
		}
		defer f.Close()
		hdr := w.Header()
		h.setTypeHeaders(hdr, contentType(page))
		hdr.Set("Cache-Control", cacheRevalidate)
		hdr.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			io.Copy(w, f)
		}
		return
	}
	w.Header().Set("Cache-Control", cacheRevalidate)
	plainError(w, "404 page not found", http.StatusNotFound)
}

// plainError writes a text/plain error, like http.Error.
func plainError(w http.ResponseWriter, msg string, code int) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Del("Content-Length")
	w.WriteHeader(code)
	io.WriteString(w, msg+"\n")
}

// redirectDir sends a 301 to the directory URL for base, keeping the
// query. The Location is relative ("./base/"), so it works under a path
// prefix and, with its "./", can never read as a scheme ("a:b/") or a host
// ("//evil/").
func redirectDir(w http.ResponseWriter, r *http.Request, base string) {
	u := url.URL{Path: "./" + base + "/", RawQuery: r.URL.RawQuery}
	hdr := w.Header()
	hdr.Set("Location", u.String())
	hdr.Set("Cache-Control", cacheRevalidate)
	w.WriteHeader(http.StatusMovedPermanently)
}

// setTypeHeaders sets Content-Type and, for the types a browser runs as a
// document with script, the Content-Security-Policy.
func (h *Handler) setTypeHeaders(hdr http.Header, ctype string) {
	hdr.Set("Content-Type", ctype)
	mediaType, _, _ := strings.Cut(ctype, ";")
	switch mediaType {
	case "text/html", "application/xhtml+xml":
		hdr.Set("Content-Security-Policy", h.csp)
	case "image/svg+xml":
		hdr.Set("Content-Security-Policy", SVGCSP)
	}
}

// types is what a Hugo site ships, so that the common files do not depend
// on the host's mime.types (mime.TypeByExtension reads it on Unix). Text
// types carry their charset: Hugo writes UTF-8. JSON carries it too, as
// netlify.toml sets it; .js is text/javascript (RFC 9239), as is .mjs.
var types = map[string]string{
	".html":        "text/html; charset=utf-8",
	".htm":         "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json; charset=utf-8",
	".map":         "application/json; charset=utf-8",
	".webmanifest": "application/manifest+json; charset=utf-8",
	".xml":         "application/xml; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".wasm":        "application/wasm",
	".pdf":         "application/pdf",
}

// contentType returns the type for name's extension: the table above,
// then mime.TypeByExtension, then application/octet-stream, which a
// browser downloads rather than renders.
func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := types[ext]; ok {
		return t
	}
	if ext != "" {
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
	}
	return "application/octet-stream"
}

// cacheControl picks the Cache-Control for a file by its name:
// askplane/<lang>/site.json is short and revalidating; the artifact and
// the corpus (askplane/<lang>/knowledge.<hex>.json, corpus.<hex>.json)
// and Hugo-fingerprinted files (a 32+ hex-digit part before the
// extension, as in main.<sha256>.js) are immutable; the rest revalidates.
func cacheControl(name string) string {
	dir, file := path.Split(name)
	if lang, ok := strings.CutPrefix(dir, "askplane/"); ok && lang != "/" && strings.Count(lang, "/") == 1 {
		if file == "site.json" {
			return cacheSiteConfig
		}
		for _, kind := range []string{"knowledge.", "corpus."} {
			if hash, ok := strings.CutPrefix(file, kind); ok {
				// The module writes 12 hex digits of the SHA-256.
				if hash, ok = strings.CutSuffix(hash, ".json"); ok && len(hash) >= 12 && isHex(hash) {
					return cacheImmutable
				}
			}
		}
	}
	if fingerprinted(file) {
		return cacheImmutable
	}
	return cacheRevalidate
}

// fingerprinted reports whether a dot-separated part of file, before its
// extension, is 32 or more lowercase hex digits: Hugo's fingerprint writes
// the hash there (md5 is 32 digits, the default sha256 64).
func fingerprinted(file string) bool {
	parts := strings.Split(file, ".")
	for _, p := range parts[:len(parts)-1] {
		if len(p) >= 32 && isHex(p) {
			return true
		}
	}
	return false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}
