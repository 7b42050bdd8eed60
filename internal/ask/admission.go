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
// returns what it established as a value (who asks and for which site:
// asker; the turn: turn) and the next takes it as an argument; nothing is
// written back into the call. A step's error is an *apierr.Error to
// answer with, or another error (500 ASK_INTERNAL).

// asker is what the site's rules established on a call: who asks, for
// which site. Its failures and metrics count under the site.
type asker struct {
	*call
	site    *protocol.BackendSite
	subject string
}

// metric emits one observation under the asker's site.
func (a asker) metric(name string, value float64, unit, outcome string) {
	a.observe(a.site, name, value, unit, outcome)
}

// fail answers a failure before the body is read.
func (a asker) fail(err error) { a.refuse(a.site, true, err) }

// turn is what the body and the session established for an asker: the
// request, the stored session's revision, the history with this question
// merged in once, and the trimmed question. Retrieval, generation and
// the save all read it.
type turn struct {
	asker
	req      *protocol.AskRequest
	rev      int
	merged   []protocol.AskMessage
	question string
}

// fail answers a failure once the body is read.
func (t turn) fail(err error) { t.refuse(t.site, false, err) }

func (t turn) key() session.Key {
	return session.Key{SiteID: t.site.SiteID, Subject: t.subject, SessionID: t.req.SessionID}
}

// admit runs steps 1 to 13 of a question: the request's checks, then who
// asks, then the turn. It answers the first failure itself and reports
// ok false.
func (c *call) admit(ctx context.Context) (turn, bool) {
	a, ok := c.admitCaller(ctx, true)
	if !ok {
		return turn{}, false
	}
	req, err := readRequest(ctx, a) // 8–10: body, strict decoding, fallback metric
	if err != nil {
		a.refuse(a.site, false, err)
		return turn{}, false
	}
	t, err := loadHistory(ctx, a, req) // 11–13: persistence, session load, one history merge
	if err != nil {
		a.refuse(a.site, false, err)
		return turn{}, false
	}
	return t, true
}

// admitCaller runs the checks that read no body: with post, the method
// and content type of /v1/ask (1, 2); then the site's rules as
// internal/access's wrappers (wrappers.go): the client address's budget,
// authentication (3–5), the hints (6) and the subject's budget (7). The
// routes beside /v1/ask that read no body (forget, the run routes) run
// it without post. Metrics start once the asker is authenticated.
func (c *call) admitCaller(ctx context.Context, post bool) (asker, bool) {
	if post {
		err := checkMethod(c)
		if err == nil {
			err = checkContentType(c)
		}
		if err != nil {
			c.refuse(nil, true, err)
			return asker{}, false
		}
	}
	a, ok := c.runSiteRules(ctx)
	if !ok {
		return asker{}, false
	}
	if ctx.Err() != nil {
		a.fail(c.ctxError(ctx))
		return asker{}, false
	}
	return a, true
}

func checkMethod(c *call) error {
	if c.r.Method != http.MethodPost {
		c.w.Header().Set("Allow", http.MethodPost)
		return errMethod
	}
	return nil
}

func checkContentType(c *call) error {
	if ct := strings.ToLower(c.r.Header.Get("Content-Type")); !strings.HasPrefix(ct, "application/json") {
		return errContentType
	}
	return nil
}

func readRequest(ctx context.Context, a asker) (*protocol.AskRequest, error) {
	body, err := a.readBody(ctx)
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
	a.metric(MetricFallback, fallback, UnitCount, OutcomeOK)
	return req, nil
}

// loadHistory loads the stored session, when there is one, and merges
// the question into it, once.
func loadHistory(ctx context.Context, a asker, req *protocol.AskRequest) (turn, error) {
	h := a.h
	store := h.cfg.Sessions
	if a.site.Persistence.Mode == protocol.PersistenceRequired {
		switch {
		case req.SessionID == "":
			return turn{}, errNoSession // the client's mistake: no retry mends it
		case store == nil:
			h.log.Error("ask: persistence required but the server has no session store", "requestId", a.id)
			return turn{}, errInternal
		}
	}
	if w, ok := store.(session.WriteChecker); ok && a.site.Persistence.Mode == protocol.PersistenceRequired {
		// The answer must be saved: while the store's writes fail (a
		// full disk), refuse it now rather than stream it and lose it.
		if err := w.Writable(ctx); err != nil {
			if ctx.Err() != nil {
				return turn{}, a.ctxError(ctx)
			}
			h.log.Warn("ask: the session store cannot write; refused before answering", "requestId", a.id, "err", err)
			return turn{}, errCannotSave
		}
	}
	rev, stored := 0, []protocol.AskMessage(nil)
	if req.SessionID != "" && store != nil {
		start := h.cfg.Now()
		rec, err := store.Load(ctx, session.Key{SiteID: a.site.SiteID, Subject: a.subject, SessionID: req.SessionID})
		var corrupt *session.CorruptError
		if errors.As(err, &corrupt) {
			// The stored history cannot be read, and never will be: the
			// question starts the conversation again, and its save
			// replaces the unreadable row (a compare-and-swap on that
			// row's revision, so a concurrent writer still wins).
			h.log.Warn("ask: stored session is corrupt; starting it again", "requestId", a.id, "err", err)
			rec, err = session.Record{Revision: corrupt.Revision}, nil
		}
		if err != nil {
			a.metric(MetricPersistenceTotal, ms(h.cfg.Now().Sub(start)), UnitMs, OutcomeError)
			if ctx.Err() != nil {
				return turn{}, a.ctxError(ctx)
			}
			h.log.Error("ask: session load failed", "requestId", a.id, "err", err)
			return turn{}, errInternal
		}
		a.metric(MetricPersistenceTotal, ms(h.cfg.Now().Sub(start)), UnitMs, OutcomeOK)
		rev, stored = rec.Revision, rec.Messages
	}
	merged, question, ok := protocol.MergeAskHistory(stored, req.Messages)
	if !ok {
		return turn{}, errNoQuestion
	}
	return turn{asker: a, req: req, rev: rev, merged: merged, question: question}, nil
}
