package protocol

import "unicode/utf8"

// UTF16Len returns the length of s in UTF-16 code units, the unit in which
// ECMAScript measures String.prototype.length and zod measures min/max.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// TruncateUTF16 returns the longest prefix of s that is at most max UTF-16
// units, like String.prototype.slice(0, max). Where the cut would split a
// surrogate pair, ECMAScript keeps a lone high surrogate; a Go string cannot
// carry one, so the whole pair is dropped instead. Only a string whose
// 512th unit starts an astral character sees the difference.
func TruncateUTF16(s string, max int) string {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if n+1 > max {
				return s[:i]
			}
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if n+w > max {
			return s[:i]
		}
		n += w
		i += size
	}
	return s
}

// TruncateRunes returns s cut to at most n code points (JSON Schema's
// maxLength counts code points, not UTF-16 units).
func TruncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
