package generate

import (
	"unicode/utf16"
	"unicode/utf8"
)

// answerParser reads a model's Ask answer (contract.AskOutput JSON) as it
// streams in, one provider text delta at a time. It follows only the
// shape a strict structured-output mode writes for the contract:
//
//	{"cites":["id",...],"answer":"text"}
//
// with any JSON whitespace between tokens. When the cites array closes it
// hands the ids to onCites, before a byte of the answer is read; after
// that it decodes the answer string (every JSON escape, \uXXXX surrogate
// pairs included, whatever chunk boundaries fall inside them) and hands
// each Feed's decoded text to onText. Leading whitespace of the answer is
// held until a non-space character arrives, so a blank answer emits
// nothing.
//
// Anything else (members in another order, an unknown member, a syntax
// error) makes the parser stand aside: it stops reading and emits nothing
// more, and the caller falls back to the complete, validated output. The
// parser never decides that an answer is valid; the full output schema,
// checked on the complete text, does.
type answerParser struct {
	onCites func([]string) error
	onText  func(string) error

	state   pstate
	members int    // member names read in the root object
	name    []byte // the member name being read
	cite    []byte // the cite being read
	cites   []string
	str     jsonString
	out     []byte // answer text decoded during this Feed
	held    []byte // leading whitespace of the answer, not yet emitted
	started bool   // a non-space answer character was emitted
	checked bool   // onCites accepted the cites
}

type pstate uint8

const (
	pBegin      pstate = iota // before '{'
	pName                     // expecting a member name's opening quote
	pNameStr                  // inside a member name
	pColon                    // expecting ':'
	pCitesStart               // expecting '['
	pCiteOrEnd                // expecting a cite or ']' (empty array)
	pCiteStr                  // inside a cite
	pCiteNext                 // expecting ',' or ']'
	pCite                     // expecting a cite after ','
	pComma                    // expecting ',' after the cites
	pAnswerOpen               // expecting the answer's opening quote
	pAnswerStr                // inside the answer
	pDone                     // the answer closed: the rest is the schema's business
	pAside                    // not the streamable shape: the parser stands aside
)

// maxNameBytes bounds a member name: longer ones are neither of the two.
const maxNameBytes = 16

// Checked reports whether the cites came first and onCites accepted them.
func (p *answerParser) Checked() bool { return p.checked }

// Cites returns the cites onCites was given (nil before).
func (p *answerParser) Cites() []string { return p.cites }

// Feed reads one chunk of the model's output. It returns the first error
// of onCites or onText; after one, the parser reads nothing more.
func (p *answerParser) Feed(chunk string) error {
	p.out = p.out[:0]
	for i := 0; i < len(chunk) && p.state < pDone; i++ {
		c := chunk[i]
		switch p.state {
		case pAnswerStr:
			// The hot path: copy a run of plain bytes at once.
			if !p.str.busy() {
				j := i
				for j < len(chunk) && chunk[j] != '"' && chunk[j] != '\\' && chunk[j] >= 0x20 {
					j++
				}
				if j > i {
					p.out = append(p.out, chunk[i:j]...)
					i = j - 1
					continue
				}
			}
			var closed, ok bool
			p.out, closed, ok = p.str.step(c, p.out)
			switch {
			case !ok:
				p.state = pAside
			case closed:
				p.state = pDone
			}
		case pNameStr, pCiteStr:
			dst := &p.name
			if p.state == pCiteStr {
				dst = &p.cite
			}
			var closed, ok bool
			*dst, closed, ok = p.str.step(c, *dst)
			switch {
			case !ok || len(p.name) > maxNameBytes:
				p.state = pAside
			case closed && p.state == pNameStr:
				p.state = pColon
			case closed:
				p.cites = append(p.cites, string(p.cite))
				p.cite = p.cite[:0]
				p.state = pCiteNext
			}
		default:
			if isSpace(c) {
				continue
			}
			if err := p.token(c); err != nil {
				p.state = pAside
				return err
			}
		}
	}
	return p.flush()
}

// token handles one structural byte outside strings.
func (p *answerParser) token(c byte) error {
	next := pAside
	switch {
	case p.state == pBegin && c == '{':
		next = pName
	case p.state == pName && c == '"':
		p.name, p.str = p.name[:0], jsonString{}
		next = pNameStr
	case p.state == pColon && c == ':':
		p.members++
		switch {
		case p.members == 1 && string(p.name) == "cites":
			next = pCitesStart
		case p.members == 2 && string(p.name) == "answer":
			next = pAnswerOpen
		}
	case p.state == pCitesStart && c == '[':
		p.cites = []string{}
		next = pCiteOrEnd
	case (p.state == pCiteOrEnd || p.state == pCite) && c == '"':
		p.cite, p.str = p.cite[:0], jsonString{}
		next = pCiteStr
	case p.state == pCiteNext && c == ',':
		next = pCite
	case (p.state == pCiteOrEnd || p.state == pCiteNext) && c == ']':
		p.state = pComma
		if err := p.onCites(p.cites); err != nil {
			return err
		}
		p.checked = true
		return nil
	case p.state == pComma && c == ',':
		next = pName
	case p.state == pAnswerOpen && c == '"':
		p.str = jsonString{}
		next = pAnswerStr
	}
	p.state = next
	return nil
}

// flush hands this Feed's answer text to onText, holding leading
// whitespace back until the answer has something else.
func (p *answerParser) flush() error {
	if len(p.out) == 0 {
		return nil
	}
	text := p.out
	if !p.started {
		p.held = append(p.held, p.out...)
		if blank(p.held) {
			return nil
		}
		p.started, text = true, p.held
	}
	if err := p.onText(string(text)); err != nil {
		p.state = pAside
		return err
	}
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// blank reports whether b is only Unicode white space (strings.TrimSpace's
// rule, which the unary path uses for an empty answer).
func blank(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if !isUnicodeSpace(r) {
			return false
		}
		b = b[n:]
	}
	return true
}

func isUnicodeSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

// jsonString decodes the inside of a JSON string one byte at a time, the
// way encoding/json does: the two-character escapes, \uXXXX, a surrogate
// pair written as two \u escapes joined into one character, and any other
// surrogate (a lone high or low half) turned into U+FFFD. Its state
// survives between calls, so an escape may be split anywhere.
type jsonString struct {
	esc   bool // after a backslash
	nhex  int  // hex digits still to read for \u (0: not in one)
	u     rune // the \u value being read
	high  rune // a surrogate waiting for its low half (0: none)
	after bool // the backslash after a waiting surrogate was read
}

// busy reports whether an escape is in progress.
func (s *jsonString) busy() bool { return s.esc || s.nhex > 0 || s.high != 0 }

// step reads byte c, appending decoded text to dst. closed is true when c
// is the closing quote; ok is false when c cannot appear there in JSON.
func (s *jsonString) step(c byte, dst []byte) (_ []byte, closed, ok bool) {
	switch {
	case s.nhex > 0:
		v, isHex := unhex(c)
		if !isHex {
			return dst, false, false
		}
		s.u = s.u<<4 | v
		if s.nhex--; s.nhex > 0 {
			return dst, false, true
		}
		return s.escaped(s.u, dst), false, true
	case s.esc:
		s.esc = false
		if c == 'u' {
			// A waiting surrogate (after) is paired or replaced once
			// this escape's digits are read.
			s.after = false
			s.nhex, s.u = 4, 0
			return dst, false, true
		}
		if s.after { // the waiting surrogate is followed by another escape
			dst = utf8.AppendRune(dst, utf8.RuneError)
			s.high, s.after = 0, false
		}
		r, known := shortEscape(c)
		if !known {
			return dst, false, false
		}
		return append(dst, r), false, true
	case s.high != 0:
		if c == '\\' {
			s.esc, s.after = true, true
			return dst, false, true
		}
		dst = utf8.AppendRune(dst, utf8.RuneError)
		s.high = 0
	}
	switch {
	case c == '"':
		return dst, true, true
	case c == '\\':
		s.esc = true
		return dst, false, true
	case c < 0x20:
		return dst, false, false
	}
	return append(dst, c), false, true
}

// escaped appends the character of a complete \u escape, pairing
// surrogates.
func (s *jsonString) escaped(r rune, dst []byte) []byte {
	if s.high != 0 {
		high := s.high
		s.high = 0
		if dec := utf16.DecodeRune(high, r); dec != utf8.RuneError {
			return utf8.AppendRune(dst, dec)
		}
		dst = utf8.AppendRune(dst, utf8.RuneError)
		// r stands on its own, and may itself wait for a low half.
	}
	if utf16.IsSurrogate(r) {
		s.high = r
		return dst
	}
	return utf8.AppendRune(dst, r)
}

func shortEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

func unhex(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10), true
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}
