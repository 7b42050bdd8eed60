package ask

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Admission, the reference pipeline's steps 1 to 13 with the per-address
// limit in front of authentication: nothing about the body is read until
// the client, its site, its hints and its budgets have passed. Each step
// returns what it established (who asks and for which site: asker;
// what was asked: asked) and the next takes it as an argument; no step
// writes the exchange, which keeps only the request's own (its id, its
// writer, its metrics, whose site is set once the asker is known).
// A step's error is an *apierr.Error to answer with, or another error (500
// ASK_INTERNAL).

// asker is what authentication established: who asks, for which site.
type asker struct {
	site    *protocol.BackendSite
	subject string
}

// asked is what the body and the session established: the request, the
// stored session's revision, the history with this question merged in
// once, and the trimmed question. Retrieval, generation and the save all
// read it.
type asked struct {
	req      *protocol.AskRequest
	rev      int
	merged   []protocol.AskMessage
	question string
}

// admit runs steps 1 to 13 of a question: the request's checks, then who
// asks, then the turn. It answers the first failure itself and reports
// ok false.
func (x *exchange) admit(ctx context.Context) (asker, asked, bool) {
	a, ok := x.admitCaller(ctx, true)
	if !ok {
		return asker{}, asked{}, false
	}
	req, err := readRequest(x, ctx) // 8–10: body, strict decoding, fallback metric
	if err != nil {
		x.fail(err)
		return asker{}, asked{}, false
	}
	t, err := loadHistory(x, ctx, a, req) // 11–13: persistence, session load, one history merge
	if err != nil {
		x.fail(err)
		return asker{}, asked{}, false
	}
	return a, t, true
}

// admitCaller runs the checks that read no body: with post, the method
// and content type of /v1/ask (1, 2); then the site's rules as
// internal/access's wrappers (wrappers.go): the client address's budget,
// authentication (3–5), the hints (6) and the subject's budget (7). The
// routes beside /v1/ask that read no body (forget, the run routes) run
// it without post. Metrics start once the asker is authenticated.
func (x *exchange) admitCaller(ctx context.Context, post bool) (asker, bool) {
	if post {
		err := checkMethod(x)
		if err == nil {
			err = checkContentType(x)
		}
		if err != nil {
			x.fail(err)
			return asker{}, false
		}
	}
	a, ok := x.runSiteRules(ctx)
	if !ok {
		return asker{}, false
	}
	if ctx.Err() != nil {
		x.fail(x.ctxError(ctx))
		return asker{}, false
	}
	return a, true
}

func checkMethod(x *exchange) error {
	if x.r.Method != http.MethodPost {
		x.w.Header().Set("Allow", http.MethodPost)
		return errMethod
	}
	return nil
}

func checkContentType(x *exchange) error {
	if ct := strings.ToLower(x.r.Header.Get("Content-Type")); !strings.HasPrefix(ct, "application/json") {
		return errContentType
	}
	return nil
}

func readRequest(x *exchange, ctx context.Context) (*protocol.AskRequest, error) {
	body, err := x.readBody(ctx)
	if err != nil {
		return nil, err
	}
	req, err := protocol.DecodeAskRequest(body)
	if err != nil {
		return nil, badRequest(protocol.AsDiagnostic(err))
	}
	fallback := 0.0
	if req.Deterministic != nil {
		fallback = 1
	}
	x.metric(MetricFallback, fallback, UnitCount, OutcomeOK)
	return req, nil
}

// loadHistory loads the stored session, when there is one, and merges
// the question into it, once.
func loadHistory(x *exchange, ctx context.Context, a asker, req *protocol.AskRequest) (asked, error) {
	h := x.h
	store := h.cfg.Sessions
	if a.site.Persistence.Mode == protocol.PersistenceRequired {
		switch {
		case req.SessionID == "":
			return asked{}, errNoSession // the client's mistake: no retry mends it
		case store == nil:
			h.log.Error("ask: persistence required but the server has no session store", "requestId", x.id)
			return asked{}, errInternal
		}
	}
	if w, ok := store.(session.WriteChecker); ok && a.site.Persistence.Mode == protocol.PersistenceRequired {
		// The answer must be saved: while the store's writes fail (a
		// full disk), refuse it now rather than stream it and lose it.
		if err := w.Writable(ctx); err != nil {
			if ctx.Err() != nil {
				return asked{}, x.ctxError(ctx)
			}
			h.log.Warn("ask: the session store cannot write; refused before answering", "requestId", x.id, "err", err)
			return asked{}, errCannotSave
		}
	}
	t := asked{req: req}
	var stored []protocol.AskMessage
	if req.SessionID != "" && store != nil {
		start := h.cfg.Now()
		rec, err := store.Load(ctx, session.Key{SiteID: a.site.SiteID, Subject: a.subject, SessionID: req.SessionID})
		var corrupt *session.CorruptError
		if errors.As(err, &corrupt) {
			// The stored history cannot be read, and never will be: the
			// question starts the conversation again, and its save
			// replaces the unreadable row (a compare-and-swap on that
			// row's revision, so a concurrent writer still wins).
			h.log.Warn("ask: stored session is corrupt; starting it again", "requestId", x.id, "err", err)
			rec, err = session.Record{Revision: corrupt.Revision}, nil
		}
		if err != nil {
			x.metric(MetricPersistenceTotal, ms(h.cfg.Now().Sub(start)), UnitMs, OutcomeError)
			if ctx.Err() != nil {
				return asked{}, x.ctxError(ctx)
			}
			h.log.Error("ask: session load failed", "requestId", x.id, "err", err)
			return asked{}, errInternal
		}
		x.metric(MetricPersistenceTotal, ms(h.cfg.Now().Sub(start)), UnitMs, OutcomeOK)
		t.rev, stored = rec.Revision, rec.Messages
	}
	merged, question, ok := protocol.MergeAskHistory(stored, req.Messages)
	if !ok {
		return asked{}, errNoQuestion
	}
	t.merged, t.question = merged, question
	return t, nil
}
