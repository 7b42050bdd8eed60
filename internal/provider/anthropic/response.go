package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/askplane/askplane/internal/provider"
)

// wireMessage is a Message object: the unary body and the snapshot in
// message_start.
type wireMessage struct {
	ID         string      `json:"id"`
	Type       string      `json:"type"`
	Role       string      `json:"role"`
	Model      string      `json:"model"`
	Content    []wireBlock `json:"content"`
	StopReason *string     `json:"stop_reason"`
	Usage      *wireUsage  `json:"usage"`

	rawContent json.RawMessage // the content array as the provider sent it
}

// UnmarshalJSON keeps the content array's own bytes beside its decoding:
// a tool call's continuation sends them back as the assistant turn.
func (w *wireMessage) UnmarshalJSON(b []byte) error {
	type plain wireMessage
	var aux struct {
		*plain
		Content json.RawMessage `json:"content"`
	}
	aux.plain = (*plain)(w)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	w.rawContent, w.Content = aux.Content, nil
	if len(aux.Content) == 0 || string(aux.Content) == "null" {
		return nil
	}
	return json.Unmarshal(aux.Content, &w.Content)
}

// wireUsage is Anthropic's usage. input_tokens excludes cached tokens:
// the adapter normalizes to an inclusive InputTokens.
type wireUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
}

func val(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// normalize returns the inclusive provider.Usage.
func (u *wireUsage) normalize() (provider.Usage, error) {
	in, write, read := val(u.InputTokens), val(u.CacheCreationInputTokens), val(u.CacheReadInputTokens)
	return provider.CheckUsage(provider.Usage{
		InputTokens:      in + write + read,
		OutputTokens:     val(u.OutputTokens),
		CacheReadTokens:  read,
		CacheWriteTokens: write,
	}, false)
}

// stopReason maps Anthropic's stop_reason; refusal and the tool/pause
// reasons this adapter never asks for are errors.
func stopReason(s string) (string, error) {
	switch s {
	case "end_turn", "stop_sequence":
		return provider.StopEnd, nil
	case "max_tokens":
		return provider.StopMaxTokens, nil
	case "tool_use":
		return provider.StopToolCalls, nil
	case "model_context_window_exceeded":
		return provider.StopContextWindow, nil
	case "refusal":
		return "", provider.NewError(provider.CodeRefused, "the model refused to answer")
	default:
		return "", provider.NewError(provider.CodeUnsupportedStopReason, "the message stopped for a reason this adapter does not support")
	}
}

func (w *wireMessage) toResponse() (provider.Response, error) {
	if w.Type != "message" || w.Role != "assistant" || w.ID == "" || w.Model == "" {
		return provider.Response{}, provider.Malformed("the response is not an assistant message with an id and model")
	}
	if w.StopReason == nil {
		return provider.Response{}, provider.Malformed("the message has no stop_reason")
	}
	stop, err := stopReason(*w.StopReason)
	if err != nil {
		return provider.Response{}, err
	}
	var text strings.Builder
	var calls []provider.ToolCall
	for _, b := range w.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			if b.ID == "" || b.Name == "" {
				return provider.Response{}, provider.Malformed("a tool_use block lacks its id or name")
			}
			calls = append(calls, provider.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
		case "thinking", "redacted_thinking":
		default:
			return provider.Response{}, provider.Malformed("the message has a content block this adapter does not request")
		}
	}
	if w.Usage == nil || w.Usage.InputTokens == nil || w.Usage.OutputTokens == nil {
		return provider.Response{}, provider.Malformed("the message has no usage")
	}
	u, err := w.Usage.normalize()
	if err != nil {
		return provider.Response{}, err
	}
	if (stop == provider.StopToolCalls) != (len(calls) > 0) {
		return provider.Response{}, provider.Malformed("tool_use blocks and the tool_use stop reason disagree")
	}
	return provider.Response{Text: text.String(), Model: w.Model, Usage: u, Stop: stop, Calls: calls}, nil
}
