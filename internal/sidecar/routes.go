package sidecar

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/askrun"
	"github.com/askplane/askplane/internal/metrics"
)

// route is one row of routeTable: a ServeMux pattern and who answers it.
// Exactly one of server, site and page is set.
type route struct {
	pattern string
	// server answers for the whole server; nil leaves the route out (GET
	// /metrics with metrics off, / without a static site).
	server http.Handler
	// site returns one site's handler of a route every site answers, each
	// behind its own rules, or nil when the site does not serve it. With
	// one site its handler is mounted as is; with several, corpusRouter
	// picks one by the ?corpus= hint. Not method patterns: the handlers
	// answer other methods with the protocol's own 405 body.
	site func(h *siteHandlers) http.Handler
	// page returns a site's own page, mounted once per site id with
	// {siteId} in pattern replaced by it (a site's languages share the
	// first page one of them returns), or nil for none.
	page func(h *siteHandlers) http.Handler
}

// siteHandlers are one site's handlers, built by Server.siteHandlers for
// routeTable to mount.
type siteHandlers struct {
	st          *site
	ask         *ask.Handler
	runs        *askrun.Runs // the site's durable answers; nil when they are live
	bodyTimeout time.Duration
	forget      http.Handler // POST /v1/sessions/{id}/forget (forget.go)
	mcp         http.Handler
	replay      http.Handler
	read        http.Handler
	feedback    http.Handler
	insights    http.Handler // the owner's page; nil without ownerTokenEnv
}

// routeTable is every route the sidecar serves, in one place: adding a
// route is a row here and its handler in a file of its own. Every route
// that may be sent a body reads it within bodyTimeout (/v1/ask and the
// replay routes bound their own reads).
func (s *Server) routeTable(edge *edgeLimits, prom *metrics.Prometheus, review http.Handler) []route {
	withBody := func(h *siteHandlers, next http.Handler) http.Handler { return withBodyTimeout(h.bodyTimeout, next) }
	var metricsHandler, files http.Handler
	if prom != nil {
		metricsHandler = prom
	}
	if s.files != nil {
		files = s.files
	}
	return []route{
		// What readers and agents ask, per site.
		{pattern: "/v1/ask", site: func(h *siteHandlers) http.Handler { return h.st.cors(h.ask) }},
		{pattern: "/v1/sessions/{id}/forget", site: func(h *siteHandlers) http.Handler {
			return h.st.cors(withBody(h, h.forget))
		}},
		{pattern: "/v1/runs/{id}/events", site: func(h *siteHandlers) http.Handler {
			if h.runs == nil {
				return nil // the run routes exist only for a durable site
			}
			return h.st.cors(askrun.Events(h.ask, h.runs))
		}},
		{pattern: "/v1/runs/{id}/cancel", site: func(h *siteHandlers) http.Handler {
			if h.runs == nil {
				return nil
			}
			return h.st.cors(withBody(h, askrun.Cancel(h.ask, h.runs)))
		}},
		{pattern: "/mcp", site: func(h *siteHandlers) http.Handler { return withBody(h, h.mcp) }},
		{pattern: "/v1/evidence/replay", site: func(h *siteHandlers) http.Handler { return h.replay }},
		{pattern: "/v1/evidence/read", site: func(h *siteHandlers) http.Handler { return h.read }},
		{pattern: "/v1/feedback", site: func(h *siteHandlers) http.Handler { return withBody(h, h.feedback) }},
		// A site owner's page (insights.go).
		{pattern: "/insights/{siteId}/", page: func(h *siteHandlers) http.Handler { return h.insights }},
		// The server's own.
		{pattern: "GET /health", server: http.HandlerFunc(health)},
		{pattern: "GET /ready", server: http.HandlerFunc(s.ready)},
		{pattern: "/review", server: review},
		{pattern: "/review/", server: review},
		// It reads the store for every site, so it spends the client
		// address's budget as the replay routes do.
		{pattern: "GET /v1/evidence/engines", server: edge.addressGate(func(w http.ResponseWriter, r *http.Request, _ string) { s.engineCatalogue(w, r) })},
		{pattern: "GET /metrics", server: metricsHandler},
		{pattern: "/", server: files}, // the static site, when one site sets static
	}
}

// mount adds every route of table to mux for sites and returns the
// patterns mounted, sorted.
func mount(mux *http.ServeMux, table []route, sites []*siteHandlers) []string {
	var patterns []string
	handle := func(pattern string, h http.Handler) {
		mux.Handle(pattern, h)
		patterns = append(patterns, pattern)
	}
	for _, r := range table {
		switch {
		case r.server != nil:
			handle(r.pattern, r.server)
		case r.site != nil:
			byCorpus := map[string]http.Handler{}
			var only http.Handler
			for _, h := range sites {
				if sh := r.site(h); sh != nil {
					byCorpus[h.st.record.Corpus.ID], only = sh, sh
				}
			}
			switch {
			case len(byCorpus) == 0:
			case len(sites) == 1:
				handle(r.pattern, only)
			default:
				handle(r.pattern, corpusRouter(byCorpus))
			}
		case r.page != nil:
			done := map[string]bool{}
			for _, h := range sites {
				id := h.st.record.SiteID
				if p := r.page(h); p != nil && !done[id] {
					done[id] = true
					handle(strings.ReplaceAll(r.pattern, "{siteId}", id), p)
				}
			}
		}
	}
	slices.Sort(patterns)
	return patterns
}

// health answers GET /health: the process is up.
func health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, "ok\n")
}
