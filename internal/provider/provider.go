package provider

import (
	"context"
	"encoding/json"
	"time"
)

// Request is one model call, already typed and checked by internal/contract.
type Request struct {
	Model           string
	Instructions    string        // trusted system/developer text
	Input           string        // the user-turn content (the JSON of the typed input)
	Output          *OutputSchema // nil: free text; else JSON constrained by the schema
	MaxOutputTokens int
	// Tools are offered to the model (nil: none); ToolChoice says whether
	// it may call them; Transcript is the tool loop so far, continued by
	// this call (see tools.go).
	Tools      []Tool
	ToolChoice ToolChoice
	Transcript Transcript
}

// OutputSchema is a model-visible JSON Schema that constrains the output.
type OutputSchema struct {
	Name   string          // ^[a-zA-Z0-9_-]{1,64}$
	Schema json.RawMessage // JSON Schema 2020-12 document (canonical bytes)
}

// Usage is token accounting normalized across providers.
type Usage struct{ InputTokens, OutputTokens, TotalTokens, CacheReadTokens, CacheWriteTokens int }

// Response is a completed, checked model response.
type Response struct {
	Text      string // complete output text (JSON text when Output was set)
	Model     string // model the provider reports
	RequestID string // provider request id header, kept for support
	Usage     Usage
	Stop      string // normalized stop reason
	// Calls are the tool calls the model proposed, in its order; with
	// them Stop is StopToolCalls and Replay is the provider's output,
	// sealed, to be sent back in the continuation.
	Calls  []ToolCall
	Replay *Replay
}

// Profile is what a provider can do; internal/contract's Bind checks it.
type Profile struct {
	Name             string // "openai", "anthropic", "deepseek", "openai-compatible"
	Streaming        bool
	StructuredOutput bool // accepts a model-visible JSON schema
	// OrderedOutput: with an output schema, the provider's structured
	// output writes an object's members in the order the schema lists its
	// properties (strict constrained decoding), so a consumer may read a
	// streamed answer member by member. False unless the provider
	// documents it; a consumer that needs the order must not stream
	// without it (and should still check the order it gets).
	OrderedOutput  bool
	MaxSchemaBytes int
	// Tools: the binding offers tools (unary calls only) and continues a
	// transcript whose replays are in the Replay format.
	Tools  bool
	Replay string
}

// Client is one configured provider adapter.
type Client interface {
	Profile() Profile
	// Complete makes one call and returns the full, checked response.
	Complete(ctx context.Context, r Request) (Response, error)
	// Stream makes one streaming call, calling onDelta for each text delta
	// as it arrives; it returns the completed response only when the stream
	// completed properly (see the SSE accumulator). Providers without
	// streaming return an error with code PROVIDER_STREAMING_UNSUPPORTED.
	Stream(ctx context.Context, r Request, onDelta func(string) error) (Response, error)
}

// Error is every provider failure: a stable Code, public-safe Message,
// optional RetryAfter advice, HTTP Status; never a secret or payload.
type Error struct {
	Code       string
	Message    string
	Status     int
	RetryAfter time.Duration

	cause error // for errors.Is only; never printed
}
