package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/askrun"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/mcp"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/replay"
	"github.com/askplane/askplane/internal/review"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/static"
	"github.com/askplane/askplane/internal/store"
)

// Options are what New takes besides the config: where secrets and logs
// come from.
type Options struct {
	// Env reads the environment variables the config names; nil means
	// os.LookupEnv.
	Env Env
	// Logger gets the server's records; nil discards them.
	Logger *slog.Logger
	// MaxRequestTime, when set, caps every site's request, retrieval and
	// generation deadlines: on a platform that ends an invocation at a
	// fixed time (a serverless function), an answer must end, with its
	// own terminal event, before the platform cuts it. Each capped site
	// is logged.
	MaxRequestTime time.Duration
}

// Server is the sidecar: one http.Handler for every route, and the
// session store and background work it holds until Close. askplane serve,
// askplane dev and every other entry point build it with New.
type Server struct {
	cfg      *Config
	log      *slog.Logger
	handler  http.Handler
	sessions store.Backend
	sites    []*site
	files    *static.Handler // the static site, or nil
	patterns []string        // the routes mounted, sorted (routes.go)
	// builds are the replay builds over retained versions, shared by
	// every site: their limits and the cache of built indexes.
	builds *replay.Builds

	drainOnce    sync.Once
	drain        chan struct{} // closed when answers in flight must end
	stopPruner   context.CancelFunc
	pruned       chan struct{} // closed when the pruner has stopped
	limitsPruned chan struct{} // closed when the shared limits' pruner has stopped

	// Durable runs (runs.go): the worker, nil when the store keeps no
	// runs, the durable sites, and the sweeper.
	worker    *durable.Worker
	runSites  *runSites
	stopSweep context.CancelFunc
	swept     chan struct{}

	// insightQueues are the sites' insights writers (insights.go).
	insightQueues []*insights.Queue
}

// Session retention: a persistent store forgets sessions not written for
// sessionRetention, checked every pruneEvery, so its table stays bounded.
const (
	sessionRetention = 30 * 24 * time.Hour
	pruneEvery       = time.Hour
)

// corpusFetchTimeout bounds fetching every corpusUrl at start-up.
const corpusFetchTimeout = 2 * time.Minute

// New provisions and validates the server cfg describes: it reads every
// secret through opts.Env and builds each site's generator (failing on a
// missing variable before any I/O), opens the session store, loads and
// verifies each site's corpus (from its public folder or corpusUrl), then
// builds one handler for /v1/ask, /health, /ready, /metrics and the static
// site. Nothing listens: call Serve, or mount the Server as a handler.
func New(ctx context.Context, cfg *Config, opts Options) (*Server, error) {
	if err := engines.Check(); err != nil {
		return nil, err
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// ERROR lines are rate-limited per message (lograte.go).
	logger = slog.New(limitErrors(logger.Handler(), nil))
	k, err := cfg.check() // the config's one validation
	if err != nil {
		return nil, err
	}
	cfg = &k.cfg
	dsn, sites, err := provisionSecrets(k, opts.Env, logger)
	if err != nil {
		return nil, err
	}
	if opts.MaxRequestTime > 0 {
		for _, st := range sites {
			if st.capLimits(opts.MaxRequestTime) {
				logger.Warn("askplane: the site's deadlines are capped below the platform's", "site", st.record.SiteID, "requestTimeoutMs", st.record.Limits.RequestTimeoutMs)
			}
		}
		// runLease must still fit the capped deadlines (check did the
		// file's).
		for i, st := range sites {
			if l := time.Duration(cfg.RunLease); l != 0 && st.cfg.durableSite() && !leaseFits(l, runDeadline(st.record.Limits)) {
				return nil, configErr("runLease: %v cannot run out and be swept (every %v) before sites[%d]'s runs end (%v once capped at the platform's request time); shorten runLease or omit it",
					l, sweepInterval(l), i, runDeadline(st.record.Limits))
			}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, corpusFetchTimeout)
	defer cancel()
	for i, s := range sites {
		if err := s.loadCorpus(ctx); err != nil {
			return nil, fmt.Errorf("sites[%d]: %w", i, err)
		}
	}
	sessions, err := store.Open(ctx, dsn, store.Options{Limits: cfg.SessionLimits.limits(), Sources: cfg.Sources.limits()})
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	logger.Info("askplane: sessions opened", "store", store.Redacted(dsn))
	srv := &Server{cfg: cfg, log: logger, sessions: sessions, sites: sites, drain: make(chan struct{}),
		builds: replay.NewBuilds(cfg.Sources.buildLimits(), nil)}
	for _, st := range sites {
		srv.retainSource(ctx, st)
	}
	if srv.handler, err = srv.routes(ctx); err != nil {
		if srv.files != nil {
			srv.files.Close()
		}
		sessions.Close()
		return nil, err
	}
	pctx, stop := context.WithCancel(context.Background())
	srv.stopPruner, srv.pruned, srv.limitsPruned = stop, make(chan struct{}), make(chan struct{})
	go prune(pctx, sessions, logger, srv.pruned)
	if sh, ok := sessions.(store.SharedLimits); ok {
		go pruneLimits(pctx, sh, logger, srv.limitsPruned)
	} else {
		close(srv.limitsPruned)
	}
	srv.startSweeper()
	return srv, nil
}

// withBodyTimeout lets a request's body take at most d to arrive: the
// connection's read deadline, set before next runs, ends a body that
// trickles in (the handler's read fails, or net/http gives up discarding
// what it left unread) instead of the server's whole-request
// ReadTimeout, readHeaderTimeout later.
//
// Once the whole body is read the deadline moves to afterBody from then:
// net/http keeps reading the connection in the background to notice a
// client that leaves, and a deadline hit there would cancel a handler
// still working (an MCP tool call) as if the client had left.
func withBodyTimeout(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		// Best effort: a writer that cannot (a test recorder) keeps
		// the server's ReadTimeout.
		if rc.SetReadDeadline(time.Now().Add(d)) == nil && r.Body != nil && r.Body != http.NoBody {
			r.Body = &bodyDone{ReadCloser: r.Body, done: func() { rc.SetReadDeadline(time.Now().Add(afterBody)) }}
		}
		next.ServeHTTP(w, r)
	})
}

// afterBody is the connection's read deadline once a body was read whole:
// the longest a site's request may take (requestTimeoutMs, at most 120 s).
const afterBody = 2 * time.Minute

// bodyDone calls done once, when its body reaches EOF.
type bodyDone struct {
	io.ReadCloser
	done func()
	once sync.Once
}

func (b *bodyDone) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.done)
	}
	return n, err
}

// ServeHTTP serves every route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Drain makes every answer in flight end now with a terminal, retryable
// error event, and every new question get 503: what a process does before
// it exits. It returns at once; the handlers return soon after.
func (s *Server) Drain() {
	s.drainOnce.Do(func() {
		close(s.drain)
		if s.stopSweep != nil {
			s.stopSweep() // a draining instance takes over no run
		}
	})
}

// Close stops pruning and releases the session store; call it after the
// HTTP server stopped.
func (s *Server) Close() error {
	s.Drain()
	s.stopPruner()
	<-s.pruned
	<-s.limitsPruned
	s.stopSweep()
	<-s.swept
	s.shutdownRuns(0)
	s.closeInsights()
	if s.files != nil {
		s.files.Close()
	}
	return s.sessions.Close()
}

// routes builds each site's handlers, then mounts every route of
// routeTable (routes.go) on one mux behind the guard.
func (s *Server) routes(ctx context.Context) (http.Handler, error) {
	var prom *metrics.Prometheus
	if s.cfg.Metrics {
		prom = &metrics.Prometheus{}
	}
	mk := s.limitMaker()
	edge, err := s.edgeLimits(mk)
	if err != nil {
		return nil, err
	}
	if prom != nil {
		s.newWorker(prom)
	} else {
		s.newWorker(nil)
	}
	var sites []*siteHandlers
	for i, st := range s.sites {
		h, err := s.siteHandlers(ctx, st, mk, edge, prom)
		if err != nil {
			return nil, fmt.Errorf("sites[%d]%w", i, err)
		}
		sites = append(sites, h)
	}
	rev, err := review.New()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	s.patterns = mount(mux, s.routeTable(edge, prom, rev), sites)
	return s.guard(mux), nil
}

// siteError names the site field an error of siteHandlers is about;
// routes prefixes the site's index.
func siteError(field string, err error) error {
	if field == "" {
		return fmt.Errorf(": %w", err)
	}
	return fmt.Errorf(".%s: %w", field, err)
}

// siteHandlers builds one site's handlers: its limits, its ask.Handler,
// its MCP, replay and feedback handlers, its owner's page and, for the
// static site, the server's file handler.
func (s *Server) siteHandlers(ctx context.Context, st *site, mk limits, edge *edgeLimits, prom *metrics.Prometheus) (*siteHandlers, error) {
	// Named by site and corpus, as the routes are: a site's languages
	// are separate entries with separate budgets, shared by name.
	scope := "sites/" + st.record.SiteID + "/" + st.record.Corpus.ID
	subjects, err := mk.rate(scope+"/subjects", st.cfg.rateLimit())
	if err != nil {
		return nil, siteError("rateLimit", err)
	}
	gate, err := mk.gate(ctx, scope+"/generations", st.generations())
	if err != nil {
		return nil, siteError("generations", err)
	}
	var mint func(http.ResponseWriter, *http.Request) bool
	if st.secret != nil {
		mint = access.LimitMints(edge.mints, edge.addr, s.log)
	}
	auth := st.auth.Guarded(edge.failedAuth, edge.addr, mint)
	engine := st.engine.Index(st.corpus)
	grounded := &grounding.Grounded{Engine: engine, Generator: st.gen}
	bodyTimeout := s.cfg.Edge.BodyTimeout.or(DefaultBodyTimeout)
	acfg := ask.Config{
		Site:           st.trusted,
		Retriever:      grounded,
		Generator:      grounded,
		Auth:           auth,
		Sessions:       s.sessions,
		RateLimiter:    subjects,
		AddressLimiter: edge.perAddress,
		ClientAddr:     edge.addr,
		Generations:    gate,
		BodyTimeout:    bodyTimeout,
		Logger:         s.log,
		Shutdown:       s.drain,
	}
	if prom != nil {
		acfg.Metrics = prom
	}
	if st.cfg.Feedback {
		st.issued = newContextLog(nil)
		acfg.Issued = func(id string) { st.issued.Add(id, struct{}{}) }
	}
	sh := &siteHandlers{st: st, bodyTimeout: bodyTimeout}
	if st.cfg.Insights != nil {
		if acfg.Outcome, err = s.insightsRecorder(st, engine); err != nil {
			return nil, siteError("insights", err)
		}
		sh.insights = s.insightsPage(edge, st)
	}
	if rc := s.durable(st); rc != nil {
		rc.Site, rc.Retriever, rc.Sessions, rc.Metrics = acfg.Site, acfg.Retriever, acfg.Sessions, acfg.Metrics
		rc.Logger, rc.Issued, rc.Outcome = acfg.Logger, acfg.Issued, acfg.Outcome
		if sh.runs, err = askrun.New(*rc); err != nil {
			return nil, siteError("", err)
		}
		acfg.Durable = sh.runs
		s.addRunSite(st, sh.runs)
	}
	if sh.ask, err = ask.New(acfg); err != nil {
		return nil, siteError("", err)
	}
	sh.forget = forgetHandler(sh.ask, s.sessions, s.log)
	rep, err := s.replayer(st, engine)
	if err != nil {
		return nil, siteError("", err)
	}
	msite := mcp.Site{SiteID: st.record.SiteID, CorpusID: st.record.Corpus.ID, Engine: engine, MaxRecords: st.record.Limits.MaxSources, Replayer: rep, Private: !st.cfg.anonymous()}
	if st.cfg.Public != "" {
		// read_page reads the Markdown twins the build published.
		if twins, err := static.OpenTwins(st.cfg.Public); err == nil {
			msite.Pages = twins
		}
	}
	sh.mcp = st.mcpHandler(edge, subjects, msite)
	sh.replay, sh.read = s.replayHandlers(st, edge, subjects, rep)
	sh.feedback = st.feedbackHandler(edge, subjects, prom)
	if st.cfg.Static {
		files, err := static.New(st.cfg.Public, static.Options{CSP: st.cfg.CSP})
		if err != nil {
			return nil, siteError("static", err)
		}
		s.files = files
	}
	return sh, nil
}

// cors puts next behind the CORS answers for the site's origins, when it
// has any.
func (st *site) cors(next http.Handler) http.Handler { return access.WithCORS(st.cfg.Origins)(next) }

// edgeLimits are the limits every site shares, kept per client address.
type edgeLimits struct {
	addr       access.ClientAddrFunc
	perAddress limit.Limiter
	mints      limit.Limiter
	failedAuth limit.Limiter
	log        *slog.Logger
}

func (s *Server) edgeLimits(mk limits) (*edgeLimits, error) {
	e := &s.cfg.Edge
	l := &edgeLimits{addr: limit.ClientAddr{Header: e.TrustedProxyHeader}.Key, log: s.log}
	var err error
	if l.perAddress, err = mk.rate("edge/perAddress", rateOr(e.PerAddress, DefaultPerAddress)); err != nil {
		return nil, configErr("edge.perAddress: %v", err)
	}
	if l.mints, err = mk.rate("edge/newSubjects", rateOr(e.NewSubjects, DefaultNewSubjects)); err != nil {
		return nil, configErr("edge.newSubjects: %v", err)
	}
	if l.failedAuth, err = mk.rate("edge/failedAuth", rateOr(e.FailedAuth, DefaultFailedAuth)); err != nil {
		return nil, configErr("edge.failedAuth: %v", err)
	}
	return l, nil
}

// engineCatalogue answers GET /v1/evidence/engines: the retained engines,
// current first, and for each public site the corpus versions retained
// for replay, newest first, with the engines each may be replayed with. A
// private site is left out: the request carries no token to show it to.
func (s *Server) engineCatalogue(w http.ResponseWriter, r *http.Request) {
	type version struct {
		Version string   `json:"version"`
		Bytes   int64    `json:"bytes"`
		Engines []string `json:"engines"`
	}
	type siteVersions struct {
		Site     string    `json:"site"`
		Corpus   string    `json:"corpus"`
		Serving  string    `json:"serving"`
		Versions []version `json:"versions"`
	}
	out := struct {
		Current string                   `json:"current"`
		Engines []engines.CatalogueEntry `json:"engines"`
		Sites   []siteVersions           `json:"sites"`
	}{Current: engines.Current().ID, Engines: engines.Catalogue(), Sites: []siteVersions{}}
	src, _ := s.sessions.(store.Sources)
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	for _, st := range s.sites {
		if !st.cfg.anonymous() {
			continue
		}
		sv := siteVersions{Site: st.record.SiteID, Corpus: st.record.Corpus.ID, Serving: st.corpus.Version, Versions: []version{}}
		if src != nil {
			list, err := src.SourceVersions(ctx, st.record.SiteID)
			if err != nil {
				s.log.Warn("askplane: listing retained corpus versions failed", "site", st.record.SiteID, "err", err)
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Cache-Control", "no-store")
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, `{"error":{"code":"replay_unavailable","message":"The retained versions could not be listed."}}`)
				return
			}
			for _, v := range list {
				sv.Versions = append(sv.Versions, version{v.Version, v.Bytes, v.Engines})
			}
		}
		out.Sites = append(out.Sites, sv)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(out)
}

// readyTimeout bounds the readiness checks of one /ready request.
const readyTimeout = 2 * time.Second

// ready answers GET /ready: 200 when the session store answers and every
// site's corpus is loaded, else 503, with a JSON body naming what failed
// (a stable code, never an error's text, which could name a path).
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	type report struct {
		Status   string `json:"status"`
		Sessions string `json:"sessions"`
		Sites    int    `json:"sites"`
		// Engines are the retained engines replay can rebuild evidence
		// with, current first, each bound to its manifest's digest.
		Engines []engines.CatalogueEntry `json:"engines"`
	}
	rep := report{Status: "ok", Sessions: "ok", Sites: len(s.sites), Engines: engines.Catalogue()}
	status := http.StatusOK
	select {
	case <-s.drain:
		rep.Status, status = "draining", http.StatusServiceUnavailable
	default:
	}
	if c, ok := s.sessions.(session.Checker); ok {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		err := c.Check(ctx)
		cancel()
		if err != nil {
			rep.Status, status = "unavailable", http.StatusServiceUnavailable
			rep.Sessions = string(store.CodeOf(err))
			if rep.Sessions == "" {
				rep.Sessions = "unavailable"
			}
			s.log.Warn("askplane: readiness: the session store failed its check", "err", err)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(rep)
}

// prune deletes old sessions from a store that can, until ctx is done.
func prune(ctx context.Context, b store.Backend, logger *slog.Logger, done chan<- struct{}) {
	defer close(done)
	p, ok := b.(store.Pruner)
	if !ok {
		return
	}
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		n, err := p.Prune(pctx, time.Now().Add(-sessionRetention))
		cancel()
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("askplane: pruning old sessions failed", "err", err)
		case n > 0:
			logger.Info("askplane: pruned old sessions", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// corpusRouter picks the site whose corpus id the ?corpus= hint names. The
// chosen handler checks every hint again (they must all agree) and fails
// closed; a request with no hint or one naming no configured corpus gets
// 403 ASK_FORBIDDEN here, since no site can be trusted for it.
func corpusRouter(byCorpus map[string]http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hints := r.URL.Query()["corpus"]
		if len(hints) > 0 {
			if h, ok := byCorpus[hints[0]]; ok {
				h.ServeHTTP(w, r)
				return
			}
		}
		access.WriteForbidden(w)
	})
}

var errNoListener = errors.New("sidecar: no listener")
