package openai

import (
	"encoding/json"
	"strings"

	"github.com/askplane/askplane/internal/provider"
)

// wireEvent is the union of the Responses streaming events this adapter
// reads; fields a given type does not carry stay zero.
type wireEvent struct {
	Type           string        `json:"type"`
	SequenceNumber *int64        `json:"sequence_number"`
	Response       *wireResponse `json:"response"`
	OutputIndex    *int          `json:"output_index"`
	ContentIndex   *int          `json:"content_index"`
	Item           *wireItem     `json:"item"`
	Part           *wirePart     `json:"part"`
	Delta          string        `json:"delta"`
	Text           string        `json:"text"`
	RefusalText    string        `json:"refusal"`
}

type partKey struct{ out, content int }

type streamPart struct {
	key     partKey
	refusal bool
	text    strings.Builder
	closed  bool
}

// Accumulator checks a Responses API event stream and builds the
// completed response. The rules (each refusal poisons it):
//   - the SSE event name, when present, equals the JSON type;
//   - sequence_number, when the provider sends it, counts up by one, so a
//     reordered, dropped or repeated event is caught;
//   - response.created comes first and once; everything after carries
//     the same response id;
//   - text deltas go to a content part that was announced, in order, and
//     is still open; output_text.done must equal what the deltas built;
//   - response.completed / response.incomplete is the single terminal
//     event: its snapshot must name the same id and model, close every
//     part, and carry exactly the text the deltas built (the terminal
//     cross-check);
//   - response.failed, response.cancelled and error fail the call.
type Accumulator struct {
	guard   provider.StreamGuard
	seq     int64
	seqMode int // 0 unknown, 1 numbered, 2 unnumbered
	started bool
	id      string
	model   string
	parts   []*streamPart
}

// NewAccumulator returns an empty accumulator for one stream.
func NewAccumulator() *Accumulator {
	return &Accumulator{guard: provider.StreamGuard{Terminal: "the terminal event"}}
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
		return a.fail(provider.Malformed("a stream event is not a Responses API event"))
	}
	if ev.Name != "message" && ev.Name != w.Type {
		return a.fail(provider.StreamInvalid("the SSE event name does not match the event type"))
	}
	if err := a.sequence(w.SequenceNumber); err != nil {
		return a.fail(err)
	}
	if !a.started && w.Type != "response.created" {
		return a.fail(provider.StreamInvalid("the stream does not start with response.created"))
	}
	switch w.Type {
	case "response.created":
		if a.started {
			return a.fail(provider.StreamInvalid("response.created was repeated"))
		}
		if w.Response == nil || w.Response.ID == "" || w.Response.Model == "" {
			return a.fail(provider.Malformed("response.created has no response id or model"))
		}
		a.started, a.id, a.model = true, w.Response.ID, w.Response.Model
	case "response.in_progress", "response.queued":
		if w.Response != nil && w.Response.ID != a.id {
			return a.fail(provider.StreamMismatch("an event names another response id"))
		}
	case "response.output_item.added":
		if w.Item == nil || (w.Item.Type != "message" && w.Item.Type != "reasoning") {
			return a.fail(provider.Malformed("the stream has an output item this adapter does not request"))
		}
	case "response.content_part.added":
		return "", a.addPart(w)
	case "response.output_text.delta", "response.refusal.delta":
		p, err := a.open(w, w.Type == "response.refusal.delta")
		if err != nil {
			return a.fail(err)
		}
		p.text.WriteString(w.Delta)
		if p.refusal {
			return "", nil
		}
		return w.Delta, nil
	case "response.output_text.done", "response.refusal.done":
		refusal := w.Type == "response.refusal.done"
		p, err := a.open(w, refusal)
		if err != nil {
			return a.fail(err)
		}
		final := w.Text
		if refusal {
			final = w.RefusalText
		}
		if final != p.text.String() {
			return a.fail(provider.StreamMismatch("a done event's text differs from its deltas"))
		}
		p.closed = true
	case "response.completed", "response.incomplete":
		if provider.CheckJSON(ev.Data) != nil {
			return a.fail(provider.Malformed("the terminal event repeats a member name or nests too deep"))
		}
		return "", a.terminal(w)
	case "response.failed", "response.cancelled", "error":
		return a.fail(provider.NewError(provider.CodeFailed, "the provider reported a failure in the stream"))
	default:
		// content_part.done, output_item.done, annotations and event types
		// added later carry nothing this adapter needs; the terminal
		// snapshot is checked against the deltas anyway.
	}
	return "", nil
}

func (a *Accumulator) sequence(n *int64) *provider.Error {
	switch a.seqMode {
	case 0:
		if n == nil {
			a.seqMode = 2
			return nil
		}
		a.seqMode, a.seq = 1, *n
		return nil
	case 1:
		if n == nil || *n != a.seq+1 {
			return provider.StreamInvalid("sequence_number is not contiguous (a reordered, dropped or repeated event)")
		}
		a.seq = *n
	case 2:
		if n != nil {
			return provider.StreamInvalid("sequence_number appeared mid-stream")
		}
	}
	return nil
}

func (a *Accumulator) addPart(w wireEvent) error {
	if w.OutputIndex == nil || w.ContentIndex == nil || w.Part == nil {
		return a.guard.Fail(provider.Malformed("content_part.added lacks its indexes"))
	}
	k := partKey{*w.OutputIndex, *w.ContentIndex}
	if n := len(a.parts); n > 0 {
		last := a.parts[n-1].key
		if k.out < last.out || (k.out == last.out && k.content <= last.content) {
			return a.guard.Fail(provider.StreamInvalid("a content part was announced out of order"))
		}
	}
	switch w.Part.Type {
	case "output_text":
		a.parts = append(a.parts, &streamPart{key: k})
	case "refusal":
		a.parts = append(a.parts, &streamPart{key: k, refusal: true})
	default:
		return a.guard.Fail(provider.Malformed("the stream has an unsupported content part"))
	}
	return nil
}

func (a *Accumulator) open(w wireEvent, refusal bool) (*streamPart, *provider.Error) {
	if w.OutputIndex == nil || w.ContentIndex == nil {
		return nil, provider.Malformed("a delta lacks its indexes")
	}
	k := partKey{*w.OutputIndex, *w.ContentIndex}
	for i := len(a.parts) - 1; i >= 0; i-- {
		p := a.parts[i]
		if p.key != k {
			continue
		}
		if p.closed {
			return nil, provider.StreamInvalid("a delta arrived for a closed content part")
		}
		if p.refusal != refusal {
			return nil, provider.StreamInvalid("a delta does not match its content part's kind")
		}
		return p, nil
	}
	return nil, provider.StreamInvalid("a delta arrived for a content part that was never announced")
}

func (a *Accumulator) terminal(w wireEvent) error {
	if w.Response == nil {
		return a.guard.Fail(provider.Malformed("the terminal event has no response"))
	}
	if w.Response.ID != a.id || w.Response.Model != a.model {
		return a.guard.Fail(provider.StreamMismatch("the terminal response names another id or model"))
	}
	for _, p := range a.parts {
		if !p.closed {
			return a.guard.Fail(provider.StreamInvalid("the terminal event arrived while a content part was open"))
		}
		if p.refusal {
			return a.guard.Fail(provider.NewError(provider.CodeRefused, "the model refused to answer"))
		}
	}
	out, err := w.Response.toResponse()
	if err != nil {
		return a.guard.Fail(err)
	}
	final, _ := w.Response.texts()
	if len(final) != len(a.parts) {
		return a.guard.Fail(provider.StreamMismatch("the terminal response has a different number of text parts than the stream"))
	}
	for i, p := range a.parts {
		if final[i] != p.text.String() {
			return a.guard.Fail(provider.StreamMismatch("the terminal response text differs from the streamed deltas"))
		}
	}
	a.guard.Finish(out)
	return nil
}

var _ provider.Accumulator = (*Accumulator)(nil)
