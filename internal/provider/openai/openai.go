// Package openai is the OpenAI Responses API adapter (POST <base>/responses),
// also used for OpenAI-compatible servers (Ollama and others) that serve
// the same wire at a configured base URL.
package openai

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/askplane/askplane/internal/provider"
)

// DefaultBaseURL is OpenAI's API root.
const DefaultBaseURL = "https://api.openai.com/v1/"

// MaxSchemaBytes bounds the model-visible output schema.
const MaxSchemaBytes = 256 << 10

// Client calls the Responses API. It is safe for concurrent use.
type Client struct {
	cfg     provider.Config
	profile provider.Profile
	t       *provider.Transport
}

// New builds a client for cfg.Provider "openai" or "openai-compatible".
// Everything is checked here, before any request can dial.
func New(cfg provider.Config) (*Client, error) {
	if cfg.Provider != provider.NameOpenAI && cfg.Provider != provider.NameOpenAICompatible {
		return nil, provider.NewError(provider.CodeConfigInvalid, "the openai adapter serves provider openai or openai-compatible")
	}
	t, err := provider.NewTransport(cfg, provider.TransportOptions{
		DefaultBaseURL:   DefaultBaseURL,
		Auth:             provider.Auth{Header: "Authorization", Prefix: "Bearer "},
		RequestIDHeaders: []string{"x-request-id"},
	})
	if err != nil {
		return nil, err
	}
	return &Client{
		cfg: cfg,
		t:   t,
		profile: provider.Profile{
			Name:             cfg.Provider,
			Streaming:        true,
			StructuredOutput: true,
			// Strict json_schema output follows the schema's key order;
			// an OpenAI-compatible server may not constrain it at all.
			OrderedOutput:  cfg.Provider == provider.NameOpenAI,
			MaxSchemaBytes: MaxSchemaBytes,
			Tools:          true,
			Replay:         provider.ReplayOpenAI,
		},
	}, nil
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
	resp, err := provider.CompleteAs(ctx, c.t, provider.Call{Path: "responses", Body: body}, "the response is not a Responses API object",
		func(w *wireResponse) (provider.Response, error) { raw = w.rawOutput; return w.toResponse() })
	if err != nil {
		return provider.Response{}, err
	}
	return provider.CheckCalls(resp, r, provider.ReplayOpenAI, raw)
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
	resp, err := c.t.Stream(ctx, provider.Call{Path: "responses", Body: body}, NewAccumulator(), onDelta)
	if err != nil {
		return provider.Response{}, err
	}
	return provider.CheckCalls(resp, r, provider.ReplayOpenAI, nil)
}

// Format prints the profile and model only (never the credential).
func (c *Client) Format(f fmt.State, verb rune) {
	provider.FormatClient(f, verb, c.profile, c.cfg.Model)
}

// wireRequest is the Responses API create body this adapter sends.
type wireRequest struct {
	Model           string     `json:"model"`
	Instructions    string     `json:"instructions,omitempty"`
	Input           []any      `json:"input"` // wireInput, then a transcript's replayed items and outputs
	MaxOutputTokens int        `json:"max_output_tokens"`
	Store           bool       `json:"store"`
	Stream          bool       `json:"stream"`
	Text            *wireText  `json:"text,omitempty"`
	Tools           []wireTool `json:"tools,omitempty"`
	ToolChoice      string     `json:"tool_choice,omitempty"`
	Include         []string   `json:"include,omitempty"`
}

// wireTool is a function tool. strict holds the arguments to the schema,
// which the caller writes in strict form (every property required,
// additionalProperties false).
type wireTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// wireCallOutput answers one function_call, by its call_id.
type wireCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

type wireInput struct {
	Role    string          `json:"role"`
	Content []wireInputPart `json:"content"`
}

type wireInputPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type wireText struct {
	Format wireFormat `json:"format"`
}

type wireFormat struct {
	Type   string          `json:"type"`
	Name   string          `json:"name,omitempty"`
	Strict bool            `json:"strict,omitempty"`
	Schema json.RawMessage `json:"schema,omitempty"`
}

func (c *Client) body(r provider.Request, stream bool) (wireRequest, error) {
	ck, err := provider.Prepare(r, c.cfg, c.profile)
	if err != nil {
		return wireRequest{}, err
	}
	w := wireRequest{
		Model:           ck.Model,
		Instructions:    ck.Instructions,
		Input:           []any{wireInput{Role: "user", Content: []wireInputPart{{Type: "input_text", Text: ck.Input}}}},
		MaxOutputTokens: ck.MaxOutputTokens,
		Store:           false, // nothing is kept provider-side for later retrieval
		Stream:          stream,
	}
	if ck.Output != nil {
		w.Text = &wireText{Format: wireFormat{Type: "json_schema", Name: ck.Output.Name, Strict: true, Schema: ck.Output.Schema}}
	}
	if len(ck.Tools) == 0 {
		return w, nil
	}
	for _, t := range ck.Tools {
		w.Tools = append(w.Tools, wireTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: true})
	}
	w.ToolChoice = "auto"
	if ck.ToolChoice == provider.ToolChoiceNone {
		w.ToolChoice = "none"
	}
	// With store false, a reasoning item can only be replayed with its
	// encrypted content, which is returned only when asked for.
	w.Include = []string{"reasoning.encrypted_content"}
	if err := provider.CheckReplayCalls(ck.Transcript, replayCalls); err != nil {
		return wireRequest{}, err
	}
	// A continuation is the user turn, then each turn's complete output
	// as the provider sent it (reasoning, messages and function_call
	// items, in its order, each item's bytes as sealed), then one
	// function_call_output per call, in the calls' order.
	for _, turn := range ck.Transcript.Turns {
		items, err := provider.ReplayItems(turn.Replay)
		if err != nil {
			return wireRequest{}, err
		}
		for _, it := range items {
			w.Input = append(w.Input, it)
		}
		for _, o := range turn.Outcomes {
			w.Input = append(w.Input, wireCallOutput{Type: "function_call_output", CallID: o.CallID, Output: o.OutcomeText()})
		}
	}
	return w, nil
}

// replayCalls reads the function calls of a sealed output array.
func replayCalls(payload json.RawMessage) ([]provider.ToolCall, error) {
	w := wireResponse{}
	if err := json.Unmarshal(payload, &w.Output); err != nil {
		return nil, err
	}
	_, calls, err := w.items()
	return calls, err
}

var _ provider.Client = (*Client)(nil)
