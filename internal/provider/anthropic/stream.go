package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/askplane/askplane/internal/provider"
)

type wireEvent struct {
	Type         string       `json:"type"`
	Message      *wireMessage `json:"message"`
	Index        *int         `json:"index"`
	ContentBlock *wireBlock   `json:"content_block"`
	Delta        *wireDelta   `json:"delta"`
	Usage        *wireUsage   `json:"usage"`
	Error        *wireError   `json:"error"`
}

type wireDelta struct {
	Type       string  `json:"type"`
	Text       string  `json:"text"`
	StopReason *string `json:"stop_reason"`
}

type wireError struct {
	Type string `json:"type"`
}

type block struct {
	text   bool
	closed bool
}

// Accumulator checks a Messages API event stream and builds the completed
// response. The rules (each refusal poisons it):
//   - the SSE event name, when present, equals the JSON type;
//   - message_start comes first and once, for an assistant message;
//   - content blocks start at index 0 and count up by one; deltas go to
//     the open block and match its kind; every block stops once;
//   - message_delta comes once, after every block stopped, with a
//     stop_reason and cumulative usage that never goes below what
//     message_start reported (the terminal cross-check: a replaced or
//     rewound usage is refused);
//   - message_stop is the single terminal event and needs message_delta;
//   - an error event fails the call (overloaded → PROVIDER_UNAVAILABLE,
//     rate_limit_error → PROVIDER_RATE_LIMITED).
type Accumulator struct {
	guard   provider.StreamGuard
	started bool
	msg     wireMessage
	usage   wireUsage
	blocks  []block
	text    strings.Builder
	stop    *string
}

// NewAccumulator returns an empty accumulator for one stream.
func NewAccumulator() *Accumulator {
	return &Accumulator{guard: provider.StreamGuard{Terminal: "message_stop"}}
}

// Done reports whether the terminal event was accepted.
func (a *Accumulator) Done() bool { return a.guard.Done() }

// Response returns the checked response once Done.
func (a *Accumulator) Response() (provider.Response, error) { return a.guard.Response() }

func (a *Accumulator) fail(e *provider.Error) (string, error) { return "", a.guard.Fail(e) }

// Add consumes one SSE event.
func (a *Accumulator) Add(ev provider.Event) (string, error) {
	if err := a.guard.Check(); err != nil {
		return "", err
	}
	var w wireEvent
	if err := json.Unmarshal(ev.Data, &w); err != nil || w.Type == "" {
		return a.fail(provider.Malformed("a stream event is not a Messages API event"))
	}
	if ev.Name != "message" && ev.Name != w.Type {
		return a.fail(provider.StreamInvalid("the SSE event name does not match the event type"))
	}
	if w.Type == "ping" {
		return "", nil
	}
	if w.Type == "error" {
		return a.fail(streamError(w.Error))
	}
	if !a.started && w.Type != "message_start" {
		return a.fail(provider.StreamInvalid("the stream does not start with message_start"))
	}
	switch w.Type {
	case "message_start":
		if a.started {
			return a.fail(provider.StreamInvalid("message_start was repeated"))
		}
		m := w.Message
		if m == nil || m.Type != "message" || m.Role != "assistant" || m.ID == "" || m.Model == "" ||
			m.Usage == nil || m.Usage.InputTokens == nil {
			return a.fail(provider.Malformed("message_start is not an assistant message with id, model and usage"))
		}
		a.started, a.msg, a.usage = true, *m, *m.Usage
	case "content_block_start":
		if w.Index == nil || *w.Index != len(a.blocks) || w.ContentBlock == nil {
			return a.fail(provider.StreamInvalid("a content block started out of order"))
		}
		if n := len(a.blocks); n > 0 && !a.blocks[n-1].closed {
			return a.fail(provider.StreamInvalid("a content block started while another was open"))
		}
		if a.stop != nil {
			return a.fail(provider.StreamInvalid("a content block started after message_delta"))
		}
		switch w.ContentBlock.Type {
		case "text":
			a.blocks = append(a.blocks, block{text: true})
			a.text.WriteString(w.ContentBlock.Text)
			return w.ContentBlock.Text, nil
		case "thinking", "redacted_thinking":
			a.blocks = append(a.blocks, block{})
		default:
			return a.fail(provider.Malformed("the stream has a content block this adapter does not request"))
		}
	case "content_block_delta":
		b, err := a.open(w.Index)
		if err != nil {
			return a.fail(err)
		}
		if w.Delta == nil {
			return a.fail(provider.Malformed("content_block_delta has no delta"))
		}
		switch {
		case w.Delta.Type == "text_delta" && b.text:
			a.text.WriteString(w.Delta.Text)
			return w.Delta.Text, nil
		case (w.Delta.Type == "thinking_delta" || w.Delta.Type == "signature_delta") && !b.text:
		default:
			return a.fail(provider.StreamInvalid("a delta does not match its content block's kind"))
		}
	case "content_block_stop":
		b, err := a.open(w.Index)
		if err != nil {
			return a.fail(err)
		}
		b.closed = true
	case "message_delta":
		if provider.CheckJSON(ev.Data) != nil {
			return a.fail(provider.Malformed("message_delta repeats a member name or nests too deep"))
		}
		return "", a.messageDelta(w)
	case "message_stop":
		return "", a.terminal()
	default:
		// Event types added later carry nothing this adapter needs.
	}
	return "", nil
}

func (a *Accumulator) open(i *int) (*block, *provider.Error) {
	if i == nil || *i < 0 || *i >= len(a.blocks) {
		return nil, provider.StreamInvalid("an event names a content block that never started")
	}
	b := &a.blocks[*i]
	if b.closed {
		return nil, provider.StreamInvalid("an event names a content block that already stopped")
	}
	return b, nil
}

// messageDelta merges the cumulative usage: every count it carries must
// be at least what was already reported.
func (a *Accumulator) messageDelta(w wireEvent) error {
	if a.stop != nil {
		return a.guard.Fail(provider.StreamInvalid("message_delta was repeated (replaced terminal data)"))
	}
	for _, b := range a.blocks {
		if !b.closed {
			return a.guard.Fail(provider.StreamInvalid("message_delta arrived while a content block was open"))
		}
	}
	if w.Delta == nil || w.Delta.StopReason == nil || w.Usage == nil || w.Usage.OutputTokens == nil {
		return a.guard.Fail(provider.Malformed("message_delta lacks stop_reason or output usage"))
	}
	merge := func(old **int, nw *int) bool {
		if nw == nil {
			return true
		}
		if *old != nil && *nw < **old {
			return false
		}
		*old = nw
		return true
	}
	u := &a.usage
	if !merge(&u.InputTokens, w.Usage.InputTokens) || !merge(&u.OutputTokens, w.Usage.OutputTokens) ||
		!merge(&u.CacheCreationInputTokens, w.Usage.CacheCreationInputTokens) ||
		!merge(&u.CacheReadInputTokens, w.Usage.CacheReadInputTokens) {
		return a.guard.Fail(provider.StreamMismatch("message_delta usage is below what message_start reported"))
	}
	a.stop = w.Delta.StopReason
	return nil
}

func (a *Accumulator) terminal() error {
	if a.stop == nil {
		return a.guard.Fail(provider.StreamInvalid("message_stop arrived without message_delta"))
	}
	m := a.msg
	m.StopReason = a.stop
	m.Usage = &a.usage
	m.Content = []wireBlock{{Type: "text", Text: a.text.String()}}
	out, err := m.toResponse()
	if err != nil {
		return a.guard.Fail(err)
	}
	a.guard.Finish(out)
	return nil
}

func streamError(e *wireError) *provider.Error {
	t := ""
	if e != nil {
		t = e.Type
	}
	switch t {
	case "overloaded_error", "api_error":
		return provider.NewError(provider.CodeUnavailable, "the provider reported it is overloaded mid-stream; the call was not retried")
	case "rate_limit_error":
		return provider.NewError(provider.CodeRateLimited, "the provider rate limited the stream; the call was not retried")
	default:
		return provider.NewError(provider.CodeFailed, "the provider reported a failure in the stream")
	}
}

var _ provider.Accumulator = (*Accumulator)(nil)
