package static

import (
	"net/http"
	"path"
	"strings"
)

// The Hugo module publishes an llms.txt next to each language's home page
// (/llms.txt, /fr/llms.txt), and an llms.txt covers the pages below its
// folder (the llms.txt convention, v2). Every page links its own with
// <link rel="describedby">; the Handler says the same in an HTTP Link
// header, which a program reads without parsing the HTML (and gets on a
// HEAD request).

// maxLLMsDepth bounds how many folders describedBy looks in: a page
// deeper than that is looked up from its 16 nearest folders only.
const maxLLMsDepth = 16

// describedBy returns the Link header value pointing an HTML page (name,
// a file in the root) to the nearest llms.txt in its folder or above, as
// a reference relative to the page's folder, or "" when there is none.
func (h *Handler) describedBy(name string) string {
	dir := path.Dir(name)
	for up := 0; up < maxLLMsDepth; up++ {
		if info, ok := h.stat(path.Join(dir, "llms.txt")); ok && !info.IsDir() {
			return "<" + strings.Repeat("../", up) + `llms.txt>; rel="describedby"; type="text/plain"`
		}
		if dir == "." {
			return ""
		}
		dir = path.Dir(dir)
	}
	return ""
}

// addLink adds one link-value to the response's Link header, as one
// comma-separated field (RFC 8288).
func addLink(hdr http.Header, value string) {
	if value == "" {
		return
	}
	if old := hdr.Get("Link"); old != "" {
		value = old + ", " + value
	}
	hdr.Set("Link", value)
}
