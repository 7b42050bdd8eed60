package ask

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// A step is one admission check of a question, run in order before
// retrieval. It returns nil to go on, an *apierr.Error for the handler to answer
// with, or errAnswered when it has written the response itself (an
// Authenticator's refusal).
type step func(x *exchange, ctx context.Context) error

// errAnswered: the step wrote the response; send nothing more.
var errAnswered = errors.New("ask: response already written")

// admit runs steps in order and answers the first failure; it reports
// whether every step passed.
func (x *exchange) admit(ctx context.Context, steps []step) bool {
	for _, s := range steps {
		if err := s(x, ctx); err != nil {
			if err != errAnswered {
				x.fail(err)
			}
			return false
		}
	}
	return true
}

// admission is the order of the checks, the reference pipeline's steps 1
// to 13 with the per-address limit in front of authentication: nothing
// about the body is read until the client, its site, its hints and its
// budgets have passed.
var admission = [...]step{
	checkMethod,      // 1
	checkContentType, // 2
	checkAddress,     // the client address's budget
	authenticate,     // 3–5: subject, the trusted site
	checkHints,       // 6
	checkSubjectRate, // 7
	readRequest,      // 8–10: body, strict decoding, fallback metric
	loadHistory,      // 11–13: persistence, session load, one history merge
}

func checkMethod(x *exchange, _ context.Context) error {
	if x.r.Method != http.MethodPost {
		x.w.Header().Set("Allow", http.MethodPost)
		return errMethod
	}
	return nil
}

func checkContentType(x *exchange, _ context.Context) error {
	if ct := strings.ToLower(x.r.Header.Get("Content-Type")); !strings.HasPrefix(ct, "application/json") {
		return errContentType
	}
	return nil
}

// checkAddress spends the client address's budget: a client that drops
// its cookie gets a new subject each time, never a new address.
func checkAddress(x *exchange, ctx context.Context) error {
	if al := x.h.cfg.AddressLimiter; al != nil {
		if e := access.Spend(ctx, al, x.h.clientAddr(x.r), x.h.log.With("requestId", x.id)); e != nil {
			return e
		}
	}
	return nil
}

// authenticate names the subject; the site is the trusted one New
// validated, and metrics start once it is known.
func authenticate(x *exchange, ctx context.Context) error {
	subject, ok := x.h.cfg.Auth.Authenticate(refusalCloser{x.w, x.r}, x.r.WithContext(ctx))
	if !ok {
		return errAnswered
	}
	x.site = &x.h.cfg.Site
	if !access.ValidSubject(subject) {
		x.h.log.Error("ask: authenticator returned an invalid subject", "requestId", x.id)
		return errInternal
	}
	x.subject = subject
	return nil
}

// checkHints fails closed: hints, when present, must name the trusted ids.
func checkHints(x *exchange, _ context.Context) error {
	q := x.r.URL.Query()
	if !hintMatches(q["corpus"], x.site.Corpus.ID) || !hintMatches(q["persona"], x.site.Assistant.ID) {
		return errForbidden
	}
	return nil
}

func checkSubjectRate(x *exchange, ctx context.Context) error {
	if rl := x.h.cfg.RateLimiter; rl != nil {
		if e := access.Spend(ctx, rl, x.subject, x.h.log.With("requestId", x.id)); e != nil {
			return e
		}
	}
	if ctx.Err() != nil {
		return x.ctxError(ctx)
	}
	return nil
}

func readRequest(x *exchange, ctx context.Context) error {
	body, err := x.readBody(ctx)
	if err != nil {
		return err
	}
	req, err := protocol.DecodeAskRequest(body)
	if err != nil {
		return badRequest(protocol.AsDiagnostic(err))
	}
	x.req = req
	fallback := 0.0
	if req.Deterministic != nil {
		fallback = 1
	}
	x.metric(MetricFallback, fallback, UnitCount, OutcomeOK)
	return nil
}

// loadHistory loads the stored session, when there is one, and merges
// the question into it, once: retrieval, generation and the save all read
// x.merged and x.question.
func loadHistory(x *exchange, ctx context.Context) error {
	h, req := x.h, x.req
	store := h.cfg.Sessions
	if x.site.Persistence.Mode == protocol.PersistenceRequired {
		switch {
		case req.SessionID == "":
			return errNoSession // the client's mistake: no retry mends it
		case store == nil:
			h.log.Error("ask: persistence required but the server has no session store", "requestId", x.id)
			return errInternal
		}
	}
	if w, ok := store.(session.WriteChecker); ok && x.site.Persistence.Mode == protocol.PersistenceRequired {
		// The answer must be saved: while the store's writes fail (a
		// full disk), refuse it now rather than stream it and lose it.
		if err := w.Writable(ctx); err != nil {
			if ctx.Err() != nil {
				return x.ctxError(ctx)
			}
			h.log.Warn("ask: the session store cannot write; refused before answering", "requestId", x.id, "err", err)
			return errCannotSave
		}
	}
	var stored []protocol.AskMessage
	if req.SessionID != "" && store != nil {
		t := h.cfg.Now()
		rec, err := store.Load(ctx, x.key())
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
			x.metric(MetricPersistenceTotal, ms(h.cfg.Now().Sub(t)), UnitMs, OutcomeError)
			if ctx.Err() != nil {
				return x.ctxError(ctx)
			}
			h.log.Error("ask: session load failed", "requestId", x.id, "err", err)
			return errInternal
		}
		x.metric(MetricPersistenceTotal, ms(h.cfg.Now().Sub(t)), UnitMs, OutcomeOK)
		x.rev, stored = rec.Revision, rec.Messages
	}
	merged, question, ok := mergeHistory(stored, req.Messages)
	if !ok {
		return errNoQuestion
	}
	x.merged, x.question = merged, question
	return nil
}

// refusalCloser is the ResponseWriter an Authenticator gets: the refusals
// it writes itself close the connection as the handler's own do.
type refusalCloser struct {
	http.ResponseWriter
	r *http.Request
}

func (w refusalCloser) WriteHeader(status int) {
	if status >= 400 {
		apierr.CloseUnread(w.ResponseWriter, w.r)
	}
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection.
func (w refusalCloser) Unwrap() http.ResponseWriter { return w.ResponseWriter }
