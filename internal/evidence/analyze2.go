package evidence

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/askplane/askplane/internal/protocol"
)

// Token kinds of askplane.bm25/2's analyzer. A compound is a run of words
// joined by single '.', '_', '-' or '/' (resources.GetRemote, snake_case,
// site.json, build-drafts); a segment is one of its words (GetRemote); a
// part is a segment's camel-case piece (Get, Remote), or the segment
// itself when it has one. Every part takes a position, so "get remote"
// is a phrase of resources.GetRemote; a multi-part segment and a
// multi-segment compound are indexed too, at their first part's position,
// so the whole identifier matches as one term as well.
const (
	kindPart = iota
	kindSegment
	kindWhole
)

// token is one analyzed term occurrence: its lowercased form (not yet
// stemmed), kind and position.
type token struct {
	form string
	pos  int32
	kind uint8
	// multi is set on every token of a compound with more than one part,
	// whose parts a query weighs less than a word typed alone.
	multi bool
}

func isJoiner(c byte) bool { return c == '.' || c == '_' || c == '-' || c == '/' }

func wordRuneAt(s string, i int) (rune, int, bool) {
	r, size := rune(s[i]), 1
	if r >= utf8.RuneSelf {
		r, size = utf8.DecodeRuneInString(s[i:])
	}
	return r, size, isWordRune(r)
}

// analyze appends s's tokens to dst, numbering parts from pos, and returns
// them with the next free position. Case is kept until a part is cut (it
// marks camel-case boundaries), then each form is lowercased with the
// protocol's key normalization, the same as engine 1's terms.
func analyze(dst []token, s string, pos int32) ([]token, int32) {
	if !isASCIIString(s) {
		s = norm.NFKC.String(s)
	}
	var segs [][2]int
	for i := 0; i < len(s); {
		_, size, ok := wordRuneAt(s, i)
		if !ok {
			i += size
			continue
		}
		start := i
		segs = segs[:0]
		for {
			segStart := i
			for i < len(s) {
				_, size, ok := wordRuneAt(s, i)
				if !ok {
					break
				}
				i += size
			}
			segs = append(segs, [2]int{segStart, i})
			if i+1 < len(s) && isJoiner(s[i]) {
				if _, _, ok := wordRuneAt(s, i+1); ok {
					i++
					continue
				}
			}
			break
		}
		dst, pos = emitCompound(dst, s, start, i, segs, pos)
	}
	return dst, pos
}

func emitCompound(dst []token, s string, start, end int, segs [][2]int, pos int32) ([]token, int32) {
	first, from := pos, len(dst)
	for _, sg := range segs {
		seg := s[sg[0]:sg[1]]
		segPos := pos
		nparts := 0
		forEachCamelPart(seg, func(part string) {
			if f := protocol.NormalizeKey(part); len(f) <= maxTermBytes {
				dst = append(dst, token{form: f, pos: pos, kind: kindPart})
			}
			pos++
			nparts++
		})
		if nparts > 1 {
			if f := protocol.NormalizeKey(seg); len(f) <= maxTermBytes {
				dst = append(dst, token{form: f, pos: segPos, kind: kindSegment})
			}
		}
	}
	if len(segs) > 1 {
		if f := protocol.NormalizeKey(s[start:end]); len(f) <= maxTermBytes {
			dst = append(dst, token{form: f, pos: first, kind: kindWhole})
		}
	}
	if pos-first > 1 {
		for i := from; i < len(dst); i++ {
			dst[i].multi = true
		}
	}
	return dst, pos
}

// forEachCamelPart calls f with each camel-case piece of a word: a cut
// before an upper-case letter that follows a lower-case one (getRemote),
// and before the last capital of a run when a lower-case letter follows
// (HTMLParser → HTML Parser), except for a plural "s" (URLs, IDs). Digits
// never cut (utf8, h2, sha256).
func forEachCamelPart(w string, f func(string)) {
	if isASCIIString(w) {
		start := 0
		for i := 1; i < len(w); i++ {
			c, p := w[i], w[i-1]
			if !isUpperASCII(c) {
				if isLowerASCII(c) && isUpperASCII(p) && i >= 2 && isUpperASCII(w[i-2]) && i-1 > start &&
					!(c == 's' && (i+1 == len(w) || !isLowerASCII(w[i+1]))) {
					f(w[start : i-1])
					start = i - 1
				}
				continue
			}
			if isLowerASCII(p) {
				f(w[start:i])
				start = i
			}
		}
		f(w[start:])
		return
	}
	// The same rules over runes.
	type rr struct {
		r rune
		i int
	}
	var rs []rr
	for i, r := range w {
		rs = append(rs, rr{r, i})
	}
	start := 0
	for k := 1; k < len(rs); k++ {
		c, p := rs[k].r, rs[k-1].r
		if !unicode.IsUpper(c) {
			if unicode.IsLower(c) && unicode.IsUpper(p) && k >= 2 && unicode.IsUpper(rs[k-2].r) && rs[k-1].i > start &&
				!(c == 's' && (k+1 == len(rs) || !unicode.IsLower(rs[k+1].r))) {
				f(w[start:rs[k-1].i])
				start = rs[k-1].i
			}
			continue
		}
		if unicode.IsLower(p) {
			f(w[start:rs[k].i])
			start = rs[k].i
		}
	}
	f(w[start:])
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLowerASCII(c byte) bool { return c >= 'a' && c <= 'z' }

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
