package openai

import (
	"encoding/json"
	"strings"

	"github.com/askplane/askplane/internal/provider"
)

// wireResponse is the Response object, as a unary body and as the
// snapshot inside response.created / response.completed events.
type wireResponse struct {
	ID                string      `json:"id"`
	Object            string      `json:"object"`
	Status            string      `json:"status"`
	Model             string      `json:"model"`
	Output            []wireItem  `json:"output"`
	Usage             *wireUsage  `json:"usage"`
	IncompleteDetails *wireReason `json:"incomplete_details"`

	rawOutput json.RawMessage // the output array as the provider sent it
}

// UnmarshalJSON keeps the output array's own bytes beside its decoding:
// a tool call's continuation sends them back, not a re-encoding.
func (w *wireResponse) UnmarshalJSON(b []byte) error {
	type plain wireResponse
	var aux struct {
		*plain
		Output json.RawMessage `json:"output"`
	}
	aux.plain = (*plain)(w)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	w.rawOutput, w.Output = aux.Output, nil
	if len(aux.Output) == 0 || string(aux.Output) == "null" {
		return nil
	}
	return json.Unmarshal(aux.Output, &w.Output)
}

type wireReason struct {
	Reason string `json:"reason"`
}

type wireItem struct {
	Type    string     `json:"type"`
	ID      string     `json:"id"`
	Role    string     `json:"role"`
	Content []wirePart `json:"content"`
	// function_call items
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wirePart struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

type wireUsage struct {
	InputTokens        int  `json:"input_tokens"`
	OutputTokens       int  `json:"output_tokens"`
	TotalTokens        *int `json:"total_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
}

// texts returns the output_text parts in order, or a refusal error, or a
// malformed error for an output item this adapter never asks for.
func (w *wireResponse) texts() ([]string, error) {
	parts, _, err := w.items()
	return parts, err
}

// items returns the output_text parts and the function calls, in order;
// whether a call was offered is the caller's check (provider.CheckCalls).
func (w *wireResponse) items() ([]string, []provider.ToolCall, error) {
	var parts []string
	var calls []provider.ToolCall
	for _, it := range w.Output {
		switch it.Type {
		case "message":
			if it.Role != "assistant" {
				return nil, nil, provider.Malformed("an output message is not from the assistant")
			}
			for _, p := range it.Content {
				switch p.Type {
				case "output_text":
					parts = append(parts, p.Text)
				case "refusal":
					return nil, nil, provider.NewError(provider.CodeRefused, "the model refused to answer")
				default:
					return nil, nil, provider.Malformed("an output message has an unsupported content part")
				}
			}
		case "reasoning":
			// Reasoning items carry no answer text; they are not requested.
		case "function_call":
			if it.CallID == "" || it.Name == "" {
				return nil, nil, provider.Malformed("a function_call item lacks its call_id or name")
			}
			calls = append(calls, provider.ToolCall{ID: it.CallID, Name: it.Name, Arguments: json.RawMessage(it.Arguments)})
		default:
			return nil, nil, provider.Malformed("the response has an output item this adapter does not request")
		}
	}
	return parts, calls, nil
}

func (w *wireResponse) toResponse() (provider.Response, error) {
	if w.ID == "" || w.Model == "" || (w.Object != "" && w.Object != "response") {
		return provider.Response{}, provider.Malformed("the response lacks an id or model")
	}
	var stop string
	switch w.Status {
	case "completed":
		stop = provider.StopEnd
	case "incomplete":
		reason := ""
		if w.IncompleteDetails != nil {
			reason = w.IncompleteDetails.Reason
		}
		switch reason {
		case "max_output_tokens":
			stop = provider.StopMaxTokens
		case "content_filter":
			stop = provider.StopContentFilter
		default:
			return provider.Response{}, provider.NewError(provider.CodeUnsupportedStopReason, "the response is incomplete for an unsupported reason")
		}
	case "failed", "cancelled":
		return provider.Response{}, provider.NewError(provider.CodeFailed, "the provider reports the response failed")
	default:
		return provider.Response{}, provider.Malformed("the response is not in a terminal status")
	}
	parts, calls, err := w.items()
	if err != nil {
		return provider.Response{}, err
	}
	if w.Usage == nil {
		return provider.Response{}, provider.Malformed("the response has no usage")
	}
	u := provider.Usage{
		InputTokens:     w.Usage.InputTokens,
		OutputTokens:    w.Usage.OutputTokens,
		CacheReadTokens: w.Usage.InputTokensDetails.CachedTokens,
	}
	if w.Usage.TotalTokens != nil {
		u.TotalTokens = *w.Usage.TotalTokens
	}
	u, err = provider.CheckUsage(u, w.Usage.TotalTokens != nil)
	if err != nil {
		return provider.Response{}, err
	}
	if len(calls) > 0 && stop != provider.StopEnd {
		return provider.Response{}, provider.Malformed("an incomplete response proposes tool calls")
	}
	return provider.Response{Text: strings.Join(parts, ""), Model: w.Model, Usage: u, Stop: stop, Calls: calls}, nil
}
