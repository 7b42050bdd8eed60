package contract

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/provider"
)

// Bind fails closed, at startup, on a missing schema, a schema installed
// with another digest, and a profile that cannot carry the output schema.
func TestBindFailsClosed(t *testing.T) {
	d, _ := DefineAskAnswer(testModel)
	full, _ := NewRegistryBuilder(RegistryLimits{})
	if err := d.Register(full); err != nil {
		t.Fatal(err)
	}
	reg, err := full.Build()
	if err != nil {
		t.Fatal(err)
	}

	// Only the input schema, added on its own.
	half, _ := NewRegistryBuilder(RegistryLimits{})
	if err := half.Add(d.InputRef(), d.InputSchema()); err != nil {
		t.Fatal(err)
	}
	halfReg, _ := half.Build()

	// The same ids holding another contract's documents.
	changed, _ := Define[changedAskInput, AskOutput](AskAnswerMetadata, testModel, "x", Limits{})
	drift, _ := NewRegistryBuilder(RegistryLimits{})
	if err := changed.Register(drift); err != nil {
		t.Fatal(err)
	}
	driftReg, _ := drift.Build()

	small := testProfile
	small.MaxSchemaBytes = len(d.ModelSchema()) - 1
	exact := testProfile
	exact.MaxSchemaBytes = len(d.ModelSchema())
	for _, c := range []struct {
		name    string
		reg     *Registry
		profile provider.Profile
		code    Code
	}{
		{"no registry", nil, testProfile, CodeSchemaUnavailable},
		{"output missing", halfReg, testProfile, CodeSchemaUnavailable},
		{"digest differs", driftReg, testProfile, CodeSchemaUnavailable},
		{"no structured output", reg, provider.Profile{Name: "plain", MaxSchemaBytes: 1 << 20}, CodeProfileRejected},
		{"schema too large", reg, small, CodeProfileRejected},
		{"unset profile", reg, provider.Profile{}, CodeProfileRejected},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := d.Bind(c.reg, c.profile)
			wantCode(t, err, c.code)
			if a != nil {
				t.Error("an agent came back with the error")
			}
		})
	}
	if _, err := d.Bind(reg, exact); err != nil {
		t.Errorf("a schema of exactly MaxSchemaBytes: %v", err)
	}
}

func TestPrepareRequest(t *testing.T) {
	a := boundAsk(t)
	in := askIn()
	in.Records[0].Text = "Use <b> & </b> freely."
	req, err := a.PrepareRequest(in, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "test-model" || req.Instructions != string(AskAnswerInstructions) || req.MaxOutputTokens != 1024 {
		t.Errorf("request %+v", req)
	}
	if !strings.Contains(req.Input, "<b> & </b>") {
		t.Errorf("input HTML-escaped: %s", req.Input)
	}
	var back AskInput
	if err := json.Unmarshal([]byte(req.Input), &back); err != nil || back.Question != in.Question || len(back.Records) != 2 {
		t.Errorf("input %s: %v", req.Input, err)
	}
	if req.Output == nil || req.Output.Name != "ask-answer" || string(req.Output.Schema) != string(a.Definition().ModelSchema()) {
		t.Fatalf("output %+v", req.Output)
	}
	// Each request has its own copy of the schema.
	req.Output.Schema[0] = 'X'
	req2, _ := a.PrepareRequest(in, Budget{MaxOutputTokens: 100})
	if req2.Output.Schema[0] != '{' {
		t.Error("requests share the schema bytes")
	}
	if req2.MaxOutputTokens != 100 {
		t.Errorf("budget: %d", req2.MaxOutputTokens)
	}
	if req3, _ := a.PrepareRequest(in, Budget{MaxOutputTokens: 1 << 20}); req3.MaxOutputTokens != 1024 {
		t.Errorf("a budget widened the call: %d", req3.MaxOutputTokens)
	}
	_, err = a.PrepareRequest(in, Budget{MaxOutputTokens: -1})
	wantCode(t, err, CodeBudgetInvalid)
}

// Inputs that break the schema or the limits fail before any request.
func TestPrepareRequestRejectsInputs(t *testing.T) {
	a := boundAsk(t)
	for _, c := range []struct {
		name string
		edit func(*AskInput)
		code Code
		path string
	}{
		{"empty question", func(in *AskInput) { in.Question = "" }, CodeInputInvalid, "/properties/question/minLength"},
		{"nil records", func(in *AskInput) { in.Records = nil }, CodeInputInvalid, "/properties/records/type"},
		{"no records", func(in *AskInput) { in.Records = []AskRecord{} }, CodeInputInvalid, "/properties/records/minItems"},
		{"long text", func(in *AskInput) { in.Records[1].Text = strings.Repeat("é", AskMaxTextLen+1) }, CodeInputInvalid, "/$defs/AskRecord/properties/text/maxLength"},
		{"too many records", func(in *AskInput) {
			for len(in.Records) <= AskMaxRecords {
				in.Records = append(in.Records, AskRecord{ID: "x", Text: "y"})
			}
		}, CodeInputInvalid, "/properties/records/maxItems"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := askIn()
			c.edit(&in)
			_, err := a.PrepareRequest(in, Budget{})
			e := wantCode(t, err, c.code)
			if e.Path != c.path {
				t.Errorf("path %q, want %q", e.Path, c.path)
			}
		})
	}
}

// The input limits are checked on the serialised JSON, before the
// schema: bytes, string size, container size, depth.
func TestPrepareRequestEnforcesInputLimits(t *testing.T) {
	for _, c := range []struct {
		name  string
		l     JSONLimits
		limit int
	}{
		{"bytes", JSONLimits{MaxBytes: 200}, 200},
		{"string", JSONLimits{MaxStringBytes: 40}, 40},
		{"items", JSONLimits{MaxItems: 1}, 1},
		{"depth", JSONLimits{MaxDepth: 2}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Define[AskInput, AskOutput](AskAnswerMetadata, testModel, AskAnswerInstructions, Limits{Input: c.l})
			if err != nil {
				t.Fatal(err)
			}
			_, err = bind(t, d).PrepareRequest(askIn(), Budget{})
			if e := wantCode(t, err, CodeInputTooLarge); e.Limit != c.limit {
				t.Errorf("limit %d, want %d", e.Limit, c.limit)
			}
		})
	}
}

// secret marks model output that must never reach an error message.
const secret = "SECRET-OUTPUT-7f3a"

func TestDecode(t *testing.T) {
	a := boundAsk(t)
	out, err := a.Decode(provider.Response{Text: `{"answer":"Run *verify*.","cites":["r1","r2"]}`})
	if err != nil {
		t.Fatal(err)
	}
	if out.Answer != "Run *verify*." || len(out.Cites) != 2 || out.Cites[1] != "r2" {
		t.Errorf("decoded %+v", out)
	}
	// A cut answer is refused even when its text happens to be valid.
	for _, stop := range []string{provider.StopMaxTokens, provider.StopContextWindow} {
		_, err := a.Decode(provider.Response{Text: `{"answer":"Run","cites":["r1"]}`, Stop: stop})
		wantCode(t, err, CodeOutputTruncated)
	}
	if _, err := a.Decode(provider.Response{Text: `{"answer":"Run","cites":["r1"]}`, Stop: provider.StopEnd}); err != nil {
		t.Error(err)
	}
	// Surrounding whitespace is fine JSON.
	if _, err := a.Decode(provider.Response{Text: " \n{\"cites\":[\"r1\"],\"answer\":\"x\"}\n"}); err != nil {
		t.Error(err)
	}
}

// Every rejected output gets a stable code, and no error message quotes
// what the model wrote.
func TestDecodeRejectsWithoutEchoingOutput(t *testing.T) {
	a := boundAsk(t)
	long := strings.Repeat(secret, DefaultMaxOutputBytes/len(secret)+1)
	deep := strings.Repeat(`[`, DefaultMaxDepth+1) + strings.Repeat(`]`, DefaultMaxDepth+1)
	for _, c := range []struct {
		name, text string
		code       Code
		path       string
	}{
		{"empty", "  ", CodeOutputMalformed, ""},
		{"prose", secret + " is the answer", CodeOutputMalformed, ""},
		{"truncated", `{"answer":"` + secret, CodeOutputMalformed, ""},
		{"trailing", `{"answer":"` + secret + `","cites":["r1"]} {}`, CodeOutputMalformed, ""},
		{"duplicate member", `{"answer":"x","answer":"` + secret + `","cites":["r1"]}`, CodeOutputMalformed, ""},
		{"invalid utf-8", "{\"answer\":\"\xff" + secret + "\",\"cites\":[\"r1\"]}", CodeOutputMalformed, ""},
		{"too large", `{"answer":"` + long + `","cites":["r1"]}`, CodeOutputTooLarge, ""},
		{"too deep", deep, CodeOutputTooLarge, ""},
		{"missing cites", `{"answer":"` + secret + `"}`, CodeOutputInvalid, "/required"},
		{"no cites", `{"answer":"` + secret + `","cites":[]}`, CodeOutputInvalid, "/properties/cites/minItems"},
		{"empty cite", `{"answer":"x","cites":[""]}`, CodeOutputInvalid, "/properties/cites/items/minLength"},
		{"extra member", `{"answer":"x","cites":["r1"],"` + secret + `":1}`, CodeOutputInvalid, "/additionalProperties"},
		{"wrong case", `{"Answer":"x","cites":["r1"]}`, CodeOutputInvalid, ""},
		{"null answer", `{"answer":null,"cites":["r1"]}`, CodeOutputInvalid, "/properties/answer/type"},
		{"cite not string", `{"answer":"x","cites":[1]}`, CodeOutputInvalid, "/properties/cites/items/type"},
		{"array root", `["` + secret + `"]`, CodeOutputInvalid, "/type"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.Decode(provider.Response{Text: c.text, Model: "m"})
			e := wantCode(t, err, c.code)
			if c.path != "" && e.Path != c.path {
				t.Errorf("path %q, want %q", e.Path, c.path)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprintf("%+v", e), secret) {
				t.Errorf("error echoes the output: %v", err)
			}
		})
	}
}

// The agent prints as its identity only, and is safe to share between
// goroutines (run with -race).
func TestAgentIsSharedAndPrintsNoRequestData(t *testing.T) {
	a := boundAsk(t)
	for _, s := range []string{fmt.Sprint(a), fmt.Sprintf("%#v", a)} {
		if !strings.HasPrefix(s, "agent ask-answer/2 (model test-model, provider test, output sha256:") || strings.Contains(s, "evidence records") {
			t.Errorf("printed as %q", s)
		}
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			in := askIn()
			in.Question = fmt.Sprintf("question %d?", i)
			if _, err := a.PrepareRequest(in, Budget{}); err != nil {
				t.Error(err)
			}
			if _, err := a.Decode(provider.Response{Text: `{"answer":"a","cites":["r1"]}`}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
