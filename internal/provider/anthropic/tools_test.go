package anthropic_test

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

// callContent is an assistant content array that thinks, says a word and
// calls search_docs twice; its whitespace is the provider's own.
const callContent = `[
 {"type":"thinking","thinking":"look it up","signature":"sig<&>"},
 {"type":"text","text":"Let me search."},
 {"type":"tool_use","id":"toolu_A","name":"search_docs","input":{"query":"install"}},
 {"type":"tool_use","id":"toolu_B","name":"search_docs","input":{"query":"upgrade"}}]`

func message(content, stop string) string {
	return `{"id":"msg_t","type":"message","role":"assistant","model":"claude-test","content":` + content + `,"stop_reason":"` + stop + `","usage":{"input_tokens":10,"output_tokens":5}}`
}

// tool_use blocks are the calls, in order; the whole content array is
// the replay; the request offers the tools with their input_schema.
func TestToolUseIsReadAndSealed(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, message(callContent, "tool_use")))
	got, err := newClient(t, s).Complete(context.Background(), toolRequest())
	if err != nil {
		t.Fatal(err)
	}
	if got.Stop != provider.StopToolCalls || len(got.Calls) != 2 || got.Calls[0].ID != "toolu_A" || got.Calls[1].ID != "toolu_B" ||
		string(got.Calls[0].Arguments) != `{"query":"install"}` {
		t.Fatalf("calls %+v stop %q", got.Calls, got.Stop)
	}
	if got.Replay == nil || got.Replay.Format != provider.ReplayAnthropic || !bytes.Equal(got.Replay.Payload, providertest.Compact(t, callContent)) {
		t.Fatalf("replay %+v", got.Replay)
	}
	var body struct {
		Tools      []map[string]any  `json:"tools"`
		ToolChoice map[string]string `json:"tool_choice"`
	}
	if err := json.Unmarshal(s.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Tools) != 1 || body.Tools[0]["name"] != "search_docs" || body.Tools[0]["input_schema"] == nil || body.ToolChoice["type"] != "auto" {
		t.Fatalf("request tools %s", s.Requests()[0].Body)
	}
}

// A continuation appends the assistant content exactly as sealed, then
// one user message of tool_result blocks in the calls' order.
func TestContinuationPreservesAssistantThenGroupedResults(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, message(callContent, "tool_use")))
	c := newClient(t, s)
	first, err := c.Complete(context.Background(), toolRequest())
	if err != nil {
		t.Fatal(err)
	}
	s.Reply = providertest.JSON(200, message(`[{"type":"text","text":"{\"answer\":\"42\"}"}]`, "end_turn"))
	r := toolRequest()
	r.ToolChoice = provider.ToolChoiceNone
	r.Transcript = provider.Transcript{Turns: []provider.Turn{{Replay: *first.Replay, Calls: first.Calls, Outcomes: []provider.ToolOutcome{
		{CallID: "toolu_A", Result: json.RawMessage(`{"records":[]}`)},
		{CallID: "toolu_B", Error: "no such record"},
	}}}}
	got, err := c.Complete(context.Background(), r)
	if err != nil || got.Text != `{"answer":"42"}` {
		t.Fatalf("%+v %v", got, err)
	}
	sent := s.Requests()[1].Body
	want := `{"role":"assistant","content":` + string(first.Replay.Payload) + `},{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"toolu_A","content":"{\"records\":[]}"},` +
		`{"type":"tool_result","tool_use_id":"toolu_B","content":"{\"error\":\"no such record\"}","is_error":true}]}]`
	if !bytes.Contains(sent, []byte(want)) || !bytes.Contains(sent, []byte(`"tool_choice":{"type":"none"}`)) {
		t.Fatalf("continuation:\n%s\nwant it to hold\n%s", sent, want)
	}
}

// A tampered replay, or a turn whose calls are not its replay's, is
// refused before I/O.
func TestTranscriptIsVerifiedBeforeIO(t *testing.T) {
	rep, _ := provider.NewReplay(provider.ReplayAnthropic, providertest.Compact(t, callContent))
	calls := []provider.ToolCall{{ID: "toolu_A", Name: "search_docs", Arguments: json.RawMessage(`{"query":"install"}`)}, {ID: "toolu_B", Name: "search_docs", Arguments: json.RawMessage(`{"query":"upgrade"}`)}}
	outs := []provider.ToolOutcome{{CallID: "toolu_A", Result: json.RawMessage(`{}`)}, {CallID: "toolu_B", Result: json.RawMessage(`{}`)}}
	tampered := rep
	tampered.Payload = bytes.Replace(rep.Payload, []byte("upgrade"), []byte("secrets"), 1)
	reversed := []provider.ToolCall{calls[1], calls[0]}
	for name, turn := range map[string]provider.Turn{
		"tampered": {Replay: tampered, Calls: calls, Outcomes: outs},
		"reversed": {Replay: rep, Calls: reversed, Outcomes: []provider.ToolOutcome{{CallID: "toolu_B", Result: json.RawMessage(`{}`)}, {CallID: "toolu_A", Result: json.RawMessage(`{}`)}}},
	} {
		s := providertest.NewServer(t, providertest.JSON(200, message(callContent, "tool_use")))
		r := toolRequest()
		r.Transcript = provider.Transcript{Turns: []provider.Turn{turn}}
		_, err := newClient(t, s).Complete(context.Background(), r)
		if err == nil || s.Count() != 0 {
			t.Fatalf("%s: %v, %d requests", name, err, s.Count())
		}
	}
}

// An unknown tool and a call when calls were forbidden are typed errors
// that do not quote the payload.
func TestProposedToolUseIsChecked(t *testing.T) {
	unknown := `[{"type":"tool_use","id":"toolu_X","name":"rm_rf","input":{"path":"SECRET"}}]`
	for code, c := range map[string]struct {
		content string
		choice  provider.ToolChoice
	}{
		provider.CodeToolUnknown: {unknown, ""},
		provider.CodeToolCalls:   {`[{"type":"tool_use","id":"toolu_Y","name":"search_docs","input":{"query":"SECRET"}}]`, provider.ToolChoiceNone},
	} {
		s := providertest.NewServer(t, providertest.JSON(200, message(c.content, "tool_use")))
		r := toolRequest()
		r.ToolChoice = c.choice
		_, err := newClient(t, s).Complete(context.Background(), r)
		wantCode(t, err, code)
		if strings.Contains(err.Error(), "SECRET") {
			t.Fatalf("%s quotes the payload: %v", code, err)
		}
	}
}
