package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askplane/askplane/internal/limit"
	"github.com/jackc/pgx/v5"
)

// Shared limits: the rate limits and generation caps of several instances
// on one database, held in PostgreSQL so that N instances together allow
// what one would. Each decision is one statement; the row lock PostgreSQL
// takes for it is the only lock, so instances need none of their own.

// Bounds of the shared limits.
const (
	// DefaultLimitTimeout bounds one statement of a shared limit, waiting
	// for a pooled connection included. It is short because every question
	// waits for it before anything else: past it the question is refused
	// (limit.CodeUnavailable), never let through.
	DefaultLimitTimeout = time.Second
	// DefaultSlotLease is how long a generation slot stays held without
	// renewal: an instance that crashed holding slots gives them back this
	// long after its last renewal. A holder renews every third of it.
	DefaultSlotLease = 30 * time.Second
	// MaxSharedKeys bounds the rate-limit rows. Pruning deletes expired
	// rows (a full bucket, the same as no row) and then, past this bound,
	// the rows nearest to full: forgetting only gives budget back, as an
	// in-process limit's eviction does.
	MaxSharedKeys = 1 << 20
	// limitPruneBatch bounds the rows one pruning statement deletes.
	limitPruneBatch = 10_000
)

// SharedLimits is a backend that can hold rate limits and generation caps
// for every instance using it; the sidecar uses them when its store is
// PostgreSQL, and in-process limits otherwise.
type SharedLimits interface {
	RateLimiter(scope string, r limit.Rate, timeout time.Duration) (limit.Limiter, error)
	GenerationGate(ctx context.Context, c SharedGateConfig) (limit.Acquirer, error)
	PruneLimits(ctx context.Context) (int64, error)
}

var errLimitConfig = errors.New("store: a shared limit needs a scope of 1 to 200 bytes and a timeout of 1 ms to 10 s")

// PostgresLimiter is a GCRA rate limit (the algorithm of limit.Keyed) kept
// in the limit_tats table: one row a key, its theoretical arrival time.
// Keys are stored as SHA-256(scope, key), so a client address is never
// stored in the clear, every key takes 32 bytes, and two limits (scopes)
// never share a row. Times are the database's clock, so instances whose
// clocks disagree still agree on every budget.
type PostgresLimiter struct {
	p        *Postgres
	scope    string
	interval int64 // µs per request
	window   int64 // µs
	timeout  time.Duration
}

// RateLimiter returns the limit named scope (e.g. "edge.perAddress"),
// shared with every instance that asks for the same scope: they must be
// given the same rate. timeout bounds each decision; 0 means
// DefaultLimitTimeout.
func (p *Postgres) RateLimiter(scope string, r limit.Rate, timeout time.Duration) (limit.Limiter, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if timeout == 0 {
		timeout = DefaultLimitTimeout
	}
	if scope == "" || len(scope) > 200 || timeout < time.Millisecond || timeout > 10*time.Second {
		return nil, errLimitConfig
	}
	// Microseconds, as timestamptz counts; an interval rounded down, so
	// the burst is always all of Requests.
	window := r.Window.Microseconds()
	return &PostgresLimiter{p: p, scope: scope, interval: max(window/int64(r.Requests), 1), window: window, timeout: timeout}, nil
}

func (l *PostgresLimiter) key(key string) []byte {
	h := sha256.New()
	h.Write([]byte(l.scope))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return h.Sum(nil)
}

// The GCRA step in SQL, $2 the interval and $3 the window in µs. The
// stored time is clamped to now + window (a clock that went back) and
// raised to now (a full bucket); the request fits when one more interval
// ends within the window. A refused request writes nothing.
const (
	gcraTAT   = `greatest(least(l.tat, now() + $3 * interval '1 microsecond'), now())`
	gcraSpend = `WITH spent AS (
		INSERT INTO limit_tats AS l (key, tat) VALUES ($1, now() + $2 * interval '1 microsecond')
		ON CONFLICT (key) DO UPDATE SET tat = ` + gcraTAT + ` + $2 * interval '1 microsecond'
		WHERE ` + gcraTAT + ` + $2 * interval '1 microsecond' <= now() + $3 * interval '1 microsecond'
		RETURNING 1
	)
	SELECT EXISTS (SELECT FROM spent), coalesce((` + gcraOwed + `), 0)`
	// gcraOwed is how long past the window one more request would end,
	// in µs: > 0 means refused, and is the Retry-After.
	gcraOwed = `SELECT (extract(epoch FROM ` + gcraTAT + ` + $2 * interval '1 microsecond' - now() - $3 * interval '1 microsecond') * 1000000)::bigint
		FROM limit_tats AS l WHERE key = $1`
)

// Spend implements limit.Limiter in one statement: concurrent Spends of
// one key, from any instance, queue on its row and each sees the last
// one's time, so no two spend the same budget.
func (l *PostgresLimiter) Spend(ctx context.Context, key string) (bool, time.Duration, error) {
	if len(key) > limit.MaxKeyBytes {
		return false, 0, limit.ErrKeyTooLong
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	var ok bool
	var owed int64
	if err := l.p.pool.QueryRow(ctx, gcraSpend, l.key(key), l.interval, l.window).Scan(&ok, &owed); err != nil {
		return false, 0, limit.Unavailable(l.p.unavailable(ctx, "limit", err))
	}
	if ok {
		return true, 0, nil
	}
	// The time owed is read from the statement's snapshot, which a
	// concurrent winner may have moved on; it is advice, never below one
	// interval.
	return false, time.Duration(max(owed, l.interval)) * time.Microsecond, nil
}

// Check implements limit.Limiter: what Spend would say, spending nothing.
func (l *PostgresLimiter) Check(ctx context.Context, key string) (bool, time.Duration, error) {
	if len(key) > limit.MaxKeyBytes {
		return false, 0, limit.ErrKeyTooLong
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	var owed int64
	err := l.p.pool.QueryRow(ctx, gcraOwed, l.key(key), l.interval, l.window).Scan(&owed)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return true, 0, nil
	case err != nil:
		return false, 0, limit.Unavailable(l.p.unavailable(ctx, "limit", err))
	case owed > 0:
		return false, time.Duration(owed) * time.Microsecond, nil
	}
	return true, 0, nil
}

// PruneLimits deletes the rate-limit rows whose bucket is full again
// (their time has passed: the same as no row), then, past MaxSharedKeys,
// the rows nearest to full. It returns the rows deleted.
func (p *Postgres) PruneLimits(ctx context.Context) (int64, error) {
	return p.pruneLimits(ctx, MaxSharedKeys)
}

func (p *Postgres) pruneLimits(ctx context.Context, maxKeys int64) (int64, error) {
	var total int64
	for {
		n, err := p.limitBatch(ctx, `DELETE FROM limit_tats WHERE key IN (SELECT key FROM limit_tats WHERE tat < now() LIMIT $1)`, limitPruneBatch)
		total += n
		if err != nil {
			return total, err
		}
		if n < limitPruneBatch {
			break
		}
	}
	n, err := p.limitBatch(ctx, `DELETE FROM limit_tats WHERE key IN (
		SELECT key FROM limit_tats ORDER BY tat LIMIT greatest((SELECT count(*) FROM limit_tats) - $1, 0))`, maxKeys)
	return total + n, err
}

func (p *Postgres) limitBatch(ctx context.Context, sql string, arg int64) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	tag, err := p.pool.Exec(ctx, sql, arg)
	if err != nil {
		return 0, p.unavailable(ctx, "prune", err)
	}
	return tag.RowsAffected(), nil
}

// SharedGateConfig configures a GenerationGate.
type SharedGateConfig struct {
	// Site names the cap: instances with the same Site share its slots.
	Site string
	// GateConfig: Slots is the cap across every instance; Queue and
	// MaxWait bound the callers waiting in this instance (each polls the
	// table until a slot frees or MaxWait passes).
	limit.GateConfig
	// Lease: see DefaultSlotLease (0); 100 ms to 10 minutes.
	Lease time.Duration
	// Timeout bounds each statement; 0 means DefaultLimitTimeout.
	Timeout time.Duration
	// Logger hears of leases lost (not renewed in time); nil discards.
	Logger *slog.Logger
}

var errGateConfig = errors.New("store: a shared gate needs a site of 1 to 200 bytes, a lease of 100 ms to 10 minutes and a timeout of 1 ms to 10 s")

// PostgresGate caps a site's generations across instances with leases
// on the generation_slots table: one row per slot, taken by one statement
// (FOR UPDATE SKIP LOCKED, so instances racing for slots never take the
// same one and never wait for each other), released when the work ends,
// renewed while it runs. A lease not renewed, because its instance
// crashed or lost the database, expires and may be taken again, so no
// crash leaks capacity for longer than the lease.
type PostgresGate struct {
	p       *Postgres
	cfg     SharedGateConfig
	waiting atomic.Int64
	lost    atomic.Uint64
}

// GenerationGate returns the shared cap c names, creating its slot rows.
func (p *Postgres) GenerationGate(ctx context.Context, c SharedGateConfig) (limit.Acquirer, error) {
	if err := c.GateConfig.Validate(); err != nil {
		return nil, err
	}
	if c.Lease == 0 {
		c.Lease = DefaultSlotLease
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultLimitTimeout
	}
	if c.Site == "" || len(c.Site) > 200 || c.Lease < 100*time.Millisecond || c.Lease > 10*time.Minute ||
		c.Timeout < time.Millisecond || c.Timeout > 10*time.Second {
		return nil, errGateConfig
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	if _, err := p.pool.Exec(ctx, `INSERT INTO generation_slots (site_id, slot)
		SELECT $1, s FROM generate_series(0, $2 - 1) AS s ON CONFLICT DO NOTHING`, c.Site, c.Slots); err != nil {
		return nil, p.unavailable(ctx, "limit", err)
	}
	return &PostgresGate{p: p, cfg: c}, nil
}

// Acquire implements limit.Acquirer with limit.Gate's refusals, plus
// limit.CodeUnavailable when a statement fails (nothing is then held: a
// slot taken by a statement whose answer was lost expires with its lease).
func (g *PostgresGate) Acquire(ctx context.Context) (func(), error) {
	if ctx.Err() != nil {
		return nil, limit.Canceled(ctx)
	}
	if release, err := g.take(ctx); release != nil || err != nil {
		return release, g.refusal(ctx, err)
	}
	if g.waiting.Add(1) > int64(g.cfg.Queue) {
		g.waiting.Add(-1)
		return nil, limit.ErrQueueFull
	}
	defer g.waiting.Add(-1)
	deadline := time.NewTimer(g.cfg.MaxWait)
	defer deadline.Stop()
	poll := 20 * time.Millisecond
	for {
		t := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, limit.Canceled(ctx)
		case <-deadline.C:
			t.Stop()
			return nil, limit.ErrWaitExpired
		case <-t.C:
		}
		if release, err := g.take(ctx); release != nil || err != nil {
			return release, g.refusal(ctx, err)
		}
		poll = min(poll*2, 200*time.Millisecond)
	}
}

// refusal is take's error as Acquire returns it: CodeCanceled when the
// caller's ctx ended (nobody is waiting for the answer), else as it is.
func (g *PostgresGate) refusal(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return limit.Canceled(ctx)
	}
	return err
}

// take tries once: a release func, or nil with no error when every slot
// is held.
func (g *PostgresGate) take(ctx context.Context) (func(), error) {
	var b [16]byte
	rand.Read(b[:])
	holder := hex.EncodeToString(b[:])
	qctx, cancel := context.WithTimeout(ctx, g.cfg.Timeout)
	defer cancel()
	var slot int
	err := g.p.pool.QueryRow(qctx, `UPDATE generation_slots SET holder = $3, expires_at = now() + $4 * interval '1 microsecond'
		WHERE site_id = $1 AND slot = (
			SELECT slot FROM generation_slots WHERE site_id = $1 AND slot < $2 AND expires_at <= now()
			ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING slot`, g.cfg.Site, g.cfg.Slots, holder, g.cfg.Lease.Microseconds()).Scan(&slot)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, limit.Unavailable(g.p.unavailable(qctx, "limit", err))
	}
	l := &lease{g: g, slot: slot, holder: holder, stop: make(chan struct{}), done: make(chan struct{})}
	go l.renew()
	return l.release, nil
}

// lease is one slot held: renewed until released.
type lease struct {
	g      *PostgresGate
	slot   int
	holder string
	once   sync.Once
	stop   chan struct{}
	done   chan struct{}
}

func (l *lease) renew() {
	defer close(l.done)
	t := time.NewTicker(l.g.cfg.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), l.g.cfg.Timeout)
		tag, err := l.g.p.pool.Exec(ctx, `UPDATE generation_slots SET expires_at = now() + $4 * interval '1 microsecond'
			WHERE site_id = $1 AND slot = $2 AND holder = $3`, l.g.cfg.Site, l.slot, l.holder, l.g.cfg.Lease.Microseconds())
		cancel()
		switch {
		case err != nil:
			// The next tick tries again; the lease lasts three of them.
			l.g.cfg.Logger.Warn("store: renewing a generation slot failed", "site", l.g.cfg.Site, "err", err)
		case tag.RowsAffected() == 0:
			l.g.lost.Add(1)
			l.g.cfg.Logger.Warn("store: a generation slot's lease expired before it was renewed; the cap may be exceeded by one until this answer ends", "site", l.g.cfg.Site)
			return
		}
	}
}

// release gives the slot back, once; a failure leaves it to expire.
func (l *lease) release() {
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		ctx, cancel := context.WithTimeout(context.Background(), l.g.cfg.Timeout)
		defer cancel()
		if _, err := l.g.p.pool.Exec(ctx, `UPDATE generation_slots SET holder = '', expires_at = '-infinity'
			WHERE site_id = $1 AND slot = $2 AND holder = $3`, l.g.cfg.Site, l.slot, l.holder); err != nil {
			l.g.cfg.Logger.Warn("store: releasing a generation slot failed; it frees when its lease expires", "site", l.g.cfg.Site, "err", err)
		}
	})
}

// LostLeases counts leases that expired while held (their renewals did
// not reach the database in time): each may have let one more generation
// run than the cap.
func (g *PostgresGate) LostLeases() uint64 { return g.lost.Load() }

var (
	_ SharedLimits   = (*Postgres)(nil)
	_ limit.Limiter  = (*PostgresLimiter)(nil)
	_ limit.Acquirer = (*PostgresGate)(nil)
)
