package askrun

import (
	"context"
	"encoding/json"

	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/grounding"
)

// Tools is a site's bounded tool loop (see toolloop.go); nil is one
// round without tools. MaxRounds 1 is a loop whose only round must
// answer: tools declared, none callable.
type Tools struct {
	// MaxRounds bounds the model rounds of one run, 1..run.HardMaxRounds.
	MaxRounds int
}

// answerRounds runs the rounds: with tools, the loop (toolloop.go); else
// one round, retried within the attempts budget when the provider was
// unavailable or the connection failed.
func (h *Runs) answerRounds(ctx context.Context, x *durable.Exec, st *askState) error {
	if h.cfg.Tools != nil {
		return h.toolRounds(ctx, x, st)
	}
	if st.Streamed {
		// A previous holder's attempt wrote text into the log and then
		// its instance died: that text cannot be continued, nor
		// contradicted by another answer. (An attempt here that writes
		// text does not come round again: it answers or is cut off.)
		return errCutOff
	}
	in, _ := json.Marshal(st.Input)
	for {
		n, err := x.Begin(ctx, 1, h.reserve(len(in)))
		if err != nil {
			return err
		}
		text := newTextLog(ctx, x, st)
		ans, err := h.cfg.Model.CompleteStreaming(ctx, st.Input, text.add)
		if cerr := text.close(err == nil); err == nil {
			err = cerr
		}
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx) // the Worker records the attempt unknown
			}
			if err := endFailed(ctx, x, n, err); err != nil {
				return err
			}
			if text.sent > 0 {
				return errCutOff
			}
			if retry, _ := generate.Retryable(err); retry {
				continue
			}
			return err
		}
		return h.commitAnswer(ctx, x, st, n, ans, nil, text.sent)
	}
}

// endFailed records a failed call: unknown when it may have reached the
// provider (a transport failure), failed otherwise.
func endFailed(ctx context.Context, x *durable.Exec, n int, err error) error {
	state := durable.AttemptFailed
	if _, ambiguous := generate.Retryable(err); ambiguous {
		state = durable.AttemptUnknown
	}
	return x.Commit(ctx, durable.Write{End: &durable.AttemptEnd{N: n, State: state}})
}

// commitAnswer commits, in one write, the attempt's usage, the answer in
// the checkpoint, the answer's events and the completed state; an
// ungrounded answer is recorded (it was paid for) and fails the run.
func (h *Runs) commitAnswer(ctx context.Context, x *durable.Exec, st *askState, n int, ans generate.Answer, extra []grounding.Source, sent int) error {
	u := h.spent(ans.Usage)
	outcome, _ := json.Marshal(ans)
	end := &durable.AttemptEnd{N: n, State: durable.AttemptCompleted, Usage: u, Outcome: outcome}
	evs, err := h.conclude(ctx, st, ans, extra, sent)
	if err != nil {
		if cerr := x.Commit(ctx, durable.Write{End: end}); cerr != nil {
			return cerr
		}
		return err
	}
	st.Answer = &ans
	data, err := marshalState(st)
	if err != nil {
		return err
	}
	return x.Finish(ctx, durable.Write{End: end, Checkpoint: &durable.Checkpoint{Step: x.Checkpoint().Step + 1, Data: data}, Events: evs, Final: durable.StateCompleted})
}
