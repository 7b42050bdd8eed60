package protocol

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lowerECMA lowercases s exactly as ECMAScript's String.prototype.toLowerCase
// (and toLocaleLowerCase('en-US')) does: each code point takes its simple
// lowercase mapping, except the two SpecialCasing rules that apply outside
// Turkish and Lithuanian: U+0130 İ becomes "i̇" (i + U+0307), and Σ becomes
// final ς when it ends a word (the Final_Sigma context) and σ otherwise.
//
// golang.org/x/text/cases differs from ECMAScript engines on Final_Sigma:
// it treats U+0345 (cased and case-ignorable) as a cased letter, and it
// loses the context when Σ falls on a 128-byte chunk boundary. Both change
// a normalized key, so the widget and Go would disagree on a match.
func lowerECMA(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ':
			if finalSigma(s, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma reports whether the Σ at byte offset i is in the Final_Sigma
// context: preceded by a cased letter and not followed by one, skipping
// case-ignorable characters in both directions. A character that is both
// (U+0345) is skipped, as ICU and V8 do.
func finalSigma(s string, i int) bool {
	preceded := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if !caseIgnorable(r) {
			preceded = cased(r)
			break
		}
	}
	if !preceded {
		return false
	}
	for j := i + len("Σ"); j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is the Unicode Cased property: Lowercase, Uppercase or Lt.
func cased(r rune) bool {
	return unicode.In(r, unicode.Ll, unicode.Lu, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// caseIgnorable is the Unicode Case_Ignorable property: Mn, Me, Cf, Lm and
// Sk, plus the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
