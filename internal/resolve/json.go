package resolve

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// This file reads and writes JSON with ECMAScript semantics for the ordered
// content records. encoding/json's Unmarshal is not used on them because it
// matches object keys case-insensitively ("Kind" would pass for "kind") and
// cannot tell an absent member from null; the token reader below compares
// keys exactly, keeps members in order, and lets a later duplicate key win,
// as JSON.parse does.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// jsonValue is one parsed JSON value.
type jsonValue struct {
	kind jsonKind
	b    bool
	num  float64
	str  string
	arr  []jsonValue
	obj  []jsonMember
}

type jsonMember struct {
	key string
	val jsonValue
}

// member returns the value of key, the last one when the key repeats.
func (v *jsonValue) member(key string) (*jsonValue, bool) {
	if v == nil || v.kind != jsonObject {
		return nil, false
	}
	for i := len(v.obj) - 1; i >= 0; i-- {
		if v.obj[i].key == key {
			return &v.obj[i].val, true
		}
	}
	return nil, false
}

// str returns the member key when it is a string.
func (v *jsonValue) strMember(key string) (string, bool) {
	m, ok := v.member(key)
	if !ok || m.kind != jsonString {
		return "", false
	}
	return m.str, true
}

var errJSON = errors.New("resolve: invalid JSON")

// parseJSON parses data as exactly one JSON text. Nesting is bounded by
// protocol.MaxJSONDepth, like the protocol package's own parser.
func parseJSON(data []byte) (jsonValue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, 0)
	if err != nil {
		return jsonValue{}, errJSON
	}
	if _, err := dec.Token(); err != io.EOF {
		return jsonValue{}, errJSON
	}
	return v, nil
}

func readValue(dec *json.Decoder, depth int) (jsonValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return jsonValue{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jsonValue{kind: jsonNull}, nil
	case bool:
		return jsonValue{kind: jsonBool, b: t}, nil
	case string:
		return jsonValue{kind: jsonString, str: t}, nil
	case json.Number:
		// Out-of-range numbers become ±Inf, as in JSON.parse; callers that
		// need finite numbers check for them.
		f, _ := strconv.ParseFloat(string(t), 64)
		return jsonValue{kind: jsonNumber, num: f}, nil
	case json.Delim:
		if depth >= protocol.MaxJSONDepth {
			return jsonValue{}, errJSON
		}
		if t == '[' {
			v := jsonValue{kind: jsonArray, arr: []jsonValue{}}
			for dec.More() {
				e, err := readValue(dec, depth+1)
				if err != nil {
					return jsonValue{}, err
				}
				v.arr = append(v.arr, e)
			}
			_, err := dec.Token() // ]
			return v, err
		}
		if t == '{' {
			v := jsonValue{kind: jsonObject}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return jsonValue{}, err
				}
				key, ok := k.(string)
				if !ok {
					return jsonValue{}, errJSON
				}
				e, err := readValue(dec, depth+1)
				if err != nil {
					return jsonValue{}, err
				}
				v.obj = append(v.obj, jsonMember{key: key, val: e})
			}
			_, err := dec.Token() // }
			return v, err
		}
	}
	return jsonValue{}, errJSON
}

// Bounds that props of a component frame must respect (the AgentsKit
// isBoundedJsonValue check): they keep a model-authored frame from costing
// a renderer unbounded work.
const (
	maxPropsNodes     = 1000
	maxPropsDepth     = 20
	maxPropsStringLen = 16_384
	maxPropsItems     = 1000
	maxPropsKeyLen    = 256
)

// boundedProps reports whether v is small enough to be frame props.
func boundedProps(v *jsonValue) bool {
	nodes := 0
	var visit func(v *jsonValue, depth int) bool
	visit = func(v *jsonValue, depth int) bool {
		nodes++
		if nodes > maxPropsNodes || depth > maxPropsDepth {
			return false
		}
		switch v.kind {
		case jsonString:
			return protocol.UTF16Len(v.str) <= maxPropsStringLen
		case jsonNumber:
			return !math.IsInf(v.num, 0) && !math.IsNaN(v.num)
		case jsonArray:
			if len(v.arr) > maxPropsItems {
				return false
			}
			for i := range v.arr {
				if !visit(&v.arr[i], depth+1) {
					return false
				}
			}
		case jsonObject:
			if len(v.obj) > maxPropsItems {
				return false
			}
			for i := range v.obj {
				if protocol.UTF16Len(v.obj[i].key) > maxPropsKeyLen || !visit(&v.obj[i].val, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return visit(v, 0)
}

// appendJSONString appends s as ECMAScript JSON.stringify writes it: quote
// and backslash escaped, \b \f \n \r \t short, other C0 controls as \u00xx
// in lowercase hex, everything else raw (including <, >, &, U+2028 and
// U+2029, which encoding/json would escape). Invalid UTF-8, which no
// ECMAScript string can hold, is written as U+FFFD so the output stays
// valid.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}
