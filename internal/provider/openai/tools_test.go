package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/internal/providertest"
)

func toolRequest() provider.Request {
	r := request()
	r.Tools = []provider.Tool{providertest.SearchTool}
	return r
}

// callOutput is a Responses output array that reasons, then calls
// search_docs twice; its whitespace is the provider's own.
const callOutput = `[
 {"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA<opaque>&"},
 {"type":"function_call","id":"fc_1","call_id":"call_A","name":"search_docs","arguments":"{\"query\":\"install\"}","status":"completed"},
 {"type":"function_call","id":"fc_2","call_id":"call_B","name":"search_docs","arguments":"{\"query\":\"upgrade\"}","status":"completed"}]`

func callResponse(output string) string {
	return `{"id":"resp_t","object":"response","status":"completed","model":"gpt-test","output":` + output + `,"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}`
}

// A response with function_call items carries the calls in order and
// the whole output array sealed as the replay; the request offers the
// tools as strict functions and asks for encrypted reasoning.
func TestToolCallsAreReadAndSealed(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, callResponse(callOutput)))
	got, err := newClient(t, s).Complete(context.Background(), toolRequest())
	if err != nil {
		t.Fatal(err)
	}
	if got.Stop != provider.StopToolCalls || len(got.Calls) != 2 || got.Calls[0].ID != "call_A" || got.Calls[1].ID != "call_B" ||
		got.Calls[0].Name != "search_docs" || string(got.Calls[1].Arguments) != `{"query":"upgrade"}` {
		t.Fatalf("calls %+v stop %q", got.Calls, got.Stop)
	}
	if got.Replay == nil || got.Replay.Format != provider.ReplayOpenAI || !bytes.Equal(got.Replay.Payload, providertest.Compact(t, callOutput)) {
		t.Fatalf("replay %+v", got.Replay)
	}
	if want, _ := provider.NewReplay(provider.ReplayOpenAI, providertest.Compact(t, callOutput)); want.Digest != got.Replay.Digest {
		t.Fatalf("replay digest %s, want %s", got.Replay.Digest, want.Digest)
	}
	var body struct {
		Tools      []map[string]any `json:"tools"`
		ToolChoice string           `json:"tool_choice"`
		Include    []string         `json:"include"`
	}
	if err := json.Unmarshal(s.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Tools) != 1 || body.Tools[0]["type"] != "function" || body.Tools[0]["name"] != "search_docs" || body.Tools[0]["strict"] != true ||
		body.Tools[0]["parameters"] == nil || body.ToolChoice != "auto" || len(body.Include) != 1 || body.Include[0] != "reasoning.encrypted_content" {
		t.Fatalf("request tools %s", s.Requests()[0].Body)
	}
}

// A continuation sends the user turn, then the sealed output items byte
// for byte in their order, then one function_call_output per call, in
// the calls' order; a last round forbids calls with tool_choice none.
func TestContinuationReplaysOutputBeforeResults(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, callResponse(callOutput)))
	c := newClient(t, s)
	first, err := c.Complete(context.Background(), toolRequest())
	if err != nil {
		t.Fatal(err)
	}
	answer := `[{"type":"message","id":"msg_9","role":"assistant","content":[{"type":"output_text","text":"{\"answer\":\"42\"}","annotations":[]}]}]`
	s.Reply = providertest.JSON(200, callResponse(answer))
	r := toolRequest()
	r.ToolChoice = provider.ToolChoiceNone
	r.Transcript = provider.Transcript{Turns: []provider.Turn{{Replay: *first.Replay, Calls: first.Calls, Outcomes: []provider.ToolOutcome{
		{CallID: "call_A", Result: json.RawMessage(`{"records":[{"id":"r1"}]}`)},
		{CallID: "call_B", Error: "the query is empty"},
	}}}}
	got, err := c.Complete(context.Background(), r)
	if err != nil || got.Text != `{"answer":"42"}` || got.Stop != provider.StopEnd || got.Replay != nil {
		t.Fatalf("%+v %v", got, err)
	}
	sent := s.Requests()[1].Body
	items := bytes.TrimSuffix(bytes.TrimPrefix(first.Replay.Payload, []byte("[")), []byte("]"))
	i := bytes.Index(sent, items)
	if i < 0 {
		t.Fatalf("the replay is not in the continuation byte for byte:\n%s", sent)
	}
	user := bytes.Index(sent, []byte(`"input":[{"role":"user"`))
	outA := bytes.Index(sent, []byte(`{"type":"function_call_output","call_id":"call_A","output":"{\"records\":[{\"id\":\"r1\"}]}"}`))
	outB := bytes.Index(sent, []byte(`{"type":"function_call_output","call_id":"call_B","output":"{\"error\":\"the query is empty\"}"}`))
	if user < 0 || !(user < i && i < outA && outA < outB) {
		t.Fatalf("continuation order (user %d, replay %d, outputs %d %d):\n%s", user, i, outA, outB, sent)
	}
	if !bytes.Contains(sent, []byte(`"tool_choice":"none"`)) {
		t.Fatalf("the last round does not forbid calls:\n%s", sent)
	}
}

// A transcript that does not verify is refused before any I/O: a payload
// changed under its digest, a substituted call id, another provider's
// replay, a call to a tool not offered.
func TestTranscriptIsVerifiedBeforeIO(t *testing.T) {
	rep, err := provider.NewReplay(provider.ReplayOpenAI, providertest.Compact(t, callOutput))
	if err != nil {
		t.Fatal(err)
	}
	calls := []provider.ToolCall{{ID: "call_A", Name: "search_docs", Arguments: json.RawMessage(`{"query":"install"}`)}, {ID: "call_B", Name: "search_docs", Arguments: json.RawMessage(`{"query":"upgrade"}`)}}
	outs := []provider.ToolOutcome{{CallID: "call_A", Result: json.RawMessage(`{}`)}, {CallID: "call_B", Result: json.RawMessage(`{}`)}}
	tampered := rep
	tampered.Payload = bytes.Replace(rep.Payload, []byte("install"), []byte("secrets"), 1)
	other, _ := provider.NewReplay(provider.ReplayAnthropic, providertest.Compact(t, callOutput))
	swapped := []provider.ToolCall{{ID: "call_Z", Name: "search_docs"}, calls[1]}
	reargued := []provider.ToolCall{calls[0], {ID: "call_B", Name: "search_docs", Arguments: json.RawMessage(`{"query":"secrets"}`)}}
	for name, c := range map[string]struct {
		turn provider.Turn
		code string
	}{
		"tampered":    {provider.Turn{Replay: tampered, Calls: calls, Outcomes: outs}, provider.CodeTranscriptCorrupt},
		"substituted": {provider.Turn{Replay: rep, Calls: swapped, Outcomes: []provider.ToolOutcome{{CallID: "call_Z", Result: json.RawMessage(`{}`)}, outs[1]}}, provider.CodeTranscriptInvalid},
		"arguments":   {provider.Turn{Replay: rep, Calls: reargued, Outcomes: outs}, provider.CodeTranscriptInvalid},
		"provider":    {provider.Turn{Replay: other, Calls: calls, Outcomes: outs}, provider.CodeTranscriptProvider},
		"unoffered":   {provider.Turn{Replay: rep, Calls: []provider.ToolCall{{ID: "call_A", Name: "read_record"}, calls[1]}, Outcomes: outs}, provider.CodeTranscriptInvalid},
	} {
		s := providertest.NewServer(t, providertest.JSON(200, callResponse(callOutput)))
		r := toolRequest()
		r.Transcript = provider.Transcript{Turns: []provider.Turn{c.turn}}
		_, err := newClient(t, s).Complete(context.Background(), r)
		wantCode(t, err, c.code)
		if n := s.Count(); n != 0 {
			t.Fatalf("%s: %d requests", name, n)
		}
	}
}

// What the model proposes is checked before the caller sees it: an
// unknown tool, arguments that are not a JSON object, more calls than a
// turn allows, or any call when calls were forbidden are typed errors
// that never quote the payload.
func TestProposedCallsAreChecked(t *testing.T) {
	call := func(id, name, args string) string {
		a, _ := json.Marshal(args)
		return `{"type":"function_call","id":"fc_` + id + `","call_id":"` + id + `","name":"` + name + `","arguments":` + string(a) + `}`
	}
	many := make([]string, provider.MaxTurnCalls+1)
	for i := range many {
		many[i] = call("c"+string(rune('a'+i)), "search_docs", `{"query":"q"}`)
	}
	for name, c := range map[string]struct {
		output string
		choice provider.ToolChoice
		code   string
	}{
		"unknown":   {`[` + call("c1", "delete_everything", `{"query":"SECRET-PAYLOAD"}`) + `]`, "", provider.CodeToolUnknown},
		"arguments": {`[` + call("c1", "search_docs", `["SECRET-PAYLOAD"]`) + `]`, "", provider.CodeToolArguments},
		"not json":  {`[` + call("c1", "search_docs", `{"query":SECRET-PAYLOAD`) + `]`, "", provider.CodeToolArguments},
		"too many":  {`[` + strings.Join(many, ",") + `]`, "", provider.CodeToolCalls},
		"forbidden": {`[` + call("c1", "search_docs", `{"query":"SECRET-PAYLOAD"}`) + `]`, provider.ToolChoiceNone, provider.CodeToolCalls},
	} {
		s := providertest.NewServer(t, providertest.JSON(200, callResponse(c.output)))
		r := toolRequest()
		r.ToolChoice = c.choice
		_, err := newClient(t, s).Complete(context.Background(), r)
		wantCode(t, err, c.code)
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "delete_everything") {
			t.Fatalf("%s: the error quotes the payload: %v", name, err)
		}
	}
}

// Tools are unary: a streamed call with tools is refused before I/O.
func TestToolsAreNotStreamed(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, callResponse(callOutput)))
	_, err := newClient(t, s).Stream(context.Background(), toolRequest(), func(string) error { return nil })
	wantCode(t, err, provider.CodeToolsUnsupported)
	if n := s.Count(); n != 0 {
		t.Fatalf("%d requests", n)
	}
}
