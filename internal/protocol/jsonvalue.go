package protocol

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a small JSON parser with JSON.parse semantics, because
// encoding/json differs from ECMAScript in ways that change what a payload
// means: it matches object keys case-insensitively, it cannot tell null from
// an absent member, and it has no depth bound. The parser keeps members in
// order, lets a later duplicate key win (as JSON.parse does), turns lone
// surrogate escapes and invalid UTF-8 into U+FFFD, and bounds nesting.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// jsonValue is one parsed JSON value, kept small because a maximum
// artifact has tens of thousands of them. Strings share the parsed input's
// memory when they need no unescaping. An array's elements are in items; an
// object's members are in items as key, value pairs, in document order.
type jsonValue struct {
	kind  jsonKind
	num   float64 // a number, or 1 for true
	str   string
	items []jsonValue
}

// member returns the value of key, the last one when the key repeats.
func (v *jsonValue) member(key string) (*jsonValue, bool) {
	if v.kind != jsonObject {
		return nil, false
	}
	for i := len(v.items) - 2; i >= 0; i -= 2 {
		if v.items[i].str == key {
			return &v.items[i+1], true
		}
	}
	return nil, false
}

func (v *jsonValue) isTrue() bool { return v.kind == jsonBool && v.num == 1 }

// parseJSON parses data as one JSON text. It reports only whether the text
// is valid; callers turn a failure into their own payload-free diagnostic.
func parseJSON(data []byte) (jsonValue, bool) {
	p := jsonParser{src: string(data)}
	p.skipSpace()
	v, ok := p.value(0)
	if !ok {
		return jsonValue{}, false
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return jsonValue{}, false
	}
	return v, true
}

type jsonParser struct {
	src string
	pos int
	// stack collects the children of the containers being parsed, so each
	// container is allocated once at its exact size.
	stack []jsonValue
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (jsonValue, bool) {
	if p.pos >= len(p.src) {
		return jsonValue{}, false
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		if depth >= MaxJSONDepth {
			return jsonValue{}, false
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= MaxJSONDepth {
			return jsonValue{}, false
		}
		return p.array(depth + 1)
	case c == '"':
		s, ok := p.string()
		return jsonValue{kind: jsonString, str: s}, ok
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return jsonValue{kind: jsonBool, num: 1}, p.literal("true")
	case c == 'f':
		return jsonValue{kind: jsonBool}, p.literal("false")
	case c == 'n':
		return jsonValue{kind: jsonNull}, p.literal("null")
	}
	return jsonValue{}, false
}

func (p *jsonParser) literal(word string) bool {
	if len(p.src)-p.pos < len(word) || p.src[p.pos:p.pos+len(word)] != word {
		return false
	}
	p.pos += len(word)
	return true
}

func (p *jsonParser) object(depth int) (jsonValue, bool) {
	p.pos++ // {
	base := len(p.stack)
	defer func() { p.stack = p.stack[:base] }()
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return jsonValue{kind: jsonObject}, true
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return jsonValue{}, false
		}
		key, ok := p.string()
		if !ok {
			return jsonValue{}, false
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return jsonValue{}, false
		}
		p.pos++
		p.skipSpace()
		val, ok := p.value(depth)
		if !ok {
			return jsonValue{}, false
		}
		p.stack = append(p.stack, jsonValue{kind: jsonString, str: key}, val)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return jsonValue{}, false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return jsonValue{kind: jsonObject, items: p.take(base)}, true
		default:
			return jsonValue{}, false
		}
	}
}

func (p *jsonParser) array(depth int) (jsonValue, bool) {
	p.pos++ // [
	base := len(p.stack)
	defer func() { p.stack = p.stack[:base] }()
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return jsonValue{kind: jsonArray, items: []jsonValue{}}, true
	}
	for {
		p.skipSpace()
		val, ok := p.value(depth)
		if !ok {
			return jsonValue{}, false
		}
		p.stack = append(p.stack, val)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return jsonValue{}, false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return jsonValue{kind: jsonArray, items: p.take(base)}, true
		default:
			return jsonValue{}, false
		}
	}
}

// take copies the children collected since base into their own slice.
func (p *jsonParser) take(base int) []jsonValue {
	items := make([]jsonValue, len(p.stack)-base)
	copy(items, p.stack[base:])
	return items
}

func (p *jsonParser) number() (jsonValue, bool) {
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
		return jsonValue{}, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return jsonValue{}, false
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
			return jsonValue{}, false
		}
	}
	p.pos = i
	// ParseFloat rounds like ECMAScript's Number parsing; out-of-range
	// values come back as ±Inf or 0, as in JSON.parse.
	f, _ := strconv.ParseFloat(s[start:i], 64)
	return jsonValue{kind: jsonNumber, num: f}, true
}

// string parses a JSON string starting at the opening quote. Strings with no
// escapes and valid UTF-8 are returned as slices of the input.
func (p *jsonParser) string() (string, bool) {
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

func (p *jsonParser) slowString(start, i int) (string, bool) {
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
