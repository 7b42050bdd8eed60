package ask

import (
	"context"
	"errors"
	"time"

	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/run"
)

// OutcomeKind is how a question ended, as Config.Outcome is told it.
type OutcomeKind string

// Outcome kinds. A request that failed otherwise (a cancellation, a
// shutdown, a store failure or conflict, a refused request) is not an
// outcome of the question and is not reported.
const (
	// OutcomeAnswered: the answer was streamed with its citations.
	OutcomeAnswered OutcomeKind = "answered"
	// OutcomeLowConfidence: an answer was streamed, but it is the closest
	// sections, not a direct answer (Result.LowConfidence).
	OutcomeLowConfidence OutcomeKind = "low_confidence"
	// OutcomeRefused: the sources were found but the answer could not be
	// grounded in them (ASK_NO_GROUNDED_SOURCES after retrieval).
	OutcomeRefused OutcomeKind = "refused"
	// OutcomeNoSources: retrieval found nothing.
	OutcomeNoSources OutcomeKind = "no_sources"
	// OutcomeFailed: sources were found but the answer failed: the
	// generator failed or ran out of time (ASK_GENERATION_FAILED,
	// ASK_TIMEOUT); Pages are the sources retrieved.
	OutcomeFailed OutcomeKind = "error"
)

// Outcome is one question's end, for Config.Outcome.
type Outcome struct {
	Kind OutcomeKind
	// Question is the trimmed question. It is given so the receiver can
	// derive what it keeps (internal/insights keeps terms, never this
	// text); it must not be stored or logged.
	Question string
	// Subject is who asked ("anon:…", "token:…"); the same rule holds.
	Subject string
	// Pages are the hrefs of the cited sources (answered, low
	// confidence) or of the retrieved ones that came closest (refused),
	// at most maxOutcomePages, in retrieval order.
	Pages []string
	// ContextID is the context_id of the answer's evidence package, the
	// one its review link and a reader's feedback name; empty when the
	// answer named none (no sources, a durable run).
	ContextID string
}

// maxOutcomePages bounds Outcome.Pages.
const maxOutcomePages = 3

// outcomeTimeout bounds a Config.Outcome call's context: the reader has
// had the answer by then, but the handler still waits for it.
const outcomeTimeout = 2 * time.Second

// outcome tells Config.Outcome how the question ended.
func (x *exchange) outcome(kind OutcomeKind, sources []Source) {
	if x.h.cfg.Outcome == nil || x.site == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(x.r.Context()), outcomeTimeout)
	defer cancel()
	o := Outcome{Kind: kind, Question: x.question, Subject: x.subject, Pages: outcomePages(sources)}
	if x.pkg != nil {
		o.ContextID = x.pkg.ContextID
	}
	x.h.tell(ctx, o)
}

// runOutcome tells Config.Outcome how a durable run's question ended,
// once, from the worker that ended it (on whichever instance): the run
// names its subject, the checkpoint holds its question. An answer is
// answered with the pages it cited, an ungrounded one refused with the
// pages shown, any other failure (the provider, the model's answer, a
// cut-off answer, the run's deadline) an error; a run cancelled, handed
// on, or refused by another budget is not an outcome of its question.
func (h *Handler) runOutcome(ctx context.Context, r run.Run, st *askState, err error) {
	if h.cfg.Outcome == nil {
		return
	}
	all := make([]Source, 0, len(st.Sources))
	for _, s := range st.Sources {
		all = append(all, Source{ID: s.ID, Title: s.Title, Href: s.Href})
	}
	all = append(all, st.shownSources()...)
	o := Outcome{Question: st.Input.Question, Subject: r.Subject}
	var ge *generate.Error
	var be *run.BudgetError
	var re *run.Error
	switch {
	case err == nil && st.Answer != nil:
		o.Kind, o.Pages = OutcomeAnswered, outcomePages(citedSources(all, st.Answer.Sources))
	case errors.Is(err, ErrNotGrounded), errors.As(err, &ge) && ge.Code == generate.CodeUngrounded:
		o.Kind, o.Pages = OutcomeRefused, outcomePages(all)
	case ctx.Err() != nil, errors.Is(err, run.ErrCancelRequested), errors.Is(err, errSnapshot),
		errors.As(err, &be) && be.Limit != run.LimitDeadline, errors.As(err, &re):
		// Handed on (this instance stops), cancelled, not this
		// instance's contract, refused by a budget, or the run store's
		// (a lease lost to another worker, which goes on): not how the
		// question ended.
		return
	default:
		// The provider or the model's answer failed, the answer was cut
		// off, or the run ran out of time: as a live answer's
		// generation failure or timeout.
		o.Kind, o.Pages = OutcomeFailed, outcomePages(all)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), outcomeTimeout)
	defer cancel()
	h.tell(ctx, o)
}

// outcomePages are the hrefs of sources, at most maxOutcomePages.
func outcomePages(sources []Source) []string {
	var pages []string
	for _, s := range sources[:min(len(sources), maxOutcomePages)] {
		pages = append(pages, s.Href)
	}
	return pages
}

// tell calls Config.Outcome, a panic in it logged and contained.
func (h *Handler) tell(ctx context.Context, o Outcome) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("ask: outcome receiver panicked")
		}
	}()
	h.cfg.Outcome(ctx, o)
}
