package grounding

// OutcomeKind is how a question ended, as ask.Config.Outcome and
// askrun.Config.Outcome are told it.
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

// Outcome is one question's end, for the Outcome receivers of the live
// and the durable answers (internal/insights keeps them).
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

// OutcomePages are the hrefs of sources, at most three, in order: the
// pages an Outcome names.
func OutcomePages(sources []Source) []string {
	var pages []string
	for _, s := range sources[:min(len(sources), maxOutcomePages)] {
		pages = append(pages, s.Href)
	}
	return pages
}
