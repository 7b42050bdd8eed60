package generate

import "github.com/askplane/askplane/internal/evidence"

// The Composer reads the same records' sentences for question after
// question (a site's popular sections), and splitting, normalizing and
// stemming a sentence cost more than matching its stems against a
// question's terms: a text's stems are kept, bounded (textcache.go).
var stemCache = newTextCache[[]string]()

// stemsOf returns s's stemmed terms (camelCase parts included), in
// order. Callers must not modify the slice.
func stemsOf(s string) []string { return stemCache.of(s, stemsNow) }

// stemsNow computes what stemsOf keeps.
func stemsNow(s string) []string {
	t := evidence.Terms(camelParts(s))
	for i := range t {
		t[i] = stem(t[i])
	}
	return t
}
