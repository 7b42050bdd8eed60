package generate

import "strings"

// A question asking where something is ("where does rclone keep its
// config file on windows", "where is the Mermaid version set") is
// answered by the sentence that names the place: a path or a URL
// ("`%APPDATA%/rclone/rclone.conf` on Windows", "Cache location:
// `~/.cache/rclone/…`"), not by the sentence sharing the most words
// with it ("… rclone will keep the configuration file in memory only").

// placeAsked: the lower-cased question asks where something is, lives or
// goes ("where is …", "where does rclone keep …", "which folder …").
// "Where can I host my site" asks for a service, not a place on disk,
// and Hugo's where function ("where .Pages …") asks nothing.
func placeAsked(l string) bool {
	for _, clause := range strings.FieldsFunc(l, func(r rune) bool { return r == ',' || r == '?' || r == '.' || r == ';' }) {
		f := strings.Fields(clause)
		for i, x := range f {
			if (x == "which" || x == "what") && i+1 < len(f) && placeNoun[f[i+1]] {
				return true
			}
			if x != "where" || i+1 == len(f) {
				continue
			}
			if w := f[i+1]; w == "is" || w == "are" || w == "was" {
				return true
			}
			for _, w := range f[i+1 : min(len(f), i+9)] {
				for _, v := range placeVerbs {
					if strings.HasPrefix(w, v) {
						return true
					}
				}
			}
		}
	}
	return false
}

var (
	// placeVerbs start the words that put a thing somewhere: keep,
	// store, live, go, declare, set, find …
	placeVerbs = []string{"keep", "kept", "stor", "live", "go", "put", "declar", "defin", "set", "find", "locat", "sav", "writ", "cach", "look"}
	placeNoun  = map[string]bool{"folder": true, "directory": true, "path": true, "location": true, "url": true}
)

// namesPlace: s names a path or a URL, in code ("`~/.cache/rclone/`",
// "`theme/hugo.yaml`") or as a link target ("https://app.box.com/…").
func namesPlace(s string) bool {
	return strings.Contains(s, "://") || anySpan(s, func(span string) bool {
		return strings.ContainsAny(span, "/\\") && !strings.Contains(span, " ")
	})
}
