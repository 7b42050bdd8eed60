package ecmajson

import "unicode/utf8"

// plain marks the bytes copied as they are without a closer look:
// printable ASCII but quote and backslash. One table lookup per byte keeps
// the common, all-ASCII string on the fast path.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string escaped exactly as ECMAScript
// JSON.stringify escapes it: quote and backslash escaped, \b \f \n \r \t in
// short form, other C0 controls as \u00xx with lowercase hex, and everything
// else raw, including /, <, >, &, U+007F, U+2028 and U+2029. encoding/json
// escapes more, which would change the bytes and therefore any hash of
// them. Each byte of invalid UTF-8, which no ECMAScript string can hold, is
// written as U+FFFD, as Parse reads it, so the output is always valid JSON.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, "\uFFFD"...)
				start = i + 1
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
