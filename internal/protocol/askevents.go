package protocol

import (
	"bytes"
	"errors"

	"github.com/askplane/askplane/internal/ecmajson"
)

// Limits of the Ask NDJSON event stream. Lengths count UTF-16 code units;
// sizes count UTF-8 bytes.
const (
	// MaxAskEventBytes bounds one trimmed line, and the partial line a
	// decoder keeps while it waits for the rest.
	MaxAskEventBytes = 1_048_576
	// MaxAskEventLines is how many lines one DecodeAskEvents call looks at.
	MaxAskEventLines = 4096

	MaxAskDeltaLen     = 1_048_576
	MaxAskToolIDLen    = 256
	MaxAskToolNameLen  = 128
	MaxAskArgKeyLen    = 128
	MaxAskModelLen     = 256
	MaxAskErrorLen     = 4096
	MaxAskErrorCodeLen = 128
)

// Ask event types, the value of each event's "type" member.
const (
	AskEventText  = "text"
	AskEventTool  = "tool"
	AskEventDone  = "done"
	AskEventError = "error"
)

// AskEvent is one event of an Ask NDJSON response: an AskTextEvent,
// AskToolEvent, AskDoneEvent or AskErrorEvent. Decoders return the variant
// values (not pointers), so callers switch on the dynamic type:
//
//	switch ev := ev.(type) {
//	case protocol.AskTextEvent:
//		out.WriteString(ev.Delta)
//	case protocol.AskErrorEvent:
//		return ev.Message
//	}
//
// Every variant is strict on the wire: a line with a member the variant
// does not name is inert. Encoding writes the members in schema order, type
// first, on one line, and does not validate lengths: sending an event a
// peer would reject is the caller's bug.
type AskEvent interface {
	// Type is the event's "type" member.
	Type() string
	// AppendJSON appends the event as one JSON line without its newline.
	AppendJSON(dst []byte) []byte
	// MarshalJSON returns AppendJSON(nil).
	MarshalJSON() ([]byte, error)
	askEvent()
}

// AskTextEvent carries the next piece of the answer text.
type AskTextEvent struct {
	Delta string // at most MaxAskDeltaLen units; may be empty
}

// AskToolEvent is a tool call, such as the server's closing "cite" event
// with {"sources":[{"id","title","path"}]}.
type AskToolEvent struct {
	ID   string // at most MaxAskToolIDLen units
	Name string // at most MaxAskToolNameLen units
	// Args is the JSON object text of the arguments. Decoded events hold it
	// in canonical form, the bytes JSON.stringify writes for the value zod
	// returns: numbers in ECMAScript form, strings with ECMAScript
	// escaping, repeated keys merged (last value wins), array-index keys
	// first, and a top-level __proto__ member dropped. Encoding
	// re-canonicalises it, so it may be any JSON object text; nil is
	// written as {}.
	Args []byte
}

// AskDoneEvent ends a successful stream.
type AskDoneEvent struct {
	// Model is the model that answered, or nil when the server did not
	// say. A present empty string is kept distinct from absent.
	Model *string
}

// AskErrorEvent ends a stream with a failure.
type AskErrorEvent struct {
	Message string // 1 to MaxAskErrorLen units
	// Code matches ^[A-Z][A-Z0-9_]{0,127}$, or is "" when absent.
	Code string
	// Retryable is nil when absent.
	Retryable *bool
}

func (AskTextEvent) Type() string  { return AskEventText }
func (AskToolEvent) Type() string  { return AskEventTool }
func (AskDoneEvent) Type() string  { return AskEventDone }
func (AskErrorEvent) Type() string { return AskEventError }

func (AskTextEvent) askEvent()  {}
func (AskToolEvent) askEvent()  {}
func (AskDoneEvent) askEvent()  {}
func (AskErrorEvent) askEvent() {}

func (e AskTextEvent) AppendJSON(dst []byte) []byte {
	w := ecmajson.NewWriter(dst)
	w.BeginObject()
	w.StringMember("type", AskEventText)
	w.StringMember("delta", e.Delta)
	w.EndObject()
	return w.Bytes()
}

// AppendJSON writes Args in canonical form. Args that are not a JSON
// object are written as {} so the line stays one valid JSON value;
// MarshalJSON reports them as an error instead.
func (e AskToolEvent) AppendJSON(dst []byte) []byte {
	w := ecmajson.NewWriter(dst)
	w.BeginObject()
	w.StringMember("type", AskEventTool)
	w.StringMember("id", e.ID)
	w.StringMember("name", e.Name)
	w.Key("args")
	if v, ok := parseArgs(e.Args); ok {
		writeArgs(&w, &v)
	} else {
		w.Raw([]byte("{}"))
	}
	w.EndObject()
	return w.Bytes()
}

func (e AskDoneEvent) AppendJSON(dst []byte) []byte {
	w := ecmajson.NewWriter(dst)
	w.BeginObject()
	w.StringMember("type", AskEventDone)
	if e.Model != nil {
		w.StringMember("model", *e.Model)
	}
	w.EndObject()
	return w.Bytes()
}

func (e AskErrorEvent) AppendJSON(dst []byte) []byte {
	w := ecmajson.NewWriter(dst)
	w.BeginObject()
	w.StringMember("type", AskEventError)
	w.StringMember("message", e.Message)
	if e.Code != "" {
		w.StringMember("code", e.Code)
	}
	if e.Retryable != nil {
		w.Key("retryable")
		w.Bool(*e.Retryable)
	}
	w.EndObject()
	return w.Bytes()
}

func (e AskTextEvent) MarshalJSON() ([]byte, error)  { return e.AppendJSON(nil), nil }
func (e AskDoneEvent) MarshalJSON() ([]byte, error)  { return e.AppendJSON(nil), nil }
func (e AskErrorEvent) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

func (e AskToolEvent) MarshalJSON() ([]byte, error) {
	if _, ok := parseArgs(e.Args); !ok {
		return nil, errToolArgs
	}
	return e.AppendJSON(nil), nil
}

// AppendNDJSON appends e as one NDJSON record: its JSON and a newline.
func AppendNDJSON(dst []byte, e AskEvent) []byte {
	return append(e.AppendJSON(dst), '\n')
}

var errToolArgs = errors.New("protocol: Ask tool args must be a JSON object with keys of at most 128 UTF-16 units")

// parseArgs parses tool args text; nil or empty text is the empty object.
func parseArgs(raw []byte) (ecmajson.Value, bool) {
	if len(raw) == 0 {
		return ecmajson.Value{Kind: ecmajson.Object}, true
	}
	v, ok := ecmajson.Parse(raw)
	return v, ok && v.Kind == ecmajson.Object
}

// validArgKeys applies the record key schema, z.string().max(128), to every
// top-level key zod looks at (it skips __proto__).
func validArgKeys(v *ecmajson.Value) bool {
	var d decoder
	for k := range v.Members() {
		if k != protoKey {
			d.length(k, 0, MaxAskArgKeyLen)
		}
	}
	return !d.failed
}

// writeArgs writes a tool args object as JSON.stringify writes the object
// zod's z.record returns: the members of the parsed object in own-key order,
// except a top-level __proto__, which z.record skips. Nested objects are
// z.unknown() values, passed through as JSON.parse built them, so a nested
// __proto__ stays.
func writeArgs(w *ecmajson.Writer, v *ecmajson.Value) {
	w.BeginObject()
	for _, m := range v.OwnMembers() {
		if m.Key == protoKey {
			continue
		}
		w.Key(m.Key)
		w.Value(m.Value)
	}
	w.EndObject()
}

// decodeAskEventLine decodes one NDJSON line: it trims ECMAScript
// whitespace and skips an empty line or one longer than MaxAskEventBytes.
// p is reused from line to line.
func decodeAskEventLine(p *ecmajson.Parser, line []byte) (AskEvent, bool) {
	line = bytes.TrimFunc(line, IsSpace)
	if len(line) == 0 || len(line) > MaxAskEventBytes {
		return nil, false
	}
	return decodeAskEventJSON(p, line)
}

// decodeAskEventJSON decodes one event object against AskEventSchema.
func decodeAskEventJSON(p *ecmajson.Parser, text []byte) (AskEvent, bool) {
	root, ok := p.Parse(text)
	if !ok || root.Kind != ecmajson.Object {
		return nil, false
	}
	t, ok := root.Member("type")
	if !ok || t.Kind != ecmajson.String {
		return nil, false
	}
	var d decoder
	switch t.Str {
	case AskEventText:
		e := AskTextEvent{}
		d.check(strictKeys(&root, "type", "delta"))
		e.Delta = d.raw(d.field(&root, "delta"), 0, MaxAskDeltaLen)
		return e, !d.failed
	case AskEventTool:
		e := AskToolEvent{}
		d.check(strictKeys(&root, "type", "id", "name", "args"))
		e.ID = d.raw(d.field(&root, "id"), 0, MaxAskToolIDLen)
		e.Name = d.raw(d.field(&root, "name"), 0, MaxAskToolNameLen)
		args := d.field(&root, "args")
		d.check(args.Kind == ecmajson.Object && validArgKeys(args))
		if d.failed {
			return nil, false
		}
		var w ecmajson.Writer
		writeArgs(&w, args)
		e.Args = w.Bytes()
		return e, true
	case AskEventDone:
		e := AskDoneEvent{}
		d.check(strictKeys(&root, "type", "model"))
		if v := d.optional(&root, "model"); v != nil {
			m := d.raw(v, 0, MaxAskModelLen)
			e.Model = &m
		}
		return e, !d.failed
	case AskEventError:
		e := AskErrorEvent{}
		d.check(strictKeys(&root, "type", "message", "code", "retryable"))
		e.Message = d.raw(d.field(&root, "message"), 1, MaxAskErrorLen)
		if v := d.optional(&root, "code"); v != nil {
			e.Code = d.str(v)
			d.check(validAskErrorCode(e.Code))
		}
		if v := d.optional(&root, "retryable"); v != nil {
			r := d.boolean(v)
			e.Retryable = &r
		}
		return e, !d.failed
	}
	return nil, false
}

// validAskErrorCode reports whether s matches ^[A-Z][A-Z0-9_]{0,127}$.
func validAskErrorCode(s string) bool {
	if len(s) == 0 || len(s) > MaxAskErrorCodeLen || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

// DecodeAskEvents decodes the complete lines of an Ask NDJSON buffer,
// exactly as the reference decodeAskEvents does:
//
//   - The buffer is split on '\n' and each line is trimmed of ECMAScript
//     whitespace (so CRLF works). Empty lines and lines longer than
//     MaxAskEventBytes after trimming are skipped.
//   - A line that is not JSON, has an unknown type, breaks a limit or has a
//     member its variant does not name is inert: it is skipped silently.
//   - At most MaxAskEventLines lines are looked at, blank and invalid ones
//     included. When that budget is used up, every remaining complete line
//     is dropped: decoding jumps past the buffer's last newline.
//   - What follows the last newline looked at is the partial line, returned
//     as rest so the caller can prepend it to the next read. A partial
//     longer than MaxAskEventBytes is dropped instead, rest is nil and
//     discardedPartial is true; the caller must then discard input up to
//     the next newline, so the line's tail never reads as an event.
//
// rest aliases buf. Lengths are measured on the bytes as given; the
// reference measures the string TextDecoder produced, which differs only
// for invalid UTF-8. Strings that held lone surrogate escapes carry U+FFFD,
// since a Go string cannot hold a lone surrogate.
func DecodeAskEvents(buf []byte) (events []AskEvent, rest []byte, discardedPartial bool) {
	var p ecmajson.Parser
	cursor, lines := 0, 0
	for lines < MaxAskEventLines {
		i := bytes.IndexByte(buf[cursor:], '\n')
		if i < 0 {
			break
		}
		line := buf[cursor : cursor+i]
		cursor += i + 1
		lines++
		if ev, ok := decodeAskEventLine(&p, line); ok {
			events = append(events, ev)
		}
	}
	if lines == MaxAskEventLines {
		if last := bytes.LastIndexByte(buf, '\n'); last >= cursor {
			cursor = last + 1
		}
	}
	rest = buf[cursor:]
	if len(rest) > MaxAskEventBytes {
		return events, nil, true
	}
	return events, rest, false
}
