package evidence

import (
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// excerpt returns a verbatim part of text of at most MaxExcerptBytes: the
// whole text when it fits, else the run of whole sentences around the
// sentence matching the most query terms (the earliest on ties), grown
// forward first because docs explain after they introduce. A single
// sentence longer than the bound is cut on a rune boundary.
func excerpt(text string, terms []string) string {
	if len(text) <= MaxExcerptBytes {
		return text
	}
	spans := sentenceSpans(text)
	if len(spans) == 0 {
		return cutRunes(text, MaxExcerptBytes)
	}
	best, bestN := 0, -1
	for i, s := range spans {
		if n := countMatches(text[s[0]:s[1]], terms); n > bestN {
			best, bestN = i, n
		}
	}
	from, to := best, best
	if spans[best][1]-spans[best][0] > MaxExcerptBytes {
		return cutRunes(text[spans[best][0]:spans[best][1]], MaxExcerptBytes)
	}
	for to+1 < len(spans) && spans[to+1][1]-spans[from][0] <= MaxExcerptBytes {
		to++
	}
	for from > 0 && spans[to][1]-spans[from-1][0] <= MaxExcerptBytes {
		from--
	}
	return text[spans[from][0]:spans[to][1]]
}

// countMatches counts the distinct query terms (sorted, at most 64) in s.
func countMatches(s string, terms []string) int {
	var seen uint64
	for _, t := range Terms(s) {
		if i, ok := slices.BinarySearch(terms, t); ok {
			seen |= 1 << uint(i)
		}
	}
	return bits.OnesCount64(seen)
}

// cutRunes returns the longest prefix of s of at most n bytes that ends on
// a rune boundary, trimmed of trailing spaces.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], " \t")
}
