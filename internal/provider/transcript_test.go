package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/askplane/askplane/internal/provider"
)

func openAITurn(t *testing.T, callID string) provider.Turn {
	t.Helper()
	payload := json.RawMessage(`[{"type":"reasoning","id":"rs_1","encrypted_content":"e"},{"type":"function_call","id":"fc_1","call_id":"` + callID + `","name":"search_docs","arguments":"{\"query\":\"install\"}"}]`)
	r, err := provider.NewReplay(provider.ReplayOpenAI, payload)
	if err != nil {
		t.Fatal(err)
	}
	return provider.Turn{
		Replay:   r,
		Calls:    []provider.ToolCall{{ID: callID, Name: "search_docs", Arguments: json.RawMessage(`{"query":"install"}`)}},
		Outcomes: []provider.ToolOutcome{{CallID: callID, Result: json.RawMessage(`{"context_id":"c1","records":[]}`)}},
	}
}

func codeOf(err error) string {
	if e, ok := err.(*provider.Error); ok {
		return e.Code
	}
	return ""
}

// A transcript is re-checked before the next call's I/O: a tampered
// replay, a substituted or reused call id, outcomes out of order and
// another provider's replay are each refused with a stable code.
func TestTranscriptRefusesTamperingAndSubstitution(t *testing.T) {
	good := provider.Transcript{Turns: []provider.Turn{openAITurn(t, "call_1"), openAITurn(t, "call_2")}}
	if err := good.Verify(provider.ReplayOpenAI); err != nil {
		t.Fatalf("a sound transcript: %v", err)
	}
	// The digest is over canonical bytes: whitespace does not change it.
	spaced, _ := provider.NewReplay(provider.ReplayOpenAI, json.RawMessage(" [ 1, 2 ] "))
	tight, _ := provider.NewReplay(provider.ReplayOpenAI, json.RawMessage("[1,2]"))
	if spaced.Digest != tight.Digest {
		t.Fatal("the replay digest depends on whitespace")
	}
	cases := map[string]struct {
		edit func(tr *provider.Transcript)
		code string
	}{
		"a tampered replay": {func(tr *provider.Transcript) {
			tr.Turns[1].Replay.Payload = json.RawMessage(`[{"type":"function_call","call_id":"call_2","name":"read_record","arguments":"{}"}]`)
		}, provider.CodeTranscriptCorrupt},
		"a substituted call id": {func(tr *provider.Transcript) {
			tr.Turns[0].Calls[0].ID, tr.Turns[0].Outcomes[0].CallID = "call_9", "call_9"
		}, provider.CodeTranscriptInvalid},
		"an outcome for another call": {func(tr *provider.Transcript) { tr.Turns[0].Outcomes[0].CallID = "call_2" }, provider.CodeTranscriptInvalid},
		"a reused call id":            {func(tr *provider.Transcript) { tr.Turns[1] = openAITurn(t, "call_1") }, provider.CodeTranscriptInvalid},
		"a missing outcome":           {func(tr *provider.Transcript) { tr.Turns[0].Outcomes = nil }, provider.CodeTranscriptInvalid},
		"result and error":            {func(tr *provider.Transcript) { tr.Turns[0].Outcomes[0].Error = "failed" }, provider.CodeTranscriptInvalid},
		"another provider's replay": {func(tr *provider.Transcript) {
			tr.Turns[0].Replay.Format = provider.ReplayAnthropic
		}, provider.CodeTranscriptProvider},
	}
	for name, c := range cases {
		tr := provider.Transcript{Turns: []provider.Turn{openAITurn(t, "call_1"), openAITurn(t, "call_2")}}
		c.edit(&tr)
		if err := tr.Verify(provider.ReplayOpenAI); codeOf(err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}
	if _, err := provider.NewReplay("OpenAI", json.RawMessage(`[]`)); codeOf(err) != provider.CodeTranscriptInvalid {
		t.Errorf("a bad format id: %v", err)
	}
	if _, err := provider.NewReplay(provider.ReplayOpenAI, json.RawMessage(`{}`)); codeOf(err) != provider.CodeTranscriptInvalid {
		t.Errorf("a payload that is not an array: %v", err)
	}
}
