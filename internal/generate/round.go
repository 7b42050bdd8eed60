package generate

import (
	"context"
	"errors"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/provider"
)

// Round is one model round of a durable run's tool loop: either the
// final, checked Answer, or the calls the model proposed with the turn's
// sealed Replay (the caller answers them and continues the transcript).
// Usage is the round's either way.
type Round struct {
	Answer *Answer
	Calls  []provider.ToolCall
	Replay provider.Replay
	Usage  Usage
}

// RoundInput is what one round is asked with: the frozen contract input
// (the question and the initial package's records), the records tool
// rounds have shown the model since (Shown, in the order they were
// shown), the transcript so far, the tools, and whether it may still
// call them (ToolChoiceNone on the last round: it must answer).
type RoundInput struct {
	Input      contract.AskInput
	Shown      []contract.AskRecord
	Transcript provider.Transcript
	Tools      []provider.Tool
	Choice     provider.ToolChoice
}

// ErrNoTools is Round on a binding that offers no tools.
var ErrNoTools error = &Error{Code: "generate.no-tools", Message: "the model's provider binding does not offer tools"}

// Round makes one unary call of the tool loop. A final answer is
// validated like Complete's, and its cites must name records the model
// was shown: the initial package's or a tool round's (in.Shown), exactly
// those; the answer's Sources keep the order they were shown in. The
// transcript is verified by the adapter before any I/O.
func (m *Model) Round(ctx context.Context, in RoundInput) (Round, error) {
	if m == nil || m.agent == nil {
		return Round{}, errors.New("generate: Model was not built with NewModel")
	}
	if !m.Tools() {
		return Round{}, ErrNoTools
	}
	req, err := m.agent.PrepareRequest(in.Input, m.budget)
	if err != nil {
		return Round{}, err
	}
	req.Tools, req.ToolChoice, req.Transcript = in.Tools, in.Choice, in.Transcript
	resp, err := m.client.Complete(ctx, req)
	if cerr := ctx.Err(); cerr != nil {
		return Round{}, cerr
	}
	if err != nil {
		return Round{}, err
	}
	u := callUsage(resp, req)
	if len(resp.Calls) > 0 {
		if resp.Replay == nil {
			return Round{}, provider.Malformed("tool calls without their replay")
		}
		return Round{Calls: resp.Calls, Replay: *resp.Replay, Usage: u}, nil
	}
	shown := append(append([]contract.AskRecord(nil), in.Input.Records...), in.Shown...)
	out, ids, err := m.decodeShown(resp, shown)
	if err != nil {
		return Round{Usage: u}, err
	}
	return Round{Answer: &Answer{Text: out.Answer, Sources: ids, Model: u.Model, Usage: u}, Usage: u}, nil
}

// Tools reports whether the model's binding offers tools.
func (m *Model) Tools() bool { return m != nil && m.client != nil && m.client.Profile().Tools }

// ReplayFormat is the replay format of the model's binding: the one a
// checkpointed transcript must be in.
func (m *Model) ReplayFormat() string { return m.client.Profile().Replay }
