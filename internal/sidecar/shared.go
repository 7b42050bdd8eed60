package sidecar

import (
	"context"
	"log/slog"
	"time"

	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/store"
)

// limits builds the server's rate limits and generation caps: kept in the
// session store when it can share them with every instance using it
// (PostgreSQL), so N instances behind one address allow what one would;
// in process otherwise (memory, SQLite: one instance), as before.
type limits struct {
	shared  store.SharedLimits // nil: in process
	timeout time.Duration
	log     *slog.Logger
}

func (s *Server) limitMaker() limits {
	l := limits{timeout: s.cfg.Edge.LimitTimeout.or(store.DefaultLimitTimeout), log: s.log}
	if sh, ok := s.sessions.(store.SharedLimits); ok {
		l.shared = sh
	}
	return l
}

// rate is the limit named scope; instances share it by that name.
func (l limits) rate(scope string, r RateLimit) (limit.Limiter, error) {
	rate := limit.Rate{Requests: r.Requests, Window: time.Duration(r.WindowSeconds) * time.Second}
	if l.shared != nil {
		return l.shared.RateLimiter(scope, rate, l.timeout)
	}
	return limit.NewKeyed(limit.KeyedConfig{Rate: rate})
}

// gate is the generation cap named scope.
func (l limits) gate(ctx context.Context, scope string, c limit.GateConfig) (limit.Acquirer, error) {
	if l.shared != nil {
		return l.shared.GenerationGate(ctx, store.SharedGateConfig{Site: scope, GateConfig: c, Timeout: l.timeout, Logger: l.log})
	}
	return limit.NewGate(c)
}

// limitPruneEvery is how often an instance prunes the shared rate-limit
// rows; every instance does, and a prune finding nothing costs one scan.
const limitPruneEvery = time.Minute

// pruneLimits deletes the shared rate-limit rows whose budget is full
// again, until ctx is done.
func pruneLimits(ctx context.Context, sh store.SharedLimits, logger *slog.Logger, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(limitPruneEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, limitPruneEvery/2)
		n, err := sh.PruneLimits(pctx)
		cancel()
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("askplane: pruning the shared rate limits failed", "err", err)
		case n > 0:
			logger.Debug("askplane: pruned shared rate-limit keys", "count", n)
		}
	}
}
