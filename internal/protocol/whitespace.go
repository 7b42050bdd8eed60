package protocol

import (
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether r is in the ECMAScript WhiteSpace or
// LineTerminator sets, which String.prototype.trim and the \s class use.
// It differs from unicode.IsSpace: U+FEFF is whitespace here, U+0085 (NEL)
// is not, and neither are U+180E or U+200B.
func IsSpace(r rune) bool {
	switch {
	case r <= 0x20:
		return r == 0x20 || (r >= 0x09 && r <= 0x0D)
	case r < 0xA0:
		return false
	}
	switch r {
	case 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// Trim removes leading and trailing ECMAScript whitespace, like
// String.prototype.trim (and zod's .trim()). strings.TrimSpace differs.
func Trim(s string) string {
	start := 0
	for start < len(s) {
		c := s[start]
		if c < utf8.RuneSelf {
			if !IsSpace(rune(c)) {
				break
			}
			start++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[start:])
		if !IsSpace(r) {
			break
		}
		start += size
	}
	end := len(s)
	for end > start {
		c := s[end-1]
		if c < utf8.RuneSelf {
			if !IsSpace(rune(c)) {
				break
			}
			end--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(s[start:end])
		if !IsSpace(r) {
			break
		}
		end -= size
	}
	return s[start:end]
}

// collapseSpace replaces every run of ECMAScript whitespace with one U+0020,
// like s.replace(/\s+/gu, ' '). It returns s itself when nothing changes.
func collapseSpace(s string) string {
	prev := false
	clean := true
	for _, r := range s {
		sp := IsSpace(r)
		if sp && (r != ' ' || prev) {
			clean = false
			break
		}
		prev = sp
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev = false
	for _, r := range s {
		if IsSpace(r) {
			if !prev {
				b.WriteByte(' ')
			}
			prev = true
			continue
		}
		prev = false
		b.WriteRune(r)
	}
	return b.String()
}
