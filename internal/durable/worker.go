package durable

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Program is what a run executes. It reads where the run stands
// (Exec.Checkpoint, Exec.Attempts), moves it on through Exec's fenced
// writes, and commits a terminal state (Exec.Finish) before it returns
// nil. It must be a function of the checkpoint: a worker that takes the
// run over calls it again from the last checkpoint, and whatever the
// checkpoint holds (a completed attempt's outcome) must not be dispatched
// again.
type Program func(ctx context.Context, x *Exec) error

// Ending is how a Program's failure ends its run: the terminal state, its
// code and the last event of the log.
type Ending struct {
	State State
	Code  string
	Event []byte
}

// Worker executes runs: the one the admitting request claimed, and those
// whose lease expired (Sweep), on whichever instance finds them. Zero
// fields take their defaults; Store, Owner, Program and End are required.
type Worker struct {
	Store Store
	// Owner names this instance in leases (a SafeIdentifier).
	Owner string
	// Lease is how long a claim lasts unrenewed; it is renewed every
	// third of it. Default 30 s.
	Lease time.Duration
	// Program returns what a run executes, or an error when this
	// instance cannot execute it (its snapshot is not the one served).
	Program func(r Run) (Program, error)
	// End maps a failure to the run's ending: err is the Program's
	// error, ErrCancelRequested, a *BudgetError, or the snapshot error.
	End func(r Run, err error) Ending
	// Ceilings are the site's, checked at every attempt start.
	Ceilings func(site string) Ceilings
	// Observe counts what happens, by site: "run.started", "run.resumed",
	// "run.completed" / "run.failed" / "run.cancelled", "attempt.started",
	// "attempt.unknown", "round.started". nil drops them.
	Observe func(site, name string)
	Logger  *slog.Logger
	// MaxRunning bounds the runs this instance executes at once (default
	// 64); Sweep claims nothing while it is reached.
	MaxRunning int

	once    sync.Once
	mu      sync.Mutex
	running map[string]context.CancelCauseFunc
	active  sync.WaitGroup // Executes in progress
	slots   chan struct{}
}

// ErrCancelRequested is the cause of a run's context once a cancel was
// requested.
var ErrCancelRequested = errors.New("run: cancel requested")

// errLeaseLost is the cause once another worker holds the run.
var errLeaseLost = errors.New("run: lease lost")

// errReleased is the cause once this instance shuts down and hands its
// runs on (Shutdown).
var errReleased = errors.New("run: released at shutdown")

func (w *Worker) init() {
	w.once.Do(func() {
		if w.Lease == 0 {
			w.Lease = 30 * time.Second
		}
		if w.MaxRunning == 0 {
			w.MaxRunning = 64
		}
		if w.Logger == nil {
			w.Logger = slog.New(slog.DiscardHandler)
		}
		w.running = map[string]context.CancelCauseFunc{}
		w.slots = make(chan struct{}, w.MaxRunning)
	})
}

func (w *Worker) observe(site, name string) {
	if w.Observe != nil {
		w.Observe(site, name)
	}
}

// Exec is one worker's hold on one run: every write carries its lease.
type Exec struct {
	w          *Worker
	mu         sync.Mutex
	lease      Lease
	run        Run
	checkpoint Checkpoint
	attempts   []Attempt
	open       int   // the attempt started and not yet ended, or 0
	final      State // the terminal state committed, or ""
	round      int   // the round of the last attempt begun here
}

// Run is the run as it was claimed.
func (x *Exec) Run() Run { return x.run }

// Checkpoint is the latest checkpoint: the one claimed, then the last one
// committed.
func (x *Exec) Checkpoint() Checkpoint { return x.checkpoint }

// Attempts are the run's attempts when claimed (the previous holder's
// started ones already unknown).
func (x *Exec) Attempts() []Attempt { return x.attempts }

func (x *Exec) currentLease() Lease {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.lease
}

// Begin commits an attempt's start; dispatch only after it returns nil.
func (x *Exec) Begin(ctx context.Context, round int, reserve Usage) (int, error) {
	var c Ceilings
	if x.w.Ceilings != nil {
		c = x.w.Ceilings(x.run.Site)
	}
	n, err := x.w.Store.BeginAttempt(ctx, x.currentLease(), AttemptStart{Round: round, Reserve: reserve}, c)
	if err != nil {
		return 0, err
	}
	x.open = n
	x.w.observe(x.run.Site, "attempt.started")
	if round != x.round {
		x.round = round
		x.w.observe(x.run.Site, "round.started") // a retry is an attempt, not a round
	}
	return n, nil
}

// Commit applies w under the lease. An End closes the open attempt.
func (x *Exec) Commit(ctx context.Context, w Write) error {
	if err := x.w.Store.Commit(ctx, x.currentLease(), w); err != nil {
		return err
	}
	if w.End != nil && w.End.N == x.open {
		x.open = 0
	}
	if w.Checkpoint != nil {
		x.checkpoint = Checkpoint{Step: w.Checkpoint.Step, Data: w.Checkpoint.Data, Digest: Digest(w.Checkpoint.Data)}
	}
	if w.Final != "" {
		x.final = w.Final
	}
	return nil
}

// Finish commits the terminal state with the last events (and the open
// attempt's end, when given in w.End).
func (x *Exec) Finish(ctx context.Context, w Write) error { return x.Commit(ctx, w) }

// Execute runs the program of the run l holds until it ends, renewing the
// lease; it returns when the run is terminal or the lease was lost. Only
// a Store failure on the final write is returned: the run then waits for
// another claim.
func (w *Worker) Execute(ctx context.Context, l Lease) error {
	w.init()
	w.active.Add(1)
	defer w.active.Done()
	r, err := w.Store.Get(ctx, l.RunID)
	if err != nil {
		return err
	}
	cp, err := w.Store.Checkpoint(ctx, l.RunID)
	if err != nil {
		return err
	}
	atts, err := w.Store.Attempts(ctx, l.RunID)
	if err != nil {
		return err
	}
	x := &Exec{w: w, lease: l, run: r, checkpoint: cp, attempts: atts}
	for _, a := range atts {
		if a.State == AttemptUnknown {
			w.observe(r.Site, "attempt.unknown")
		}
	}
	// The run is detached from whoever asked: a reader that goes away
	// does not stop the answer it may come back for. It ends at its
	// deadline, a cancel, or the loss of the lease.
	rctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancel(nil)
	rctx, stop := context.WithDeadline(rctx, r.Budget.Deadline)
	defer stop()
	w.mu.Lock()
	w.running[r.ID] = cancel
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.running, r.ID)
		w.mu.Unlock()
	}()
	done := make(chan struct{})
	defer close(done)
	go w.renew(rctx, x, cancel, done)

	var perr error
	prog, perr := w.Program(r)
	if perr == nil {
		perr = prog(rctx, x)
	}
	if perr == nil {
		if x.final != "" {
			w.observe(r.Site, "run."+string(x.final))
		}
		return nil
	}
	switch cause := context.Cause(rctx); {
	case errors.Is(cause, errLeaseLost), CodeOf(perr) == CodeFenced:
		w.Logger.Info("run: lease lost; another worker has the run", "run", r.ID)
		return nil
	case CodeOf(perr) == CodeTerminal:
		return nil
	case errors.Is(cause, errReleased):
		return w.release(ctx, x)
	case errors.Is(cause, ErrCancelRequested), CodeOf(perr) == CodeCancelled:
		perr = ErrCancelRequested
	case errors.Is(cause, context.DeadlineExceeded) && rctx.Err() != nil:
		perr = &BudgetError{Limit: LimitDeadline}
	}
	end := w.End(r, perr)
	fw := Write{Final: end.State, Code: end.Code}
	if end.Event != nil {
		fw.Events = [][]byte{end.Event}
	}
	if x.open != 0 {
		// Stopped mid-call: the provider may have answered and billed.
		fw.End = &AttemptEnd{N: x.open, State: AttemptUnknown}
	}
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer fcancel()
	if err := x.Commit(fctx, fw); err != nil {
		if gone(err) {
			return nil
		}
		return err
	}
	w.observe(r.Site, "run."+string(end.State))
	return nil
}

// Shutdown hands this instance's runs on before the process exits: it
// waits until every run it executes has ended or ctx is done, so a paid
// attempt in flight may still finish and be committed; then it stops the
// rest, records each one's open attempt unknown (the provider may have
// answered and billed), and ends each lease at once instead of letting it
// run out, so another instance's sweep resumes the run from its last
// checkpoint within seconds. It returns once every execution has
// returned, or 10 s after ctx is done.
func (w *Worker) Shutdown(ctx context.Context) {
	w.init()
	done := make(chan struct{})
	go func() { w.active.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	w.mu.Lock()
	for _, cancel := range w.running {
		cancel(errReleased)
	}
	w.mu.Unlock()
	select {
	case <-done:
	case <-time.After(releaseTimeout):
		w.Logger.Warn("run: executions still running after their release")
	}
}

// releaseTimeout bounds the writes of a release.
const releaseTimeout = 10 * time.Second

// release is how an execution stopped by Shutdown ends: its open attempt
// recorded unknown and its lease ended, the run itself left as it was.
func (w *Worker) release(ctx context.Context, x *Exec) error {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if x.open != 0 {
		if err := x.Commit(fctx, Write{End: &AttemptEnd{N: x.open, State: AttemptUnknown}}); err != nil {
			if gone(err) {
				return nil
			}
			return err // the lease runs out instead; the sweep still finds the run
		}
	}
	if _, _, err := w.Store.Renew(fctx, x.currentLease(), MinLease); err != nil && !gone(err) {
		return err
	}
	w.observe(x.run.Site, "run.released")
	w.Logger.Info("run: released at shutdown for another instance to resume", "run", x.run.ID)
	return nil
}

// gone reports a write refused because the run is another worker's now
// (fenced) or over (terminal): nothing is left for this one to write.
func gone(err error) bool {
	c := CodeOf(err)
	return c == CodeFenced || c == CodeTerminal
}

// renew extends the lease every third of it, and cancels the run when
// the lease is lost or a cancel was requested.
func (w *Worker) renew(ctx context.Context, x *Exec, cancel context.CancelCauseFunc, done <-chan struct{}) {
	t := time.NewTicker(w.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l, r, err := w.Store.Renew(ctx, x.currentLease(), w.Lease)
		switch c := CodeOf(err); {
		case c == CodeFenced || c == CodeTerminal || c == CodeNotFound:
			cancel(errLeaseLost)
			return
		case err != nil:
			w.Logger.Warn("run: lease renewal failed", "run", x.run.ID, "err", err)
			continue
		}
		x.mu.Lock()
		x.lease = l
		x.mu.Unlock()
		if r.CancelRequested {
			cancel(ErrCancelRequested)
			return
		}
	}
}

// Start executes the run l holds on its own goroutine; the caller
// follows its events.
func (w *Worker) Start(ctx context.Context, l Lease, site string) {
	w.init()
	w.observe(site, "run.started")
	go func() {
		if err := w.Execute(context.WithoutCancel(ctx), l); err != nil {
			w.Logger.Warn("run: execution stopped; the run waits for another claim", "run", l.RunID, "err", err)
		}
	}()
}

// Cancel requests the run's cancellation in the store (ending it at
// once when nobody holds it) and stops it here at once when this
// instance runs it; another instance learns of it at its next renewal or
// attempt start.
func (w *Worker) Cancel(ctx context.Context, id string, event []byte) (Run, error) {
	w.init()
	r, err := w.Store.Cancel(ctx, id, event)
	if err != nil {
		return r, err
	}
	w.mu.Lock()
	cancel := w.running[id]
	w.mu.Unlock()
	if cancel != nil {
		cancel(ErrCancelRequested)
	}
	if r.State == StateCancelled && cancel == nil {
		w.observe(r.Site, "run.cancelled")
	}
	return r, nil
}

// Sweep claims runs whose lease expired (their worker crashed, or the
// instance was redeployed) and resumes each from its last checkpoint,
// until none is left or MaxRunning is reached. It returns how many it
// resumed.
func (w *Worker) Sweep(ctx context.Context) (int, error) {
	w.init()
	n := 0
	for ctx.Err() == nil {
		select {
		case w.slots <- struct{}{}:
		default:
			return n, nil
		}
		l, ok, err := w.Store.ClaimExpired(ctx, w.Owner, w.Lease)
		if err != nil || !ok {
			<-w.slots
			return n, err
		}
		n++
		go func() {
			defer func() { <-w.slots }()
			if r, err := w.Store.Get(ctx, l.RunID); err == nil {
				w.observe(r.Site, "run.resumed")
			}
			if err := w.Execute(context.WithoutCancel(ctx), l); err != nil {
				w.Logger.Warn("run: resumed execution stopped", "run", l.RunID, "err", err)
			}
		}()
	}
	return n, ctx.Err()
}

// LeaseFor is the lease duration claims take (Lease or its default).
func (w *Worker) LeaseFor() time.Duration {
	w.init()
	return w.Lease
}
