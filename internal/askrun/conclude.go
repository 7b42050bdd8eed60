package askrun

import (
	"context"
	"errors"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// conclude turns a checked answer into its events and saves the session,
// as the non-durable stream does.
func (h *Runs) conclude(ctx context.Context, st *askState, ans generate.Answer, extra []grounding.Source, sent int) ([][]byte, error) {
	var evs [][]byte
	if sent > 0 {
		// The text streamed into the log (text.go): what is left (a
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
	all := make([]grounding.Source, 0, len(st.Sources)+len(extra))
	for _, s := range st.Sources {
		all = append(all, grounding.Source{ID: s.ID, Title: s.Title, Href: s.Href})
	}
	all = append(all, extra...)
	cited := ask.Cited(all, ans.Sources)
	if len(cited) == 0 {
		return nil, grounding.ErrNotGrounded
	}
	evs = append(evs, protocol.AskToolEvent{ID: "sources-" + st.Input.Records[0].ID, Name: "cite", Args: ask.CiteArgs(cited)}.AppendJSON(nil))
	if s := st.Session; s != nil && h.cfg.Sessions != nil {
		rec := session.Record{Revision: s.Rev + 1, Messages: protocol.LastAskMessages(append(append([]protocol.AskMessage(nil), s.Merged...),
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
			return append(evs, protocol.AskErrorEvent{Message: ask.MsgConflict, Code: string(protocol.CodeAskPersistenceConflict), Retryable: &retry}.AppendJSON(nil)), nil
		}
	}
	model := protocol.Trim(ans.Model)
	done := protocol.AskDoneEvent{}
	if model != "" && protocol.UTF16Len(model) <= protocol.MaxAskModelLen {
		done.Model = &model
	}
	return append(evs, done.AppendJSON(nil)), nil
}

// runOutcome tells Config.Outcome how a durable run's question ended,
// once, from the worker that ended it (on whichever instance): the run
// names its subject, the checkpoint holds its question. An answer is
// answered with the pages it cited, an ungrounded one refused with the
// pages shown, any other failure (the provider, the model's answer, a
// cut-off answer, the run's deadline) an error; a run cancelled, handed
// on, or refused by another budget is not an outcome of its question.
func (h *Runs) runOutcome(ctx context.Context, r durable.Run, st *askState, err error) {
	if h.cfg.Outcome == nil {
		return
	}
	all := make([]grounding.Source, 0, len(st.Sources))
	for _, s := range st.Sources {
		all = append(all, grounding.Source{ID: s.ID, Title: s.Title, Href: s.Href})
	}
	all = append(all, st.shownSources()...)
	o := grounding.Outcome{Question: st.Input.Question, Subject: r.Subject}
	var ge *generate.Error
	var be *durable.BudgetError
	var re *durable.Error
	switch {
	case err == nil && st.Answer != nil:
		o.Kind, o.Pages = grounding.OutcomeAnswered, grounding.OutcomePages(ask.Cited(all, st.Answer.Sources))
	case errors.Is(err, grounding.ErrNotGrounded), errors.As(err, &ge) && ge.Code == generate.CodeUngrounded:
		o.Kind, o.Pages = grounding.OutcomeRefused, grounding.OutcomePages(all)
	case ctx.Err() != nil, errors.Is(err, durable.ErrCancelRequested), errors.Is(err, errSnapshot),
		errors.As(err, &be) && be.Limit != durable.LimitDeadline, errors.As(err, &re):
		// Handed on (this instance stops), cancelled, not this
		// instance's contract, refused by a budget, or the run store's
		// (a lease lost to another worker, which goes on): not how the
		// question ended.
		return
	default:
		// The provider or the model's answer failed, the answer was cut
		// off, or the run ran out of time: as a live answer's
		// generation failure or timeout.
		o.Kind, o.Pages = grounding.OutcomeFailed, grounding.OutcomePages(all)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), outcomeTimeout)
	defer cancel()
	h.tell(ctx, o)
}

// outcomeTimeout bounds a Config.Outcome call's context, as the live
// handler's does.
const outcomeTimeout = 2 * time.Second

// tell calls Config.Outcome, a panic in it logged and contained.
func (h *Runs) tell(ctx context.Context, o grounding.Outcome) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("ask: outcome receiver panicked")
		}
	}()
	h.cfg.Outcome(ctx, o)
}
