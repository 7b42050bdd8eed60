package ecmajson

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects Parse accepts.
// ECMAScript JSON.parse has no such bound; it is a deliberate difference
// that keeps members a schema strips anyway from costing unbounded
// recursion.
const MaxDepth = 128

// Parse parses data as one JSON text, as JSON.parse does (see the package
// doc for the two differences). It reports only whether the text is valid,
// so callers turn a failure into their own payload-free diagnostic. The
// returned strings never alias data.
func Parse(data []byte) (Value, bool) {
	var p Parser
	return p.Parse(data)
}

// ParseString is Parse for text already held in a string; the returned
// strings may alias s, which saves a copy.
func ParseString(s string) (Value, bool) {
	var p Parser
	return p.ParseString(s)
}

// Parser parses JSON texts one after another, reusing the scratch space it
// collects container children in, so a caller that parses many small texts,
// such as the lines of an NDJSON stream, does not allocate it for each. The
// zero value is ready to use. A Parser is not safe for concurrent use.
type Parser struct {
	src string
	pos int
	// stack collects the children of the containers being parsed, so each
	// container is allocated once, at its exact size.
	stack []Value
	// used is the most of stack this parse has filled, cleared afterwards
	// so the scratch space does not keep the last text's strings alive.
	used int
}

// Parse is the package-level Parse, reusing p's scratch space.
func (p *Parser) Parse(data []byte) (Value, bool) {
	// Strings share the parsed text's memory; copying data here keeps them
	// valid when the caller reuses its buffer.
	return p.ParseString(string(data))
}

// ParseString is the package-level ParseString, reusing p's scratch space.
func (p *Parser) ParseString(s string) (Value, bool) {
	p.src, p.pos = s, 0
	defer p.reset()
	p.skipSpace()
	v, ok := p.value(0)
	if !ok {
		return Value{}, false
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return Value{}, false
	}
	return v, true
}

func (p *Parser) reset() {
	clear(p.stack[:p.used])
	p.stack, p.src, p.used = p.stack[:0], "", 0
}

// drop ends a container: it forgets the children collected since base,
// noting how much of the scratch space they filled.
func (p *Parser) drop(base int) {
	p.used = max(p.used, len(p.stack))
	p.stack = p.stack[:base]
}

func (p *Parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *Parser) value(depth int) (Value, bool) {
	if p.pos >= len(p.src) {
		return Value{}, false
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		if depth >= MaxDepth {
			return Value{}, false
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= MaxDepth {
			return Value{}, false
		}
		return p.array(depth + 1)
	case c == '"':
		s, ok := p.string()
		return Value{Kind: String, Str: s}, ok
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return Value{Kind: Bool, Num: 1}, p.literal("true")
	case c == 'f':
		return Value{Kind: Bool}, p.literal("false")
	case c == 'n':
		return Value{Kind: Null}, p.literal("null")
	}
	return Value{}, false
}

func (p *Parser) literal(word string) bool {
	if len(p.src)-p.pos < len(word) || p.src[p.pos:p.pos+len(word)] != word {
		return false
	}
	p.pos += len(word)
	return true
}

func (p *Parser) object(depth int) (Value, bool) {
	p.pos++ // {
	base := len(p.stack)
	defer p.drop(base)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return Value{Kind: Object}, true
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return Value{}, false
		}
		key, ok := p.string()
		if !ok {
			return Value{}, false
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return Value{}, false
		}
		p.pos++
		p.skipSpace()
		val, ok := p.value(depth)
		if !ok {
			return Value{}, false
		}
		p.stack = append(p.stack, Value{Kind: String, Str: key}, val)
		end, ok := p.next('}')
		if !ok {
			return Value{}, false
		}
		if end {
			return Value{Kind: Object, Items: p.take(base)}, true
		}
	}
}

func (p *Parser) array(depth int) (Value, bool) {
	p.pos++ // [
	base := len(p.stack)
	defer p.drop(base)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return Value{Kind: Array, Items: []Value{}}, true
	}
	for {
		p.skipSpace()
		val, ok := p.value(depth)
		if !ok {
			return Value{}, false
		}
		p.stack = append(p.stack, val)
		end, ok := p.next(']')
		if !ok {
			return Value{}, false
		}
		if end {
			return Value{Kind: Array, Items: p.take(base)}, true
		}
	}
}

// next consumes what follows a container's child: a comma, or the closing
// bracket, in which case end is true. ok is false for anything else.
func (p *Parser) next(closing byte) (end, ok bool) {
	p.skipSpace()
	if p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ',':
			p.pos++
			return false, true
		case closing:
			p.pos++
			return true, true
		}
	}
	return false, false
}

// take copies the children collected since base into their own slice.
func (p *Parser) take(base int) []Value {
	items := make([]Value, len(p.stack)-base)
	copy(items, p.stack[base:])
	return items
}

func (p *Parser) number() (Value, bool) {
	start := p.pos
	s := p.src
	i := p.pos
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return Value{}, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return Value{}, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return Value{}, false
		}
	}
	p.pos = i
	// ParseFloat rounds like ECMAScript's Number parsing; out-of-range
	// values come back as ±Inf or 0, as in JSON.parse.
	f, _ := strconv.ParseFloat(s[start:i], 64)
	return Value{Kind: Number, Num: f}, true
}

// string parses a JSON string starting at the opening quote. Strings with no
// escapes and valid UTF-8 are returned as slices of the input.
func (p *Parser) string() (string, bool) {
	s := p.src
	start := p.pos + 1
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return s[start:i], true
		case c == '\\':
			return p.slowString(start, i)
		case c < 0x20:
			return "", false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return p.slowString(start, i)
			}
			i += size
		}
	}
	return "", false
}

// slowString finishes a string that needs rewriting: escapes, or invalid
// UTF-8, each byte of which becomes U+FFFD.
func (p *Parser) slowString(start, i int) (string, bool) {
	s := p.src
	b := make([]byte, 0, i-start+16)
	b = append(b, s[start:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(b), true
		case c < 0x20:
			return "", false
		case c == '\\':
			i++
			if i >= len(s) {
				return "", false
			}
			switch s[i] {
			case '"', '\\', '/':
				b = append(b, s[i])
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(s, i+1)
				if !ok {
					return "", false
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if r < 0xDC00 && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						if lo, ok := hex4(s, i+3); ok && lo >= 0xDC00 && lo <= 0xDFFF {
							r2 = lo
						}
					}
					if r2 >= 0 {
						r = utf16.DecodeRune(r, r2)
						i += 6
					} else {
						// A lone surrogate cannot live in a Go string.
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", false
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r) // invalid bytes become U+FFFD
			i += size
		}
	}
	return "", false
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
