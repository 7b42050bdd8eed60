package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
)

// runServe is askplane serve: the sidecar for built sites described by a
// config file (see Config).
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: askplane serve --config FILE [--addr HOST:PORT]

Serves POST /v1/ask (the Ask backend), GET /health and, when the config
says so, GET /metrics and a site's built folder at /. The config format is
described in sidecar/config/askplane.example.json and the README.

`)
		fs.PrintDefaults()
	}
	configPath := fs.String("config", "", "the JSON config `file`")
	addr := fs.String("addr", "", "listen on `host:port` (overrides the config's addr)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 0 || *configPath == "" {
		fmt.Fprintln(stderr, "askplane serve: want --config FILE [--addr HOST:PORT]")
		return exitUsage
	}
	cfg, err := LoadConfig(*configPath)
	if err != nil {
		fmt.Fprintln(stderr, "askplane serve:", err)
		return exitUsage
	}
	if *addr != "" {
		cfg.Addr = *addr
	}
	h, err := newServer(cfg, slog.New(slog.NewTextHandler(stderr, nil)))
	if err != nil {
		fmt.Fprintln(stderr, "askplane serve:", err)
		return exitFailed
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		fmt.Fprintln(stderr, "askplane serve:", err)
		return exitFailed
	}
	fmt.Fprintf(stdout, "askplane serve: listening on http://%s/ (%d site(s))\n", ln.Addr(), len(cfg.Sites))
	defer h.Close()
	return serveUntilSignal("askplane serve", ln, h, stderr)
}

// Server timeouts. There is deliberately no WriteTimeout: answers stream
// as NDJSON for up to the site's requestTimeoutMs (up to 120 s), and the
// Ask handler enforces its own request, retrieval and generation
// deadlines; a server-wide write deadline would cut streams mid-answer.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second // bodies are at most 64 KiB
	idleTimeout       = 120 * time.Second
	shutdownTimeout   = 10 * time.Second
)

// serveUntilSignal serves h on ln until SIGINT or SIGTERM, then shuts down
// gracefully: it stops accepting, and lets in-flight answers finish for up
// to shutdownTimeout.
func serveUntilSignal(name string, ln net.Listener, h http.Handler, stderr io.Writer) int {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		done <- srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, name+":", err)
		return exitFailed
	}
	if err := <-done; err != nil {
		fmt.Fprintln(stderr, name+": shutdown:", err)
		return exitFailed
	}
	return exitOK
}

// server is the http.Handler of askplane serve and askplane dev, with the
// session store it holds open until Close.
type server struct {
	http.Handler
	sessions   store.Backend
	stopPruner context.CancelFunc
	pruned     chan struct{} // closed when the pruner has stopped
}

// Close stops pruning and releases the session store; call it after the
// HTTP server stopped.
func (s *server) Close() error {
	s.stopPruner()
	<-s.pruned
	return s.sessions.Close()
}

// Session retention: a persistent store forgets sessions not written for
// sessionRetention, checked every pruneEvery, so its table stays bounded.
const (
	sessionRetention = 30 * 24 * time.Hour
	pruneEvery       = time.Hour
)

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

// corpusFetchTimeout bounds fetching every corpusUrl at start-up.
const corpusFetchTimeout = 2 * time.Minute

// newServer is the one server constructor of askplane serve and askplane
// dev: it opens the session store, then for each site of a validated cfg
// loads and verifies the corpus (from the public folder or corpusUrl),
// builds the Ask handler (deterministic evidence engine, extractive
// generator, the shared session store, host/origin/token/cookie access,
// CORS for the allowed origins, window rate limit), then routes /v1/ask,
// /health, /metrics and the static site.
func newServer(cfg *Config, logger *slog.Logger) (*server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithTimeout(context.Background(), corpusFetchTimeout)
	defer cancel()
	sessions, err := store.Open(ctx, cfg.sessions)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	h, err := newHandler(ctx, cfg, sessions, logger)
	if err != nil {
		sessions.Close()
		return nil, err
	}
	pctx, stop := context.WithCancel(context.Background())
	srv := &server{Handler: h, sessions: sessions, stopPruner: stop, pruned: make(chan struct{})}
	go prune(pctx, sessions, logger, srv.pruned)
	return srv, nil
}

func newHandler(ctx context.Context, cfg *Config, sessions session.Store, logger *slog.Logger) (http.Handler, error) {
	var metrics *ask.Prometheus
	if cfg.Metrics {
		metrics = &ask.Prometheus{}
	}
	mux := http.NewServeMux()
	byCorpus := make(map[string]http.Handler, len(cfg.Sites))
	var only http.Handler
	for i := range cfg.Sites {
		s := &cfg.Sites[i]
		if s.site == nil || (s.secret == nil && s.anonymous()) || s.RateLimit == nil {
			return nil, fmt.Errorf("sites[%d]: config not validated", i)
		}
		fsys := s.fsys
		if fsys == nil && s.Public != "" {
			fsys = os.DirFS(s.Public)
		}
		c, err := s.loadCorpus(ctx, fsys)
		if err != nil {
			return nil, fmt.Errorf("sites[%d]: loading the %s corpus: %w", i, s.Language, err)
		}
		if c.SiteID != s.site.SiteID {
			return nil, fmt.Errorf("sites[%d]: site.siteId %q differs from the corpus's siteId %q", i, s.site.SiteID, c.SiteID)
		}
		grounded := &ask.Grounded{Engine: evidence.NewIndex(c), Generator: s.gen}
		acfg := ask.Config{
			Site:        *s.site,
			Retriever:   grounded,
			Generator:   grounded,
			Auth:        s.access(),
			Sessions:    sessions,
			RateLimiter: &ask.WindowLimiter{Limit: s.RateLimit.Requests, Window: time.Duration(s.RateLimit.WindowSeconds) * time.Second},
			Logger:      logger,
		}
		if metrics != nil {
			acfg.Metrics = metrics
		}
		var h http.Handler
		if h, err = ask.New(acfg); err != nil {
			return nil, fmt.Errorf("sites[%d]: %w", i, err)
		}
		if len(s.Origins) > 0 {
			h = &ask.CORS{Origins: s.Origins, Next: h}
		}
		byCorpus[s.site.Corpus.ID] = h
		only = h
		if s.Static {
			mux.Handle("/", staticHandler(http.FileServerFS(fsys)))
		}
	}
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	// Not "POST /v1/ask": the handler answers other methods with the
	// protocol's own 405 body.
	if len(byCorpus) == 1 {
		mux.Handle("/v1/ask", only)
	} else {
		mux.Handle("/v1/ask", corpusRouter(byCorpus))
	}
	if metrics != nil {
		mux.Handle("GET /metrics", metrics)
	}
	return mux, nil
}

// loadCorpus returns the site's corpus: set by askplane dev, fetched from
// corpusUrl, or read from the public folder.
func (s *SiteConfig) loadCorpus(ctx context.Context, fsys fs.FS) (*corpus.Corpus, error) {
	switch {
	case s.corpus != nil:
		return s.corpus, nil
	case s.CorpusURL != "":
		return corpus.Fetch(ctx, s.CorpusURL, s.Language)
	}
	return corpus.LoadDir(fsys, s.Language)
}

// access is the site's Authenticator.
func (s *SiteConfig) access() *ask.Access {
	a := &ask.Access{Hosts: s.Hosts, Origins: s.Origins, Tokens: s.tokens}
	if s.anonymous() {
		sameSite := http.SameSiteLaxMode
		if s.CrossSiteCookie {
			sameSite = http.SameSiteNoneMode
		}
		a.Anonymous = &ask.CookieAuth{Secret: s.secret, Secure: s.SecureCookie, SameSite: sameSite}
	}
	return a
}

// staticHandler serves a built site read-only.
func staticHandler(files http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
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
		writeForbidden(w)
	})
}

// writeForbidden writes the protocol's 403 ASK_FORBIDDEN response, as
// internal/ask writes it, with a fresh x-request-id.
func writeForbidden(w http.ResponseWriter) {
	w.Header().Set("X-Request-Id", rand.Text())
	ask.WriteForbidden(w)
}
