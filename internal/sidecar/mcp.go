package sidecar

import (
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/mcp"
)

// mcpHandler is a site's /mcp endpoint behind agentGate: the same rules
// as its /v1/ask.
func (st *site) mcpHandler(edge *edgeLimits, subjects limit.Limiter, engine mcp.Site) http.Handler {
	return st.agentGate(edge, subjects, mcp.Handler(engine))
}

// agentGate puts next behind the rules of a site's /v1/ask for clients
// that keep no cookies (agents, the review page's replay calls): the Host
// and Origin guard (every route), the client address's budget, bearer
// tokens (with failed ones limited per address) and the per-subject
// budget. On a public site a request without a token asks as its client
// address; a private site needs a token.
func (st *site) agentGate(edge *edgeLimits, subjects limit.Limiter, next http.Handler) http.Handler {
	return st.subjectGate(edge, subjects, func(w http.ResponseWriter, r *http.Request, _ string) { next.ServeHTTP(w, r) })
}

// subjectGate is agentGate, telling next the subject it charged.
func (st *site) subjectGate(edge *edgeLimits, subjects limit.Limiter, next func(w http.ResponseWriter, r *http.Request, subject string)) http.Handler {
	tokens := &access.Policy{Hosts: st.cfg.Hosts, Origins: st.cfg.Origins, Tokens: st.tokens, FailedAuth: edge.failedAuth, ClientAddr: edge.addr}
	return edge.addressGate(func(w http.ResponseWriter, r *http.Request, addr string) {
		var subject string
		switch _, hasToken := r.Header["Authorization"]; {
		case hasToken || st.secret == nil:
			// Access answers a private site's tokenless request with 401.
			s, ok := tokens.Authenticate(w, r)
			if !ok {
				return
			}
			subject = s
		default:
			subject = "addr:" + addr
		}
		if ok, after, err := subjects.Spend(r.Context(), subject); !ok {
			edge.refuse(w, r, after, err)
			return
		}
		next(w, r, subject)
	})
}

// addressGate spends the client address's budget before next, the first
// rule of every route that does work for a client (/v1/ask has the same
// step in its admission); next gets the address it was charged to.
func (e *edgeLimits) addressGate(next func(w http.ResponseWriter, r *http.Request, addr string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := e.addr(r)
		if ok, after, err := e.perAddress.Spend(r.Context(), addr); !ok {
			e.refuse(w, r, after, err)
			return
		}
		next(w, r, addr)
	})
}

// refuse answers a spent budget (429) or a limit that failed (503, the
// cause logged once: a shared limit's database did not answer in time).
func (e *edgeLimits) refuse(w http.ResponseWriter, r *http.Request, after time.Duration, err error) {
	if err != nil {
		e.log.Error("askplane: a rate limit could not be consulted; refusing", "path", r.URL.Path, "err", err)
	}
	apierr.CloseUnread(w, r)
	apierr.WriteLimit(w, after, err)
}
