package protocol

import "strconv"

// AppendJSONString appends s as a JSON string escaped exactly as ECMAScript
// JSON.stringify escapes it: quote and backslash escaped, \b \f \n \r \t in
// short form, other C0 controls as \u00xx with lowercase hex, and everything
// else raw, including /, <, >, &, U+007F, U+2028 and U+2029. encoding/json
// escapes more, which would change the bytes and therefore the hash.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
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
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonWriter builds one JSON object or array in a fixed key order.
type jsonWriter struct {
	b     []byte
	comma bool
}

func (w *jsonWriter) open(c byte) { w.sep(); w.b = append(w.b, c); w.comma = false }

func (w *jsonWriter) close(c byte) { w.b = append(w.b, c); w.comma = true }

func (w *jsonWriter) sep() {
	if w.comma {
		w.b = append(w.b, ',')
	}
	w.comma = true
}

// key writes a member name and its colon. Keys are ASCII literals.
func (w *jsonWriter) key(k string) {
	w.sep()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
	w.comma = false
}

func (w *jsonWriter) str(s string) { w.sep(); w.b = AppendJSONString(w.b, s) }

func (w *jsonWriter) int(n int64) { w.sep(); w.b = strconv.AppendInt(w.b, n, 10) }

func (w *jsonWriter) bool(v bool) { w.sep(); w.b = strconv.AppendBool(w.b, v) }

func (w *jsonWriter) strs(list []string) {
	w.open('[')
	for _, s := range list {
		w.str(s)
	}
	w.close(']')
}

func (w *jsonWriter) member(k, v string) { w.key(k); w.str(v) }
