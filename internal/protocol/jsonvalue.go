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

// jsonValue is one parsed JSON value. Strings share the parsed input's memory
// when they need no unescaping.
type jsonValue struct {
	kind    jsonKind
	boolean bool
	num     float64
	str     string
	arr     []jsonValue
	obj     []jsonMember
}

type jsonMember struct {
	key string
	val jsonValue
}

// member returns the value of key, the last one when the key repeats.
func (v *jsonValue) member(key string) (*jsonValue, bool) {
	for i := len(v.obj) - 1; i >= 0; i-- {
		if v.obj[i].key == key {
			return &v.obj[i].val, true
		}
	}
	return nil, false
}

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
		return jsonValue{kind: jsonBool, boolean: true}, p.literal("true")
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
	v := jsonValue{kind: jsonObject}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return v, true
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return v, false
		}
		key, ok := p.string()
		if !ok {
			return v, false
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return v, false
		}
		p.pos++
		p.skipSpace()
		val, ok := p.value(depth)
		if !ok {
			return v, false
		}
		v.obj = append(v.obj, jsonMember{key: key, val: val})
		p.skipSpace()
		if p.pos >= len(p.src) {
			return v, false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, true
		default:
			return v, false
		}
	}
}

func (p *jsonParser) array(depth int) (jsonValue, bool) {
	p.pos++ // [
	v := jsonValue{kind: jsonArray}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		v.arr = []jsonValue{}
		return v, true
	}
	for {
		p.skipSpace()
		val, ok := p.value(depth)
		if !ok {
			return v, false
		}
		v.arr = append(v.arr, val)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return v, false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, true
		default:
			return v, false
		}
	}
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
