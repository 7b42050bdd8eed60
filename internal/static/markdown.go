package static

import (
	"mime"
	"net/http"
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
	hdr.Set("Link", "<"+twinURL+`>; rel="alternate"; type="text/markdown"`)
	return name
}
