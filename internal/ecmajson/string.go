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
func AppendString(b []byte, s string) []byte { return appendString(b, s, false) }

// AppendGoString appends s as encoding/json writes it with
// SetEscapeHTML(false), for documents whose bytes must equal what
// encoding/json would write (the evidence wire form): the same as
// AppendString except that U+2028 and U+2029 are escaped and each invalid
// UTF-8 byte is written as the escape \ufffd.
func AppendGoString(b []byte, s string) []byte { return appendString(b, s, true) }

// appendString is both spellings: they differ only outside ASCII.
func appendString(b []byte, s string, goJSON bool) []byte {
	const hex = "0123456789abcdef"
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
			switch {
			case r == utf8.RuneError && size == 1:
				b = append(b, s[start:i]...)
				if goJSON {
					b = append(b, `\ufffd`...)
				} else {
					b = append(b, "\uFFFD"...)
				}
				start = i + 1
			case goJSON && (r == '\u2028' || r == '\u2029'):
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
				start = i + size
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
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
