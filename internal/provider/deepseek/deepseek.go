// Package deepseek is the DeepSeek adapter: the OpenAI-compatible chat
// completions wire at https://api.deepseek.com (POST <base>/chat/completions),
// complete-only.
//
// DeepSeek's JSON Output takes response_format {"type":"json_object"} and
// no schema, and its docs require the word "json" in the prompt. So when a
// Request has an Output schema, the adapter asks for json_object and puts
// the schema into the system message: the schema is model-visible through
// the prompt, not enforced by the provider's decoder. The adapter checks
// the answer is one JSON value; schema validation is internal/contract's job
// for every provider.
//
// Streaming is not declared (Profile.Streaming false): Stream returns
// PROVIDER_STREAMING_UNSUPPORTED before any I/O.
package deepseek

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askplane/askplane/internal/provider"
)

// DefaultBaseURL is DeepSeek's API root.
const DefaultBaseURL = "https://api.deepseek.com/"

// MaxSchemaBytes is smaller than for providers with native schemas: the
// schema travels in the prompt and costs input tokens on every call.
const MaxSchemaBytes = 64 << 10

// Client calls DeepSeek chat completions. It is safe for concurrent use.
type Client struct {
	cfg     provider.Config
	profile provider.Profile
	t       *provider.Transport
}

// New builds a client for cfg.Provider "deepseek".
func New(cfg provider.Config) (*Client, error) {
	if cfg.Provider != provider.NameDeepSeek {
		return nil, provider.NewError(provider.CodeConfigInvalid, "the deepseek adapter serves provider deepseek")
	}
	t, err := provider.NewTransport(cfg, provider.TransportOptions{
		DefaultBaseURL:   DefaultBaseURL,
		Auth:             provider.Auth{Header: "Authorization", Prefix: "Bearer "},
		RequestIDHeaders: []string{"x-request-id", "x-ds-trace-id"},
	})
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, t: t, profile: provider.Profile{
		Name:             provider.NameDeepSeek,
		Streaming:        false,
		StructuredOutput: true,
		OrderedOutput:    false, // JSON mode is unconstrained, and there is no stream to read in order
		MaxSchemaBytes:   MaxSchemaBytes,
	}}, nil
}

// Profile reports what this binding can do.
func (c *Client) Profile() provider.Profile { return c.profile }

// Stream is not supported: it fails before any I/O.
func (c *Client) Stream(context.Context, provider.Request, func(string) error) (provider.Response, error) {
	return provider.Response{}, provider.StreamingUnsupported()
}

// Format prints the profile and model only (never the credential).
func (c *Client) Format(f fmt.State, verb rune) {
	provider.FormatClient(f, verb, c.profile, c.cfg.Model)
}

type wireRequest struct {
	Model          string        `json:"model"`
	Messages       []wireMessage `json:"messages"`
	MaxTokens      int           `json:"max_tokens"`
	Stream         bool          `json:"stream"`
	ResponseFormat wireFormat    `json:"response_format"`
}

type wireMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type wireFormat struct {
	Type string `json:"type"`
}

type wireResponse struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
}

type wireChoice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message"`
	FinishReason *string      `json:"finish_reason"`
}

type wireUsage struct {
	PromptTokens          int  `json:"prompt_tokens"`
	CompletionTokens      int  `json:"completion_tokens"`
	TotalTokens           *int `json:"total_tokens"`
	PromptCacheHitTokens  *int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens *int `json:"prompt_cache_miss_tokens"`
}

// schemaPreamble introduces the schema in the system message; it contains
// the word "json", which DeepSeek's JSON Output requires.
const schemaPreamble = "Answer with a single json object that conforms to this JSON Schema (draft 2020-12). Output only the json object.\nSchema name: "

func (c *Client) body(r provider.Request) (wireRequest, error) {
	ck, err := provider.Prepare(r, c.cfg, c.profile)
	if err != nil {
		return wireRequest{}, err
	}
	w := wireRequest{Model: ck.Model, MaxTokens: ck.MaxOutputTokens, ResponseFormat: wireFormat{Type: "text"}}
	system := ck.Instructions
	if ck.Output != nil {
		var b strings.Builder
		b.WriteString(system)
		if system != "" {
			b.WriteString("\n\n")
		}
		b.WriteString(schemaPreamble)
		b.WriteString(ck.Output.Name)
		b.WriteString("\n")
		b.Write(ck.Output.Schema)
		system = b.String()
		w.ResponseFormat.Type = "json_object"
	}
	if system != "" {
		w.Messages = append(w.Messages, wireMessage{Role: "system", Content: system})
	}
	w.Messages = append(w.Messages, wireMessage{Role: "user", Content: ck.Input})
	return w, nil
}

// Complete makes one call.
func (c *Client) Complete(ctx context.Context, r provider.Request) (provider.Response, error) {
	body, err := c.body(r)
	if err != nil {
		return provider.Response{}, err
	}
	return provider.CompleteAs(ctx, c.t, provider.Call{Path: "chat/completions", Body: body}, "the response is not a chat completion",
		func(w *wireResponse) (provider.Response, error) { return w.toResponse(r.Output != nil) })
}

func (w *wireResponse) toResponse(wantJSON bool) (provider.Response, error) {
	if w.ID == "" || w.Model == "" || w.Object != "chat.completion" || len(w.Choices) != 1 {
		return provider.Response{}, provider.Malformed("the response is not a single-choice chat completion")
	}
	ch := w.Choices[0]
	if ch.Index != 0 || ch.Message == nil || ch.Message.Role != "assistant" || ch.FinishReason == nil {
		return provider.Response{}, provider.Malformed("the choice is not a finished assistant message")
	}
	var stop string
	switch *ch.FinishReason {
	case "stop":
		stop = provider.StopEnd
	case "length":
		stop = provider.StopMaxTokens
	case "content_filter":
		stop = provider.StopContentFilter
	case "insufficient_system_resource":
		return provider.Response{}, provider.NewError(provider.CodeUnavailable, "the provider ran out of capacity mid-answer; the call was not retried")
	default:
		return provider.Response{}, provider.NewError(provider.CodeUnsupportedStopReason, "the completion stopped for a reason this adapter does not support")
	}
	text := ch.Message.Content
	if wantJSON && stop == provider.StopEnd {
		// JSON Output may answer with only spaces when the model produced
		// no JSON: that is not an answer.
		if strings.TrimSpace(text) == "" || !json.Valid([]byte(text)) {
			return provider.Response{}, provider.Malformed("the JSON output is empty or not JSON")
		}
	}
	if w.Usage == nil {
		return provider.Response{}, provider.Malformed("the response has no usage")
	}
	u := provider.Usage{
		InputTokens:     w.Usage.PromptTokens,
		OutputTokens:    w.Usage.CompletionTokens,
		CacheReadTokens: deref(w.Usage.PromptCacheHitTokens),
	}
	if w.Usage.PromptCacheHitTokens != nil && w.Usage.PromptCacheMissTokens != nil &&
		*w.Usage.PromptCacheHitTokens+*w.Usage.PromptCacheMissTokens != w.Usage.PromptTokens {
		return provider.Response{}, provider.Malformed("usage cache hit plus miss does not equal prompt tokens")
	}
	if w.Usage.TotalTokens != nil {
		u.TotalTokens = *w.Usage.TotalTokens
	}
	u, err := provider.CheckUsage(u, w.Usage.TotalTokens != nil)
	if err != nil {
		return provider.Response{}, err
	}
	return provider.Response{Text: text, Model: w.Model, Usage: u, Stop: stop}, nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

var _ provider.Client = (*Client)(nil)
