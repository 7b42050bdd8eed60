package evidence

import (
	"strconv"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/gowebpki/jcs"
)

// A package is written by hand, twice over: as its wire JSON (what
// encoding/json with HTML escaping off writes, field by field) and as
// its RFC 8785 (JCS) canonical form for the identities. Both used to go
// through encoding/json, and the canonical form through jcs.Transform
// as well, several times per search; the writers below produce the same
// bytes directly. Every value in a package is a string, an int or an
// array of strings, so two string spellings and two int spellings are all
// it takes. differential_test.go checks both against encoding/json and
// jcs on adversarial strings and ints.

// appendWireString appends s as encoding/json writes it with
// SetEscapeHTML(false): quote, backslash and C0 controls escaped (\b \f
// \n \r \t short, the rest \u00xx), U+2028 and U+2029 escaped, each
// invalid UTF-8 byte written as \ufffd, all else raw.
func appendWireString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
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
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJCSString appends s as RFC 8785 writes it: the ECMAScript
// JSON.stringify spelling, which ecmajson writes for every hash in the
// project (U+2028 and U+2029 raw; an invalid UTF-8 byte a raw U+FFFD, which
// is what json.Marshal's \ufffd became after jcs.Transform).
func appendJCSString(b []byte, s string) []byte { return ecmajson.AppendString(b, s) }

// plain marks the bytes appendWireString copies as they are: printable
// ASCII but quote and backslash. Every other byte needs a look.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendStrings appends list as a JSON array of strings, each spelled by
// appendOne, or null for a nil slice as encoding/json does.
func appendStrings(b []byte, list []string, appendOne func([]byte, string) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, s)
	}
	return append(b, ']')
}

// maxExactInt bounds the ints a float64 holds exactly; within it JCS
// writes an int as its decimal digits.
const maxExactInt = 1 << 53

// appendJCSInt appends n as JCS writes the number json.Marshal wrote for
// it: a JSON number is an IEEE double, so beyond ±2^53 it is rounded and
// written the ECMAScript way. Searches never get there (the ints are
// small budgets and lengths); Check on an arbitrary package may, and
// then jcs itself spells it.
func appendJCSInt(b []byte, n int) []byte {
	if n >= -maxExactInt && n <= maxExactInt {
		return strconv.AppendInt(b, int64(n), 10)
	}
	out, err := jcs.Transform(strconv.AppendInt(nil, int64(n), 10))
	if err != nil {
		panic("evidence: canonicalizing an int: " + err.Error()) // a decimal int is always a JSON number
	}
	return append(b, out...)
}

// intLen is the number of bytes strconv writes for n.
func intLen(n int) int {
	var tmp [24]byte
	return len(strconv.AppendInt(tmp[:0], int64(n), 10))
}
