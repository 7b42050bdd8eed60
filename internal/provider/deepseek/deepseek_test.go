package deepseek_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/deepseek"
	"github.com/askplane/askplane/internal/provider/internal/providertest"
)

const schema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}`

func newClient(t *testing.T, s *providertest.Server) *deepseek.Client {
	t.Helper()
	cfg := provider.Config{Provider: "deepseek", Model: "deepseek-chat", BaseURL: s.URL, APIKeyEnv: "DEEPSEEK_API_KEY"}
	cfg, err := cfg.WithCredential(providertest.Getenv("DEEPSEEK_API_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := deepseek.New(cfg)
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
}

func completion(content, finish string) string {
	c, _ := json.Marshal(content)
	return `{"id":"d1","object":"chat.completion","created":1,"model":"deepseek-chat","choices":[{"index":0,"message":{"role":"assistant","content":` + string(c) + `},"logprobs":null,"finish_reason":"` + finish + `"}],
	 "usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14,"prompt_tokens_details":{"cached_tokens":6},"prompt_cache_hit_tokens":6,"prompt_cache_miss_tokens":4}}`
}

func TestCompleteRequestShapeJSONModeAndCacheUsage(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, completion(`{"answer":"42"}`, "stop"), "x-request-id", "req_ds"))
	got, err := newClient(t, s).Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	want := provider.Response{Text: `{"answer":"42"}`, Model: "deepseek-chat", RequestID: "req_ds", Stop: "end",
		Usage: provider.Usage{InputTokens: 10, OutputTokens: 4, TotalTokens: 14, CacheReadTokens: 6}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	r := s.Requests()[0]
	if r.Method != "POST" || r.Path != "/chat/completions" || r.Header.Get("Authorization") != "Bearer "+providertest.Key {
		t.Fatalf("%s %s auth=%v", r.Method, r.Path, r.Header.Get("Authorization") != "")
	}
	var body struct {
		Model          string
		MaxTokens      int `json:"max_tokens"`
		Stream         bool
		ResponseFormat struct{ Type string } `json:"response_format"`
		Messages       []struct{ Role, Content string }
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "deepseek-chat" || body.MaxTokens != 1024 || body.Stream || body.ResponseFormat.Type != "json_object" || len(body.Messages) != 2 {
		t.Fatalf("body %s", r.Body)
	}
	sys := body.Messages[0]
	if sys.Role != "system" || !strings.HasPrefix(sys.Content, "Answer from the evidence only.\n\n") ||
		!strings.Contains(sys.Content, "json") || !strings.HasSuffix(sys.Content, schema) {
		t.Fatalf("system message %q", sys.Content)
	}
	if body.Messages[1].Role != "user" || body.Messages[1].Content != `{"question":"why?"}` {
		t.Fatalf("user message %+v", body.Messages[1])
	}
}

func TestCompleteRefusesBlankOrInconsistentAnswers(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, completion("   ", "stop")))
	_, err := newClient(t, s).Complete(context.Background(), request())
	wantCode(t, err, provider.CodeResponseMalformed)

	bad := strings.Replace(completion(`{"answer":"x"}`, "stop"), `"prompt_cache_miss_tokens":4`, `"prompt_cache_miss_tokens":5`, 1)
	s = providertest.NewServer(t, providertest.JSON(200, bad))
	_, err = newClient(t, s).Complete(context.Background(), request())
	wantCode(t, err, provider.CodeResponseMalformed)

	s = providertest.NewServer(t, providertest.JSON(200, completion(`{"answer":"x"}`, "insufficient_system_resource")))
	_, err = newClient(t, s).Complete(context.Background(), request())
	wantCode(t, err, provider.CodeUnavailable)

	s = providertest.NewServer(t, providertest.JSON(200, completion(`{"ans`, "length")))
	got, err := newClient(t, s).Complete(context.Background(), request())
	if err != nil || got.Stop != provider.StopMaxTokens {
		t.Fatalf("length: %+v %v", got, err)
	}
}

func TestStreamIsUnsupportedWithoutIO(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(500, `{}`))
	c := newClient(t, s)
	if p := c.Profile(); p.Streaming || p.OrderedOutput {
		t.Fatalf("deepseek declares streaming or ordered output: %+v", p)
	}
	_, err := c.Stream(context.Background(), request(), nil)
	wantCode(t, err, provider.CodeStreamingUnsupported)
	if n := s.Count(); n != 0 {
		t.Fatalf("server saw %d requests", n)
	}
}

// TestEchoedKeyIsScrubbedFromResponseAndLogs: a successful call whose
// request id headers and model name echo the key returns and logs the
// redaction marker instead.
func TestEchoedKeyIsScrubbedFromResponseAndLogs(t *testing.T) {
	var logs providertest.Logs
	s := providertest.NewServer(t, providertest.EchoKey(providertest.JSON(200,
		strings.Replace(completion(`{"answer":"42"}`, "stop"), `"model":"deepseek-chat"`, `"model":"`+providertest.Key+`"`, 1))))
	cfg := provider.Config{Provider: "deepseek", Model: "deepseek-chat", BaseURL: s.URL, APIKeyEnv: "DEEPSEEK_API_KEY", Logger: logs.Logger()}
	cfg, err := cfg.WithCredential(providertest.Getenv("DEEPSEEK_API_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := deepseek.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if got.RequestID != "[REDACTED]" || got.Model != "[REDACTED]" {
		t.Fatalf("request id %q model %q", got.RequestID, got.Model)
	}
	providertest.NoKey(t, fmt.Sprintf("%+v", got), logs.String())
}

// Chat completions carry no tool loop here: a request with tools is
// refused with a stable code before any I/O.
func TestToolsAreRefusedBeforeIO(t *testing.T) {
	s := providertest.NewServer(t, providertest.JSON(200, `{}`))
	r := request()
	r.Tools = []provider.Tool{{Name: "search_docs", Description: "Search.", Parameters: json.RawMessage(`{"type":"object"}`)}}
	_, err := newClient(t, s).Complete(context.Background(), r)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Code != provider.CodeToolsUnsupported || s.Count() != 0 {
		t.Fatalf("%v, %d requests", err, s.Count())
	}
}
