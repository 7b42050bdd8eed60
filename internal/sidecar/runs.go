package sidecar

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/askrun"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
)

// RunsConfig bounds a model site's durable answers ("runs" in a site's
// config). A model site's questions are durable runs whenever the session
// store keeps runs (SQLite, the default, or PostgreSQL; the memory store
// does not, and answers there live and die with their request): the
// request is admitted as a run, a worker answers it detached from the
// connection, and the stream is the run's log, which a reader that lost
// its connection reads again from where it was (the widget does). "runs"
// absent or {} takes the defaults below; "runs": false keeps the site's
// answers live, under the per-instance generations gate, as an
// extractive site's always are. A durable answer streams into the log as
// the model writes it when the model streams (OpenAI, Anthropic); an
// attempt that fails after its first text ends the run "cut off"
// (retryable) instead of writing another answer under that text.
//
// maxRounds above 1 turns on the bounded tool loop: the model may call
// search_docs (search the site again, for another query) and read_record
// (a returned record at full length) for up to maxRounds - 1 rounds, and
// must answer in the last; its answer may cite any record a round
// showed it. Each round is one provider call committed with its results,
// so a resumed run never sends a completed round again; each search's
// evidence is in the log as a "search" tool event whose evidence link
// rebuilds it. It needs a provider that offers tools (openai,
// openai-compatible with function calling, anthropic; not deepseek).
//
//	"runs": {
//	  "maxTokens": 40000,        // one run, every attempt; default 8 × maxOutputTokens + 16000
//	  "maxAttempts": 3,          // provider calls per run, retries and unknown ones included
//	  "maxRounds": 3,            // model rounds; above 1 the tool loop (default 1: one search, no tools), at most 16
//	  "maxCostUsd": 0.5,         // one run; default 1
//	  "tokensPerDay": 2000000,   // the site, across every instance; 0: no ceiling
//	  "costPerDayUsd": 20,       // the site, across every instance; 0: no ceiling
//	  "maxConcurrent": 32,       // runs in flight for the site, across instances; default the generations slots
//	  "inputUsdPerMTok": 3,      // the model's price, for the cost figures; 0: free
//	  "outputUsdPerMTok": 15
//	}
type RunsConfig struct {
	off              bool    // "runs": false
	MaxTokens        int64   `json:"maxTokens"`
	MaxAttempts      int     `json:"maxAttempts"`
	MaxRounds        int     `json:"maxRounds"`
	MaxCostUSD       float64 `json:"maxCostUsd"`
	TokensPerDay     int64   `json:"tokensPerDay"`
	CostPerDayUSD    float64 `json:"costPerDayUsd"`
	MaxConcurrent    int     `json:"maxConcurrent"`
	InputUSDPerMTok  float64 `json:"inputUsdPerMTok"`
	OutputUSDPerMTok float64 `json:"outputUsdPerMTok"`
}

// maxUSD bounds every money figure of the config, so micro-USD sums stay
// far from overflow.
const maxUSD = 1e6

// UnmarshalJSON reads the block, strictly (an unknown member is an
// error), or false, which keeps the site's answers live.
func (c *RunsConfig) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "false" {
		*c = RunsConfig{off: true}
		return nil
	}
	type plain RunsConfig
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var p plain
	if err := d.Decode(&p); err != nil {
		return &memberError{"runs", jsonReason(err) + " (runs is an object of the members in RunsConfig, or false)"}
	}
	*c = RunsConfig(p)
	return nil
}

func (c *RunsConfig) check() error {
	if c == nil {
		return nil
	}
	usd := func(v float64) bool { return v >= 0 && v <= maxUSD && !math.IsNaN(v) }
	switch {
	case c.MaxTokens < 0 || c.MaxTokens > 1e9 || c.TokensPerDay < 0 || c.TokensPerDay > 1e12:
		return errors.New("runs: maxTokens and tokensPerDay must be 0 to 1e9 and 1e12")
	case c.MaxAttempts < 0 || c.MaxAttempts > durable.HardMaxAttempts:
		return errors.New("runs: maxAttempts must be 0 to 32")
	case c.MaxRounds < 0 || c.MaxRounds > durable.HardMaxRounds:
		return errors.New("runs: maxRounds must be 0 to 16")
	case c.MaxConcurrent < 0 || c.MaxConcurrent > 1e6:
		return errors.New("runs: maxConcurrent must be 0 to 1e6")
	case !usd(c.MaxCostUSD) || !usd(c.CostPerDayUSD) || !usd(c.InputUSDPerMTok) || !usd(c.OutputUSDPerMTok):
		return errors.New("runs: every USD figure must be 0 to 1e6")
	}
	return nil
}

func micros(usd float64) int64 { return int64(math.Ceil(usd * 1e6)) }

// durable returns the run side of the site's askrun.Config (its Site,
// Retriever and the rest are the ask.Config's), or nil when its answers
// are not durable (extractive, or a store without runs).
func (s *Server) durable(st *site) *askrun.Config {
	m, ok := st.gen.(*generate.Model)
	if !ok || s.worker == nil {
		return nil
	}
	c := st.cfg.Runs
	switch {
	case c == nil:
		c = &RunsConfig{} // the defaults
	case c.off:
		return nil
	}
	out := int64(m.MaxOutputTokens())
	b := durable.Budget{MaxTokens: c.MaxTokens, MaxAttempts: c.MaxAttempts, MaxRounds: c.MaxRounds, MaxCostMicros: micros(c.MaxCostUSD)}
	if b.MaxTokens == 0 {
		b.MaxTokens = 8*out + 16_000
	}
	if b.MaxAttempts == 0 {
		b.MaxAttempts = 3
	}
	if b.MaxRounds == 0 {
		b.MaxRounds = 1
	}
	if c.MaxCostUSD == 0 {
		b.MaxCostMicros = 1_000_000
	}
	// A durable answer does not pass the per-instance generations gate
	// (it outlives its request), so without a ceiling of its own the
	// site's runs in flight are bounded by the gate's slot count, across
	// every instance.
	concurrent := c.MaxConcurrent
	if concurrent == 0 {
		concurrent = st.generations().Slots
	}
	var tools *askrun.Tools
	if b.MaxRounds > 1 {
		tools = &askrun.Tools{MaxRounds: b.MaxRounds}
	}
	return &askrun.Config{
		Worker: s.worker, Model: m, Budget: b, Tools: tools,
		Ceilings: durable.Ceilings{MaxConcurrent: concurrent, TokensPerDay: c.TokensPerDay, CostMicrosPerDay: micros(c.CostPerDayUSD)},
		Pricing:  askrun.Pricing{InputMicrosPerMTok: micros(c.InputUSDPerMTok), OutputMicrosPerMTok: micros(c.OutputUSDPerMTok)},
	}
}

// runSites is what the Worker needs of each durable site.
type runSites struct {
	handlers map[string]*askrun.Runs     // by site id
	ceilings map[string]durable.Ceilings // by site id
}

// newWorker builds the server's run worker when the store keeps runs.
func (s *Server) newWorker(sink metrics.Sink) {
	rs, ok := s.sessions.(durable.Store)
	if !ok {
		return
	}
	s.runSites = &runSites{handlers: map[string]*askrun.Runs{}, ceilings: map[string]durable.Ceilings{}}
	sites := s.runSites
	s.worker = &durable.Worker{
		Store: rs,
		Owner: "askplane-" + strings.ToLower(rand.Text()[:12]),
		Lease: s.runLease(),
		Program: func(r durable.Run) (durable.Program, error) {
			h := sites.handlers[r.Site]
			if h == nil {
				return nil, errors.New("sidecar: the run's site is not served here")
			}
			return h.Program(r)
		},
		End: func(r durable.Run, err error) durable.Ending {
			if h := sites.handlers[r.Site]; h != nil {
				return h.End(r, err)
			}
			return (*askrun.Runs)(nil).End(r, err)
		},
		Ceilings: func(site string) durable.Ceilings { return sites.ceilings[site] },
		Observe: func(site, name string) {
			if sink == nil {
				return
			}
			outcome := ask.OutcomeOK
			if state, ok := strings.CutPrefix(name, "run."); ok && durable.State(state).Terminal() {
				name, outcome = askrun.MetricRunEnded, state
			}
			sink.Observe(metrics.Metric{Name: name, SiteID: site, Value: 1, Unit: ask.UnitCount, Outcome: outcome, EmittedAt: time.Now()})
		},
		Logger: s.log,
	}
}

// addRunSite registers a durable site's runs for the worker.
func (s *Server) addRunSite(st *site, h *askrun.Runs) {
	s.runSites.handlers[st.record.SiteID] = h
	s.runSites.ceilings[st.record.SiteID] = h.Ceilings()
}

// Sweeping: at start and then every sweepEvery the server claims the
// runs whose lease expired (an instance crashed or was redeployed
// mid-answer) and resumes them; finished runs are kept runRetention, for
// readers to come back to.
const (
	sweepEvery    = 5 * time.Second
	runRetention  = 7 * 24 * time.Hour
	runPruneEvery = time.Hour
	// DefaultRunLease is runLease's default where no durable site's
	// deadlines ask for a shorter one.
	DefaultRunLease = 30 * time.Second
	// minDefaultRunLease is the floor of a default taken from a site's
	// deadlines.
	minDefaultRunLease = 100 * time.Millisecond
)

// durableSite reports whether a site's answers may be durable runs: a
// model generator whose runs are not turned off. (Whether the store
// keeps runs is decided later; a lease that is never taken costs
// nothing.)
func (s *SiteConfig) durableSite() bool {
	g := s.Generator
	return g != nil && g.Provider != "" && g.Provider != extractive && (s.Runs == nil || !s.Runs.off)
}

// runDeadline is the shortest deadline a durable site's run is held to:
// the smaller of its requestTimeoutMs (the reader's request) and its
// generationTimeoutMs (the run's own deadline).
func runDeadline(l protocol.BackendLimits) time.Duration {
	return time.Duration(min(l.RequestTimeoutMs, l.GenerationTimeoutMs)) * time.Millisecond
}

// leaseFits reports whether a run claimed under lease, whose worker died
// at once, can be found by a sweep before deadline: the lease runs out,
// then the next sweep (every sweepInterval(lease)) finds it.
func leaseFits(lease, deadline time.Duration) bool {
	return lease+sweepInterval(lease) < deadline
}

// sweepInterval is how often the sweeper looks for expired runs: a
// quarter of the lease, between 100 ms and sweepEvery.
func sweepInterval(lease time.Duration) time.Duration {
	return min(max(lease/4, 100*time.Millisecond), sweepEvery)
}

// runLease is the lease this instance's runs take: the config's
// runLease, or DefaultRunLease, shortened to a third of the shortest
// deadline of a durable site (after any platform cap), so a crashed
// instance's run is resumed while its reader still waits for it.
func (s *Server) runLease() time.Duration {
	if l := time.Duration(s.cfg.RunLease); l != 0 {
		return l
	}
	lease := DefaultRunLease
	for _, st := range s.sites {
		if st.cfg.durableSite() {
			lease = min(lease, max(runDeadline(st.record.Limits)/3, minDefaultRunLease))
		}
	}
	return lease
}

// shutdownRuns gives the runs this instance executes up to grace to
// finish, then hands the rest on (durable.Worker.Shutdown).
func (s *Server) shutdownRuns(grace time.Duration) {
	if s.worker == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	s.worker.Shutdown(ctx)
}

func (s *Server) startSweeper() {
	if s.worker == nil {
		s.swept = make(chan struct{})
		close(s.swept)
		s.stopSweep = func() {}
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	s.stopSweep, s.swept = stop, make(chan struct{})
	every := sweepInterval(s.worker.LeaseFor())
	go func() {
		defer close(s.swept)
		t := time.NewTicker(every)
		defer t.Stop()
		var pruned time.Time
		for {
			// The first sweep is at start: a restarted instance resumes
			// the runs its previous process left as soon as their lease
			// ran out, not a tick later.
			if _, err := s.worker.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("askplane: sweeping expired runs failed", "err", err)
			}
			if time.Since(pruned) >= runPruneEvery {
				pruned = time.Now()
				if _, err := s.worker.Store.PruneRuns(ctx, time.Now().Add(-runRetention)); err != nil && ctx.Err() == nil {
					s.log.Warn("askplane: pruning old runs failed", "err", err)
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}
