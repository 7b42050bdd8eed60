package provider

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A tool loop offers the model tools (Request.Tools) and continues it
// with the transcript so far (Request.Transcript); a response that calls
// tools carries the calls (Response.Calls) and the provider's output to
// send back (Response.Replay). The adapters map these to their wire
// (OpenAI function_call / function_call_output, Anthropic tool_use /
// tool_result); everything provider-neutral is checked here, before any
// I/O on the way out and before the caller sees a call on the way in.

// Tool errors. None quotes a tool's arguments or a payload.
const (
	CodeToolsUnsupported = "PROVIDER_TOOLS_UNSUPPORTED" // the binding cannot offer tools (or not when streaming)
	CodeToolInvalid      = "PROVIDER_TOOL_INVALID"      // an offered tool's name, description or schema is out of bounds
	CodeToolUnknown      = "PROVIDER_TOOL_UNKNOWN"      // the model called a tool that was not offered
	CodeToolArguments    = "PROVIDER_TOOL_ARGUMENTS"    // a call's arguments are not a JSON object
	CodeToolCalls        = "PROVIDER_TOOL_CALLS"        // too many calls, or calls when none were allowed
)

// Tool bounds.
const (
	MaxTools              = 8
	MaxToolDescriptionLen = 1024     // bytes
	MaxToolSchemaBytes    = 16 << 10 // one tool's parameters schema
	MaxToolArgumentsBytes = 16 << 10 // one call's arguments
)

// StopToolCalls is Response.Stop when the model called tools: the answer
// is not done, the calls must be answered and the transcript continued.
const StopToolCalls = "tool_calls"

// Tool is one tool offered to the model.
type Tool struct {
	Name        string          // ^[a-zA-Z0-9_-]{1,64}$
	Description string          // model-visible, 1..MaxToolDescriptionLen bytes
	Parameters  json.RawMessage // JSON Schema object of the arguments
}

// ToolChoice says whether the model may call the offered tools.
type ToolChoice string

const (
	// ToolChoiceAuto lets the model call tools or answer.
	ToolChoiceAuto ToolChoice = ""
	// ToolChoiceNone keeps the tools declared (a transcript that holds
	// calls needs them on some wires) but forbids calling them: the model
	// must answer.
	ToolChoiceNone ToolChoice = "none"
)

// CheckStreamable is a Stream's refusal of a tool request, before any
// I/O: tool calls are made unary, never streamed.
func CheckStreamable(r Request) error {
	if len(r.Tools) > 0 || len(r.Transcript.Turns) > 0 {
		return NewError(CodeToolsUnsupported, "tool calls are made unary, never streamed")
	}
	return nil
}

// checkTools is Prepare's check of the tool half of a request: the tools'
// bounds, a binding that can offer them, the transcript verified in the
// binding's replay format, and every call in it naming an offered tool.
func checkTools(r Request, p Profile) error {
	if len(r.Tools) == 0 && len(r.Transcript.Turns) == 0 {
		if r.ToolChoice != ToolChoiceAuto {
			return NewError(CodeRequestInvalid, "a tool choice needs tools")
		}
		return nil
	}
	if !p.Tools || p.Replay == "" {
		return NewError(CodeToolsUnsupported, "this provider binding does not offer tools")
	}
	if r.ToolChoice != ToolChoiceAuto && r.ToolChoice != ToolChoiceNone {
		return NewError(CodeRequestInvalid, "the tool choice is not auto or none")
	}
	if len(r.Tools) == 0 || len(r.Tools) > MaxTools {
		return NewError(CodeToolInvalid, "a request offers 1 to 8 tools")
	}
	names := make(map[string]bool, len(r.Tools))
	for _, t := range r.Tools {
		s := bytes.TrimSpace(t.Parameters)
		switch {
		case !schemaName.MatchString(t.Name) || names[t.Name]:
			return NewError(CodeToolInvalid, "a tool name is invalid or repeated")
		case t.Description == "" || len(t.Description) > MaxToolDescriptionLen || !utf8.ValidString(t.Description):
			return NewError(CodeToolInvalid, "a tool description is empty, too long or not UTF-8")
		case len(s) == 0 || len(s) > MaxToolSchemaBytes || s[0] != '{' || !json.Valid(s):
			return NewError(CodeToolInvalid, "a tool's parameters are not a bounded JSON Schema object")
		}
		names[t.Name] = true
	}
	if err := r.Transcript.Verify(p.Replay); err != nil {
		return err
	}
	for _, turn := range r.Transcript.Turns {
		for _, c := range turn.Calls {
			if !names[c.Name] {
				return NewError(CodeTranscriptInvalid, "a transcript call names a tool that is not offered")
			}
		}
	}
	return nil
}

// CheckCalls is what an adapter runs on a response before returning it:
// calls only when tools were offered and allowed, at most MaxTurnCalls,
// each naming an offered tool, with a provider id and JSON-object
// arguments, ids unique in the response and unused in the transcript;
// and then the replay sealed from the provider's output (raw), the
// bytes a continuation sends back. A response without calls is returned
// as it is.
func CheckCalls(resp Response, r Request, format string, raw json.RawMessage) (Response, error) {
	if len(resp.Calls) == 0 {
		if resp.Stop == StopToolCalls {
			return Response{}, Malformed("the response stopped for tool calls but has none")
		}
		return resp, nil
	}
	offered := make(map[string]bool, len(r.Tools))
	for _, t := range r.Tools {
		offered[t.Name] = true
	}
	used := map[string]bool{}
	for _, turn := range r.Transcript.Turns {
		for _, c := range turn.Calls {
			used[c.ID] = true
		}
	}
	switch {
	case len(r.Tools) == 0:
		return Response{}, NewError(CodeToolUnknown, "the model called a tool, and none was offered")
	case r.ToolChoice == ToolChoiceNone:
		return Response{}, NewError(CodeToolCalls, "the model called a tool when it had to answer")
	case len(resp.Calls) > MaxTurnCalls:
		return Response{}, NewError(CodeToolCalls, "the model proposed more tool calls than one turn allows")
	}
	for _, c := range resp.Calls {
		a := bytes.TrimSpace(c.Arguments)
		switch {
		case c.ID == "" || len(c.ID) > maxCallIDLen || !printableASCII(c.ID) || used[c.ID]:
			return Response{}, Malformed("a tool call's id is empty, too long or reused")
		case !offered[c.Name]:
			return Response{}, NewError(CodeToolUnknown, "the model called a tool that was not offered")
		case len(a) == 0 || len(a) > MaxToolArgumentsBytes || a[0] != '{' || !json.Valid(a):
			return Response{}, NewError(CodeToolArguments, "a tool call's arguments are not a bounded JSON object")
		}
		used[c.ID] = true
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return Response{}, Malformed("the response output is not JSON")
	}
	rep, err := NewReplay(format, compact.Bytes())
	if err != nil {
		return Response{}, Malformed("the response output is not a JSON array")
	}
	resp.Replay = &rep
	resp.Stop = StopToolCalls
	return resp, nil
}

// OutcomeText is an outcome as the model reads it: the tool's JSON
// result, or {"error": message}.
func (o ToolOutcome) OutcomeText() string {
	if o.Error != "" {
		b, _ := json.Marshal(map[string]string{"error": o.Error})
		return string(b)
	}
	var c bytes.Buffer
	if json.Compact(&c, o.Result) != nil {
		return "{}" // Verify refuses a result that is not JSON before this runs
	}
	return c.String()
}

// ReplayItems splits a verified replay payload into its elements, each
// the exact bytes it was sealed with.
func ReplayItems(r Replay) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(r.Payload, &items); err != nil {
		return nil, NewError(CodeTranscriptInvalid, "the replay payload is not a JSON array")
	}
	return items, nil
}

// CheckReplayCalls is an adapter's re-parse of each turn before I/O: the
// calls a turn lists must be exactly the calls its sealed replay
// proposes (parse reads them in the adapter's wire shape), same ids,
// names and arguments, in order, so neither can be substituted beside an
// untouched replay.
func CheckReplayCalls(t Transcript, parse func(payload json.RawMessage) ([]ToolCall, error)) error {
	for _, turn := range t.Turns {
		calls, err := parse(turn.Replay.Payload)
		if err != nil || len(calls) != len(turn.Calls) {
			return NewError(CodeTranscriptInvalid, "a turn's calls are not the calls its replay proposes")
		}
		for i, c := range calls {
			var a, b bytes.Buffer
			if c.ID != turn.Calls[i].ID || c.Name != turn.Calls[i].Name ||
				json.Compact(&a, c.Arguments) != nil || json.Compact(&b, turn.Calls[i].Arguments) != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				return NewError(CodeTranscriptInvalid, "a turn's calls are not the calls its replay proposes")
			}
		}
	}
	return nil
}
