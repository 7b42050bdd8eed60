package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/anthropic"
	"github.com/askplane/askplane/internal/provider/internal/providertest"
)

const schema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`

func newClient(t *testing.T, s *providertest.Server) *anthropic.Client {
	t.Helper()
	cfg := provider.Config{Provider: "anthropic", Model: "claude-test", BaseURL: s.URL + "/v1/", APIKeyEnv: "ANTHROPIC_API_KEY", MaxOutputTokens: 512}
	cfg, err := cfg.WithCredential(providertest.Getenv("ANTHROPIC_API_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := anthropic.New(cfg)
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

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Fatalf("want %s, got %v", code, err)
	}
	if strings.Contains(err.Error(), providertest.Key) {
		t.Fatal("error leaks the key")
	}
}

func canon(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestCompleteRequestShapeAndInclusiveCacheUsage(t *testing.T) {
	body := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test-2026","content":[{"type":"text","text":"{\"answer\":\"42\"}"}],"stop_reason":"end_turn","stop_sequence":null,
	 "usage":{"input_tokens":10,"cache_creation_input_tokens":2,"cache_read_input_tokens":3,"output_tokens":7}}`
	s := providertest.NewServer(t, providertest.JSON(200, body, "request-id", "req_ant"))
	got, err := newClient(t, s).Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	want := provider.Response{Text: `{"answer":"42"}`, Model: "claude-test-2026", RequestID: "req_ant", Stop: "end",
		Usage: provider.Usage{InputTokens: 15, OutputTokens: 7, TotalTokens: 22, CacheReadTokens: 3, CacheWriteTokens: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	r := s.Requests()[0]
	if r.Method != "POST" || r.Path != "/v1/messages" {
		t.Fatalf("%s %s", r.Method, r.Path)
	}
	for k, v := range map[string]string{"X-Api-Key": providertest.Key, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json", "Accept": "application/json"} {
		if r.Header.Get(k) != v {
			t.Errorf("header %s = %q", k, r.Header.Get(k))
		}
	}
	if r.Header.Get("Authorization") != "" {
		t.Error("anthropic request carries an Authorization header")
	}
	wantBody := `{"model":"claude-test","max_tokens":512,"system":[{"type":"text","text":"Answer from the evidence only."}],"messages":[{"role":"user","content":[{"type":"text","text":"{\"question\":\"why?\"}"}]}],"stream":false,"output_config":{"format":{"type":"json_schema","schema":` + schema + `}}}`
	if canon(t, r.Body) != canon(t, []byte(wantBody)) {
		t.Fatalf("body\n got %s\nwant %s", r.Body, wantBody)
	}
}

func TestCompleteMapsStopReasons(t *testing.T) {
	for reason, want := range map[string]string{"max_tokens": provider.StopMaxTokens, "stop_sequence": provider.StopEnd, "model_context_window_exceeded": provider.StopContextWindow} {
		body := `{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"text","text":"x"}],"stop_reason":"` + reason + `","usage":{"input_tokens":1,"output_tokens":1}}`
		s := providertest.NewServer(t, providertest.JSON(200, body))
		got, err := newClient(t, s).Complete(context.Background(), request())
		if err != nil || got.Stop != want {
			t.Fatalf("%s: %+v %v", reason, got, err)
		}
	}
	// tool_use without a tool_use block says two things at once.
	for reason, code := range map[string]string{"refusal": provider.CodeRefused, "tool_use": provider.CodeResponseMalformed, "pause_turn": provider.CodeUnsupportedStopReason} {
		body := `{"id":"m","type":"message","role":"assistant","model":"c","content":[],"stop_reason":"` + reason + `","usage":{"input_tokens":1,"output_tokens":1}}`
		s := providertest.NewServer(t, providertest.JSON(200, body))
		_, err := newClient(t, s).Complete(context.Background(), request())
		wantCode(t, err, code)
	}
}

func events() [][2]string {
	return [][2]string{
		{"message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":2,"cache_read_input_tokens":3,"output_tokens":1}}}`},
		{"ping", `{"type":"ping"}`},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo, world"}}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":10,"cache_creation_input_tokens":2,"cache_read_input_tokens":3,"output_tokens":9}}`},
		{"message_stop", `{"type":"message_stop"}`},
	}
}

func render(evs [][2]string) string {
	var pairs []string
	for _, e := range evs {
		pairs = append(pairs, e[0], e[1])
	}
	return providertest.Events(pairs...)
}

func TestStreamOneByteFragmentsKeepsUsageInclusive(t *testing.T) {
	// CRLF line ends, to cover a CR and its LF arriving in separate reads.
	stream := strings.ReplaceAll(render(events()), "\n", "\r\n")
	s := providertest.NewServer(t, providertest.SSE(stream, 1, "request-id", "req_s"))
	var deltas []string
	got, err := newClient(t, s).Stream(context.Background(), request(), func(d string) error { deltas = append(deltas, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(deltas, "|") != "Hel|lo, world" {
		t.Fatalf("deltas %q", deltas)
	}
	want := provider.Response{Text: "Hello, world", Model: "claude-test", RequestID: "req_s", Stop: "end",
		Usage: provider.Usage{InputTokens: 15, OutputTokens: 9, TotalTokens: 24, CacheReadTokens: 3, CacheWriteTokens: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if !strings.Contains(string(s.Requests()[0].Body), `"stream":true`) {
		t.Fatal("stream flag not sent")
	}
	if p := newClient(t, s).Profile(); !p.Streaming || !p.OrderedOutput {
		t.Fatalf("profile %+v", p)
	}
}

func TestStreamRefusesImproperStreams(t *testing.T) {
	base := events()
	last := len(base) - 1
	with := func(f func([][2]string) [][2]string) string {
		return render(f(append([][2]string(nil), base...)))
	}
	cases := []struct{ name, stream, code string }{
		{"truncated before message_stop", with(func(e [][2]string) [][2]string { return e[:last] }), provider.CodeStreamTruncated},
		{"truncated mid-block", with(func(e [][2]string) [][2]string { return e[:4] }), provider.CodeStreamTruncated},
		{"duplicated message_stop", with(func(e [][2]string) [][2]string { return append(e, e[last]) }), provider.CodeStreamInvalid},
		{"replaced message_delta", with(func(e [][2]string) [][2]string { return append(e[:last], e[6], e[last]) }), provider.CodeStreamInvalid},
		{"usage rewound at terminal", with(func(e [][2]string) [][2]string {
			e[6][1] = strings.Replace(e[6][1], `"cache_read_input_tokens":3`, `"cache_read_input_tokens":0`, 1)
			return e
		}), provider.CodeStreamMismatch},
		{"reordered stop before delta", with(func(e [][2]string) [][2]string { e[4], e[5] = e[5], e[4]; return e }), provider.CodeStreamInvalid},
		{"message_stop before message_delta", with(func(e [][2]string) [][2]string { e[6], e[7] = e[7], e[6]; return e }), provider.CodeStreamInvalid},
		{"block index skips", with(func(e [][2]string) [][2]string {
			e[2][1] = strings.Replace(e[2][1], `"index":0`, `"index":1`, 1)
			return e
		}), provider.CodeStreamInvalid},
		{"event after message_stop", with(func(e [][2]string) [][2]string { return append(e, e[1]) }), provider.CodeStreamInvalid},
		{"overloaded error event", with(func(e [][2]string) [][2]string {
			return append(e[:4], [2]string{"error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`})
		}), provider.CodeUnavailable},
		{"openai transcript", providertest.Events(
			"response.created", `{"type":"response.created","sequence_number":0,"response":{"id":"r","model":"m"}}`,
			"response.output_text.delta", `{"type":"response.output_text.delta","sequence_number":1,"output_index":0,"content_index":0,"delta":"x"}`,
			"response.completed", `{"type":"response.completed","sequence_number":2,"response":{"id":"r","model":"m","status":"completed","output":[],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		), provider.CodeStreamInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.NewServer(t, providertest.SSE(tc.stream, 5))
			got, err := newClient(t, s).Stream(context.Background(), request(), nil)
			if err == nil {
				t.Fatalf("accepted %+v", got)
			}
			wantCode(t, err, tc.code)
		})
	}
}

// TestEchoedKeyIsScrubbedFromResponseAndLogs: a successful call whose
// request id headers and model name echo the key returns and logs the
// redaction marker instead, unary and streaming.
func TestEchoedKeyIsScrubbedFromResponseAndLogs(t *testing.T) {
	var logs providertest.Logs
	open := func(s *providertest.Server) *anthropic.Client {
		cfg := provider.Config{Provider: "anthropic", Model: "claude-test", BaseURL: s.URL + "/v1/", APIKeyEnv: "ANTHROPIC_API_KEY", Logger: logs.Logger()}
		cfg, err := cfg.WithCredential(providertest.Getenv("ANTHROPIC_API_KEY"))
		if err != nil {
			t.Fatal(err)
		}
		c, err := anthropic.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	body := `{"id":"msg_1","type":"message","role":"assistant","model":"` + providertest.Key + `","content":[{"type":"text","text":"{\"answer\":\"42\"}"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":7}}`
	s := providertest.NewServer(t, providertest.EchoKey(providertest.JSON(200, body)))
	got, err := open(s).Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	stream := strings.ReplaceAll(render(events()), `"model":"claude-test"`, `"model":"`+providertest.Key+`"`)
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
