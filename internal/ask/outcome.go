package ask

import (
	"context"
	"time"
)

// OutcomeKind is how a question ended, as Config.Outcome is told it.
type OutcomeKind string

// Outcome kinds. A request that failed otherwise (a timeout, a
// cancellation, a generation or store failure, a refused request) is not
// an outcome of the question and is not reported.
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
}

// maxOutcomePages bounds Outcome.Pages.
const maxOutcomePages = 3

// outcomeTimeout bounds a Config.Outcome call's context: the reader has
// had the answer by then, but the handler still waits for it.
const outcomeTimeout = 2 * time.Second

// outcome tells Config.Outcome how the question ended.
func (x *exchange) outcome(kind OutcomeKind, sources []Source) {
	f := x.h.cfg.Outcome
	if f == nil || x.site == nil {
		return
	}
	o := Outcome{Kind: kind, Question: x.question, Subject: x.subject}
	for _, s := range sources {
		if len(o.Pages) == maxOutcomePages {
			break
		}
		o.Pages = append(o.Pages, s.Href)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(x.r.Context()), outcomeTimeout)
	defer cancel()
	func() {
		defer func() {
			if p := recover(); p != nil {
				x.h.log.Error("ask: outcome receiver panicked", "requestId", x.id)
			}
		}()
		f(ctx, o)
	}()
}
