package ask

import (
	"context"
	"time"
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

// outcomePages are the hrefs of sources, at most maxOutcomePages.
func outcomePages(sources []Source) []string {
	var pages []string
	for _, s := range sources[:min(len(sources), maxOutcomePages)] {
		pages = append(pages, s.Href)
	}
	return pages
}

// OutcomePages are the hrefs of sources, at most three, as an Outcome
// names them: for internal/askrun, which tells a durable run's.
func OutcomePages(sources []Source) []string { return outcomePages(sources) }

// tell calls Config.Outcome, a panic in it logged and contained.
func (h *Handler) tell(ctx context.Context, o Outcome) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("ask: outcome receiver panicked")
		}
	}()
	h.cfg.Outcome(ctx, o)
}
