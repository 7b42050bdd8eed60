package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// scanCodes are the codes a bounded scan reports: one for a bound that was
// hit, one for text that is not a single well-formed JSON value.
type scanCodes struct{ tooLarge, malformed Code }

var (
	inputCodes  = scanCodes{CodeInputTooLarge, CodeInputInvalid}
	outputCodes = scanCodes{CodeOutputTooLarge, CodeOutputMalformed}
)

// scan checks b token by token against l before any tree is built: size,
// UTF-8, nesting depth, string sizes, container sizes, duplicate member
// names and trailing data. Duplicates are refused because the validator
// and the decoder could otherwise disagree about which member counts.
// The work and memory are linear in len(b), which l.MaxBytes bounds.
func scan(b []byte, l JSONLimits, c scanCodes) *Error {
	tooLarge := func(what string, limit int) *Error {
		e := newError(c.tooLarge, what+" is over its limit")
		e.Limit = limit
		return e
	}
	malformed := func(what string) *Error { return newError(c.malformed, what) }
	if len(b) > l.MaxBytes {
		return tooLarge("the JSON document", l.MaxBytes)
	}
	if !utf8.Valid(b) {
		return malformed("the JSON document is not valid UTF-8")
	}
	type frame struct {
		object bool
		items  int
		keys   map[string]struct{}
		key    bool // an object expects a member name next
	}
	var stack []frame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	started := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if !started || len(stack) > 0 {
				return malformed("the JSON document is incomplete")
			}
			return nil
		}
		if err != nil {
			return malformed("the text is not well-formed JSON")
		}
		if started && len(stack) == 0 {
			return malformed("the JSON document has trailing data")
		}
		started = true
		// A value (or a member name) inside a container.
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			if d, ok := tok.(json.Delim); !ok || (d != '}' && d != ']') {
				if top.object && top.key {
					name, _ := tok.(string)
					if len(name) > l.MaxStringBytes {
						return tooLarge("a member name", l.MaxStringBytes)
					}
					if _, dup := top.keys[name]; dup {
						return malformed("the JSON document repeats a member name")
					}
					top.keys[name] = struct{}{}
					if top.items++; top.items > l.MaxItems {
						return tooLarge("an object's member count", l.MaxItems)
					}
					top.key = false
					continue
				}
				if top.object {
					top.key = true
				} else if top.items++; top.items > l.MaxItems {
					return tooLarge("an array's length", l.MaxItems)
				}
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack)+1 > l.MaxDepth {
					return tooLarge("the nesting depth", l.MaxDepth)
				}
				f := frame{object: t == '{', key: t == '{'}
				if f.object {
					f.keys = map[string]struct{}{}
				}
				stack = append(stack, f)
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if len(t) > l.MaxStringBytes {
				return tooLarge("a string", l.MaxStringBytes)
			}
		}
	}
}
