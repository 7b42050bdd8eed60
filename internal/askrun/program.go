package askrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Config makes a model site's questions durable runs (internal/durable):
// the request is admitted as a run, a worker executes it detached from
// the request, and the NDJSON stream is the run's event log, read from
// the store. A reader whose connection drops reconnects with the run id
// (the X-Askplane-Run header) and the count of events it saw, at
// GET /v1/runs/{id}/events?after=N, and gets exactly the rest. The
// extractive default never runs durably: it costs nothing and is
// instant, so a retry is cheaper than a run.
type Config struct {
	// Worker executes runs; its Store is the run store. It is shared by
	// every site of the server, whose Program it finds by the run's site.
	Worker *durable.Worker
	// Model answers; required.
	Model *generate.Model
	// Budget is each run's trusted budget (its Deadline is set at
	// admission from the site's generation timeout).
	Budget durable.Budget
	// Ceilings are the site's limits across instances.
	Ceilings durable.Ceilings
	// Pricing turns tokens into cost, in millionths of a USD per million
	// tokens; zero means free (a local model).
	Pricing Pricing
	// Tools is the bounded tool loop; nil means one round, no tools.
	Tools *Tools

	// The site's, as its ask.Config has them; Site was validated once,
	// where the config was checked, and is trusted here.
	Site      protocol.TrustedSite
	Retriever grounding.Retriever
	Sessions  session.Store
	Metrics   metrics.Sink
	Logger    *slog.Logger
	Issued    func(contextID string)
	Outcome   func(ctx context.Context, o grounding.Outcome)
	// Now is the clock for metric times; nil means time.Now.
	Now func() time.Time
}

// Runs is a site's durable answers: the ask.Durable of its handler, the
// Program its runs execute and the run routes' back end. Build it with
// New; it is safe for concurrent use.
type Runs struct {
	cfg  Config
	site protocol.BackendSite // cfg.Site's record
	log  *slog.Logger
}

// New checks c's dependencies and returns its Runs; the site record is
// trusted as given (protocol.TrustedSite).
func New(c Config) (*Runs, error) {
	switch {
	case !c.Site.Valid():
		return nil, errors.New("askrun: Config.Site is required")
	case c.Worker == nil:
		return nil, errors.New("askrun: Config.Worker is required")
	case c.Model == nil:
		return nil, errors.New("askrun: Config.Model is required")
	case c.Retriever == nil:
		return nil, errors.New("askrun: Config.Retriever is required")
	}
	if c.Tools != nil {
		_, packages := c.Retriever.(grounding.EvidenceRetriever)
		switch {
		case c.Tools.MaxRounds < 1 || c.Tools.MaxRounds > durable.HardMaxRounds:
			return nil, fmt.Errorf("ask: Durable.Tools.MaxRounds must be 1 to %d", durable.HardMaxRounds)
		case !c.Model.Tools():
			return nil, errors.New("ask: the tool loop needs a model whose provider binding offers tools (openai, openai-compatible or anthropic)")
		case !packages:
			return nil, errors.New("ask: the tool loop needs a Retriever that returns evidence packages")
		}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runs{cfg: c, site: c.Site.Record(), log: log}, nil
}

// Ceilings are the site's run ceilings, for the Worker.
func (h *Runs) Ceilings() durable.Ceilings { return h.cfg.Ceilings }

// Pricing is a model's price per million tokens, in micro-USD.
type Pricing struct {
	InputMicrosPerMTok  int64
	OutputMicrosPerMTok int64
}

// Cost is u's price, rounded up.
func (p Pricing) Cost(in, out int64) int64 {
	return ceilDiv(in*p.InputMicrosPerMTok, 1_000_000) + ceilDiv(out*p.OutputMicrosPerMTok, 1_000_000)
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// snapshot is the frozen identity runs are admitted under.
func (h *Runs) snapshot() durable.Snapshot {
	return h.cfg.Model.Snapshot(h.cfg.Tools.digest())
}

// Program is what the site's runs execute; the server's Worker calls it
// for a run of this site, after checking its snapshot.
func (h *Runs) Program(r durable.Run) (durable.Program, error) {
	if h == nil || r.Site != h.site.SiteID {
		return nil, errSnapshot
	}
	if r.Snapshot != h.snapshot() {
		return nil, errSnapshot
	}
	return h.execute, nil
}

// errSnapshot: this instance does not serve the contract the run was
// admitted under.
var errSnapshot = errors.New("ask: the run's snapshot is not the one served")

// execute is a durable Ask run: the tool loop's rounds when the site has
// tools, then the answer, its cite event and the session save, committed
// with the attempt that produced them.
func (h *Runs) execute(ctx context.Context, x *durable.Exec) error {
	var st askState
	if err := json.Unmarshal(x.Checkpoint().Data, &st); err != nil || st.V != 1 {
		return &durable.Error{Code: durable.CodeCorrupt, Op: "resume", Reason: "the checkpoint is not an Ask run's"}
	}
	if st.Answer != nil {
		return x.Finish(ctx, durable.Write{Final: durable.StateCompleted})
	}
	err := h.answerRounds(ctx, x, &st)
	h.runOutcome(ctx, x.Run(), &st, err)
	return err
}

// reserve is what an attempt charges at its start: its input, estimated
// at one token per three bytes (tokenizers average nearer four), and the
// whole output cap.
func (h *Runs) reserve(inputBytes int) durable.Usage {
	in, out := int64(inputBytes/3+1), int64(h.cfg.Model.MaxOutputTokens())
	return durable.Usage{InputTokens: in, OutputTokens: out, CostMicros: h.cfg.Pricing.Cost(in, out)}
}

// spent is a call's usage as a run records it: its tokens, and their cost
// at the site's prices.
func (h *Runs) spent(u generate.Usage) durable.Usage {
	in, out := int64(u.InputTokens), int64(u.OutputTokens)
	return durable.Usage{InputTokens: in, OutputTokens: out, CostMicros: h.cfg.Pricing.Cost(in, out)}
}

// End is how a failed run ends: its state, the wire code and the
// terminal error event. It holds for a run of any site (the Worker calls
// it for a site this instance does not serve, too), so it reads nothing
// of h but its logger, and h may be nil.
func (h *Runs) End(_ durable.Run, err error) durable.Ending {
	fail := func(code protocol.Code, msg string, retry bool) durable.Ending {
		return durable.Ending{State: durable.StateFailed, Code: string(code),
			Event: protocol.AskErrorEvent{Message: msg, Code: string(code), Retryable: &retry}.AppendJSON(nil)}
	}
	var be *durable.BudgetError
	var ge *generate.Error
	switch {
	case errors.Is(err, durable.ErrCancelRequested):
		return durable.Ending{State: durable.StateCancelled, Code: string(protocol.CodeAskCancelled), Event: CancelEvent()}
	case errors.As(err, &be) && be.Limit == durable.LimitDeadline:
		return fail(protocol.CodeAskTimeout, ask.MsgTimeout, true)
	case errors.As(err, &be):
		return fail(protocol.CodeAskGenerationFailed, ask.MsgGeneration, false)
	case errors.Is(err, errSnapshot):
		return fail(protocol.CodeAskInternal, msgSnapshotChanged, true)
	case errors.Is(err, errCutOff):
		return fail(protocol.CodeAskGenerationFailed, msgCutOff, true)
	case errors.Is(err, grounding.ErrNotGrounded), errors.As(err, &ge) && ge.Code == generate.CodeUngrounded:
		return fail(protocol.CodeAskNoGroundedSources, ask.MsgNotCited, false)
	}
	if h != nil {
		h.log.Error("ask: run failed", "err", err)
	}
	return fail(protocol.CodeAskGenerationFailed, ask.MsgGeneration, true)
}

// CancelEvent is the last event of a run cancelled before any worker
// held it.
func CancelEvent() []byte {
	retry := true
	return protocol.AskErrorEvent{Message: ask.MsgCancelled, Code: string(protocol.CodeAskCancelled), Retryable: &retry}.AppendJSON(nil)
}
