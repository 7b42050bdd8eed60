package sidecar

import (
	"context"
	"fmt"
	"github.com/askplane/askplane/internal/corpus"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/store"
)

// insightsRecorder returns the Outcome receiver of a site whose config
// turns insights on: each question's outcome is handed to the site's
// insights.Queue (a channel send: the answer never waits on the store),
// whose writer records them in batches in the session store (shared by
// every instance on it) by an insights.Recorder, which keeps their
// terms, never their text. A failed write is logged (its store code,
// nothing of the questions), and so is a full queue (at most once a
// minute); the answers are unaffected. Server.Close writes what is
// queued.
func (s *Server) insightsRecorder(st *site, engine evidence.Engine) (func(context.Context, grounding.Outcome), error) {
	is, ok := s.sessions.(store.Insights)
	if !ok {
		return nil, configErr("needs sessions on SQLite or PostgreSQL (memory: keeps nothing to report)")
	}
	rec, err := insights.NewRecorder(is, st.record.SiteID, st.cfg.Language, engine, *st.cfg.Insights, nil)
	if err != nil {
		return nil, configErr("%v", err)
	}
	siteID := st.record.SiteID
	// Rows past the window go at start too, not only as questions come.
	pctx, cancel := context.WithTimeout(context.Background(), store.OpTimeout)
	defer cancel()
	if err := rec.Prune(pctx); err != nil {
		s.log.Warn("askplane: pruning old insights failed", "site", siteID, "err", err)
	}
	q := rec.Queue(func(err error) {
		s.log.Warn("askplane: recording questions' outcomes failed", "site", siteID, "err", err)
	})
	s.insightQueues = append(s.insightQueues, q)
	st.insights = q
	if st.cfg.Feedback {
		// A reader's verdict names the answer by its context_id only:
		// the pages it cited are remembered here, for feedbackHandler.
		st.answers = insights.NewAnswers(nil)
	}
	var warned atomic.Int64
	return func(_ context.Context, o grounding.Outcome) {
		if st.answers != nil && o.ContextID != "" && (o.Kind == grounding.OutcomeAnswered || o.Kind == grounding.OutcomeLowConfidence) {
			st.answers.Add(o.ContextID, o.Pages)
		}
		if !q.Add(o) {
			if now := time.Now().Unix(); now-warned.Load() >= 60 {
				warned.Store(now)
				s.log.Warn("askplane: the insights queue is full; outcomes dropped", "site", siteID, "dropped", q.Dropped())
			}
		}
	}, nil
}

// closeInsights writes every site's queued outcomes.
func (s *Server) closeInsights() {
	for _, q := range s.insightQueues {
		q.Close()
	}
}

// insightsPage returns the handler of the site's report page at
// /insights/<siteId>/ (routeTable mounts it) when its insights setting
// names an owner token, else nil: behind the client address's budget,
// then the token. A site's languages share one page (the first that
// names a token).
func (s *Server) insightsPage(edge *edgeLimits, st *site) http.Handler {
	id := st.record.SiteID
	if st.insightsToken == nil {
		return nil
	}
	is := s.sessions.(store.Insights) // insightsRecorder checked
	page := insights.Page(is, id, st.cfg.Insights.Or().RetentionDays, st.insightsToken, corpusPages(st.corpus), nil)
	// The owner's token is checked by the same Access as the other token
	// routes: the site's hosts, and refused tokens counted against the
	// address (edge.failedAuth), so guessing it is as slow as that limit.
	owner := &access.Policy{Hosts: st.cfg.Hosts, Origins: st.cfg.Origins, FailedAuth: edge.failedAuth, ClientAddr: edge.addr,
		Tokens: []access.Token{{Subject: "insights-owner", Secret: st.insightsToken}}}
	return edge.addressGate(func(w http.ResponseWriter, r *http.Request, _ string) {
		if r.URL.Path != "/insights/"+id+"/" {
			http.NotFound(w, r)
			return
		}
		if _, ok := owner.Authenticate(w, r); !ok {
			return
		}
		page.ServeHTTP(w, r)
	})
}

// OpenInsights opens the session store c names and returns it as the
// insights store with the insights setting of the site siteID (the
// first of its languages that turns insights on), for askplane insights.
// The caller closes the store.
func OpenInsights(ctx context.Context, c *Config, env Env, siteID string) (store.Insights, insights.Config, func() error, error) {
	k, err := c.check()
	if err != nil {
		return nil, insights.Config{}, nil, err
	}
	c = &k.cfg
	dsn := c.Sessions
	if c.SessionsEnv != "" {
		v, err := env.secret("sessionsEnv", c.SessionsEnv, 1)
		if err != nil {
			return nil, insights.Config{}, nil, configErr("%v", err)
		}
		dsn = v
	}
	var cfg *insights.Config
	found := false
	for _, cs := range k.sites {
		if cs.record.Record().SiteID != siteID {
			continue
		}
		found = true
		if cs.cfg.Insights != nil {
			cfg = cs.cfg.Insights
			break
		}
	}
	switch {
	case !found:
		return nil, insights.Config{}, nil, configErr("no site has siteId %q", siteID)
	case cfg == nil:
		return nil, insights.Config{}, nil, configErr("site %q does not turn insights on", siteID)
	}
	b, err := store.Open(ctx, dsn, store.Options{Limits: c.SessionLimits.limits(), Sources: c.Sources.limits()})
	if err != nil {
		return nil, insights.Config{}, nil, fmt.Errorf("sessions: %w", err)
	}
	is, ok := b.(store.Insights)
	if !ok {
		b.Close()
		return nil, insights.Config{}, nil, configErr("sessions: insights need SQLite or PostgreSQL")
	}
	return is, cfg.Or(), b.Close, nil
}

// flushInsights waits until every site's outcomes queued so far are
// written, or ctx ends.
func (s *Server) flushInsights(ctx context.Context) error {
	for _, q := range s.insightQueues {
		if err := q.Flush(ctx); err != nil {
			return err
		}
	}
	return nil
}

// corpusPages are the pages of c, each once, in the corpus's order: the
// insights page lists those no answer cited.
func corpusPages(c *corpus.Corpus) []string {
	if c == nil {
		return nil
	}
	seen := make(map[string]bool)
	var out []string
	for i := range c.Records {
		if u := c.Records[i].URL; !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}
