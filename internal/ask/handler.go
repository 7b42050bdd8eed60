package ask

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Config holds a Handler's trusted settings and dependencies.
type Config struct {
	// Site is the trusted backend site record, validated once where the
	// config was loaded (protocol.TrustedSite); required.
	Site protocol.TrustedSite
	// Retriever serves the site's corpus; Generator writes answers. Both
	// are required.
	Retriever grounding.Retriever
	Generator grounding.Generator
	// Auth says who is asking, checked once where the config was loaded
	// (access.Check: a site's Policy, or a CookieAuth for a public site);
	// required.
	Auth access.Checked
	// Sessions stores conversations; nil means none. With
	// Site.Persistence.Mode "required" every request needs a sessionId and
	// a store, or it fails with 500 ASK_INTERNAL.
	Sessions session.Store
	// RateLimiter limits each subject's questions to this site, keyed by
	// the subject, before the body is read; nil means no limit.
	RateLimiter access.Limiter
	// AddressLimiter limits the questions from one client address, keyed
	// by ClientAddr, before anyone is authenticated: a client that drops
	// its cookie gets a new subject each time, never a new address. nil
	// means no limit.
	AddressLimiter access.Limiter
	// ClientAddr names a request's client address; nil means the TCP
	// peer's (limit.ClientAddr{}.Key).
	ClientAddr access.ClientAddrFunc
	// Generations caps the answers being written at once, so model spend
	// is bounded by configuration, never by clients; a question that finds
	// no place in time gets 503 ASK_RATE_LIMITED with Retry-After. nil
	// means no cap.
	Generations Gate
	// Metrics receives privacy-safe observations; nil drops them.
	Metrics metrics.Sink
	// Logger gets one record per internal failure, with the request id and
	// the cause (never the question, answer, subject or session); nil
	// discards.
	Logger *slog.Logger
	// MaxBodyBytes bounds the request body: 1 to protocol.MaxAskBodyBytes,
	// 0 means protocol.MaxAskBodyBytes (65,536).
	MaxBodyBytes int64
	// BootstrapTimeout bounds everything before the stream starts; 0 means
	// 30 s.
	BootstrapTimeout time.Duration
	// Now is the clock for metric times and durations; nil means time.Now.
	Now func() time.Time
	// NewID makes request ids; nil, a panic or an id that is not a
	// SafeIdentifier falls back to a random UUID.
	NewID func() string
	// BodyTimeout bounds reading the request body, however slowly the
	// client sends it; 0 means DefaultBodyTimeout. The request deadline
	// still wins when it is earlier.
	BodyTimeout time.Duration
	// Issued, when set, is told the context_id of every evidence package
	// an answer's Link header names, as the answer starts: the ids this
	// site issued, which feedback may then name.
	Issued func(contextID string)
	// Shutdown, when closed, ends every request in flight: a question not
	// yet streaming gets 503 and one streaming gets a terminal, retryable
	// ASK_INTERNAL error event, so a reader's widget can ask again of
	// another instance. nil never fires.
	Shutdown <-chan struct{}
	// Durable, when set (a model site on a store that keeps runs), makes
	// each question a durable run (internal/askrun); nil keeps the
	// request the answer's only holder.
	Durable Durable
	// Outcome, when set, is told how each question ended (outcome.go),
	// after the reply is written, on the request's goroutine.
	Outcome func(ctx context.Context, o grounding.Outcome)
}

// Handler serves POST /v1/ask. Build it with New; it is safe for
// concurrent use.
type Handler struct {
	cfg   Config
	site  protocol.BackendSite // cfg.Site's record
	log   *slog.Logger
	rules http.Handler // the site's rules, internal/access's wrappers (wrappers.go)
}

// Defaults of Config.
const (
	DefaultBootstrapTimeout = 30 * time.Second
	DefaultBodyTimeout      = 10 * time.Second
	// streamReadSlack is how long past the request deadline the
	// connection's read deadline is left once the body is read, so the
	// server's background read (which notices a client that went away)
	// never cancels an answer that is still within its deadline.
	streamReadSlack = 5 * time.Second
	// MaxAnswerLen bounds an answer, in UTF-16 units.
	MaxAnswerLen = 16_384
)

// New checks c's dependencies and bounds and returns its Handler. The
// site record and the authenticator are trusted as given: only a
// validator makes a TrustedSite, only access.Check a Checked.
func New(c Config) (*Handler, error) {
	switch {
	case !c.Site.Valid():
		return nil, errors.New("ask: Config.Site is required")
	case c.Retriever == nil:
		return nil, errors.New("ask: Config.Retriever is required")
	case c.Generator == nil:
		return nil, errors.New("ask: Config.Generator is required")
	case !c.Auth.Valid():
		return nil, errors.New("ask: Config.Auth is required")
	case c.MaxBodyBytes < 0 || c.MaxBodyBytes > protocol.MaxAskBodyBytes:
		return nil, fmt.Errorf("ask: Config.MaxBodyBytes must be 1 to %d", protocol.MaxAskBodyBytes)
	case c.BootstrapTimeout < 0:
		return nil, errors.New("ask: Config.BootstrapTimeout must be positive")
	case c.BodyTimeout < 0:
		return nil, errors.New("ask: Config.BodyTimeout must be positive")
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = protocol.MaxAskBodyBytes
	}
	if c.BootstrapTimeout == 0 {
		c.BootstrapTimeout = DefaultBootstrapTimeout
	}
	if c.BodyTimeout == 0 {
		c.BodyTimeout = DefaultBodyTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Handler{cfg: c, site: c.Site.Record(), log: log}
	h.rules = siteRules(c, &h.site)
	return h, nil
}

// Causes of a cancelled request context.
var (
	errBootstrapDeadline  = errors.New("ask: bootstrap deadline")
	errRequestDeadline    = errors.New("ask: request deadline")
	errRetrievalDeadline  = errors.New("ask: retrieval deadline")
	errGenerationDeadline = errors.New("ask: generation deadline")
	errBodyDeadline       = errors.New("ask: body deadline")
	errShutdown           = errors.New("ask: server shutting down")
)

func isDeadline(cause error) bool {
	return cause == errBootstrapDeadline || cause == errRequestDeadline ||
		cause == errRetrievalDeadline || cause == errGenerationDeadline || cause == errBodyDeadline
}

// ServeHTTP runs the pipeline for one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.newCall(w, r).serve()
}

// newCall starts a request: its id, sent at once as X-Request-Id.
func (h *Handler) newCall(w http.ResponseWriter, r *http.Request) *call {
	c := &call{h: h, w: w, r: r, rc: http.NewResponseController(w), start: h.cfg.Now(), id: h.requestID()}
	w.Header().Set("X-Request-Id", c.id)
	return c
}

// requestID returns a fresh SafeIdentifier.
func (h *Handler) requestID() (id string) {
	if h.cfg.NewID != nil {
		func() {
			defer func() { recover() }()
			id = h.cfg.NewID()
		}()
		if protocol.ValidIdentifier(id) {
			return id
		}
	}
	return rand.Text()
}

// call is one request's own, set when it starts and never written after:
// its handler, writer, request, id and start. What the steps establish
// is not kept here: each returns it as a value (asker, turn, found, in
// admission.go and below) and the next takes it, so no step writes
// anything another step reads back.
type call struct {
	h     *Handler
	w     http.ResponseWriter
	r     *http.Request
	rc    *http.ResponseController
	id    string
	start time.Time
}

// untilShutdown cancels ctx with errShutdown once the server begins
// shutting down (Config.Shutdown); it reports false when it already has.
// Its goroutine ends with ctx, which the caller's deferred cancel ends.
func (h *Handler) untilShutdown(ctx context.Context, cancel context.CancelCauseFunc) bool {
	down := h.cfg.Shutdown
	if down == nil {
		return true
	}
	select {
	case <-down:
		return false
	default:
	}
	go func(done <-chan struct{}) {
		select {
		case <-down:
			cancel(errShutdown)
		case <-done:
		}
	}(ctx.Done())
	return true
}

func (c *call) serve() {
	h := c.h
	ctx, cancel := context.WithCancelCause(c.r.Context())
	defer cancel(nil)
	boot := time.AfterFunc(h.cfg.BootstrapTimeout, func() { cancel(errBootstrapDeadline) })
	defer boot.Stop()
	if !h.untilShutdown(ctx, cancel) {
		c.refuse(nil, true, errShuttingDown)
		return
	}

	// The request deadline runs from here; no step before the body reads
	// the context, so starting it a step early costs nothing.
	limit := time.Duration(h.site.Limits.RequestTimeoutMs) * time.Millisecond
	ctx, cancelReq := context.WithDeadlineCause(ctx, time.Now().Add(limit), errRequestDeadline)
	defer cancelReq()
	t, ok := c.admit(ctx)
	if !ok {
		return
	}
	f, err := retrieve(ctx, t)
	if err != nil {
		t.fail(err)
		if err == errNoSources {
			f.outcome(grounding.OutcomeNoSources, nil)
		}
		return
	}
	if h.cfg.Durable != nil {
		boot.Stop()
		if err := h.cfg.Durable.Answer(ctx, c.w, c.r, newTurn(f)); err != nil {
			t.fail(err)
		}
		return
	}
	if g := h.cfg.Generations; g != nil {
		release, err := g.Acquire(ctx)
		if err != nil {
			t.fail(c.busy(ctx, err))
			return
		}
		defer release()
	}
	boot.Stop()
	stream(ctx, f)
}

// found is what retrieval established for a turn: the valid sources,
// within the site's maxSources, and the package they came from (an
// EvidenceRetriever's), else nil.
type found struct {
	turn
	sources []grounding.Source
	pkg     *evidence.Package
}

func (f found) query() grounding.Query {
	return grounding.Query{RequestID: f.id, Site: f.site, Text: f.question, Messages: f.merged, Evidence: f.pkg}
}

// retrieve runs steps 14–16 under the retrieval deadline. On an error
// its found still holds t, for the outcome.
//
// It bounds the sources at the site's maxSources (grounding.Valid) although
// the sidecar's evidence engine was given the same bound as its budget:
// that budget is part of the evidence identity (the package, its recipe,
// its context_id) and stays there, but Config.Retriever may be any
// retriever, and no answer may cite more than the site allows.
func retrieve(ctx context.Context, t turn) (found, error) {
	h := t.h
	limit := time.Duration(t.site.Limits.RetrievalTimeoutMs) * time.Millisecond
	rctx, cancel := context.WithTimeoutCause(ctx, limit, errRetrievalDeadline)
	defer cancel()
	type result struct {
		list []grounding.Source
		pkg  *evidence.Package
		err  error
	}
	done := make(chan result, 1)
	q := grounding.Query{RequestID: t.id, Site: t.site, Text: t.question, Messages: t.merged}
	start := h.cfg.Now()
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("ask: retriever panicked: %v", p)}
			}
			done <- res
		}()
		if er, ok := h.cfg.Retriever.(grounding.EvidenceRetriever); ok {
			res.pkg, res.err = er.RetrieveEvidence(rctx, q)
			res.list = grounding.FromPackage(res.pkg)
		} else {
			res.list, res.err = h.cfg.Retriever.Retrieve(rctx, q)
		}
	}()
	var res result
	select {
	case res = <-done:
	case <-rctx.Done():
		return found{turn: t}, t.ctxError(rctx)
	}
	if rctx.Err() != nil {
		return found{turn: t}, t.ctxError(rctx)
	}
	if res.err != nil {
		h.log.Error("ask: retrieval failed", "requestId", t.id, "err", res.err)
		return found{turn: t}, errRetrieval
	}
	f := found{turn: t, sources: grounding.Valid(res.list, t.site.Limits.MaxSources), pkg: res.pkg}
	t.metric(MetricRetrievalTotal, ms(h.cfg.Now().Sub(start)), UnitMs, OutcomeOK)
	t.metric(MetricRetrievalDocuments, float64(len(f.sources)), UnitCount, OutcomeOK)
	if len(f.sources) == 0 {
		return f, errNoSources
	}
	return f, nil
}

// busy is the failure of a generation that found no place: the context's
// own when it ended, else 503 with the gate's retry advice.
func (c *call) busy(ctx context.Context, err error) *apierr.Error {
	if ctx.Err() != nil {
		return c.ctxError(ctx)
	}
	after := time.Second
	var le *limit.Error
	if errors.As(err, &le) && le.Code == limit.CodeUnavailable {
		c.h.log.Error("ask: the generation cap could not be consulted; refusing", "requestId", c.id, "err", err)
		return apierr.LimitUnavailable
	}
	if le != nil && le.RetryAfter > 0 {
		after = le.RetryAfter
	}
	return &apierr.Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskRateLimited,
		Message: msgBusy, Retryable: true, RetryAfter: after}
}

// ctxError maps a done context to 499 (the client went away) or 408 (a
// deadline fired).
func (c *call) ctxError(ctx context.Context) *apierr.Error {
	if context.Cause(ctx) == errShutdown {
		return errShuttingDown
	}
	if c.r.Context().Err() == nil && isDeadline(context.Cause(ctx)) {
		return errTimeout
	}
	return errCancelled
}

// refuse answers a failure before the stream starts and records it under
// site (nil before the asker is known: no metrics): 408 and 499 as
// cancellations, other statuses under 500 as rejections, the rest as
// errors. unread says the body was never read: the connection closes.
func (c *call) refuse(site *protocol.BackendSite, unread bool, err error) {
	var e *apierr.Error
	if !errors.As(err, &e) {
		c.h.log.Error("ask: internal failure", "requestId", c.id, "err", err)
		e = errInternal
	}
	if unread {
		apierr.CloseUnread(c.w, c.r)
	}
	switch {
	case e.Status == http.StatusRequestTimeout || e.Status == errCancelled.Status:
		c.finish(site, MetricCancellation, OutcomeCancelled)
	case e.Status < 500:
		c.finish(site, MetricError, OutcomeRejected)
	default:
		c.finish(site, MetricError, OutcomeError)
	}
	apierr.Write(c.w, e)
}

// finish records the end of a failed request: its counter, then
// request.total_ms with the same outcome.
func (c *call) finish(site *protocol.BackendSite, counter, outcome string) {
	c.observe(site, counter, 1, UnitCount, outcome)
	c.observe(site, MetricRequestTotal, ms(c.h.cfg.Now().Sub(c.start)), UnitMs, outcome)
}

// observe emits one observation under site; nil (the asker not yet
// known) emits none.
func (c *call) observe(site *protocol.BackendSite, name string, value float64, unit, outcome string) {
	m := c.h.cfg.Metrics
	if m == nil || site == nil {
		return
	}
	m.Observe(metrics.Metric{
		Name: name, SiteID: site.SiteID, CorpusID: site.Corpus.ID, RequestID: c.id,
		Value: clampValue(value), Unit: unit, Outcome: outcome, EmittedAt: c.h.cfg.Now(),
	})
}
