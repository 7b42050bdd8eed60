package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/durable"
)

// Runs is the run store (durable.Store) both persistent backends implement.
// The transactions are written once, here, over runDB, a small dialect:
// SQLite serialises every write transaction (BEGIN IMMEDIATE), PostgreSQL
// locks the run's row (FOR UPDATE) and, at admission, the site (an
// advisory lock), so the ceilings and the idempotency check see every
// concurrent admission of the site. Time comes from runDB.now: Go's clock
// for SQLite (one host), the database's clock for PostgreSQL, so instances
// with skewed clocks agree on when a lease expired. Fencing never depends
// on a clock: only the fence number decides whether a write lands.
type Runs interface {
	durable.Store
}

// runStore implements durable.Store over one backend's runDB; SQLite and
// Postgres embed it, so both serve the same transactions.
type runStore struct{ db runDB }

// Admit implements durable.Store.
func (r runStore) Admit(ctx context.Context, a durable.Admission) (durable.Run, durable.Lease, bool, error) {
	return runAdmit(ctx, r.db, a)
}

// Get implements durable.Store.
func (r runStore) Get(ctx context.Context, id string) (durable.Run, error) {
	return runGet(ctx, r.db, id)
}

// Claim implements durable.Store.
func (r runStore) Claim(ctx context.Context, id, owner string, ttl time.Duration) (durable.Lease, error) {
	return runClaim(ctx, r.db, id, owner, ttl)
}

// ClaimExpired implements durable.Store.
func (r runStore) ClaimExpired(ctx context.Context, owner string, ttl time.Duration) (durable.Lease, bool, error) {
	return runClaimExpired(ctx, r.db, r.db.skipLocked(), owner, ttl)
}

// Renew implements durable.Store.
func (r runStore) Renew(ctx context.Context, l durable.Lease, ttl time.Duration) (durable.Lease, durable.Run, error) {
	return runRenew(ctx, r.db, l, ttl)
}

// BeginAttempt implements durable.Store.
func (r runStore) BeginAttempt(ctx context.Context, l durable.Lease, st durable.AttemptStart, c durable.Ceilings) (int, error) {
	return runBeginAttempt(ctx, r.db, l, st, c)
}

// Commit implements durable.Store.
func (r runStore) Commit(ctx context.Context, l durable.Lease, w durable.Write) error {
	return runCommit(ctx, r.db, l, w)
}

// Checkpoint implements durable.Store.
func (r runStore) Checkpoint(ctx context.Context, id string) (durable.Checkpoint, error) {
	return runCheckpoint(ctx, r.db, id)
}

// Attempts implements durable.Store.
func (r runStore) Attempts(ctx context.Context, id string) ([]durable.Attempt, error) {
	return runAttempts(ctx, r.db, id)
}

// Events implements durable.Store.
func (r runStore) Events(ctx context.Context, id string, after, max int) ([]durable.Event, error) {
	return runEvents(ctx, r.db, id, after, max)
}

// Cancel implements durable.Store.
func (r runStore) Cancel(ctx context.Context, id string, event []byte) (durable.Run, error) {
	return runCancel(ctx, r.db, id, event)
}

// DayUsage implements durable.Store.
func (r runStore) DayUsage(ctx context.Context, site string, day time.Time) (durable.Spend, error) {
	return runDayUsage(ctx, r.db, site, day)
}

// PruneRuns implements durable.Store.
func (r runStore) PruneRuns(ctx context.Context, before time.Time) (int64, error) {
	return runPrune(ctx, r.db, before)
}

// runDB is what the run transactions need of a backend.
type runDB interface {
	begin(ctx context.Context) (runTx, error)
	// forUpdate is the suffix that locks the selected run row ("" where
	// the transaction already holds the database's write lock).
	forUpdate() string
	// skipLocked is the suffix with which a sweep skips the rows another
	// instance is claiming ("" where there are no row locks).
	skipLocked() string
	// fail turns a backend error into the run error of op (secrets
	// scrubbed).
	fail(ctx context.Context, op string, err error) error
}

// runTx is one transaction. Queries use ? placeholders, which the
// PostgreSQL adapter numbers.
type runTx interface {
	exec(ctx context.Context, q string, args ...any) (int64, error)
	// row scans one row; found is false when there is none.
	row(ctx context.Context, q string, args []any, dest ...any) (found bool, err error)
	query(ctx context.Context, q string, args []any, each func(scan func(dest ...any) error) error) error
	// now is the transaction's clock, in Unix milliseconds.
	now(ctx context.Context) (int64, error)
	// lockSite serialises the admissions of one site.
	lockSite(ctx context.Context, site string) error
	commit(ctx context.Context) error
	rollback()
}

// runTimeout bounds one run transaction.
const runTimeout = OpTimeout

// runColumns are the runs columns runRow scans, in order.
const runColumns = `run_id, site_id, subject, session_id, idem_key, request_digest,
	snap_agent, snap_schema, snap_model, snap_tool,
	max_tokens, max_cost, max_rounds, max_attempts, deadline,
	state, code, fence, lease_owner, lease_until, cancel_requested,
	events, event_bytes, attempts, rounds, used_tokens, used_cost, created_at, updated_at`

type runRow struct {
	r                                                                durable.Run
	maxRounds, maxAttempts, events, attempts, rounds                 int64
	deadline, leaseUntil, cancel, createdAt, updatedAt, usedT, usedC int64
	state                                                            string
}

func (x *runRow) dest() []any {
	r := &x.r
	return []any{&r.ID, &r.Site, &r.Subject, &r.Session, &r.IdempotencyKey, &r.RequestDigest,
		&r.Snapshot.Agent, &r.Snapshot.Schema, &r.Snapshot.Model, &r.Snapshot.Tool,
		&r.Budget.MaxTokens, &r.Budget.MaxCostMicros, &x.maxRounds, &x.maxAttempts, &x.deadline,
		&x.state, &r.Code, &r.Fence, &r.LeaseOwner, &x.leaseUntil, &x.cancel,
		&x.events, &r.EventBytes, &x.attempts, &x.rounds, &x.usedT, &x.usedC, &x.createdAt, &x.updatedAt}
}

func (x *runRow) run() (durable.Run, error) {
	r := x.r
	r.State = durable.State(x.state)
	if !r.State.Valid() {
		return durable.Run{}, &durable.Error{Code: durable.CodeCorrupt, Op: "load", Reason: "stored state is unknown"}
	}
	r.Budget.MaxRounds, r.Budget.MaxAttempts = int(x.maxRounds), int(x.maxAttempts)
	r.Budget.Deadline = time.UnixMilli(x.deadline)
	r.LeaseUntil = time.UnixMilli(x.leaseUntil)
	r.CancelRequested = x.cancel != 0
	r.Events, r.Attempts, r.Rounds = int(x.events), int(x.attempts), int(x.rounds)
	r.Used = durable.Spend{Tokens: x.usedT, CostMicros: x.usedC}
	r.CreatedAt, r.UpdatedAt = time.UnixMilli(x.createdAt), time.UnixMilli(x.updatedAt)
	return r, nil
}

// loadRun reads a run in tx, locked when lock.
func loadRun(ctx context.Context, db runDB, tx runTx, id string, lock bool) (durable.Run, bool, error) {
	q := `SELECT ` + runColumns + ` FROM runs WHERE run_id = ?`
	if lock {
		q += db.forUpdate()
	}
	var x runRow
	found, err := tx.row(ctx, q, []any{id}, x.dest()...)
	if err != nil || !found {
		return durable.Run{}, found, err
	}
	r, err := x.run()
	return r, true, err
}

// inTx runs fn in one transaction within runTimeout. Errors fn returns
// that are run errors pass through; others become CodeUnavailable.
func inTx(ctx context.Context, db runDB, op string, fn func(ctx context.Context, tx runTx) error) error {
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	tx, err := db.begin(ctx)
	if err != nil {
		return db.fail(ctx, op, err)
	}
	defer tx.rollback()
	if err := fn(ctx, tx); err != nil {
		var re *durable.Error
		var be *durable.BudgetError
		if errors.As(err, &re) || errors.As(err, &be) {
			return err
		}
		return db.fail(ctx, op, err)
	}
	if err := tx.commit(ctx); err != nil {
		return db.fail(ctx, op, err)
	}
	return nil
}

func runAdmit(ctx context.Context, db runDB, a durable.Admission) (r durable.Run, l durable.Lease, joined bool, err error) {
	if err := durable.CheckAdmission(a); err != nil {
		return durable.Run{}, durable.Lease{}, false, err
	}
	err = inTx(ctx, db, "admit", func(ctx context.Context, tx runTx) error {
		if err := tx.lockSite(ctx, a.Site); err != nil {
			return err
		}
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		if a.IdempotencyKey != "" {
			var id, digest string
			found, err := tx.row(ctx, `SELECT run_id, request_digest FROM runs WHERE site_id = ? AND subject = ? AND idem_key = ?`,
				[]any{a.Site, a.Subject, a.IdempotencyKey}, &id, &digest)
			if err != nil {
				return err
			}
			if found {
				if digest != a.RequestDigest {
					return &durable.Error{Code: durable.CodeIdempotencyMismatch, Op: "admit", Reason: "the key was used for another request"}
				}
				r, _, err = loadRun(ctx, db, tx, id, false)
				joined = true
				return err
			}
		}
		if err := checkCeilings(ctx, tx, a.Site, a.Ceilings, durable.Usage{}, now, true); err != nil {
			return err
		}
		until := now + a.Lease.Milliseconds()
		if _, err := tx.exec(ctx, `INSERT INTO runs (`+runColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', 1, ?, ?, 0, 1, ?, 0, 0, 0, 0, ?, ?)`,
			a.ID, a.Site, a.Subject, a.Session, a.IdempotencyKey, a.RequestDigest,
			a.Snapshot.Agent, a.Snapshot.Schema, a.Snapshot.Model, a.Snapshot.Tool,
			a.Budget.MaxTokens, a.Budget.MaxCostMicros, a.Budget.MaxRounds, a.Budget.MaxAttempts, a.Budget.Deadline.UnixMilli(),
			string(durable.StateAdmitted), a.Owner, until, len(a.FirstEvent), now, now); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO run_events (run_id, seq, data) VALUES (?, 1, ?)`, a.ID, string(a.FirstEvent)); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO run_checkpoints (run_id, step, digest, data) VALUES (?, 0, ?, ?)`,
			a.ID, durable.Digest(a.Checkpoint), string(a.Checkpoint)); err != nil {
			return err
		}
		r, _, err = loadRun(ctx, db, tx, a.ID, false)
		l = durable.Lease{RunID: a.ID, Owner: a.Owner, Fence: 1, Until: time.UnixMilli(until)}
		return err
	})
	if err != nil {
		return durable.Run{}, durable.Lease{}, false, err
	}
	return r, l, joined, nil
}

// checkCeilings refuses what would pass the site's ceilings: the runs in
// flight (at admission) and the day's tokens and cost with reserve added.
func checkCeilings(ctx context.Context, tx runTx, site string, c durable.Ceilings, reserve durable.Usage, now int64, admission bool) error {
	if admission && c.MaxConcurrent > 0 {
		var n int64
		if _, err := tx.row(ctx, `SELECT count(*) FROM runs WHERE site_id = ? AND state IN ('admitted', 'running') AND deadline > ?`,
			[]any{site, now}, &n); err != nil {
			return err
		}
		if n >= int64(c.MaxConcurrent) {
			return &durable.BudgetError{Limit: durable.LimitConcurrent, RetryAfter: time.Second}
		}
	}
	if c.TokensPerDay == 0 && c.CostMicrosPerDay == 0 {
		return nil
	}
	day := durable.DayStart(time.UnixMilli(now))
	var tokens, cost int64
	if _, err := tx.row(ctx, `SELECT tokens, cost FROM run_usage WHERE site_id = ? AND day = ?`,
		[]any{site, day.UnixMilli()}, &tokens, &cost); err != nil {
		return err
	}
	wait := durable.UntilTomorrow(time.UnixMilli(now))
	// At admission the day must have room left at all; at an attempt,
	// room for the attempt's reservation.
	if c.TokensPerDay > 0 && (tokens >= c.TokensPerDay || tokens+reserve.Tokens() > c.TokensPerDay) {
		return &durable.BudgetError{Limit: durable.LimitTokensPerDay, RetryAfter: wait}
	}
	if c.CostMicrosPerDay > 0 && (cost >= c.CostMicrosPerDay || cost+reserve.CostMicros > c.CostMicrosPerDay) {
		return &durable.BudgetError{Limit: durable.LimitCostPerDay, RetryAfter: wait}
	}
	return nil
}

func runGet(ctx context.Context, db runDB, id string) (durable.Run, error) {
	var r durable.Run
	err := inTx(ctx, db, "get", func(ctx context.Context, tx runTx) error {
		var found bool
		var err error
		r, found, err = loadRun(ctx, db, tx, id, false)
		if err == nil && !found {
			return durable.NotFound("get")
		}
		return err
	})
	return r, err
}

// takeover raises the fence of a run whose lease expired and marks the
// previous holder's started attempts unknown: it may have dispatched them,
// and it can no longer record what came back.
func takeover(ctx context.Context, tx runTx, id, owner string, ttl time.Duration, now, fence int64) (durable.Lease, error) {
	until := now + ttl.Milliseconds()
	if _, err := tx.exec(ctx, `UPDATE runs SET fence = ?, lease_owner = ?, lease_until = ?, updated_at = ? WHERE run_id = ?`,
		fence+1, owner, until, now, id); err != nil {
		return durable.Lease{}, err
	}
	if _, err := tx.exec(ctx, `UPDATE run_attempts SET state = 'unknown', ended_at = ? WHERE run_id = ? AND state = 'started'`, now, id); err != nil {
		return durable.Lease{}, err
	}
	return durable.Lease{RunID: id, Owner: owner, Fence: fence + 1, Until: time.UnixMilli(until)}, nil
}

func runClaim(ctx context.Context, db runDB, id, owner string, ttl time.Duration) (durable.Lease, error) {
	const op = "claim"
	if err := durable.CheckLease(op, ttl); err != nil {
		return durable.Lease{}, err
	}
	if !durable.SafeID(owner) {
		return durable.Lease{}, durable.Invalid(op, "owner is not a SafeIdentifier")
	}
	var l durable.Lease
	err := inTx(ctx, db, op, func(ctx context.Context, tx runTx) error {
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		r, found, err := loadRun(ctx, db, tx, id, true)
		switch {
		case err != nil:
			return err
		case !found:
			return durable.NotFound(op)
		case r.State.Terminal():
			return durable.Terminal(op)
		case r.LeaseUntil.UnixMilli() >= now:
			return durable.LeaseHeld(op)
		}
		l, err = takeover(ctx, tx, id, owner, ttl, now, r.Fence)
		return err
	})
	return l, err
}

func runClaimExpired(ctx context.Context, db runDB, skipLocked string, owner string, ttl time.Duration) (durable.Lease, bool, error) {
	const op = "claim"
	if err := durable.CheckLease(op, ttl); err != nil {
		return durable.Lease{}, false, err
	}
	if !durable.SafeID(owner) {
		return durable.Lease{}, false, durable.Invalid(op, "owner is not a SafeIdentifier")
	}
	var l durable.Lease
	var ok bool
	err := inTx(ctx, db, op, func(ctx context.Context, tx runTx) error {
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		var id string
		var fence int64
		found, err := tx.row(ctx, `SELECT run_id, fence FROM runs WHERE state IN ('admitted', 'running') AND lease_until < ?
			ORDER BY lease_until LIMIT 1`+skipLocked, []any{now}, &id, &fence)
		if err != nil || !found {
			return err
		}
		l, err = takeover(ctx, tx, id, owner, ttl, now, fence)
		ok = err == nil
		return err
	})
	return l, ok, err
}

// fenced loads the run under its lock and checks that l still holds it.
func fenced(ctx context.Context, db runDB, tx runTx, op string, l durable.Lease) (durable.Run, error) {
	r, found, err := loadRun(ctx, db, tx, l.RunID, true)
	switch {
	case err != nil:
		return durable.Run{}, err
	case !found:
		return durable.Run{}, durable.NotFound(op)
	case r.Fence != l.Fence || r.LeaseOwner != l.Owner:
		return durable.Run{}, durable.Fenced(op)
	case r.State.Terminal():
		return durable.Run{}, durable.Terminal(op)
	}
	return r, nil
}

func runRenew(ctx context.Context, db runDB, l durable.Lease, ttl time.Duration) (durable.Lease, durable.Run, error) {
	const op = "renew"
	if err := durable.CheckLease(op, ttl); err != nil {
		return durable.Lease{}, durable.Run{}, err
	}
	var r durable.Run
	err := inTx(ctx, db, op, func(ctx context.Context, tx runTx) error {
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		if r, err = fenced(ctx, db, tx, op, l); err != nil {
			return err
		}
		until := now + ttl.Milliseconds()
		if _, err := tx.exec(ctx, `UPDATE runs SET lease_until = ? WHERE run_id = ?`, until, l.RunID); err != nil {
			return err
		}
		l.Until, r.LeaseUntil = time.UnixMilli(until), time.UnixMilli(until)
		return nil
	})
	return l, r, err
}

func runBeginAttempt(ctx context.Context, db runDB, l durable.Lease, s durable.AttemptStart, c durable.Ceilings) (int, error) {
	const op = "begin attempt"
	if err := durable.CheckStart(s); err != nil {
		return 0, err
	}
	var n int
	err := inTx(ctx, db, op, func(ctx context.Context, tx runTx) error {
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		r, err := fenced(ctx, db, tx, op, l)
		if err != nil {
			return err
		}
		b := r.Budget
		switch {
		case r.CancelRequested:
			return durable.Cancelled(op)
		case now >= b.Deadline.UnixMilli():
			return &durable.BudgetError{Limit: durable.LimitDeadline}
		case r.Attempts+1 > b.MaxAttempts:
			return &durable.BudgetError{Limit: durable.LimitAttempts}
		case s.Round > b.MaxRounds:
			return &durable.BudgetError{Limit: durable.LimitRounds}
		case r.Used.Tokens+s.Reserve.Tokens() > b.MaxTokens:
			return &durable.BudgetError{Limit: durable.LimitTokens}
		case r.Used.CostMicros+s.Reserve.CostMicros > b.MaxCostMicros:
			return &durable.BudgetError{Limit: durable.LimitCost}
		}
		if err := checkCeilings(ctx, tx, r.Site, c, s.Reserve, now, false); err != nil {
			return err
		}
		n = r.Attempts + 1
		day := durable.DayStart(time.UnixMilli(now)).UnixMilli()
		if _, err := tx.exec(ctx, `INSERT INTO run_attempts (run_id, n, round, state, fence, day, reserved_in, reserved_out, reserved_cost,
			input_tokens, output_tokens, cost, outcome, started_at, ended_at) VALUES (?, ?, ?, 'started', ?, ?, ?, ?, ?, ?, ?, ?, '', ?, 0)`,
			l.RunID, n, s.Round, l.Fence, day, s.Reserve.InputTokens, s.Reserve.OutputTokens, s.Reserve.CostMicros,
			s.Reserve.InputTokens, s.Reserve.OutputTokens, s.Reserve.CostMicros, now); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE runs SET attempts = ?, rounds = ?, state = 'running', used_tokens = used_tokens + ?, used_cost = used_cost + ?, updated_at = ? WHERE run_id = ?`,
			n, max(r.Rounds, s.Round), s.Reserve.Tokens(), s.Reserve.CostMicros, now, l.RunID); err != nil {
			return err
		}
		return addDayUsage(ctx, tx, r.Site, day, s.Reserve.Tokens(), s.Reserve.CostMicros)
	})
	return n, err
}

func addDayUsage(ctx context.Context, tx runTx, site string, day, tokens, cost int64) error {
	if tokens == 0 && cost == 0 {
		return nil
	}
	_, err := tx.exec(ctx, `INSERT INTO run_usage (site_id, day, tokens, cost) VALUES (?, ?, ?, ?)
		ON CONFLICT (site_id, day) DO UPDATE SET tokens = run_usage.tokens + excluded.tokens, cost = run_usage.cost + excluded.cost`,
		site, day, tokens, cost)
	return err
}

func runCommit(ctx context.Context, db runDB, l durable.Lease, w durable.Write) error {
	const op = "commit"
	if err := durable.CheckWrite(w); err != nil {
		return err
	}
	return inTx(ctx, db, op, func(ctx context.Context, tx runTx) error {
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		r, err := fenced(ctx, db, tx, op, l)
		if err != nil {
			return err
		}
		if e := w.End; e != nil {
			if err := settle(ctx, tx, r, e, now); err != nil {
				return err
			}
		}
		if c := w.Checkpoint; c != nil {
			n, err := tx.exec(ctx, `UPDATE run_checkpoints SET step = ?, digest = ?, data = ? WHERE run_id = ? AND step < ?`,
				c.Step, durable.Digest(c.Data), string(c.Data), l.RunID, c.Step)
			if err != nil {
				return err
			}
			if n != 1 {
				return durable.Invalid(op, "checkpoint step is not above the stored one")
			}
		}
		if err := appendEvents(ctx, tx, op, r, w.Events); err != nil {
			return err
		}
		set, args := `updated_at = ?`, []any{now}
		if w.Final != "" {
			set += `, state = ?, code = ?, lease_until = 0`
			args = append(args, string(w.Final), w.Code)
		}
		_, err = tx.exec(ctx, `UPDATE runs SET `+set+` WHERE run_id = ?`, append(args, l.RunID)...)
		return err
	})
}

// settle ends a started attempt and moves the run's and the day's
// charge from the reservation to the reported usage (an unknown outcome
// keeps the reservation).
func settle(ctx context.Context, tx runTx, r durable.Run, e *durable.AttemptEnd, now int64) error {
	var day, rin, rout, rcost int64
	var state string
	found, err := tx.row(ctx, `SELECT state, day, reserved_in, reserved_out, reserved_cost FROM run_attempts WHERE run_id = ? AND n = ?`,
		[]any{r.ID, e.N}, &state, &day, &rin, &rout, &rcost)
	if err != nil {
		return err
	}
	if !found || state != string(durable.AttemptStarted) {
		return durable.Invalid("commit", "the attempt is not started")
	}
	u := e.Usage
	if e.State == durable.AttemptUnknown {
		u = durable.Usage{InputTokens: rin, OutputTokens: rout, CostMicros: rcost}
	}
	if _, err := tx.exec(ctx, `UPDATE run_attempts SET state = ?, input_tokens = ?, output_tokens = ?, cost = ?, outcome = ?, ended_at = ? WHERE run_id = ? AND n = ?`,
		string(e.State), u.InputTokens, u.OutputTokens, u.CostMicros, string(e.Outcome), now, r.ID, e.N); err != nil {
		return err
	}
	dt, dc := u.Tokens()-(rin+rout), u.CostMicros-rcost
	if dt == 0 && dc == 0 {
		return nil
	}
	if _, err := tx.exec(ctx, `UPDATE runs SET used_tokens = used_tokens + ?, used_cost = used_cost + ? WHERE run_id = ?`, dt, dc, r.ID); err != nil {
		return err
	}
	return addDayUsage(ctx, tx, r.Site, day, dt, dc)
}

func appendEvents(ctx context.Context, tx runTx, op string, r durable.Run, events [][]byte) error {
	if len(events) == 0 {
		return nil
	}
	if err := durable.CheckEvents(op, events, r.Events, r.EventBytes); err != nil {
		return err
	}
	var bytes int64
	for i, e := range events {
		if _, err := tx.exec(ctx, `INSERT INTO run_events (run_id, seq, data) VALUES (?, ?, ?)`, r.ID, r.Events+1+i, string(e)); err != nil {
			return err
		}
		bytes += int64(len(e))
	}
	_, err := tx.exec(ctx, `UPDATE runs SET events = events + ?, event_bytes = event_bytes + ? WHERE run_id = ?`, len(events), bytes, r.ID)
	return err
}

func runCheckpoint(ctx context.Context, db runDB, id string) (durable.Checkpoint, error) {
	var c durable.Checkpoint
	err := inTx(ctx, db, "checkpoint", func(ctx context.Context, tx runTx) error {
		var step int64
		var data string
		found, err := tx.row(ctx, `SELECT step, digest, data FROM run_checkpoints WHERE run_id = ?`, []any{id}, &step, &c.Digest, &data)
		if err != nil {
			return err
		}
		if !found {
			return durable.NotFound("checkpoint")
		}
		c.Step, c.Data = int(step), []byte(data)
		if durable.Digest(c.Data) != c.Digest {
			return &durable.Error{Code: durable.CodeCorrupt, Op: "checkpoint", Reason: "the checkpoint does not match its digest"}
		}
		return nil
	})
	return c, err
}

func runAttempts(ctx context.Context, db runDB, id string) ([]durable.Attempt, error) {
	var out []durable.Attempt
	err := inTx(ctx, db, "attempts", func(ctx context.Context, tx runTx) error {
		return tx.query(ctx, `SELECT n, round, state, fence, reserved_in, reserved_out, reserved_cost, input_tokens, output_tokens, cost, outcome
			FROM run_attempts WHERE run_id = ? ORDER BY n`, []any{id}, func(scan func(...any) error) error {
			var a durable.Attempt
			var n, round int64
			var state, outcome string
			if err := scan(&n, &round, &state, &a.Fence, &a.Reserved.InputTokens, &a.Reserved.OutputTokens, &a.Reserved.CostMicros,
				&a.Usage.InputTokens, &a.Usage.OutputTokens, &a.Usage.CostMicros, &outcome); err != nil {
				return err
			}
			a.N, a.Round, a.State = int(n), int(round), durable.AttemptState(state)
			if outcome != "" {
				a.Outcome = []byte(outcome)
			}
			out = append(out, a)
			return nil
		})
	})
	return out, err
}

func runEvents(ctx context.Context, db runDB, id string, after, limit int) ([]durable.Event, error) {
	if after < 0 || limit < 1 || limit > durable.MaxEventsPerRead {
		return nil, durable.Invalid("events", "after is negative or max out of range")
	}
	var out []durable.Event
	err := inTx(ctx, db, "events", func(ctx context.Context, tx runTx) error {
		return tx.query(ctx, `SELECT seq, data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
			[]any{id, after, limit}, func(scan func(...any) error) error {
				var seq int64
				var data string
				if err := scan(&seq, &data); err != nil {
					return err
				}
				out = append(out, durable.Event{Seq: int(seq), Data: []byte(data)})
				return nil
			})
	})
	return out, err
}

func runCancel(ctx context.Context, db runDB, id string, event []byte) (durable.Run, error) {
	const op = "cancel"
	if err := durable.CheckEvents(op, [][]byte{event}, 0, 0); err != nil {
		return durable.Run{}, err
	}
	var r durable.Run
	err := inTx(ctx, db, op, func(ctx context.Context, tx runTx) error {
		now, err := tx.now(ctx)
		if err != nil {
			return err
		}
		var found bool
		r, found, err = loadRun(ctx, db, tx, id, true)
		switch {
		case err != nil:
			return err
		case !found:
			return durable.NotFound(op)
		case r.State.Terminal():
			return nil
		}
		r.CancelRequested = true
		if r.LeaseUntil.UnixMilli() >= now {
			_, err := tx.exec(ctx, `UPDATE runs SET cancel_requested = 1, updated_at = ? WHERE run_id = ?`, now, id)
			return err
		}
		// Nobody holds it: end it here, fenced against a late writer.
		if _, err := takeover(ctx, tx, id, "cancel", durable.MinLease, now, r.Fence); err != nil {
			return err
		}
		if err := appendEvents(ctx, tx, op, r, [][]byte{event}); err != nil && durable.CodeOf(err) != durable.CodeLimit {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE runs SET cancel_requested = 1, state = 'cancelled', code = ?, lease_until = 0 WHERE run_id = ?`,
			string(durable.CodeCancelled), id); err != nil {
			return err
		}
		r, _, err = loadRun(ctx, db, tx, id, false)
		return err
	})
	return r, err
}

func runDayUsage(ctx context.Context, db runDB, site string, day time.Time) (durable.Spend, error) {
	var u durable.Spend
	err := inTx(ctx, db, "day usage", func(ctx context.Context, tx runTx) error {
		_, err := tx.row(ctx, `SELECT tokens, cost FROM run_usage WHERE site_id = ? AND day = ?`,
			[]any{site, durable.DayStart(day).UnixMilli()}, &u.Tokens, &u.CostMicros)
		return err
	})
	return u, err
}

func runPrune(ctx context.Context, db runDB, before time.Time) (int64, error) {
	var total int64
	for {
		var ids []any
		err := inTx(ctx, db, "prune runs", func(ctx context.Context, tx runTx) error {
			ids = ids[:0]
			if err := tx.query(ctx, `SELECT run_id FROM runs WHERE state IN ('completed', 'failed', 'cancelled') AND updated_at < ? LIMIT ?`,
				[]any{before.UnixMilli(), pruneBatch}, func(scan func(...any) error) error {
					var id string
					if err := scan(&id); err != nil {
						return err
					}
					ids = append(ids, id)
					return nil
				}); err != nil {
				return err
			}
			if len(ids) > 0 {
				in := `(` + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + `)`
				for _, t := range []string{"run_events", "run_checkpoints", "run_attempts", "runs"} {
					if _, err := tx.exec(ctx, `DELETE FROM `+t+` WHERE run_id IN `+in, ids...); err != nil {
						return err
					}
				}
			}
			_, err := tx.exec(ctx, `DELETE FROM run_usage WHERE day < ?`, durable.DayStart(before).UnixMilli())
			return err
		})
		total += int64(len(ids))
		if err != nil || len(ids) < pruneBatch {
			return total, err
		}
	}
}

// rebind numbers ? placeholders as $1, $2, … for PostgreSQL.
func rebind(q string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}
