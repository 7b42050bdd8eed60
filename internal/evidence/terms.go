package evidence

import (
	"unicode"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// maxTermBytes drops runs that are not words (hashes, base64, minified
// code) from the vocabulary; no query term that long is useful.
const maxTermBytes = 64

// Terms splits s into search terms, in order, duplicates kept. It uses the
// protocol's key normalization (NFKC, ECMAScript lowercasing) so a term
// typed in the widget means what it means for exact facts, then splits on
// anything that is not a Unicode letter, mark or digit and drops
// stopwords. Scripts written without spaces become one term per run; the
// engine is lexical and says so in its id.
func Terms(s string) []string {
	return appendTerms(nil, s)
}

func appendTerms(dst []string, s string) []string {
	s = protocol.NormalizeKey(s)
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := s[start:end]
		start = -1
		if len(w) > maxTermBytes {
			return
		}
		if _, stop := stopwords[w]; stop {
			return
		}
		dst = append(dst, w)
	}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
		i += size
	}
	flush(len(s))
	return dst
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z')
	}
	// Marks stay inside words so decomposed or combining text (Devanagari
	// vowel signs, i̇) is not cut apart.
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// queryTerms returns the distinct terms of a question, sorted, keeping the
// first maxQueryTerms in question order: a bound on work per request, and
// sorting makes the score sums run in one order however the question is
// phrased.
func queryTerms(question string) []string {
	all := Terms(question)
	seen := make(map[string]struct{}, len(all))
	out := make([]string, 0, min(len(all), maxQueryTerms))
	for _, t := range all {
		if _, dup := seen[t]; dup {
			continue
		}
		seen[t] = struct{}{}
		out = append(out, t)
		if len(out) == maxQueryTerms {
			break
		}
	}
	sortStrings(out)
	return out
}
