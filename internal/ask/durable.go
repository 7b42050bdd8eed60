package ask

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/agent"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/run"
	"github.com/askplane/askplane/internal/session"
)

// Durable makes a model site's questions durable runs (internal/run):
// the request is admitted as a run, a worker executes it detached from
// the request, and the NDJSON stream is the run's event log, read from
// the store. A reader whose connection drops reconnects with the run id
// (the X-Askplane-Run header) and the count of events it saw, at
// GET /v1/runs/{id}/events?after=N, and gets exactly the rest. The
// extractive default never runs durably: it costs nothing and is
// instant, so a retry is cheaper than a run.
type Durable struct {
	// Worker executes runs; its Store is the run store. It is shared by
	// every site of the server, whose Program it finds by the run's site.
	Worker *run.Worker
	// Model answers; required.
	Model *generate.Model
	// Budget is each run's trusted budget (its Deadline is set at
	// admission from the site's generation timeout).
	Budget run.Budget
	// Ceilings are the site's limits across instances.
	Ceilings run.Ceilings
	// Pricing turns tokens into cost, in millionths of a USD per million
	// tokens; zero means free (a local model).
	Pricing Pricing
	// Tools is the bounded tool loop; nil means one round, no tools.
	Tools *Tools
}

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

// IdempotencyHeader names the request header that makes a retry of one
// question join its run.
const IdempotencyHeader = "Idempotency-Key"

// RunHeader names the response header that carries the run id.
const RunHeader = "X-Askplane-Run"

// Public messages of the durable path.
const (
	msgBudget          = "The Ask budget of this site is spent for now; try again later."
	msgIdempotency     = "The Idempotency-Key was used for another question."
	msgIdempotencyKey  = "The Idempotency-Key must be a SafeIdentifier."
	msgNoRun           = "No such Ask run."
	msgSnapshotChanged = "The Ask service changed since this answer began; ask again."
	msgRunMoved        = "The Ask service is restarting; this answer goes on. Reconnect to read the rest."
	msgCutOff          = "The answer was cut off before it was finished; ask again."
)

var (
	errIdempotencyKey = &Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgIdempotencyKey}
	errIdempotency    = &Error{Status: http.StatusUnprocessableEntity, Code: protocol.CodeAskInvalidRequest, Message: msgIdempotency}
	errNoRun          = &Error{Status: http.StatusNotFound, Code: protocol.CodeAskInvalidRequest, Message: msgNoRun}
)

// budgetRefused is the admission refusal of a spent budget: the wire's
// ASK_RATE_LIMITED (the protocol's code for "ask again later", which the
// widget already handles) with the store's Retry-After.
//
// The site's runs in flight are not a budget but a capacity: a reader
// refused by it is told the service is busy (503, as the live path's
// generations gate says), not that the site's spend is used up.
func budgetRefused(be *run.BudgetError) *Error {
	after := be.RetryAfter
	if after <= 0 {
		after = time.Second
	}
	if be.Limit == run.LimitConcurrent {
		return &Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskRateLimited, Message: msgBusy, Retryable: true, RetryAfter: after}
	}
	return &Error{Status: http.StatusTooManyRequests, Code: protocol.CodeAskRateLimited, Message: msgBudget, Retryable: true, RetryAfter: after}
}

// askState is a durable Ask run's checkpoint: everything the run needs to
// be resumed on any instance, frozen at admission, and (once answered)
// the answer.
type askState struct {
	V        int            `json:"v"`
	Input    agent.AskInput `json:"input"`
	Sources  []stateSource  `json:"sources"`
	Fragment string         `json:"fragment,omitempty"` // round 0's evidence recipe
	Session  *stateSession  `json:"session,omitempty"`
	Rounds   []round        `json:"rounds,omitempty"` // the tool loop's completed rounds
	Shown    []shownRecord  `json:"shown,omitempty"`  // records the tool rounds showed, citable
	// Streamed: the answer's text began reaching the log (runtext.go).
	Streamed bool             `json:"streamed,omitempty"`
	Answer   *generate.Answer `json:"answer,omitempty"`
}

type stateSource struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Href  string `json:"href"`
}

type stateSession struct {
	Key    session.Key           `json:"key"`
	Rev    int                   `json:"rev"`
	Merged []protocol.AskMessage `json:"merged"`
}

// durable runs step 17 as a run: admission (or joining the run of the
// same Idempotency-Key), then the run's log as the stream.
func (x *exchange) durable(ctx context.Context, sources []Source) {
	h, d := x.h, x.h.cfg.Durable
	key := x.r.Header.Get(IdempotencyHeader)
	if key != "" && !run.SafeID(key) {
		x.fail(errIdempotencyKey)
		return
	}
	pkg := filterPackage(x.pkg, sources)
	in, err := d.Model.Input(generateQuestion(x.question), pkg)
	if err != nil {
		x.fail(errNoSources)
		return
	}
	st := askState{V: 1, Input: in}
	for _, s := range sources {
		st.Sources = append(st.Sources, stateSource{s.ID, s.Title, s.Href})
	}
	if pkg != nil {
		st.Fragment = pkg.Recipe().Fragment()
	}
	if h.cfg.Sessions != nil && x.req.SessionID != "" {
		st.Session = &stateSession{Key: x.key(), Rev: x.rev, Merged: x.merged}
	}
	cp, err := marshalState(&st)
	if err != nil {
		x.fail(err)
		return
	}
	digest, _ := json.Marshal(struct {
		Q string                `json:"q"`
		M []protocol.AskMessage `json:"m"`
		S string                `json:"s"`
	}{x.question, x.merged, x.req.SessionID})
	id := "run-" + rand.Text()
	b := d.Budget
	b.Deadline = h.cfg.Now().Add(time.Duration(x.site.Limits.GenerationTimeoutMs) * time.Millisecond)
	r, lease, joined, err := d.Worker.Store.Admit(ctx, run.Admission{
		ID: id, Site: x.site.SiteID, Subject: x.subject, Session: x.req.SessionID,
		IdempotencyKey: key, RequestDigest: run.Digest(digest),
		Snapshot: d.snapshot(), Budget: b, Ceilings: d.Ceilings,
		FirstEvent: runEvent(id), Checkpoint: cp,
		Owner: d.Worker.Owner, Lease: d.Worker.LeaseFor(),
	})
	var be *run.BudgetError
	switch {
	case errors.As(err, &be):
		x.metric(MetricBudgetRefused, 1, UnitCount, OutcomeRejected)
		x.fail(budgetRefused(be))
		return
	case run.CodeOf(err) == run.CodeIdempotencyMismatch:
		x.fail(errIdempotency)
		return
	case err != nil:
		h.log.Error("ask: run admission failed", "requestId", x.id, "err", err)
		x.fail(errInternal)
		return
	}
	if !joined {
		d.Worker.Start(ctx, lease, x.site.SiteID)
	}
	x.streamRun(ctx, r.ID, 0, pkg)
}

// snapshot is the frozen identity runs are admitted under.
func (d *Durable) snapshot() run.Snapshot {
	return d.Model.Snapshot(d.Tools.digest())
}

func generateQuestion(q string) generate.Question { return generate.Question{Text: q} }

// filterPackage keeps the package's records the handler accepted as
// sources (valid, within maxSources), as Grounded.Generate does.
func filterPackage(p *evidence.Package, sources []Source) *evidence.Package {
	if p == nil {
		return nil
	}
	keep := make(map[string]bool, len(sources))
	for _, s := range sources {
		keep[s.ID] = true
	}
	q := *p
	q.Records = nil
	for _, r := range p.Records {
		if keep[r.ID] {
			q.Records = append(q.Records, r)
		}
	}
	return &q
}

// runEvent is a run's first event: a tool event the widget ignores (it
// acts only on "cite"), naming the run, so a reader that kept the body
// but lost the headers still knows what to reconnect to.
func runEvent(id string) []byte {
	args, _ := json.Marshal(map[string]string{"run": id})
	return protocol.AskToolEvent{ID: id, Name: "run", Args: args}.AppendJSON(nil)
}

// streamRun writes the headers and then the run's events after seq
// after, following the run until it is terminal or the request ends.
func (x *exchange) streamRun(ctx context.Context, id string, after int, pkg *evidence.Package) {
	hd := x.w.Header()
	hd.Set("Content-Type", "application/x-ndjson; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set(RunHeader, id)
	if pkg != nil {
		if link, ok := evidenceLink(x.site.Corpus.ID, pkg); ok {
			x.issued(pkg)
			hd.Set("Link", link)
		}
	}
	x.w.WriteHeader(http.StatusOK)
	x.rc.Flush()
	err := x.follow(ctx, id, after)
	switch {
	case err == errStopped && context.Cause(ctx) == errShutdown && x.r.Context().Err() == nil:
		// This instance is going away, the run is not: it is handed on
		// (run.Worker.Shutdown) and goes on elsewhere. The stream still
		// ends with exactly one terminal event, a retryable one; the
		// reader reconnects to the run's log (after the events it saw,
		// which this notice is not one of) and reads the rest there.
		retry := true
		x.write(protocol.AskErrorEvent{Message: msgRunMoved, Code: string(protocol.CodeAskInternal), Retryable: &retry}, false, true)
		x.finish(MetricError, OutcomeError)
		return
	case err != nil && err != errStopped && ctx.Err() == nil:
		x.h.log.Error("ask: following the run failed", "requestId", x.id, "err", err)
		retry := true
		x.write(protocol.AskErrorEvent{Message: msgInternal, Code: string(protocol.CodeAskInternal), Retryable: &retry}, false, true)
		x.finish(MetricError, OutcomeError)
		return
	}
	x.metric(MetricStreamBytes, float64(x.bytes), UnitBytes, OutcomeOK)
	x.metric(MetricStreamEvents, float64(x.events), UnitCount, OutcomeOK)
	x.metric(MetricRequestTotal, ms(x.h.cfg.Now().Sub(x.start)), UnitMs, OutcomeOK)
}

// Follow polling: a run's events are read from the store (which every
// instance shares), at first every followMin, backing off to followMax
// while nothing new arrives.
const (
	followMin = 20 * time.Millisecond
	followMax = 250 * time.Millisecond
)

// errStopped: the request ended before the run did (the reader went
// away, or the server is shutting down); the run goes on.
var errStopped = errors.New("ask: stopped following the run")

// stopped is err, or errStopped when the request ended meanwhile (the
// store call failed because of it).
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errStopped
	}
	return err
}

// follow writes the run's events after seq after until the run is
// terminal and every event was written. A reader that goes away ends it;
// the run goes on.
func (x *exchange) follow(ctx context.Context, id string, after int) error {
	st := x.h.cfg.Durable.Worker.Store
	wait := followMin
	for {
		evs, err := st.Events(ctx, id, after, run.MaxEventsPerRead)
		if err != nil {
			return stopped(ctx, err)
		}
		for i, ev := range evs {
			x.buf = append(append(x.buf[:0], ev.Data...), '\n')
			n, err := x.w.Write(x.buf)
			x.bytes += n
			if err == nil && i == len(evs)-1 {
				err = x.rc.Flush()
			}
			if err != nil {
				return errStopped // the reader went away; the run goes on
			}
			x.events++
			after = ev.Seq
		}
		if len(evs) == run.MaxEventsPerRead {
			continue
		}
		if len(evs) > 0 {
			wait = followMin
			continue
		}
		r, err := st.Get(ctx, id)
		if err != nil {
			return stopped(ctx, err)
		}
		if r.State.Terminal() && r.Events <= after {
			return nil
		}
		select {
		case <-ctx.Done():
			return errStopped
		case <-time.After(wait):
		}
		wait = min(2*wait, followMax)
	}
}

// Program is what the site's runs execute; the server's Worker calls it
// for a run of this site, after checking its snapshot.
func (h *Handler) Program(r run.Run) (run.Program, error) {
	d := h.cfg.Durable
	if d == nil || r.Site != h.cfg.Site.SiteID {
		return nil, errSnapshot
	}
	if r.Snapshot != d.snapshot() {
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
func (h *Handler) execute(ctx context.Context, x *run.Exec) error {
	var st askState
	if err := json.Unmarshal(x.Checkpoint().Data, &st); err != nil || st.V != 1 {
		return &run.Error{Code: run.CodeCorrupt, Op: "resume", Reason: "the checkpoint is not an Ask run's"}
	}
	if st.Answer != nil {
		return x.Finish(ctx, run.Write{Final: run.StateCompleted})
	}
	err := h.answerRounds(ctx, x, &st)
	h.runOutcome(ctx, x.Run(), &st, err)
	return err
}

// reserve is what an attempt charges at its start: its input, estimated
// at one token per three bytes (tokenizers average nearer four), and the
// whole output cap.
func (d *Durable) reserve(inputBytes int) run.Usage {
	in, out := int64(inputBytes/3+1), int64(d.Model.MaxOutputTokens())
	return run.Usage{InputTokens: in, OutputTokens: out, CostMicros: d.Pricing.Cost(in, out)}
}

// conclude turns a checked answer into its events and saves the session,
// as the non-durable stream does.
func (h *Handler) concludeRun(ctx context.Context, st *askState, ans generate.Answer, extra []Source, sent int) ([][]byte, error) {
	var evs [][]byte
	if sent > 0 {
		// The text streamed into the log (runtext.go): what is left (a
		// prefix was checked by generate.Model.CompleteStreaming).
		if rest := ans.Text[min(sent, len(ans.Text)):]; rest != "" {
			evs = append(evs, protocol.AskTextEvent{Delta: rest}.AppendJSON(nil))
		}
	} else {
		for _, p := range generate.Paragraphs(ans.Text) {
			if p != "" {
				evs = append(evs, protocol.AskTextEvent{Delta: p}.AppendJSON(nil))
			}
		}
	}
	all := make([]Source, 0, len(st.Sources)+len(extra))
	for _, s := range st.Sources {
		all = append(all, Source{ID: s.ID, Title: s.Title, Href: s.Href})
	}
	all = append(all, extra...)
	cited := citedSources(all, ans.Sources)
	if len(cited) == 0 {
		return nil, ErrNotGrounded
	}
	evs = append(evs, protocol.AskToolEvent{ID: "sources-" + st.Input.Records[0].ID, Name: "cite", Args: citeArgs(cited)}.AppendJSON(nil))
	if s := st.Session; s != nil && h.cfg.Sessions != nil {
		rec := session.Record{Revision: s.Rev + 1, Messages: lastN(append(append([]protocol.AskMessage(nil), s.Merged...),
			protocol.AskMessage{Role: protocol.RoleAssistant, Content: ans.Text}), protocol.MaxAskMessages)}
		if l, ok := h.cfg.Sessions.(session.Limited); ok {
			rec = session.Fit(rec, l.Limits().MaxSessionBytes)
		}
		// The paid answer is delivered either way; a conflict (another
		// answer saved this session first) ends the stream as the
		// non-durable one does, so the reader knows the turn is not in
		// the conversation and may ask again, and a failed save is
		// logged.
		ok, err := h.cfg.Sessions.Save(ctx, s.Key, rec, s.Rev)
		switch {
		case err != nil:
			h.log.Warn("ask: a run's session save failed", "err", err)
		case !ok:
			retry := true
			return append(evs, protocol.AskErrorEvent{Message: msgConflict, Code: string(protocol.CodeAskPersistenceConflict), Retryable: &retry}.AppendJSON(nil)), nil
		}
	}
	model := protocol.Trim(ans.Model)
	done := protocol.AskDoneEvent{}
	if model != "" && protocol.UTF16Len(model) <= protocol.MaxAskModelLen {
		done.Model = &model
	}
	return append(evs, done.AppendJSON(nil)), nil
}

// End is how a failed run of this site ends: its state, the wire code
// and the terminal error event.
func (h *Handler) End(_ run.Run, err error) run.Ending {
	fail := func(code protocol.Code, msg string, retry bool) run.Ending {
		return run.Ending{State: run.StateFailed, Code: string(code),
			Event: protocol.AskErrorEvent{Message: msg, Code: string(code), Retryable: &retry}.AppendJSON(nil)}
	}
	var be *run.BudgetError
	var ge *generate.Error
	switch {
	case errors.Is(err, run.ErrCancelRequested):
		retry := true
		return run.Ending{State: run.StateCancelled, Code: string(protocol.CodeAskCancelled),
			Event: protocol.AskErrorEvent{Message: msgCancelled, Code: string(protocol.CodeAskCancelled), Retryable: &retry}.AppendJSON(nil)}
	case errors.As(err, &be) && be.Limit == run.LimitDeadline:
		return fail(protocol.CodeAskTimeout, msgTimeout, true)
	case errors.As(err, &be):
		return fail(protocol.CodeAskGenerationFailed, msgGeneration, false)
	case errors.Is(err, errSnapshot):
		return fail(protocol.CodeAskInternal, msgSnapshotChanged, true)
	case errors.Is(err, errCutOff):
		return fail(protocol.CodeAskGenerationFailed, msgCutOff, true)
	case errors.Is(err, ErrNotGrounded), errors.As(err, &ge) && ge.Code == generate.CodeUngrounded:
		return fail(protocol.CodeAskNoGroundedSources, msgNotCited, false)
	}
	h.log.Error("ask: run failed", "err", err)
	return fail(protocol.CodeAskGenerationFailed, msgGeneration, true)
}

// CancelEvent is the last event of a run cancelled before any worker
// held it.
func CancelEvent() []byte {
	retry := true
	return protocol.AskErrorEvent{Message: msgCancelled, Code: string(protocol.CodeAskCancelled), Retryable: &retry}.AppendJSON(nil)
}
