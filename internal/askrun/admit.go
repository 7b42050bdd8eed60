package askrun

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

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
	errIdempotencyKey = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgIdempotencyKey}
	errIdempotency    = &apierr.Error{Status: http.StatusUnprocessableEntity, Code: protocol.CodeAskInvalidRequest, Message: msgIdempotency}
	errNoRun          = &apierr.Error{Status: http.StatusNotFound, Code: protocol.CodeAskInvalidRequest, Message: msgNoRun}
)

// budgetRefused is the admission refusal of a spent budget: the wire's
// ASK_RATE_LIMITED (the protocol's code for "ask again later", which the
// widget already handles) with the store's Retry-After.
//
// The site's runs in flight are not a budget but a capacity: a reader
// refused by it is told the service is busy (503, as the live path's
// generations gate says), not that the site's spend is used up.
func budgetRefused(be *durable.BudgetError) *apierr.Error {
	after := be.RetryAfter
	if after <= 0 {
		after = time.Second
	}
	if be.Limit == durable.LimitConcurrent {
		return &apierr.Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskRateLimited, Message: ask.MsgBusy, Retryable: true, RetryAfter: after}
	}
	return &apierr.Error{Status: http.StatusTooManyRequests, Code: protocol.CodeAskRateLimited, Message: msgBudget, Retryable: true, RetryAfter: after}
}

// askState is a durable Ask run's checkpoint: everything the run needs to
// be resumed on any instance, frozen at admission, and (once answered)
// the answer.
type askState struct {
	V        int               `json:"v"`
	Input    contract.AskInput `json:"input"`
	Sources  []stateSource     `json:"sources"`
	Fragment string            `json:"fragment,omitempty"` // round 0's evidence recipe
	Session  *stateSession     `json:"session,omitempty"`
	Rounds   []round           `json:"rounds,omitempty"` // the tool loop's completed rounds
	Shown    []shownRecord     `json:"shown,omitempty"`  // records the tool rounds showed, citable
	// Streamed: the answer's text began reaching the log (text.go).
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

// Answer implements ask.Durable: the question is admitted as a run (or
// joins the run of the same Idempotency-Key), then the run's log is the
// stream. It returns an error only before it wrote anything.
func (h *Runs) Answer(ctx context.Context, w http.ResponseWriter, r *http.Request, t ask.Turn) error {
	key := r.Header.Get(protocol.IdempotencyHeader)
	if key != "" && !durable.SafeID(key) {
		return errIdempotencyKey
	}
	pkg := filterPackage(t.Evidence, t.Sources)
	in, err := h.cfg.Model.Input(generate.Question{Text: t.Question}, pkg)
	if err != nil {
		return ask.ErrNoSources
	}
	st := askState{V: 1, Input: in}
	for _, s := range t.Sources {
		st.Sources = append(st.Sources, stateSource{s.ID, s.Title, s.Href})
	}
	if pkg != nil {
		st.Fragment = pkg.Recipe().Fragment()
	}
	if h.cfg.Sessions != nil && t.SessionID != "" {
		key := session.Key{SiteID: t.Site.SiteID, Subject: t.Subject, SessionID: t.SessionID}
		st.Session = &stateSession{Key: key, Rev: t.Revision, Merged: t.Merged}
	}
	cp, err := marshalState(&st)
	if err != nil {
		return err
	}
	digest, _ := json.Marshal(struct {
		Q string                `json:"q"`
		M []protocol.AskMessage `json:"m"`
		S string                `json:"s"`
	}{t.Question, t.Merged, t.SessionID})
	id := "run-" + rand.Text()
	b := h.cfg.Budget
	b.Deadline = h.cfg.Now().Add(time.Duration(t.Site.Limits.GenerationTimeoutMs) * time.Millisecond)
	wk := h.cfg.Worker
	rn, lease, joined, err := wk.Store.Admit(ctx, durable.Admission{
		ID: id, Site: t.Site.SiteID, Subject: t.Subject, Session: t.SessionID,
		IdempotencyKey: key, RequestDigest: durable.Digest(digest),
		Snapshot: h.snapshot(), Budget: b, Ceilings: h.cfg.Ceilings,
		FirstEvent: runEvent(id), Checkpoint: cp,
		Owner: wk.Owner, Lease: wk.LeaseFor(),
	})
	var be *durable.BudgetError
	switch {
	case errors.As(err, &be):
		h.metric(t.RequestID, MetricBudgetRefused, 1, ask.UnitCount, ask.OutcomeRejected)
		return budgetRefused(be)
	case durable.CodeOf(err) == durable.CodeIdempotencyMismatch:
		return errIdempotency
	case err != nil:
		return fmt.Errorf("ask: run admission failed: %w", err)
	}
	if !joined {
		wk.Start(ctx, lease, t.Site.SiteID)
	}
	h.stream(ctx, w, r, reader{id: t.RequestID, start: t.Start}, rn.ID, 0, pkg)
	return nil
}

// filterPackage keeps the package's records the handler accepted as
// sources (valid, within maxSources), as Grounded.Generate does.
func filterPackage(p *evidence.Package, sources []grounding.Source) *evidence.Package {
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

// metric emits one observation of the site's.
func (h *Runs) metric(requestID, name string, value float64, unit, outcome string) {
	if m := h.cfg.Metrics; m != nil {
		m.Observe(metrics.Metric{
			Name: name, SiteID: h.site.SiteID, CorpusID: h.site.Corpus.ID, RequestID: requestID,
			Value: value, Unit: unit, Outcome: outcome, EmittedAt: h.cfg.Now(),
		})
	}
}
