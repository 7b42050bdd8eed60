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
	// Auth says who is asking; required (CookieAuth for a public site).
	Auth access.Authenticator
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
// site record is trusted as given: only a validator makes a TrustedSite.
func New(c Config) (*Handler, error) {
	switch {
	case !c.Site.Valid():
		return nil, errors.New("ask: Config.Site is required")
	case c.Retriever == nil:
		return nil, errors.New("ask: Config.Retriever is required")
	case c.Generator == nil:
		return nil, errors.New("ask: Config.Generator is required")
	case c.Auth == nil:
		return nil, errors.New("ask: Config.Auth is required")
	case c.MaxBodyBytes < 0 || c.MaxBodyBytes > protocol.MaxAskBodyBytes:
		return nil, fmt.Errorf("ask: Config.MaxBodyBytes must be 1 to %d", protocol.MaxAskBodyBytes)
	case c.BootstrapTimeout < 0:
		return nil, errors.New("ask: Config.BootstrapTimeout must be positive")
	case c.BodyTimeout < 0:
		return nil, errors.New("ask: Config.BodyTimeout must be positive")
	}
	if v, ok := c.Auth.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
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
	x := &exchange{h: h, w: w, r: r, start: h.cfg.Now(), id: h.requestID()}
	w.Header().Set("X-Request-Id", x.id)
	x.serve()
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

// exchange is one request: its writer, its id and metrics, and (for
// the answer's end) what admission established.
type exchange struct {
	h     *Handler
	w     http.ResponseWriter
	r     *http.Request
	rc    *http.ResponseController
	id    string
	start time.Time

	// What admission and retrieval established. The steps return it
	// (asker, asked, evidenceFound); serve alone copies it here, for the
	// stream and the outcome: site once it is known (metrics need it),
	// the rest once retrieval is done.
	site     *protocol.BackendSite
	subject  string
	req      *protocol.AskRequest
	merged   []protocol.AskMessage // the stored history with this question, merged once
	question string                // the trimmed latest user turn
	bodyRead bool                  // readBody has run
	rev      int                   // loaded session revision
	pkg      *evidence.Package     // from an EvidenceRetriever, else nil

	// stream accounting
	buf        []byte
	bytes      int
	events     int
	firstEvent bool
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

func (x *exchange) serve() {
	h := x.h
	x.rc = http.NewResponseController(x.w)
	ctx, cancel := context.WithCancelCause(x.r.Context())
	defer cancel(nil)
	boot := time.AfterFunc(h.cfg.BootstrapTimeout, func() { cancel(errBootstrapDeadline) })
	defer boot.Stop()
	if !h.untilShutdown(ctx, cancel) {
		x.fail(errShuttingDown)
		return
	}

	// The request deadline runs from here; no step before the body reads
	// the context, so starting it a step early costs nothing.
	limit := time.Duration(h.site.Limits.RequestTimeoutMs) * time.Millisecond
	ctx, cancelReq := context.WithDeadlineCause(ctx, time.Now().Add(limit), errRequestDeadline)
	defer cancelReq()
	a, t, ok := x.admit(ctx)
	if !ok {
		return
	}
	ev, err := x.retrieve(ctx, a, t)
	// What admission and retrieval established, kept for the answer's
	// end: the live stream (stream.go) and the outcome read it here.
	x.subject, x.req, x.rev, x.merged, x.question, x.pkg = a.subject, t.req, t.rev, t.merged, t.question, ev.pkg
	if err != nil {
		x.fail(err)
		if err == errNoSources {
			x.outcome(grounding.OutcomeNoSources, nil)
		}
		return
	}
	if h.cfg.Durable != nil {
		boot.Stop()
		if err := h.cfg.Durable.Answer(ctx, x.w, x.r, newTurn(x, a, t, ev)); err != nil {
			x.fail(err)
		}
		return
	}
	if g := h.cfg.Generations; g != nil {
		release, err := g.Acquire(ctx)
		if err != nil {
			x.fail(x.busy(ctx, err))
			return
		}
		defer release()
	}
	boot.Stop()
	x.stream(ctx, ev.sources)
}

func (x *exchange) key() session.Key {
	return session.Key{SiteID: x.site.SiteID, Subject: x.subject, SessionID: x.req.SessionID}
}

func (x *exchange) query() grounding.Query {
	return grounding.Query{RequestID: x.id, Site: x.site, Text: x.question, Messages: x.merged, Evidence: x.pkg}
}

// evidenceFound is what retrieval established: the valid sources, within
// the site's maxSources, and the package they came from (an
// EvidenceRetriever's), else nil.
type evidenceFound struct {
	sources []grounding.Source
	pkg     *evidence.Package
}

// retrieve runs steps 14–16 under the retrieval deadline.
func (x *exchange) retrieve(ctx context.Context, a asker, t asked) (evidenceFound, error) {
	h := x.h
	limit := time.Duration(a.site.Limits.RetrievalTimeoutMs) * time.Millisecond
	rctx, cancel := context.WithTimeoutCause(ctx, limit, errRetrievalDeadline)
	defer cancel()
	type result struct {
		list []grounding.Source
		pkg  *evidence.Package
		err  error
	}
	done := make(chan result, 1)
	q := grounding.Query{RequestID: x.id, Site: a.site, Text: t.question, Messages: t.merged}
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
		return evidenceFound{}, x.ctxError(rctx)
	}
	if rctx.Err() != nil {
		return evidenceFound{}, x.ctxError(rctx)
	}
	if res.err != nil {
		h.log.Error("ask: retrieval failed", "requestId", x.id, "err", res.err)
		return evidenceFound{}, errRetrieval
	}
	ev := evidenceFound{sources: grounding.Valid(res.list, a.site.Limits.MaxSources), pkg: res.pkg}
	x.metric(MetricRetrievalTotal, ms(h.cfg.Now().Sub(start)), UnitMs, OutcomeOK)
	x.metric(MetricRetrievalDocuments, float64(len(ev.sources)), UnitCount, OutcomeOK)
	if len(ev.sources) == 0 {
		return ev, errNoSources
	}
	return ev, nil
}

// busy is the failure of a generation that found no place: the context's
// own when it ended, else 503 with the gate's retry advice.
func (x *exchange) busy(ctx context.Context, err error) *apierr.Error {
	if ctx.Err() != nil {
		return x.ctxError(ctx)
	}
	after := time.Second
	var le *limit.Error
	if errors.As(err, &le) && le.Code == limit.CodeUnavailable {
		x.h.log.Error("ask: the generation cap could not be consulted; refusing", "requestId", x.id, "err", err)
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
func (x *exchange) ctxError(ctx context.Context) *apierr.Error {
	if context.Cause(ctx) == errShutdown {
		return errShuttingDown
	}
	if x.r.Context().Err() == nil && isDeadline(context.Cause(ctx)) {
		return errTimeout
	}
	return errCancelled
}

// fail answers a failure before the stream starts and records it: 408 and
// 499 as cancellations, other statuses under 500 as rejections, the rest
// as errors.
func (x *exchange) fail(err error) {
	var e *apierr.Error
	if !errors.As(err, &e) {
		x.h.log.Error("ask: internal failure", "requestId", x.id, "err", err)
		e = errInternal
	}
	if !x.bodyRead {
		apierr.CloseUnread(x.w, x.r)
	}
	switch {
	case e.Status == http.StatusRequestTimeout || e.Status == errCancelled.Status:
		x.finish(MetricCancellation, OutcomeCancelled)
	case e.Status < 500:
		x.finish(MetricError, OutcomeRejected)
	default:
		x.finish(MetricError, OutcomeError)
	}
	apierr.Write(x.w, e)
}

// finish records the end of a failed request: its counter, then
// request.total_ms with the same outcome.
func (x *exchange) finish(counter, outcome string) {
	x.metric(counter, 1, UnitCount, outcome)
	x.metric(MetricRequestTotal, ms(x.h.cfg.Now().Sub(x.start)), UnitMs, outcome)
}

// metric emits one observation once the site is known.
func (x *exchange) metric(name string, value float64, unit, outcome string) {
	m := x.h.cfg.Metrics
	if m == nil || x.site == nil {
		return
	}
	m.Observe(metrics.Metric{
		Name: name, SiteID: x.site.SiteID, CorpusID: x.site.Corpus.ID, RequestID: x.id,
		Value: clampValue(value), Unit: unit, Outcome: outcome, EmittedAt: x.h.cfg.Now(),
	})
}
