package generate

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/provider"
)

var toolProfile = provider.Profile{Name: "fake", StructuredOutput: true, MaxSchemaBytes: 64 << 10, Tools: true, Replay: provider.ReplayOpenAI}

func roundInput() RoundInput {
	return RoundInput{
		Input: contract.AskInput{Question: "how?", Records: []contract.AskRecord{{ID: "r0", Title: "Zero", Text: "zero"}}},
		Shown: []contract.AskRecord{{ID: "r3", Title: "Three", Text: "three"}, {ID: "r1", Title: "One", Text: "one"}},
		Tools: []provider.Tool{{Name: "search_docs", Description: "Search.", Parameters: json.RawMessage(`{"type":"object"}`)}},
	}
}

// A round's final answer may cite the initial records and the records
// tool rounds showed, exactly those, in the order they were shown.
func TestRoundAnswerCitesEveryShownRecordAndNoOther(t *testing.T) {
	f := &fakeClient{profile: toolProfile, resp: provider.Response{Text: `{"cites":["r1","r0"],"answer":"It works."}`, Model: "m", Stop: provider.StopEnd}}
	m := newModel(t, f)
	got, err := m.Round(context.Background(), roundInput())
	if err != nil || got.Answer == nil || !slices.Equal(got.Answer.Sources, []string{"r0", "r1"}) {
		t.Fatalf("%+v %v", got, err)
	}
	if r := f.reqs[0]; len(r.Tools) != 1 || r.ToolChoice != provider.ToolChoiceAuto {
		t.Fatalf("request %+v", r)
	}
	f.resp.Text = `{"cites":["r9"],"answer":"It works."}`
	if _, err := m.Round(context.Background(), roundInput()); !errors.Is(err, ErrUnknownCite) {
		t.Fatalf("an unshown cite: %v", err)
	}
}

// A round that calls tools returns the calls and the sealed replay.
func TestRoundReturnsCalls(t *testing.T) {
	rep, _ := provider.NewReplay(provider.ReplayOpenAI, json.RawMessage(`[{"type":"function_call","call_id":"c1"}]`))
	calls := []provider.ToolCall{{ID: "c1", Name: "search_docs", Arguments: json.RawMessage(`{"query":"q"}`)}}
	f := &fakeClient{profile: toolProfile, resp: provider.Response{Model: "m", Stop: provider.StopToolCalls, Calls: calls, Replay: &rep, Usage: provider.Usage{InputTokens: 3, OutputTokens: 2, TotalTokens: 5}}}
	got, err := newModel(t, f).Round(context.Background(), roundInput())
	if err != nil || got.Answer != nil || len(got.Calls) != 1 || got.Replay.Digest != rep.Digest || got.Usage.TotalTokens != 5 {
		t.Fatalf("%+v %v", got, err)
	}
}

// A binding without tools refuses a round before any call.
func TestRoundNeedsTools(t *testing.T) {
	f := &fakeClient{}
	if _, err := newModel(t, f).Round(context.Background(), roundInput()); !errors.Is(err, ErrNoTools) || len(f.reqs) != 0 {
		t.Fatalf("%v, %d calls", err, len(f.reqs))
	}
}
