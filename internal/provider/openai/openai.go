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
	return provider.CompleteAs(ctx, c.t, provider.Call{Path: "responses", Body: body}, "the response is not a Responses API object",
		(*wireResponse).toResponse)
}

// Stream makes one streaming call; see provider.Client.
func (c *Client) Stream(ctx context.Context, r provider.Request, onDelta func(string) error) (provider.Response, error) {
	body, err := c.body(r, true)
	if err != nil {
		return provider.Response{}, err
	}
	return c.t.Stream(ctx, provider.Call{Path: "responses", Body: body}, NewAccumulator(), onDelta)
}

// Format prints the profile and model only (never the credential).
func (c *Client) Format(f fmt.State, verb rune) {
	provider.FormatClient(f, verb, c.profile, c.cfg.Model)
}

// wireRequest is the Responses API create body this adapter sends.
type wireRequest struct {
	Model           string      `json:"model"`
	Instructions    string      `json:"instructions,omitempty"`
	Input           []wireInput `json:"input"`
	MaxOutputTokens int         `json:"max_output_tokens"`
	Store           bool        `json:"store"`
	Stream          bool        `json:"stream"`
	Text            *wireText   `json:"text,omitempty"`
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
		Input:           []wireInput{{Role: "user", Content: []wireInputPart{{Type: "input_text", Text: ck.Input}}}},
		MaxOutputTokens: ck.MaxOutputTokens,
		Store:           false, // nothing is kept provider-side for later retrieval
		Stream:          stream,
	}
	if ck.Output != nil {
		w.Text = &wireText{Format: wireFormat{Type: "json_schema", Name: ck.Output.Name, Strict: true, Schema: ck.Output.Schema}}
	}
	return w, nil
}

var _ provider.Client = (*Client)(nil)
