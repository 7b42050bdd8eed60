package static

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// The Hugo module publishes a Markdown twin next to every page with
// content (askplane/publish/twin.html): docs/x/index.html has
// docs/x/index.md, and with uglyURLs docs/x.html has docs/x.md. A client
// that prefers text/markdown (a coding agent) gets the twin at the page's
// own URL; browsers, which never ask for Markdown, get the page.

// twinName is the twin's name for an HTML file's name, or "" for a file
// that is not HTML.
func twinName(name string) string {
	if base, ok := strings.CutSuffix(name, ".html"); ok {
		return base + ".md"
	}
	return ""
}

// wantsMarkdown reports whether an Accept header prefers text/markdown to
// HTML: text/markdown is listed with a q above 0 and at least the q of
// text/html when that is listed too. Wildcards (text/*, */*) never choose
// Markdown: a client that takes anything gets the page.
func wantsMarkdown(accept string) bool {
	md, html := -1.0, -1.0
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		switch mt {
		case "text/markdown", "text/x-markdown":
			md = max(md, q)
		case "text/html", "application/xhtml+xml":
			html = max(html, q)
		}
	}
	return md > 0 && md >= html
}

// negotiate picks what to serve for the HTML file name: its twin when the
// request prefers Markdown and the twin exists. On a page with a twin it
// sets Vary: Accept (the URL has two representations) and a Link header
// to the twin (twinURL, relative to the request's path) on the page.
func (h *Handler) negotiate(hdr http.Header, r *http.Request, name, twinURL string) string {
	twin := twinName(name)
	if twin == "" {
		return name
	}
	if info, ok := h.stat(twin); !ok || info.IsDir() {
		return name
	}
	hdr.Add("Vary", "Accept")
	if wantsMarkdown(r.Header.Get("Accept")) {
		return twin
	}
	addLink(hdr, "<"+twinURL+`>; rel="alternate"; type="text/markdown"`)
	return name
}

// MaxTwinBytes bounds what Twins.Read reads of one twin.
const MaxTwinBytes = 4 << 20

// ErrNoTwin is Twins.Read's answer for a URL with no Markdown twin (or
// one it refuses: a dot segment, a NUL byte, a file too large).
var ErrNoTwin = errors.New("static: no Markdown twin at that URL")

// Twins reads the Markdown twins of a built site folder, by page URL,
// with the Handler's rules (os.Root, no dot segments, regular files only).
type Twins struct{ h *Handler }

// OpenTwins opens dir for Read. Close releases it.
func OpenTwins(dir string) (*Twins, error) {
	h, err := New(dir, Options{})
	if err != nil {
		return nil, err
	}
	return &Twins{h}, nil
}

// Close releases the folder.
func (t *Twins) Close() error { return t.h.Close() }

// Read returns the twin of the page at urlPath (a path from the site's
// root: /docs/x/, /docs/x/index.html, /docs/x/index.md, /docs/x, or
// /x.html with uglyURLs), and its path.
func (t *Twins) Read(urlPath string) (text, twinPath string, err error) {
	name, dirURL, ok := fileName(urlPath)
	if !ok {
		return "", "", ErrNoTwin
	}
	switch {
	case strings.HasSuffix(name, ".md"):
	case strings.HasSuffix(name, ".html"):
		name = twinName(name)
	case dirURL || name == ".":
		name = path.Join(name, "index.md")
	default:
		name = path.Join(name, "index.md")
		if _, ok := t.h.stat(name); !ok {
			name = path.Clean(name[:len(name)-len("/index.md")] + ".md")
		}
	}
	f, info, ok := t.h.openFile(name)
	if !ok {
		return "", "", ErrNoTwin
	}
	defer f.Close()
	if info.Size() > MaxTwinBytes {
		return "", "", ErrNoTwin
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxTwinBytes+1))
	if err != nil || len(data) > MaxTwinBytes {
		return "", "", ErrNoTwin
	}
	return string(data), "/" + name, nil
}
