package askrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/provider"
)

// The bounded tool loop: a durable run with Tools asks the model in
// rounds. Each round is one provider call, offered search_docs (search
// the site again, for another query) and read_record (a record some
// round returned, at full length). A round that calls tools is answered
// by running the calls here and committed, in one write, with the
// attempt's end: the checkpoint then holds the turn (the provider's
// sealed output and the ordered outcomes) and each search's evidence
// recipe, so a worker that takes the run over continues from the last
// completed round and never sends one again. The last allowed round
// forbids calls: the model must answer. The answer may cite any record
// the model was shown, from the initial package or a search, and the
// cite event lists them from whichever round they came.

// errNoToolLoop: the site has Tools but its model binding or retriever
// cannot run them (a binding without tools, a retriever that returns no
// evidence package). It fails the run rather than answer from one search.
var errNoToolLoop = errors.New("ask: the site's model or retriever cannot run the tool loop")

// errRoundsSpent: every allowed round was used and none answered (a
// checkpoint already at MaxRounds).
var errRoundsSpent = errors.New("ask: the tool loop used every round without an answer")

// toolRounds runs the loop from where the checkpoint stands.
func (h *Runs) toolRounds(ctx context.Context, x *durable.Exec, st *askState) error {
	er, ok := h.cfg.Retriever.(grounding.EvidenceRetriever)
	if !ok || !h.cfg.Model.Tools() {
		return errNoToolLoop
	}
	// The transcript is re-verified before the next I/O: a checkpoint
	// changed under its digests, or a call substituted beside its replay,
	// is refused here (and again by the adapter), never sent.
	if err := st.transcript().Verify(h.cfg.Model.ReplayFormat()); err != nil {
		return &durable.Error{Code: durable.CodeCorrupt, Op: "resume", Reason: "the checkpoint's transcript does not verify"}
	}
	for {
		k := len(st.Rounds) + 1
		if k > h.cfg.Tools.MaxRounds {
			return errRoundsSpent
		}
		in := generate.RoundInput{Input: st.Input, Shown: st.shownRecords(), Transcript: st.transcript(), Tools: loopTools}
		if k == h.cfg.Tools.MaxRounds {
			in.Choice = provider.ToolChoiceNone
		}
		n, err := x.Begin(ctx, k, h.reserve(roundBytes(in)))
		if err != nil {
			return err
		}
		res, err := h.cfg.Model.Round(ctx, in)
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx) // the Worker records the attempt unknown
			}
			if err := endFailed(ctx, x, n, err); err != nil {
				return err
			}
			if retry, _ := generate.Retryable(err); retry {
				continue
			}
			return err
		}
		if res.Answer != nil {
			return h.commitAnswer(ctx, x, st, n, *res.Answer, st.shownSources(), 0)
		}
		rd, evs, err := h.runCalls(ctx, er, st, x.Run().ID, k, res.Calls, res.Replay)
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
		st.Rounds = append(st.Rounds, rd)
		data, err := marshalState(st)
		if err != nil {
			return err
		}
		u := h.spent(res.Usage)
		if err := x.Commit(ctx, durable.Write{
			End:        &durable.AttemptEnd{N: n, State: durable.AttemptCompleted, Usage: u},
			Checkpoint: &durable.Checkpoint{Step: x.Checkpoint().Step + 1, Data: data},
			Events:     evs,
		}); err != nil {
			return err
		}
	}
}

// transcript is the checkpoint's rounds as the provider's transcript.
func (st *askState) transcript() provider.Transcript {
	t := provider.Transcript{Turns: make([]provider.Turn, 0, len(st.Rounds))}
	for _, r := range st.Rounds {
		t.Turns = append(t.Turns, r.Turn)
	}
	return t
}

// roundBytes estimates a round's input: the contract input and the
// transcript it continues.
func roundBytes(in generate.RoundInput) int {
	b, _ := json.Marshal(in.Input)
	n := len(b)
	for _, t := range in.Transcript.Turns {
		n += len(t.Replay.Payload)
		for _, o := range t.Outcomes {
			n += len(o.Result) + len(o.Error)
		}
	}
	return n
}

// shownRecords are the records tool rounds showed the model, as the
// contract's records, for the cite check.
func (st *askState) shownRecords() []contract.AskRecord {
	out := make([]contract.AskRecord, 0, len(st.Shown))
	for _, r := range st.Shown {
		out = append(out, contract.AskRecord{ID: r.ID, Title: r.Title, Text: r.Text})
	}
	return out
}

// shownSources are the shown records the initial sources do not hold,
// as citable sources.
func (st *askState) shownSources() []grounding.Source {
	have := make(map[string]bool, len(st.Sources))
	for _, s := range st.Sources {
		have[s.ID] = true
	}
	var out []grounding.Source
	for _, r := range st.Shown {
		if !have[r.ID] {
			out = append(out, grounding.Source{ID: r.ID, Title: r.Title, Href: r.Href, Excerpt: r.Text})
		}
	}
	return out
}

// toolEvent is a tool round's progress event: a tool event the widget
// ignores (it acts only on "cite"), for readers of the log.
func toolEvent(id, name string, args map[string]string) []byte {
	b, _ := json.Marshal(args)
	return protocol.AskToolEvent{ID: id, Name: name, Args: b}.AppendJSON(nil)
}

// marshalState encodes a checkpoint without HTML escaping: a replay's
// payload is kept as the bytes it was sealed with (json.Marshal would
// rewrite a "<" in it as \u003c), so a continuation sends back exactly
// what the provider sent.
func marshalState(st *askState) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(st); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
