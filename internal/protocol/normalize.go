package protocol

import (
	"sync"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// lowerPool holds en-US lowercasers. A cases.Caser keeps state between
// calls, so each goroutine takes its own.
var lowerPool = sync.Pool{New: func() any { c := cases.Lower(language.Und); return &c }}

// NormalizeKey is normalizeKnowledgeKey of the v1 contract: NFKC, then
// trim ECMAScript whitespace, then collapse each whitespace run to one
// space, then lowercase as toLocaleLowerCase('en-US') does, with full
// special casing (İ → i̇, final sigma) and no case folding (ß stays ß).
// Nothing is normalized again after lowercasing.
//
// Matching is exact equality of normalized keys: there is no prefix, token,
// fuzzy or semantic matching anywhere in askplane.
func NormalizeKey(s string) string {
	if isASCII(s) {
		return asciiNormalize(s)
	}
	s = norm.NFKC.String(s)
	s = collapseSpace(Trim(s))
	if isASCII(s) {
		return asciiLower(s)
	}
	c := lowerPool.Get().(*cases.Caser)
	s = c.String(s)
	lowerPool.Put(c)
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiNormalize is NormalizeKey for ASCII input, where NFKC is the identity
// and lowercasing has no special cases. It allocates only when s changes.
func asciiNormalize(s string) string {
	return asciiLower(collapseSpace(Trim(s)))
}

func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
