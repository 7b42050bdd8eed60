package protocol

import "golang.org/x/text/unicode/norm"

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
	return lowerECMA(s)
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
