package openai

import (
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
}

type wireReason struct {
	Reason string `json:"reason"`
}

type wireItem struct {
	Type    string     `json:"type"`
	ID      string     `json:"id"`
	Role    string     `json:"role"`
	Content []wirePart `json:"content"`
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
	var parts []string
	for _, it := range w.Output {
		switch it.Type {
		case "message":
			if it.Role != "assistant" {
				return nil, provider.Malformed("an output message is not from the assistant")
			}
			for _, p := range it.Content {
				switch p.Type {
				case "output_text":
					parts = append(parts, p.Text)
				case "refusal":
					return nil, provider.NewError(provider.CodeRefused, "the model refused to answer")
				default:
					return nil, provider.Malformed("an output message has an unsupported content part")
				}
			}
		case "reasoning":
			// Reasoning items carry no answer text; they are not requested.
		default:
			return nil, provider.Malformed("the response has an output item this adapter does not request")
		}
	}
	return parts, nil
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
	parts, err := w.texts()
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
	return provider.Response{Text: strings.Join(parts, ""), Model: w.Model, Usage: u, Stop: stop}, nil
}
