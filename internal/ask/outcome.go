package ask

import (
	"context"
	"time"

	"github.com/askplane/askplane/internal/grounding"
)

// outcomeTimeout bounds a Config.Outcome call's context: the reader has
// had the answer by then, but the handler still waits for it.
const outcomeTimeout = 2 * time.Second

// outcome tells Config.Outcome how the question ended.
func (f found) outcome(kind grounding.OutcomeKind, sources []grounding.Source) {
	if f.h.cfg.Outcome == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(f.r.Context()), outcomeTimeout)
	defer cancel()
	o := grounding.Outcome{Kind: kind, Question: f.question, Subject: f.subject, Pages: grounding.OutcomePages(sources)}
	if f.pkg != nil {
		o.ContextID = f.pkg.ContextID
	}
	f.h.tell(ctx, o)
}

// tell calls Config.Outcome, a panic in it logged and contained.
func (h *Handler) tell(ctx context.Context, o grounding.Outcome) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("ask: outcome receiver panicked")
		}
	}()
	h.cfg.Outcome(ctx, o)
}
