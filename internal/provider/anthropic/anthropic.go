// Package anthropic is the Anthropic Messages API adapter
// (POST <base>/messages, anthropic-version 2023-06-01), with structured
// output through output_config.format json_schema.
package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/askplane/askplane/internal/provider"
)

// DefaultBaseURL is Anthropic's API root.
const DefaultBaseURL = "https://api.anthropic.com/v1/"

// Version is the anthropic-version header this adapter's wire mapping
// was written against.
const Version = "2023-06-01"

// MaxSchemaBytes bounds the model-visible output schema.
const MaxSchemaBytes = 256 << 10

// Client calls the Messages API. It is safe for concurrent use.
type Client struct {
	cfg     provider.Config
	profile provider.Profile
	t       *provider.Transport
}

// New builds a client for cfg.Provider "anthropic".
func New(cfg provider.Config) (*Client, error) {
	if cfg.Provider != provider.NameAnthropic {
		return nil, provider.NewError(provider.CodeConfigInvalid, "the anthropic adapter serves provider anthropic")
	}
	t, err := provider.NewTransport(cfg, provider.TransportOptions{
		DefaultBaseURL:   DefaultBaseURL,
		Auth:             provider.Auth{Header: "x-api-key"},
		Header:           http.Header{"Anthropic-Version": {Version}},
		RequestIDHeaders: []string{"request-id", "x-request-id"},
	})
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, t: t, profile: provider.Profile{
		Name:             provider.NameAnthropic,
		Streaming:        true,
		StructuredOutput: true,
		// Constrained decoding keeps the schema's property order for
		// required members, and every member of an output is required.
		OrderedOutput:  true,
		MaxSchemaBytes: MaxSchemaBytes,
		Tools:          true,
		Replay:         provider.ReplayAnthropic,
	}}, nil
}

// Profile reports what this binding can do.
func (c *Client) Profile() provider.Profile { return c.profile }

// Complete makes one non-streaming call.
func (c *Client) Complete(ctx context.Context, r provider.Request) (provider.Response, error) {
	body, err := c.body(r, false)
	if err != nil {
		return provider.Response{}, err
	}
	var raw []byte
	resp, err := provider.CompleteAs(ctx, c.t, provider.Call{Path: "messages", Body: body}, "the response is not a Messages API message",
		func(w *wireMessage) (provider.Response, error) { raw = w.rawContent; return w.toResponse() })
	if err != nil {
		return provider.Response{}, err
	}
	return provider.CheckCalls(resp, r, provider.ReplayAnthropic, raw)
}

// Stream makes one streaming call; see provider.Client.
func (c *Client) Stream(ctx context.Context, r provider.Request, onDelta func(string) error) (provider.Response, error) {
	if err := provider.CheckStreamable(r); err != nil {
		return provider.Response{}, err
	}
	body, err := c.body(r, true)
	if err != nil {
		return provider.Response{}, err
	}
	resp, err := c.t.Stream(ctx, provider.Call{Path: "messages", Body: body}, NewAccumulator(), onDelta)
	if err != nil {
		return provider.Response{}, err
	}
	return provider.CheckCalls(resp, r, provider.ReplayAnthropic, nil)
}

// Format prints the profile and model only (never the credential).
func (c *Client) Format(f fmt.State, verb rune) {
	provider.FormatClient(f, verb, c.profile, c.cfg.Model)
}

type wireRequest struct {
	Model        string          `json:"model"`
	MaxTokens    int             `json:"max_tokens"`
	System       []wireBlock     `json:"system,omitempty"`
	Messages     []wireMessageIn `json:"messages"`
	Stream       bool            `json:"stream"`
	OutputConfig *wireOutput     `json:"output_config,omitempty"`
	Tools        []wireTool      `json:"tools,omitempty"`
	ToolChoice   *wireToolChoice `json:"tool_choice,omitempty"`
}

// wireMessageIn is one input message; Content is []wireBlock, a replayed
// assistant content array (json.RawMessage) or []wireToolResult.
type wireMessageIn struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// wireBlock is a content block: text in requests; text, thinking and
// tool_use (id, name, input) in responses.
type wireBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type wireToolChoice struct {
	Type string `json:"type"` // auto or none
}

// wireToolResult answers one tool_use block, by its id.
type wireToolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error,omitempty"`
}

type wireOutput struct {
	Format wireFormat `json:"format"`
}

type wireFormat struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

func (c *Client) body(r provider.Request, stream bool) (wireRequest, error) {
	ck, err := provider.Prepare(r, c.cfg, c.profile)
	if err != nil {
		return wireRequest{}, err
	}
	w := wireRequest{
		Model:     ck.Model,
		MaxTokens: ck.MaxOutputTokens,
		Messages:  []wireMessageIn{{Role: "user", Content: []wireBlock{{Type: "text", Text: ck.Input}}}},
		Stream:    stream,
	}
	if ck.Instructions != "" {
		w.System = []wireBlock{{Type: "text", Text: ck.Instructions}}
	}
	if ck.Output != nil {
		w.OutputConfig = &wireOutput{Format: wireFormat{Type: "json_schema", Schema: ck.Output.Schema}}
	}
	if len(ck.Tools) == 0 {
		return w, nil
	}
	for _, t := range ck.Tools {
		w.Tools = append(w.Tools, wireTool{Name: t.Name, Description: t.Description, InputSchema: t.Parameters})
	}
	w.ToolChoice = &wireToolChoice{Type: "auto"}
	if ck.ToolChoice == provider.ToolChoiceNone {
		w.ToolChoice.Type = "none"
	}
	if err := provider.CheckReplayCalls(ck.Transcript, replayCalls); err != nil {
		return wireRequest{}, err
	}
	// A continuation is, per turn, the assistant's content exactly as
	// sealed, then one user message of the tool_result blocks, one per
	// tool_use, in its order.
	for _, turn := range ck.Transcript.Turns {
		w.Messages = append(w.Messages, wireMessageIn{Role: "assistant", Content: turn.Replay.Payload})
		results := make([]wireToolResult, 0, len(turn.Outcomes))
		for _, o := range turn.Outcomes {
			results = append(results, wireToolResult{Type: "tool_result", ToolUseID: o.CallID, Content: o.OutcomeText(), IsError: o.Error != ""})
		}
		w.Messages = append(w.Messages, wireMessageIn{Role: "user", Content: results})
	}
	return w, nil
}

// replayCalls reads the tool_use blocks of a sealed content array.
func replayCalls(payload json.RawMessage) ([]provider.ToolCall, error) {
	var blocks []wireBlock
	if err := json.Unmarshal(payload, &blocks); err != nil {
		return nil, err
	}
	var calls []provider.ToolCall
	for _, b := range blocks {
		if b.Type == "tool_use" {
			calls = append(calls, provider.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
		}
	}
	return calls, nil
}

var _ provider.Client = (*Client)(nil)
