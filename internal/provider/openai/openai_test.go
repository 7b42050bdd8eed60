package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/internal/providertest"
	"github.com/askplane/askplane/internal/provider/openai"
)

const schema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`

func newClient(t *testing.T, s *providertest.Server) *openai.Client {
	t.Helper()
	cfg := provider.Config{Provider: "openai", Model: "gpt-test", BaseURL: s.URL + "/v1", APIKeyEnv: "OPENAI_API_KEY"}
	cfg, err := cfg.WithCredential(providertest.Getenv("OPENAI_API_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func request() provider.Request {
	return provider.Request{
		Instructions: "Answer from the evidence only.",
		Input:        `{"question":"why?"}`,
		Output:       &provider.OutputSchema{Name: "answer_v1", Schema: json.RawMessage(schema)},
	}
}

const unary = `{"id":"resp_1","object":"response","status":"completed","model":"gpt-test-2026","output":[
 {"type":"reasoning","id":"rs_1","summary":[]},
 {"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"{\"answer\":","annotations":[]},{"type":"output_text","text":\"\"}]}],
 "usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":3,"output_tokens_details":{"reasoning_tokens":1},"total_tokens":13}}`

func TestCompleteRequestShapeAndResponse(t *testing.T) {
	body := strings.Replace(unary, `\"\"`, `"\"42\"}"`, 1)
	s := providertest.NewServer(t, providertest.JSON(200, body, "x-request-id", "req_abc"))
	c := newClient(t, s)
	got, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	want := provider.Response{Text: `{"answer":"42"}`, Model: "gpt-test-2026", RequestID: "req_abc", Stop: "end",
		Usage: provider.Usage{InputTokens: 10, OutputTokens: 3, TotalTokens: 13, CacheReadTokens: 4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("response\n got %+v\nwant %+v", got, want)
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests", len(reqs))
	}
	r := reqs[0]
	if r.Method != "POST" || r.Path != "/v1/responses" {
		t.Fatalf("got %s %s", r.Method, r.Path)
	}
	for k, v := range map[string]string{"Authorization": "Bearer " + providertest.Key, "Content-Type": "application/json", "Accept": "application/json"} {
		if r.Header.Get(k) != v {
			t.Errorf("header %s = %q", k, r.Header.Get(k))
		}
	}
	var b map[string]any
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatal(err)
	}
	wantBody := `{"input":[{"content":[{"text":"{\"question\":\"why?\"}","type":"input_text"}],"role":"user"}],"instructions":"Answer from the evidence only.","max_output_tokens":1024,"model":"gpt-test","store":false,"stream":false,"text":{"format":{"name":"answer_v1","schema":` + schema + `,"strict":true,"type":"json_schema"}}}`
	var wb map[string]any
	if err := json.Unmarshal([]byte(wantBody), &wb); err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(b)
	wj, _ := json.Marshal(wb)
	if string(gj) != string(wj) {
		t.Fatalf("body\n got %s\nwant %s", gj, wj)
	}
}

func TestCompleteMapsIncompleteAndRefusal(t *testing.T) {
	incomplete := `{"id":"r","object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"model":"m","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"{\"ans"}]}],"usage":{"input_tokens":1,"output_tokens":2}}`
	s := providertest.NewServer(t, providertest.JSON(200, incomplete))
	got, err := newClient(t, s).Complete(context.Background(), request())
	if err != nil || got.Stop != provider.StopMaxTokens || got.Usage.TotalTokens != 3 {
		t.Fatalf("incomplete: %+v %v", got, err)
	}
	refusal := `{"id":"r","object":"response","status":"completed","model":"m","output":[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"no"}]}],"usage":{"input_tokens":1,"output_tokens":2}}`
	s = providertest.NewServer(t, providertest.JSON(200, refusal))
	_, err = newClient(t, s).Complete(context.Background(), request())
	wantCode(t, err, provider.CodeRefused)
	tool := `{"id":"r","object":"response","status":"completed","model":"m","output":[{"type":"function_call","name":"x","arguments":"{}","call_id":"c"}],"usage":{"input_tokens":1,"output_tokens":2}}`
	s = providertest.NewServer(t, providertest.JSON(200, tool))
	_, err = newClient(t, s).Complete(context.Background(), request())
	// A call when no tool was offered is the model calling an unknown tool.
	wantCode(t, err, provider.CodeToolUnknown)
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want *provider.Error %s, got %v", code, err)
	}
	if pe.Code != code {
		t.Fatalf("want %s, got %s (%v)", code, pe.Code, err)
	}
	if strings.Contains(err.Error(), providertest.Key) {
		t.Fatal("error leaks the key")
	}
}

// streamEvents is a well-formed Responses stream for "Hello, world" in
// three deltas, numbered from 0.
func streamEvents() [][2]string {
	final := `{"id":"resp_1","object":"response","status":"completed","model":"gpt-test","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello, world","annotations":[]}]}],"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":0},"output_tokens":3,"total_tokens":13}}`
	evs := []string{
		`{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-test","output":[]}}`,
		`{"type":"response.in_progress","response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-test","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`,
		`{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`,
		`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hel"}`,
		`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"lo, "}`,
		`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"world"}`,
		`{"type":"response.output_text.done","item_id":"msg_1","output_index":0,"content_index":0,"text":"Hello, world"}`,
		`{"type":"response.content_part.done","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"Hello, world","annotations":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hello, world","annotations":[]}]}}`,
		`{"type":"response.completed","response":` + final + `}`,
	}
	out := make([][2]string, len(evs))
	for i, e := range evs {
		var head struct{ Type string }
		_ = json.Unmarshal([]byte(e), &head)
		out[i] = [2]string{head.Type, fmt.Sprintf(`{"sequence_number":%d,%s`, i, e[1:])}
	}
	return out
}

func render(evs [][2]string) string {
	var pairs []string
	for _, e := range evs {
		pairs = append(pairs, e[0], e[1])
	}
	return providertest.Events(pairs...)
}

func TestStreamOneByteFragmentsIsIncrementalAndChecked(t *testing.T) {
	stream := ": keep-alive\n\n" + render(streamEvents())
	s := providertest.NewServer(t, providertest.SSE(stream, 1, "x-request-id", "req_stream"))
	var deltas []string
	got, err := newClient(t, s).Stream(context.Background(), request(), func(d string) error {
		deltas = append(deltas, d)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(deltas, "|") != "Hel|lo, |world" {
		t.Fatalf("deltas %q", deltas)
	}
	want := provider.Response{Text: "Hello, world", Model: "gpt-test", RequestID: "req_stream", Stop: "end",
		Usage: provider.Usage{InputTokens: 10, OutputTokens: 3, TotalTokens: 13}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	r := s.Requests()[0]
	if r.Header.Get("Accept") != "text/event-stream" || !strings.Contains(string(r.Body), `"stream":true`) {
		t.Fatalf("stream request shape: %s %s", r.Header.Get("Accept"), r.Body)
	}
}

func TestStreamRefusesImproperStreams(t *testing.T) {
	base := streamEvents()
	last := len(base) - 1
	with := func(f func([][2]string) [][2]string) string {
		c := append([][2]string(nil), base...)
		return render(f(c))
	}
	replace := func(i int, old, new string) func([][2]string) [][2]string {
		return func(e [][2]string) [][2]string {
			e[i][1] = strings.Replace(e[i][1], old, new, 1)
			return e
		}
	}
	cases := []struct {
		name, stream, code string
	}{
		{"truncated before terminal", with(func(e [][2]string) [][2]string { return e[:last] }), provider.CodeStreamTruncated},
		{"truncated inside terminal event", strings.TrimSuffix(render(base), "\n\n"), provider.CodeStreamTruncated},
		{"duplicated terminal", with(func(e [][2]string) [][2]string { return append(e, e[last]) }), provider.CodeStreamInvalid},
		{"reordered deltas", with(func(e [][2]string) [][2]string { e[4], e[5] = e[5], e[4]; return e }), provider.CodeStreamInvalid},
		{"event after terminal", with(func(e [][2]string) [][2]string {
			return append(e, [2]string{"response.in_progress", `{"type":"response.in_progress","sequence_number":11}`})
		}), provider.CodeStreamInvalid},
		{"replaced terminal text", with(replace(last, `"text":"Hello, world"`, `"text":"Goodbye, world"`)), provider.CodeStreamMismatch},
		{"terminal for another response", with(replace(last, `"id":"resp_1"`, `"id":"resp_2"`)), provider.CodeStreamMismatch},
		{"done text differs from deltas", with(replace(7, "Hello, world", "Hello, World")), provider.CodeStreamMismatch},
		{"terminal while a part is open", with(func(e [][2]string) [][2]string { return append(e[:7], e[last]) }), provider.CodeStreamInvalid},
		{"missing created", with(func(e [][2]string) [][2]string { return e[1:] }), provider.CodeStreamInvalid},
		{"event name differs from type", with(func(e [][2]string) [][2]string { e[4][0] = "response.completed"; return e }), provider.CodeStreamInvalid},
		{"done sentinel", render(base) + "data: [DONE]\n\n", provider.CodeStreamInvalid},
		{"failed", with(func(e [][2]string) [][2]string {
			e[last] = [2]string{"response.failed", `{"type":"response.failed","sequence_number":10,"response":{"id":"resp_1","status":"failed"}}`}
			return e
		}), provider.CodeFailed},
		{"anthropic transcript", anthropicStream, provider.CodeStreamInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.NewServer(t, providertest.SSE(tc.stream, 7))
			got, err := newClient(t, s).Stream(context.Background(), request(), nil)
			if err == nil {
				t.Fatalf("accepted: %+v", got)
			}
			wantCode(t, err, tc.code)
			if !reflect.DeepEqual(got, provider.Response{}) {
				t.Fatalf("partial response leaked: %+v", got)
			}
		})
	}
}

// anthropicStream is a well-formed Anthropic Messages stream: feeding it
// to the OpenAI accumulator must fail cleanly, never half-accept it.
var anthropicStream = providertest.Events(
	"message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
	"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`,
	"content_block_stop", `{"type":"content_block_stop","index":0}`,
	"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`,
	"message_stop", `{"type":"message_stop"}`,
)

func TestAccumulatorIsPoisonedAfterARefusal(t *testing.T) {
	a := openai.NewAccumulator()
	evs := streamEvents()
	if _, err := a.Add(provider.Event{Name: "message", Data: []byte(evs[1][1])}); err == nil {
		t.Fatal("accepted in_progress before created")
	}
	if _, err := a.Add(provider.Event{Name: "message", Data: []byte(evs[0][1])}); err == nil {
		t.Fatal("accepted an event after a refusal")
	}
	if a.Done() {
		t.Fatal("poisoned accumulator is done")
	}
	if _, err := a.Response(); err == nil {
		t.Fatal("poisoned accumulator yields a response")
	}
}

func TestOpenAICompatibleLoopbackWithoutKey(t *testing.T) {
	s := providertest.NewServer(t, providertest.SSE(render(streamEvents()), 64))
	c, err := openai.New(provider.Config{Provider: "openai-compatible", Model: "llama3", BaseURL: s.URL + "/v1/"})
	if err != nil {
		t.Fatal(err)
	}
	// An OpenAI-compatible server may not keep the schema's key order:
	// the profile does not promise it.
	if p := c.Profile(); p.Name != "openai-compatible" || !p.Streaming || !p.StructuredOutput || p.OrderedOutput {
		t.Fatalf("profile %+v", p)
	}
	if p := newClient(t, s).Profile(); p.Name != "openai" || !p.OrderedOutput {
		t.Fatalf("openai profile %+v", p)
	}
	if _, err := c.Stream(context.Background(), request(), nil); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if r.Path != "/v1/responses" || r.Header.Get("Authorization") != "" {
		t.Fatalf("path %s auth %q", r.Path, r.Header.Get("Authorization"))
	}
}

func TestNewRefusesPlainHTTPToANonLoopbackHost(t *testing.T) {
	for _, base := range []string{"http://api.openai.com/v1", "http://localhost:11434/v1", "http://10.0.0.1/v1", "ftp://127.0.0.1/"} {
		_, err := openai.New(provider.Config{Provider: "openai-compatible", Model: "m", BaseURL: base})
		wantCode(t, err, provider.CodeEndpointRefused)
	}
	_ = http.StatusOK
}

func TestDuplicateMembersAreRefused(t *testing.T) {
	dup := `{"id":"r","object":"response","status":"completed","model":"m","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a","text":"b"}]}],"usage":{"input_tokens":1,"output_tokens":2}}`
	s := providertest.NewServer(t, providertest.JSON(200, dup))
	_, err := newClient(t, s).Complete(context.Background(), request())
	wantCode(t, err, provider.CodeResponseMalformed)

	evs := streamEvents()
	last := len(evs) - 1
	evs[last][1] = strings.Replace(evs[last][1], `"status":"completed"`, `"status":"completed","status":"failed"`, 1)
	s = providertest.NewServer(t, providertest.SSE(render(evs), 64))
	_, err = newClient(t, s).Stream(context.Background(), request(), nil)
	wantCode(t, err, provider.CodeResponseMalformed)
}

// TestEchoedKeyIsScrubbedFromResponseAndLogs: a successful call whose
// request id headers and model name echo the key returns and logs the
// redaction marker instead, unary and streaming.
func TestEchoedKeyIsScrubbedFromResponseAndLogs(t *testing.T) {
	var logs providertest.Logs
	cfg := provider.Config{Provider: "openai", Model: "gpt-test", APIKeyEnv: "OPENAI_API_KEY", Logger: logs.Logger()}
	open := func(s *providertest.Server) *openai.Client {
		c := cfg
		c.BaseURL = s.URL + "/v1"
		c, err := c.WithCredential(providertest.Getenv("OPENAI_API_KEY"))
		if err != nil {
			t.Fatal(err)
		}
		cl, err := openai.New(c)
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	body := strings.Replace(strings.Replace(unary, `\"\"`, `"\"42\"}"`, 1), "gpt-test-2026", providertest.Key, 1)
	s := providertest.NewServer(t, providertest.EchoKey(providertest.JSON(200, body)))
	got, err := open(s).Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	stream := strings.ReplaceAll(render(streamEvents()), `"model":"gpt-test"`, `"model":"`+providertest.Key+`"`)
	s = providertest.NewServer(t, providertest.EchoKey(providertest.SSE(stream, 7)))
	streamed, err := open(s).Stream(context.Background(), request(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []provider.Response{got, streamed} {
		if r.RequestID != "[REDACTED]" || r.Model != "[REDACTED]" {
			t.Fatalf("request id %q model %q", r.RequestID, r.Model)
		}
	}
	providertest.NoKey(t, fmt.Sprintf("%+v %+v", got, streamed), logs.String())
}
